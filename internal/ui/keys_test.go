package ui

import (
	"testing"

	"github.com/svcui/svcui/internal/apilog"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
	apilogpage "github.com/svcui/svcui/internal/ui/pages/apilog"
	"github.com/svcui/svcui/internal/ui/pages/billing"
	"github.com/svcui/svcui/internal/ui/pages/projects"
)

// No two actions of a view share a key, and no view action shares one with the global
// set (the tabs of the registry, palette, help, refresh, back, quit): the root routes
// global keys first, so such an action could never run. The services' detail and the
// access views are held the same way in their packages.
func TestNoViewActionSharesAKey(t *testing.T) {
	t.Parallel()
	ctx := common.NewContext()
	for _, tab := range Tabs() {
		ctx.Tabs = append(ctx.Tabs, tab.Name)
	}
	global := ctx.GlobalKeys()
	views := map[string]common.View{
		"project":          projects.NewDetail(ctx, "acme-prod"),
		"clouds":           projects.NewClouds(ctx),
		"service types":    projects.NewTypes(ctx),
		"billing group":    billing.NewGroupDetail(ctx, models.BillingGroup{BillingGroupID: "bg-1"}),
		"invoices":         billing.NewInvoices(ctx, models.BillingGroup{BillingGroupID: "bg-1"}),
		"estimates":        billing.NewEstimates(ctx, "acme-prod"),
		"all estimates":    billing.NewAllEstimates(ctx),
		"group estimates":  billing.NewGroupEstimates(ctx, "bg-1", "Main"),
		"credits":          billing.NewCredits(ctx),
		"totals per month": billing.NewChart(ctx, models.BillingGroup{BillingGroupID: "bg-1"}, nil),
		"api log":          apilogpage.New(ctx, apilog.New(10)),
		"api log entry":    apilogpage.NewDetail(ctx, apilog.New(10), 1),
	}
	for _, tab := range Tabs() {
		views["tab "+tab.Name] = tab.New(ctx)
	}
	for name, v := range views {
		kv, ok := v.(common.Keyed)
		if !ok {
			t.Errorf("%s declares no keys", name)
			continue
		}
		set := kv.Keys()
		if len(set) == 0 {
			t.Errorf("%s: an empty key set", name)
		}
		for _, c := range keys.Clashes(set, global) {
			t.Errorf("%s: %s", name, c)
		}
	}
}
