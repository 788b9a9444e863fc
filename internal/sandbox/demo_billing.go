package sandbox

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcui/svcui/internal/models"
)

// demoBilling creates the two demo billing groups with a year of invoices each and the
// account's credits; it returns the ids of the EUR and the USD group.
func (s *Sandbox) demoBilling(now time.Time) (string, string) {
	eur := &billingGroup{Group: models.BillingGroup{
		BillingGroupID:   s.newUUID(),
		BillingGroupName: "Acme Europe",
		AccountID:        s.st.AccountID,
		BillingCurrency:  "EUR",
		BillingEmail:     models.EmailList{"billing@acme.example", "finance-eu@acme.example"},
		Company:          "Acme Corp Oy",
		AddressLines:     []string{"Mannerheimintie 12 B", "4th floor"},
		City:             "Helsinki",
		CountryCode:      "FI",
		ZipCode:          "00100",
		VATID:            "FI28765432",
		PaymentMethod:    models.PaymentCard,
		CardInfo:         &models.CardInfo{Brand: "Visa", Last4: "4242", ExpMonth: 9, ExpYear: now.Year() + 2, Name: "Acme Corp Oy"},
	}}
	usd := &billingGroup{Group: models.BillingGroup{
		BillingGroupID:   s.newUUID(),
		BillingGroupName: "Acme Americas",
		AccountID:        s.st.AccountID,
		BillingCurrency:  "USD",
		BillingEmail:     models.EmailList{"ap@acme.example"},
		Company:          "Acme Corp Inc.",
		AddressLines:     []string{"500 Market Street", "Suite 400"},
		City:             "San Francisco",
		State:            "CA",
		CountryCode:      "US",
		ZipCode:          "94105",
		VATID:            "",
		PaymentMethod:    models.PaymentPaypal,
	}}
	// EUR: Finnish VAT 25.5 %; the newest month unpaid, one void invoice re-issued, one
	// written off as uncollectible.
	eur.Invoices = s.demoInvoices(now, "AEU", "EUR", "3184.20", "0.255", map[int]models.InvoiceState{
		0: models.InvoiceUnpaid, 5: models.InvoiceVoid, 10: models.InvoiceUncollectible,
	})
	// USD: no VAT; the two newest months unpaid.
	usd.Invoices = s.demoInvoices(now, "AUS", "USD", "1862.75", "0", map[int]models.InvoiceState{
		0: models.InvoiceUnpaid, 1: models.InvoiceUnpaid, 3: models.InvoiceVoid, 8: models.InvoiceUncollectible,
	})
	s.st.Groups[eur.Group.BillingGroupID] = eur
	s.st.Groups[usd.Group.BillingGroupID] = usd
	s.st.Credits = credits{Available: "342.75", Total: "500.00", Currency: "USD"}
	return eur.Group.BillingGroupID, usd.Group.BillingGroupID
}

// demoInvoices makes twelve monthly invoices, newest first, ending with last month. The
// amounts grow a few percent a month with some noise; a void invoice is followed by its
// corrected, paid re-issue for the same month.
func (s *Sandbox) demoInvoices(now time.Time, prefix, currency, base, vat string, states map[int]models.InvoiceState) []*invoice {
	thisMonth := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	vatRate := decimal.RequireFromString(vat)
	growth := decimal.RequireFromString("0.97")
	amount := decimal.RequireFromString(base)
	seq := 100
	var oldestFirst []*invoice
	var nets []decimal.Decimal
	for k := 0; k < 12; k++ {
		nets = append(nets, amount)
		amount = amount.Mul(growth)
	}
	for k := 11; k >= 0; k-- {
		begin := thisMonth.AddDate(0, -(k + 1), 0)
		end := begin.AddDate(0, 1, 0).Add(-time.Second)
		noise := decimal.NewFromInt(int64(s.rng.IntN(161) - 80)).Div(decimal.NewFromInt(1000)) // ±8 %
		net := nets[k].Mul(decimal.NewFromInt(1).Add(noise)).Round(2)
		state, ok := states[k]
		if !ok {
			state = models.InvoicePaid
		}
		mk := func(net decimal.Decimal, st models.InvoiceState) *invoice {
			seq++
			inc := net.Mul(decimal.NewFromInt(1).Add(vatRate)).Round(2)
			return &invoice{Invoice: models.Invoice{
				InvoiceNumber: fmt.Sprintf("%s-%d%02d-%06d", prefix, begin.Year(), int(begin.Month()), seq),
				PeriodBegin:   begin,
				PeriodEnd:     end,
				State:         st,
				Currency:      currency,
				TotalIncVAT:   money2(inc),
				TotalVATZero:  money2(net),
			}, Capability: newCapability()}
		}
		if state == models.InvoiceVoid {
			// Issued with a billing error, voided, and re-issued.
			oldestFirst = append(oldestFirst, mk(net.Mul(decimal.RequireFromString("1.18")).Round(2), models.InvoiceVoid))
			oldestFirst = append(oldestFirst, mk(net, models.InvoicePaid))
			continue
		}
		oldestFirst = append(oldestFirst, mk(net, state))
	}
	out := make([]*invoice, 0, len(oldestFirst))
	for i := len(oldestFirst) - 1; i >= 0; i-- {
		out = append(out, oldestFirst[i])
	}
	return out
}

// newCapability is the secret of an invoice download link.
func newCapability() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic("sandbox: no randomness for capabilities: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
