package models

import (
	"encoding/json"
	"testing"
)

func TestAmountFormat(t *testing.T) {
	cases := []struct{ in, want string }{
		{"0", "0.00"},
		{"12.5", "12.50"},
		{"1234.5", "1,234.50"},
		{"1234567.891", "1,234,567.891"},
		{"0.0415", "0.0415"},
		{"-1000", "-1,000.00"},
		{"100.10", "100.10"},
		{"2.500", "2.50"},
	}
	for _, c := range cases {
		a := MustAmount(c.in)
		if got := a.FormatNumber(); got != c.want {
			t.Errorf("FormatNumber(%s) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := MustAmount("9.99").Format("EUR"); got != "9.99 EUR" {
		t.Errorf("Format = %q", got)
	}
	if got := (Amount{}).Format("EUR"); got != "—" {
		t.Errorf("unset Format = %q", got)
	}
}

func TestAmountExactArithmetic(t *testing.T) {
	// 0.1 + 0.2 is the classic float trap.
	sum := MustAmount("0.1").Add(MustAmount("0.2"))
	if sum.String() != "0.3" {
		t.Fatalf("0.1+0.2 = %s", sum)
	}
	monthly := Plan{PriceUSD: MustAmount("0.041")}.MonthlyUSD()
	if monthly.FormatNumber() != "29.93" {
		t.Fatalf("monthly = %s", monthly)
	}
}

func TestAmountJSON(t *testing.T) {
	var v struct {
		A Amount `json:"a"`
		B Amount `json:"b"`
		C Amount `json:"c"`
		D Amount `json:"d"`
	}
	if err := json.Unmarshal([]byte(`{"a":"12.30","b":7.10,"c":"","d":null}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.A.FormatNumber() != "12.30" || v.B.FormatNumber() != "7.10" || v.C.Set || v.D.Set {
		t.Fatalf("decoded %+v", v)
	}
	if err := json.Unmarshal([]byte(`{"a":"twelve"}`), &v); err == nil {
		t.Fatal("want error for a non-decimal amount")
	}
	b, _ := json.Marshal(v.A)
	if string(b) != `"12.30"` {
		t.Fatalf("marshal = %s", b)
	}
}

func TestSumByCurrencyNeverMixes(t *testing.T) {
	got := SumByCurrency([]Money{
		{MustAmount("10.10"), "USD"},
		{MustAmount("5.05"), "EUR"},
		{MustAmount("0.90"), "USD"},
	})
	if len(got) != 2 {
		t.Fatalf("got %v", got)
	}
	if got[0].String() != "5.05 EUR" || got[1].String() != "11.00 USD" {
		t.Fatalf("got %v, %v", got[0], got[1])
	}
}

func TestCentsRoundsADerivedFigureForDisplay(t *testing.T) {
	hourly, err := ParseAmount("0.2819")
	if err != nil {
		t.Fatal(err)
	}
	if got := hourly.Mul(HoursPerMonth).Cents().FormatNumber(); got != "205.79" {
		t.Fatalf("monthly %s", got)
	}
	if got := hourly.Cents().FormatNumber(); got != "0.28" {
		t.Fatalf("cents %s", got)
	}
	var unset Amount
	if unset.Cents().FormatNumber() != "—" {
		t.Fatal("unset amount gained a value")
	}
}
