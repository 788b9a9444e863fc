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
	// ErrFraction is a value such as "1.5h": OpenSearch refuses fractions.
	ErrFraction = errors.New("fractional time values are not supported")
	// ErrNegative is a negative value other than -1.
	ErrNegative = errors.New("negative values other than -1 are not supported")
)

// units are OpenSearch's suffixes, longest first where one ends another ("ms" before "s").
var units = []struct {
	suffix string
	d      time.Duration
}{
	{"nanos", time.Nanosecond}, {"micros", time.Microsecond}, {"ms", time.Millisecond},
	{"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}, {"d", 24 * time.Hour},
}

// Parse reads a time value as OpenSearch's TimeValue.parseTimeValue does: case and
// surrounding space ignored, a whole number and a unit; "-1" (no limit) and "0" need no
// unit. -1 comes back as a negative duration.
func Parse(s string) (time.Duration, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "-1":
		return -1, nil
	case "0":
		return 0, nil
	}
	for _, u := range units {
		num, ok := strings.CutSuffix(t, u.suffix)
		if !ok {
			continue
		}
		num = strings.TrimSpace(num)
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			if _, ferr := strconv.ParseFloat(num, 64); ferr == nil {
				return 0, ErrFraction
			}
			return 0, ErrUnit
		}
		switch {
		case n == -1:
			return -1, nil
		case n < 0:
			return 0, ErrNegative
		case n > int64(1<<63-1)/int64(u.d):
			return 0, ErrUnit
		}
		return time.Duration(n) * u.d, nil
	}
	return 0, ErrUnit
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
