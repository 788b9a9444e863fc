package dates

import (
	"testing"
	"time"
)

// Date parsing, rendering and date math as the engine's DateFormatter/DateMathParser document
// them (OpenSearch "Date" field type and "date math" pages): the default format
// strict_date_optional_time||epoch_millis, "||" alternatives, and rounding that rounds down for
// gte/lt and up for gt/lte.
func TestParseFormatAndMath(t *testing.T) {
	ms := func(s string) int64 {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMilli()
	}
	for in, want := range map[string]int64{
		"2024-03-15":                    ms("2024-03-15T00:00:00Z"),
		"2024-03-15T12:30:00Z":          ms("2024-03-15T12:30:00Z"),
		"2024-03-15T12:30:00.250+01:00": ms("2024-03-15T11:30:00.25Z"),
		"1710505800000":                 1710505800000,
	} {
		if got, ok := ParseFormat(in, ""); !ok || got != want {
			t.Errorf("ParseFormat(%q) = %d %v, want %d", in, got, ok, want)
		}
	}
	if got, ok := ParseFormat("15/03/2024", "dd/MM/yyyy"); !ok || got != ms("2024-03-15T00:00:00Z") {
		t.Errorf("dd/MM/yyyy: %d %v", got, ok)
	}
	if _, ok := ParseFormat("yesterday", ""); ok {
		t.Error("a word parsed as a date")
	}
	if got := Format(ms("2024-03-15T12:30:00Z"), ""); got != "2024-03-15T12:30:00.000Z" {
		t.Errorf("Format = %s", got)
	}
	if got := Format(1710505800000, "epoch_millis"); got != "1710505800000" {
		t.Errorf("Format epoch_millis = %s", got)
	}
	now := time.Date(2024, 3, 15, 12, 30, 0, 0, time.UTC)
	down, err := ParseMath("now-1d/d", now, false, "")
	if err != nil || down != ms("2024-03-14T00:00:00Z") {
		t.Errorf("now-1d/d down = %d %v", down, err)
	}
	up, err := ParseMath("now-1d/d", now, true, "")
	if err != nil || up != ms("2024-03-14T23:59:59.999Z") {
		t.Errorf("now-1d/d up = %d %v", up, err)
	}
	if got, err := ParseMath("2024-03-01||+1M", now, false, ""); err != nil || got != ms("2024-04-01T00:00:00Z") {
		t.Errorf("anchored math = %d %v", got, err)
	}
}
