// Package dates is the date handling of the OpenSearch emulation: the engine's date formats
// (strict_date_optional_time, epoch_millis, named and Java-pattern formats), date math
// ("now-7d/d") and rendering.
package dates

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Dates are stored as epoch milliseconds (UTC), like the engine's doc values.

// ISOMillis is the engine's default rendering of a date (strict_date_optional_time with millis).
const ISOMillis = "2006-01-02T15:04:05.000Z"

// ParseISO accepts strict_date_optional_time: yyyy[-MM[-dd[THH[:mm[:ss[.S+]]]]]][Z|±HH[:mm]].
func ParseISO(s string) (int64, bool) {
	n := len(s)
	i := 0
	num := func(width int) (int, bool) {
		if i+width > n {
			return 0, false
		}
		v := 0
		for j := 0; j < width; j++ {
			c := s[i+j]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		i += width
		return v, true
	}
	year, ok := num(4)
	if !ok {
		return 0, false
	}
	month, day, hour, minute, sec, nanos := 1, 1, 0, 0, 0, 0
	loc := time.UTC
	if i < n && s[i] == '-' {
		i++
		if month, ok = num(2); !ok {
			return 0, false
		}
		if i < n && s[i] == '-' {
			i++
			if day, ok = num(2); !ok {
				return 0, false
			}
			if i < n && (s[i] == 'T' || s[i] == 't') {
				i++
				if hour, ok = num(2); !ok {
					return 0, false
				}
				if i < n && s[i] == ':' {
					i++
					if minute, ok = num(2); !ok {
						return 0, false
					}
					if i < n && s[i] == ':' {
						i++
						if sec, ok = num(2); !ok {
							return 0, false
						}
						if i < n && (s[i] == '.' || s[i] == ',') {
							i++
							start := i
							for i < n && s[i] >= '0' && s[i] <= '9' {
								i++
							}
							digits := s[start:i]
							if digits == "" || len(digits) > 9 {
								return 0, false
							}
							f, _ := strconv.Atoi(digits)
							nanos = f * int(math.Pow10(9-len(digits)))
						}
					}
				}
				if i < n {
					switch s[i] {
					case 'Z', 'z':
						i++
					case '+', '-':
						sign := 1
						if s[i] == '-' {
							sign = -1
						}
						i++
						oh, ok := num(2)
						if !ok {
							return 0, false
						}
						om := 0
						if i < n && s[i] == ':' {
							i++
						}
						if i < n {
							if om, ok = num(2); !ok {
								return 0, false
							}
						}
						loc = time.FixedZone("", sign*(oh*3600+om*60))
					}
				}
			}
		}
	}
	if i != n || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 59 {
		return 0, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nanos, loc)
	if t.Day() != day {
		return 0, false
	}
	return t.UnixMilli(), true
}

// javaLayout converts a Java DateTimeFormatter pattern into a Go layout (common letters only).
func javaLayout(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); {
		c := p[i]
		if c == '\'' {
			j := strings.IndexByte(p[i+1:], '\'')
			if j < 0 {
				b.WriteString(p[i+1:])
				break
			}
			b.WriteString(p[i+1 : i+1+j])
			i += j + 2
			continue
		}
		j := i
		for j < len(p) && p[j] == c {
			j++
		}
		run := j - i
		switch c {
		case 'y', 'u':
			if run == 2 {
				b.WriteString("06")
			} else {
				b.WriteString("2006")
			}
		case 'M':
			switch run {
			case 1:
				b.WriteString("1")
			case 2:
				b.WriteString("01")
			case 3:
				b.WriteString("Jan")
			default:
				b.WriteString("January")
			}
		case 'd':
			if run == 1 {
				b.WriteString("2")
			} else {
				b.WriteString("02")
			}
		case 'H':
			b.WriteString("15")
		case 'h':
			if run == 1 {
				b.WriteString("3")
			} else {
				b.WriteString("03")
			}
		case 'm':
			if run == 1 {
				b.WriteString("4")
			} else {
				b.WriteString("04")
			}
		case 's':
			if run == 1 {
				b.WriteString("5")
			} else {
				b.WriteString("05")
			}
		case 'S':
			b.WriteString(strings.Repeat("0", run))
		case 'a':
			b.WriteString("PM")
		case 'E':
			if run >= 4 {
				b.WriteString("Monday")
			} else {
				b.WriteString("Mon")
			}
		case 'Z':
			b.WriteString("-0700")
		case 'X', 'x':
			if run >= 3 {
				b.WriteString("Z07:00")
			} else {
				b.WriteString("Z0700")
			}
		default:
			b.WriteString(p[i:j])
		}
		i = j
	}
	return b.String()
}

var namedFormats = map[string]string{
	"strict_date":                           "2006-01-02",
	"date":                                  "2006-01-02",
	"year_month_day":                        "2006-01-02",
	"strict_year_month_day":                 "2006-01-02",
	"basic_date":                            "20060102",
	"strict_date_hour_minute_second":        "2006-01-02T15:04:05",
	"date_hour_minute_second":               "2006-01-02T15:04:05",
	"strict_date_hour_minute_second_millis": "2006-01-02T15:04:05.000",
	"date_hour_minute_second_millis":        "2006-01-02T15:04:05.000",
	"strict_date_hour_minute":               "2006-01-02T15:04",
	"strict_year_month":                     "2006-01",
	"year_month":                            "2006-01",
	"strict_year":                           "2006",
	"year":                                  "2006",
	"strict_hour_minute_second":             "15:04:05",
	"hour_minute_second":                    "15:04:05",
}

