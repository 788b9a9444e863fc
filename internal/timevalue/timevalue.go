// Package timevalue reads and writes OpenSearch's time values ("30s", "5m", "1d"): the
// console writes them into histogram intervals and offers them as quick ranges, and the
// sandbox's emulation reads them from scroll keep-alives, fixed intervals and rollover ages.
// One reading, so both sides agree on what "90m" or "1.5h" means.
package timevalue

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

var (
	// ErrUnit is a value with no unit or one OpenSearch does not know.
	ErrUnit = errors.New("unit is missing or unrecognized")
	// ErrNumber is a unit after something that is not a number ("abcm").
	ErrNumber = errors.New("not a number")
	// ErrFraction is a value such as "1.5h": OpenSearch refuses fractions.
	ErrFraction = errors.New("fractional time values are not supported")
	// ErrNegative is a negative value other than -1.
	ErrNegative = errors.New("negative durations are not supported")
)

// units are OpenSearch's suffixes in the order it tries them ("ms" before "s"). Minutes
// are the one case-sensitive unit: "M" means months elsewhere.
var units = []struct {
	suffix string
	d      time.Duration
}{
	{"nanos", time.Nanosecond}, {"micros", time.Microsecond}, {"ms", time.Millisecond},
	{"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}, {"d", 24 * time.Hour},
}

// Parse reads a time value as OpenSearch's TimeValue.parseTimeValue does: surrounding space
// ignored, case too except for minutes, a whole number and a unit; -1 (no limit) and 0 need
// no unit. -1 comes back as a negative duration.
func Parse(s string) (time.Duration, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, u := range units {
		end := t
		if u.suffix == "m" {
			end = strings.TrimSpace(s)
		}
		if !strings.HasSuffix(end, u.suffix) {
			continue
		}
		num := strings.TrimSpace(t[:len(t)-len(u.suffix)])
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			if _, ferr := strconv.ParseFloat(num, 64); ferr == nil {
				return 0, ErrFraction
			}
			return 0, ErrNumber
		}
		switch {
		case n == -1:
			return -1, nil
		case n < 0:
			return 0, ErrNegative
		case n > int64(1<<63-1)/int64(u.d):
			return 1<<63 - 1, nil // OpenSearch saturates too
		}
		return time.Duration(n) * u.d, nil
	}
	if digits := strings.TrimLeft(t, "0"); t != "" && digits == "" {
		return 0, nil // "0", "00"
	}
	if strings.HasPrefix(t, "-") && strings.TrimLeft(t[1:], "0") == "1" {
		return -1, nil // "-1", "-01"
	}
	return 0, ErrUnit
}

// Reason is OpenSearch's wording of a Parse error for value given as setting.
func Reason(err error, setting, value string) string {
	switch err {
	case ErrFraction:
		return "failed to parse [" + value + "], fractional time values are not supported"
	case ErrNumber:
		return "failed to parse [" + value + "]"
	}
	return "failed to parse setting [" + setting + "] with value [" + value + "] as a time value: " + err.Error()
}

// Format writes d in the largest unit that holds it whole ("90s", "5m", "1d"), as OpenSearch
// accepts it back.
func Format(d time.Duration) string {
	if d < 0 {
		return "-1"
	}
	if d == 0 {
		return "0s"
	}
	for i := len(units) - 1; i >= 0; i-- {
		if d%units[i].d == 0 {
			return strconv.FormatInt(int64(d/units[i].d), 10) + units[i].suffix
		}
	}
	return strconv.FormatInt(int64(d), 10) + "nanos"
}
