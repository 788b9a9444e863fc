package projects

import (
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest/formfit"
)

// The project create and edit forms, at every supported size with each field focused
// in turn: its title, its focus bar and the key help are on screen.
func TestEveryProjectFormFitsTheScreen(t *testing.T) {
	ctx := common.NewContext()
	a := &actions{ctx: ctx, req: common.NewRequests(), account: "acc"}
	var clouds []models.Cloud
	for _, c := range []string{"aws-eu-west-1", "aws-us-east-1", "google-europe-north1", "google-us-central1", "azure-westeurope", "do-ams"} {
		clouds = append(clouds, models.Cloud{CloudName: c, GeoRegion: strings.SplitN(c, "-", 2)[0]})
	}
	d := formData{Clouds: clouds, Groups: []models.BillingGroup{{BillingGroupID: "g-1", BillingGroupName: "Main"}, {BillingGroupID: "g-2", BillingGroupName: "Europe"}},
		Project: &models.Project{ProjectName: "acme-prod", DefaultCloud: "aws-eu-west-1", BillingGroupID: "g-1"}}
	for name, build := range map[string]func() common.Modal{
		"create": func() common.Modal { return a.createForm(d) },
		"edit":   func() common.Modal { return a.editForm(d) },
	} {
		if misses := formfit.Misses(build); len(misses) > 0 {
			t.Errorf("%s: %d misses:\n%s", name, len(misses), strings.Join(misses, "\n"))
		}
	}
}
