package services

import (
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/models"
)

// A downgrade from business-4 to hobbyist is reviewed with more than its price: three
// nodes become one (no more high availability), and the 160 GB disk stays larger than
// the 8 GB hobbyist includes.
func TestADowngradeSaysNodesAndDisk(t *testing.T) {
	s := models.Service{ServiceName: "pg-main", ServiceType: models.TypePG, Plan: "business-4", DiskSpaceMB: 163840}
	p := editPrep{Service: s, Project: "acme-prod", Plans: []models.Plan{
		{PlanName: "hobbyist", PriceUSD: models.MustAmount("0.0260"), NodeCount: 1, DiskSpaceMB: 8192},
		{PlanName: "business-4", PriceUSD: models.MustAmount("0.4110"), NodeCount: 3, DiskSpaceMB: 163840},
	}}
	orig := currentEditValues(s)
	v := orig
	v.Plan = "hobbyist"
	var lines []string
	for _, c := range reviewChanges(p, orig, v) {
		lines = append(lines, c.Field+": "+c.Old+" → "+c.New+" ("+c.Note+")")
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{"Plan: business-4 → hobbyist", "Nodes: 3 → 1 (no more high availability",
		"Disk: 160 GB → 160 GB (kept) (larger than the 8 GB plan hobbyist includes"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the review does not say %q:\n%s", want, got)
		}
	}
}
