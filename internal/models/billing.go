package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// BillingGroup collects the costs of projects within an account.
type BillingGroup struct {
	BillingGroupID   string        `json:"billing_group_id"`
	BillingGroupName string        `json:"billing_group_name"`
	AccountID        string        `json:"account_id"`
	BillingCurrency  string        `json:"billing_currency"`
	BillingEmail     EmailList     `json:"billing_email"`
	Company          string        `json:"company"`
	AddressLines     []string      `json:"address_lines"`
	City             string        `json:"city"`
	State            string        `json:"state"`
	CountryCode      string        `json:"country_code"`
	ZipCode          string        `json:"zip_code"`
	VATID            string        `json:"vat_id"`
	PaymentMethod    PaymentMethod `json:"payment_method"`
	// Projects and CardInfo are present on the single-group read only.
	Projects []Project `json:"projects,omitempty"`
	CardInfo *CardInfo `json:"card_info,omitempty"`
}

// BillingGroupRequest is the body of POST /v1/account/{a}/billing-group and PUT
// /v1/billing-group/{id}; nil fields are not sent.
type BillingGroupRequest struct {
	BillingGroupName *string   `json:"billing_group_name,omitempty"`
	BillingCurrency  *string   `json:"billing_currency,omitempty"`
	Company          *string   `json:"company,omitempty"`
	BillingEmail     *[]string `json:"billing_email,omitempty"`
	AddressLines     *[]string `json:"address_lines,omitempty"`
	City             *string   `json:"city,omitempty"`
	State            *string   `json:"state,omitempty"`
	CountryCode      *string   `json:"country_code,omitempty"`
	ZipCode          *string   `json:"zip_code,omitempty"`
	VATID            *string   `json:"vat_id,omitempty"`
}

// CardInfo describes the card of a billing group. Keys beyond the known ones are kept in
// Extra and shown as they come.
type CardInfo struct {
	Brand    string
	Last4    string
	ExpMonth int
	ExpYear  int
	Name     string
	Extra    map[string]string
}

// UnmarshalJSON reads the known keys tolerantly (numbers or strings) and keeps the rest.
func (c *CardInfo) UnmarshalJSON(b []byte) error {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*c = CardInfo{}
	for k, v := range raw {
		s := scalarString(v)
		switch k {
		case "brand":
			c.Brand = s
		case "last4":
			c.Last4 = s
		case "exp_month":
			fmt.Sscan(s, &c.ExpMonth)
		case "exp_year":
			fmt.Sscan(s, &c.ExpYear)
		case "name":
			c.Name = s
		default:
			if c.Extra == nil {
				c.Extra = map[string]string{}
			}
			c.Extra[k] = s
		}
	}
	return nil
}

// MarshalJSON writes the known keys and the extra ones.
func (c CardInfo) MarshalJSON() ([]byte, error) {
	m := map[string]any{"brand": c.Brand, "last4": c.Last4, "exp_month": c.ExpMonth, "exp_year": c.ExpYear, "name": c.Name}
	for k, v := range c.Extra {
		m[k] = v
	}
	return json.Marshal(m)
}

// Summary renders "Visa •••• 4242, expires 09/2027".
func (c CardInfo) Summary() string {
	var sb strings.Builder
	if c.Brand != "" {
		sb.WriteString(c.Brand)
		sb.WriteByte(' ')
	}
	sb.WriteString("•••• ")
	sb.WriteString(c.Last4)
	if c.ExpMonth > 0 && c.ExpYear > 0 {
		fmt.Fprintf(&sb, ", expires %02d/%d", c.ExpMonth, c.ExpYear)
	}
	return sb.String()
}

// ExtraKeys lists the unknown keys in a stable order.
func (c CardInfo) ExtraKeys() []string {
	keys := make([]string, 0, len(c.Extra))
	for k := range c.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Invoice is one invoice of a billing group.
type Invoice struct {
	InvoiceNumber string       `json:"invoice_number"`
	PeriodBegin   time.Time    `json:"-"`
	PeriodEnd     time.Time    `json:"-"`
	State         InvoiceState `json:"state"`
	Currency      string       `json:"currency"`
	TotalIncVAT   Amount       `json:"total_inc_vat"`
	TotalVATZero  Amount       `json:"total_vat_zero"`
	DownloadURL   string       `json:"download_url"`
}

// UnmarshalJSON decodes the periods tolerantly.
func (i *Invoice) UnmarshalJSON(b []byte) error {
	type plain Invoice
	var p struct {
		plain
		PeriodBegin string `json:"period_begin"`
		PeriodEnd   string `json:"period_end"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(b), &p); err != nil {
		return err
	}
	*i = Invoice(p.plain)
	i.PeriodBegin = parseTime(p.PeriodBegin)
	i.PeriodEnd = parseTime(p.PeriodEnd)
	return nil
}

// MarshalJSON writes the spec's shape.
func (i Invoice) MarshalJSON() ([]byte, error) {
	type plain Invoice
	return json.Marshal(struct {
		plain
		PeriodBegin string `json:"period_begin"`
		PeriodEnd   string `json:"period_end"`
	}{plain(i), formatTime(i.PeriodBegin), formatTime(i.PeriodEnd)})
}

// Period renders the invoice period readably: "Mar 2026" for a whole calendar month,
// "3 Mar – 17 Mar 2026" otherwise.
func (i Invoice) Period() string {
	b, e := i.PeriodBegin, i.PeriodEnd
	if b.IsZero() {
		return "—"
	}
	if b.Day() == 1 && !e.IsZero() {
		last := b.AddDate(0, 1, 0).Add(-time.Second)
		if (e.Year() == last.Year() && e.YearDay() == last.YearDay()) || e.Equal(b.AddDate(0, 1, 0)) {
			return b.Format("Jan 2006")
		}
	}
	if e.IsZero() {
		return b.Format("2 Jan 2006") + " –"
	}
	if b.Year() == e.Year() {
		return b.Format("2 Jan") + " – " + e.Format("2 Jan 2006")
	}
	return b.Format("2 Jan 2006") + " – " + e.Format("2 Jan 2006")
}

// Estimate is a project's cost estimate.
type Estimate struct {
	EstimatedBalance Amount            `json:"estimated_balance"`
	BillingCurrency  string            `json:"billing_currency"`
	Services         []EstimateService `json:"services"`
}

// EstimateService is one service's line of an estimate.
type EstimateService struct {
	ServiceName   string `json:"service_name"`
	ServiceType   string `json:"service_type"`
	EstimatedCost Amount `json:"estimated_cost"`
}

// Credits are an account's credits.
type Credits struct {
	AvailableCredits Amount `json:"available_credits"`
	TotalCredits     Amount `json:"total_credits"`
	Currency         string `json:"currency"`
}

// Currencies offered by billing forms.
var Currencies = []string{"USD", "EUR", "GBP", "AUD", "CAD", "CHF", "DKK", "JPY", "NOK", "NZD", "SEK", "SGD"}
