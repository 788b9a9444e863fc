package billing

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

func TestForecastAddsTheMonthsHoursLeftAtTheCurrentPlansPrices(t *testing.T) {
	api := fake.New()
	api.AddServices("acme", models.Service{ServiceName: "a", ServiceType: "pg", Plan: "startup-4", State: models.StateRunning},
		models.Service{ServiceName: "b", ServiceType: "pg", Plan: "business-4", State: models.StateRunning},
		models.Service{ServiceName: "off", ServiceType: "pg", Plan: "business-4", State: models.StatePowerOff})
	api.AddPlans(models.Plan{PlanName: "startup-4", PriceUSD: models.MustAmount("0.10")}, models.Plan{PlanName: "business-4", PriceUSD: models.MustAmount("0.40")})
	est := models.Estimate{EstimatedBalance: models.MustAmount("100.00"), BillingCurrency: "USD"}
	// 10 hours before the month ends: 100 + 10 h × 0.50/h (the powered-off one costs nothing).
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	got := forecast(context.Background(), api, "acme", est, now)
	if !strings.HasPrefix(got, "month end ≈ 105.00 USD (month to date + 10 h at 0.50 USD/h") {
		t.Errorf("forecast = %q", got)
	}
	// Another currency: carried forward at the month's rate so far (100 in 10 days → 300).
	est = models.Estimate{EstimatedBalance: models.MustAmount("100.00"), BillingCurrency: "EUR"}
	got = forecast(context.Background(), api, "acme", est, time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC))
	if !strings.HasPrefix(got, "month end ≈ 300.00 EUR at this month's rate so far") {
		t.Errorf("forecast in EUR = %q", got)
	}
}

func TestAnInvoiceOpensNextToThePreviousOneWithTheChangesThatExplainIt(t *testing.T) {
	month := func(m time.Month) (time.Time, time.Time) {
		b := time.Date(2026, m, 1, 0, 0, 0, 0, time.UTC)
		return b, b.AddDate(0, 1, 0).Add(-time.Second)
	}
	inv := func(n string, m time.Month, state models.InvoiceState, total string) models.Invoice {
		b, e := month(m)
		return models.Invoice{InvoiceNumber: n, PeriodBegin: b, PeriodEnd: e, State: state, TotalIncVAT: models.MustAmount(total), Currency: "USD"}
	}
	oct, sepVoid, sep, aug := inv("103", 10, models.InvoiceUnpaid, "120.00"), inv("102", 9, models.InvoiceVoid, "90.00"),
		inv("102b", 9, models.InvoicePaid, "100.00"), inv("101", 8, models.InvoicePaid, "80.00")
	prev, ok := previous(oct, []models.Invoice{oct, sepVoid, sep, aug})
	if !ok || prev.InvoiceNumber != "102b" {
		t.Fatalf("previous = %+v, want the re-issued September invoice", prev)
	}

	j := journal.New()
	at := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 12, 0, 0, 0, time.UTC) }
	est := func(total, pg string) []journal.Item {
		return journal.FromEstimate(models.Estimate{EstimatedBalance: models.MustAmount(total), BillingCurrency: "USD",
			Services: []models.EstimateService{{ServiceName: "pg-main", EstimatedCost: models.MustAmount(pg)}}})
	}
	j.Observe(journal.Projects(), []journal.Item{journal.FromProject(models.Project{ProjectName: "acme", BillingGroupID: "bg1"}),
		journal.FromProject(models.Project{ProjectName: "other", BillingGroupID: "bg2"})}, at(9, 1))
	svc := func(plan string) []journal.Item {
		return []journal.Item{journal.FromService(models.Service{ServiceName: "pg-main", Plan: plan, State: models.StateRunning})}
	}
	j.Observe(journal.ServicesOf("acme"), svc("startup-4"), at(9, 1))
	j.Observe(journal.EstimateOf("acme"), est("10.00", "10.00"), at(9, 1))
	j.Observe(journal.EstimateOf("acme"), est("100.00", "100.00"), at(9, 30))
	j.Observe(journal.ServicesOf("acme"), svc("business-4"), at(10, 5))
	j.Observe(journal.EstimateOf("acme"), est("120.00", "120.00"), at(10, 31))
	j.Observe(journal.EstimateOf("acme"), est("5.00", "5.00"), at(11, 2))

	c := compare(j, "bg1", oct, prev, true)
	var text []string
	for _, s := range c.sections() {
		for _, f := range s.Fields {
			text = append(text, f.Label+": "+f.Value)
		}
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{
		"Difference: +20.00 USD (+20.0 %)",
		"acme / pg-main: 100.00 USD → 120.00 USD (+20.00)",
		"acme/pg-main plan startup-4 → business-4 (elsewhere)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the comparison lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "other") {
		t.Errorf("a project of another group is in the comparison:\n%s", all)
	}
}
