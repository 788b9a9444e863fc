package timevalue

import (
	"errors"
	"testing"
	"time"
)

// The cases follow OpenSearch's TimeValue.parseTimeValue (libs/core TimeValue.java and its
// TimeValueTests): lower-cased and trimmed, whole numbers only, -1 and 0 without a unit.
func TestParseAsOpenSearchDoes(t *testing.T) {
	good := map[string]time.Duration{
		"30s": 30 * time.Second, "1m": time.Minute, "500ms": 500 * time.Millisecond,
		"2H": 2 * time.Hour, " 7d ": 7 * 24 * time.Hour, "10 s": 10 * time.Second,
		"100nanos": 100, "3micros": 3 * time.Microsecond, "0": 0, "00": 0, "-1": -1, "-01": -1,
		"-1s": -1, "0ms": 0, "1MS": time.Millisecond, "99999999999999d": 1<<63 - 1,
	}
	for in, want := range good {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	bad := map[string]error{
		"1.5h": ErrFraction, "10": ErrUnit, "": ErrUnit, "5w": ErrUnit, "abc": ErrUnit,
		"-2s": ErrNegative, "1M": ErrUnit, "abcm": ErrNumber, "m": ErrNumber,
	}
	for in, want := range bad {
		if _, err := Parse(in); !errors.Is(err, want) {
			t.Errorf("Parse(%q) error %v, want %v", in, err, want)
		}
	}
}

func TestFormatReadsBack(t *testing.T) {
	for d, want := range map[time.Duration]string{
		90 * time.Second: "90s", 5 * time.Minute: "5m", 24 * time.Hour: "1d", 36 * time.Hour: "36h",
		1500 * time.Millisecond: "1500ms", 0: "0s", -1: "-1", 7: "7nanos",
	} {
		got := Format(d)
		if got != want {
			t.Errorf("Format(%v) = %q, want %q", d, got, want)
		}
		if back, err := Parse(got); err != nil || (d >= 0 && back != d) {
			t.Errorf("Parse(Format(%v)) = %v, %v", d, back, err)
		}
	}
}

func TestReasonIsOpenSearchsWording(t *testing.T) {
	for in, want := range map[string]string{
		"1.5h": "failed to parse [1.5h], fractional time values are not supported",
		"10":   "failed to parse setting [scroll] with value [10] as a time value: unit is missing or unrecognized",
		"-5m":  "failed to parse setting [scroll] with value [-5m] as a time value: negative durations are not supported",
		"xm":   "failed to parse [xm]",
	} {
		_, err := Parse(in)
		if got := Reason(err, "scroll", in); got != want {
			t.Errorf("Reason(%q) = %q, want %q", in, got, want)
		}
	}
}
