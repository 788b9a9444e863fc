package models

import (
	"encoding/json"
	"testing"
)

// An AmountText shows exactly what the Amount it stands for shows, set or not.
func TestAmountTextShowsWhatTheAmountShows(t *testing.T) {
	for _, in := range []string{`"1234.5"`, `"0.00"`, `12`, `"-3.456"`, `"1000000.125"`, `null`, `"0.001"`} {
		var a Amount
		var txt AmountText
		if err := json.Unmarshal([]byte(in), &a); err != nil {
			t.Fatal(in, err)
		}
		if err := json.Unmarshal([]byte(in), &txt); err != nil {
			t.Fatal(in, err)
		}
		if txt.FormatNumber() != a.FormatNumber() {
			t.Errorf("%s: text %q, amount %q", in, txt.FormatNumber(), a.FormatNumber())
		}
	}
	var missing struct {
		B AmountText `json:"b"`
	}
	if err := json.Unmarshal([]byte(`{}`), &missing); err != nil || missing.B.FormatNumber() != (Amount{}).FormatNumber() {
		t.Fatalf("missing: %q %v", missing.B.FormatNumber(), err)
	}
	var bad AmountText
	if err := json.Unmarshal([]byte(`"abc"`), &bad); err == nil {
		t.Fatal("a non-number was read as an amount")
	}
}
