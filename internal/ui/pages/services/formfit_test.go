package services

import (
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
	"github.com/svcui/svcui/internal/ui/uitest/formfit"
)

// Every create and edit form of a service, at every supported size, with each field
// focused in turn: its title, its focus bar and the key help are on screen. The Kafka
// create form at 120×40 hid its last field, "IP filter", below the modal.
func TestEveryServiceFormFitsTheScreen(t *testing.T) {
	a := newActions(fake.New())
	plans := []models.Plan{}
	for _, p := range []string{"hobbyist", "startup-2", "startup-4", "business-4", "business-8", "premium-6", "premium-9"} {
		plans = append(plans, models.Plan{PlanName: p, PriceUSD: models.MustAmount("0.2740"), DiskSpaceMB: 163840})
	}
	clouds := editPrepFor(svc("x", "")).Clouds
	prep := createPrep{Project: "acme-prod", Clouds: clouds, DefaultCloud: clouds[0].CloudName,
		Types: []models.ServiceType{{ServiceType: models.TypePG}, {ServiceType: models.TypeKafka}, {ServiceType: models.TypeOpenSearch}}}
	forms := map[string]func() common.Modal{
		"create (1/2)": func() common.Modal { return a.createTypeForm(prep) },
	}
	for _, typ := range []string{models.TypePG, models.TypeMySQL, models.TypeKafka, models.TypeOpenSearch, models.TypeCaching,
		models.TypeClickHouse, models.TypeGrafana} {
		pp := planPrep{Prep: prep, Type: typ, Cloud: clouds[0].CloudName, Plans: plans}
		forms["create "+typ] = func() common.Modal { return a.createDetailsForm(pp) }
		s := svc("svc-"+typ, "RUNNING")
		s.ServiceType = typ
		ep := editPrepFor(s)
		ep.Plans = plans
		forms["edit "+typ] = func() common.Modal { return a.editFlow(ep) }
	}
	for name, build := range forms {
		if misses := formfit.Misses(build); len(misses) > 0 {
			t.Errorf("%s: %d misses:\n%s", name, len(misses), strings.Join(misses, "\n"))
		}
	}
}
