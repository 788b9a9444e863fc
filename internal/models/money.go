package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/shopspring/decimal"
)

// Amount is an exact decimal money amount as the platform sends it (a string). Set is
// false when the platform sent nothing or an empty string, which is shown as a dash and
// never as zero.
type Amount struct {
	Value decimal.Decimal
	Set   bool
}

// ParseAmount parses a decimal string such as "1234.50"; "" gives an unset Amount.
func ParseAmount(s string) (Amount, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Amount{}, nil
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return Amount{}, fmt.Errorf("%q is not a decimal amount", s)
	}
	return Amount{Value: d, Set: true}, nil
}

// MustAmount parses s and panics on error; for constants in code and tests only.
func MustAmount(s string) Amount {
	a, err := ParseAmount(s)
	if err != nil {
		panic(err)
	}
	return a
}

// UnmarshalJSON accepts a decimal string, a JSON number (kept exactly, never through a
// float), null and "". Anything else is a *json.UnmarshalTypeError, so the decoder
// names the field it sits in (the value itself is not repeated: it may be anything).
func (a *Amount) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*a = Amount{}
		return nil
	}
	if b[0] == '"' {
		var s string
		if n := len(b); n >= 2 && b[n-1] == '"' && bytes.IndexByte(b[1:n-1], '\\') < 0 {
			s = string(b[1 : n-1]) // the common case, without a decoder's garbage per amount
		} else if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := ParseAmount(s)
		if err != nil {
			return typeError("string", reflect.TypeFor[Amount]())
		}
		*a = v
		return nil
	}
	v, err := ParseAmount(string(b))
	if err != nil {
		return typeError(jsonKind(b), reflect.TypeFor[Amount]())
	}
	*a = v
	return nil
}

// MarshalJSON writes the amount as the platform does: a decimal string ("" when unset).
func (a Amount) MarshalJSON() ([]byte, error) {
	if !a.Set {
		return []byte(`""`), nil
	}
	return json.Marshal(a.String())
}

// String is the plain decimal text as the platform wrote it, trailing zeros kept ("" when
// unset).
func (a Amount) String() string {
	if !a.Set {
		return ""
	}
	if exp := a.Value.Exponent(); exp < 0 {
		return a.Value.StringFixed(-exp)
	}
	return a.Value.String()
}

// Add returns a+b exactly; unset amounts count as zero but the result is set if either is.
func (a Amount) Add(b Amount) Amount {
	return Amount{Value: a.Value.Add(b.Value), Set: a.Set || b.Set}
}

// Mul multiplies by an integer factor exactly (hourly price × 730 hours, say).
func (a Amount) Mul(n int64) Amount {
	return Amount{Value: a.Value.Mul(decimal.NewFromInt(n)), Set: a.Set}
}

// Sub returns a-b exactly.
func (a Amount) Sub(b Amount) Amount {
	return Amount{Value: a.Value.Sub(b.Value), Set: a.Set || b.Set}
}

// Cmp compares two amounts (unset counts as zero).
func (a Amount) Cmp(b Amount) int { return a.Value.Cmp(b.Value) }

// IsZero reports whether the amount is zero or unset.
func (a Amount) IsZero() bool { return a.Value.IsZero() }

// Cents rounds the amount to two decimals for display of a derived figure (a monthly
// price from an hourly one: 0.2819 × 730 = 205.787 reads as 205.79). Sums and
// comparisons stay on the exact amount.
func (a Amount) Cents() Amount {
	if !a.Set {
		return a
	}
	a.Value = a.Value.Round(2)
	return a
}

// HoursPerMonth is the platform's convention for a monthly figure from an hourly price.
const HoursPerMonth = 730

// FormatNumber renders the amount with thousands separators and at least two decimals,
// never dropping significant digits (0.0415 stays 0.0415; 12.5 becomes 12.50). Unset is "—".
func (a Amount) FormatNumber() string {
	if !a.Set {
		return "—"
	}
	d := a.Value
	places := int32(2)
	if exp := -d.Exponent(); exp > places {
		// Only keep extra places that carry digits.
		s := d.StringFixed(exp)
		trimmed := strings.TrimRight(s, "0")
		if i := strings.IndexByte(trimmed, '.'); i >= 0 && int32(len(trimmed)-i-1) > places {
			places = int32(len(trimmed) - i - 1)
		}
	}
	s := d.StringFixed(places)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			sb.WriteByte(',')
		}
		sb.WriteRune(r)
	}
	if frac != "" {
		sb.WriteByte('.')
		sb.WriteString(frac)
	}
	return sb.String()
}

// Format renders the amount with its currency code: "1,234.50 USD". Unset is "—".
func (a Amount) Format(currency string) string {
	if !a.Set {
		return "—"
	}
	if currency == "" {
		return a.FormatNumber()
	}
	return a.FormatNumber() + " " + currency
}

// Money is an amount with its currency.
type Money struct {
	Amount   Amount
	Currency string
}

// String renders "1,234.50 EUR".
func (m Money) String() string { return m.Amount.Format(m.Currency) }

// SumByCurrency adds amounts per currency and never across currencies. The result is
// ordered by currency code so that totals render in a stable order.
func SumByCurrency(items []Money) []Money {
	totals := map[string]Amount{}
	for _, m := range items {
		totals[m.Currency] = totals[m.Currency].Add(m.Amount)
	}
	out := make([]Money, 0, len(totals))
	for c, a := range totals {
		out = append(out, Money{Amount: a, Currency: c})
	}
	sortMoney(out)
	return out
}

func sortMoney(ms []Money) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].Currency < ms[j-1].Currency; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// AmountText is an amount kept only as the text FormatNumber gives it, for a table's
// column that does no arithmetic: 80,000 decimals were 80,000 heap big.Ints more, and
// each row's cell was one more string. Its zero value is an unset amount.
type AmountText string

// UnmarshalJSON reads what Amount reads, and keeps its text.
func (t *AmountText) UnmarshalJSON(b []byte) error {
	var a Amount
	if err := a.UnmarshalJSON(b); err != nil {
		return err
	}
	*t = AmountText(a.FormatNumber())
	return nil
}

// FormatNumber is Amount's FormatNumber of the amount read.
func (t AmountText) FormatNumber() string {
	if t == "" {
		return Amount{}.FormatNumber()
	}
	return string(t)
}
