package billing

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
)

// forecast is a project's month-end estimate: the month to date plus the hours left in
// the month at the hourly prices of the plans its services have now. The platform
// prices plans in USD; an estimate in another currency is carried forward at the
// month's rate so far instead, and says so.
func forecast(ctx context.Context, api common.API, project string, est models.Estimate, now time.Time) string {
	now = now.UTC()
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	end := month.AddDate(0, 1, 0)
	left := decimal.NewFromFloat(end.Sub(now).Hours()).Round(2)
	if est.BillingCurrency != "" && est.BillingCurrency != "USD" {
		gone := now.Sub(month).Hours()
		if gone < 1 || !est.EstimatedBalance.Set {
			return ""
		}
		rate := est.EstimatedBalance.Value.Div(decimal.NewFromFloat(gone))
		total := models.Amount{Value: est.EstimatedBalance.Value.Add(rate.Mul(left)), Set: true}.Cents()
		return "month end ≈ " + total.Format(est.BillingCurrency) + " at this month's rate so far (plans are priced in USD)"
	}
	svcs, err := api.ListServices(ctx, project)
	if err != nil {
		return ""
	}
	prices := map[[2]string]map[string]models.Amount{}
	hourly := models.Amount{Set: true}
	for _, s := range svcs {
		if s.State == models.StatePowerOff {
			continue // a powered-off service is not billed
		}
		k := [2]string{s.ServiceType, s.CloudName}
		if prices[k] == nil {
			plans, err := api.ListPlans(ctx, project, s.ServiceType, s.CloudName)
			if err != nil {
				return ""
			}
			prices[k] = map[string]models.Amount{}
			for _, p := range plans {
				prices[k][p.PlanName] = p.PriceUSD
			}
		}
		p, ok := prices[k][s.Plan]
		if !ok {
			return ""
		}
		hourly = hourly.Add(p)
	}
	total := models.Amount{Value: est.EstimatedBalance.Value.Add(hourly.Value.Mul(left)), Set: true}.Cents()
	return "month end ≈ " + total.Format("USD") + " (month to date + " + left.Round(0).String() + " h at " +
		hourly.Cents().Format("USD") + "/h, the current plans)"
}