// ParseFormat parses s with a mapping/query format ("a||b" alternatives); "" means the default
// strict_date_optional_time||epoch_millis.
func ParseFormat(s, format string) (int64, bool) {
	if format == "" {
		format = "strict_date_optional_time||epoch_millis"
	}
	for _, f := range strings.Split(format, "||") {
		f = strings.TrimSpace(f)
		switch f {
		case "strict_date_optional_time", "date_optional_time", "strict_date_optional_time_nanos",
			"strict_date_time", "date_time", "iso8601":
			if ms, ok := ParseISO(s); ok {
				return ms, true
			}
		case "epoch_millis":
			if v, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "eE") {
				return int64(v), true
			}
		case "epoch_second":
			if v, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "eE") {
				return int64(v * 1000), true
			}
		default:
			layout, ok := namedFormats[f]
			if !ok {
				layout = javaLayout(f)
			}
			if t, err := time.Parse(layout, s); err == nil {
				return t.UnixMilli(), true
			}
		}
	}
	return 0, false
}

// Format renders epoch millis with a format (first alternative), default ISO with millis.
func Format(ms int64, format string) string { return FormatIn(ms, format, time.UTC) }

func FormatIn(ms int64, format string, loc *time.Location) string {
	f, _, _ := strings.Cut(format, "||")
	f = strings.TrimSpace(f)
	t := time.UnixMilli(ms).In(loc)
	switch f {
	case "", "strict_date_optional_time", "date_optional_time", "strict_date_time", "date_time", "strict_date_optional_time_nanos":
		return t.Format("2006-01-02T15:04:05.000Z07:00")
	case "epoch_millis":
		return strconv.FormatInt(ms, 10)
	case "epoch_second":
		return strconv.FormatInt(ms/1000, 10)
	}
	layout, ok := namedFormats[f]
	if !ok {
		layout = javaLayout(f)
	}
	return t.Format(layout)
}

// ParseMath evaluates "now-7d/d", "2024-01-01||+1M/d" or a plain date. roundUp selects the end
// of the rounding unit (used by gt and lte), as the engine does.
func ParseMath(expr string, now time.Time, roundUp bool, format string) (int64, error) {
	expr = strings.TrimSpace(expr)
	var base time.Time
	var math string
	switch {
	case strings.HasPrefix(expr, "now"):
		base = now.UTC()
		math = expr[3:]
	default:
		anchor := expr
		if i := strings.Index(expr, "||"); i >= 0 {
			anchor, math = expr[:i], expr[i+2:]
		}
		ms, ok := ParseFormat(anchor, format)
		if !ok {
			return 0, fmt.Errorf("failed to parse date field [%s] with format [%s]", expr, OrDefault(format, "strict_date_optional_time||epoch_millis"))
		}
		base = time.UnixMilli(ms).UTC()
	}
	t := base
	for i := 0; i < len(math); {
		op := math[i]
		i++
		switch op {
		case '+', '-':
			j := i
			for j < len(math) && math[j] >= '0' && math[j] <= '9' {
				j++
			}
			n := 1
			if j > i {
				n, _ = strconv.Atoi(math[i:j])
			}
			if j >= len(math) {
				return 0, fmt.Errorf("truncated date math [%s]", expr)
			}
			if op == '-' {
				n = -n
			}
			var ok bool
			if t, ok = addUnit(t, math[j], n); !ok {
				return 0, fmt.Errorf("unit [%c] not supported for date math [%s]", math[j], expr)
			}
			i = j + 1
		case '/':
			if i >= len(math) {
				return 0, fmt.Errorf("truncated date math [%s]", expr)
			}
			var ok bool
			start, ok := roundDown(t, math[i])
			if !ok {
				return 0, fmt.Errorf("unit [%c] not supported for date math [%s]", math[i], expr)
			}
			if roundUp {
				next, _ := addUnit(start, math[i], 1)
				t = next.Add(-time.Millisecond)
			} else {
				t = start
			}
			i++
		default:
			return 0, fmt.Errorf("operator not supported for date math [%s]", expr)
		}
	}
	return t.UnixMilli(), nil
}

func OrDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func addUnit(t time.Time, unit byte, n int) (time.Time, bool) {
	switch unit {
	case 'y':
		return t.AddDate(n, 0, 0), true
	case 'M':
		return t.AddDate(0, n, 0), true
	case 'w':
		return t.AddDate(0, 0, 7*n), true
	case 'd':
		return t.AddDate(0, 0, n), true
	case 'h', 'H':
		return t.Add(time.Duration(n) * time.Hour), true
	case 'm':
		return t.Add(time.Duration(n) * time.Minute), true
	case 's':
		return t.Add(time.Duration(n) * time.Second), true
	}
	return t, false
}

func roundDown(t time.Time, unit byte) (time.Time, bool) {
	t = t.UTC()
	switch unit {
	case 'y':
		return time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC), true
	case 'M':
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC), true
	case 'w':
		d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		wd := (int(d.Weekday()) + 6) % 7 // Monday = 0
		return d.AddDate(0, 0, -wd), true
	case 'd':
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), true
	case 'h', 'H':
		return t.Truncate(time.Hour), true
	case 'm':
		return t.Truncate(time.Minute), true
	case 's':
		return t.Truncate(time.Second), true
	}
	return t, false
}
