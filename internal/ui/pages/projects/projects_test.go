package projects

import (
	"testing"

	"github.com/svcui/svcui/internal/models"
)

func TestPickDefault(t *testing.T) {
	list := []member{
		{models.Project{ProjectName: "dev-only"}, models.RoleDeveloper},
		{models.Project{ProjectName: "mine"}, models.RoleAdmin},
		{models.Project{ProjectName: "other"}, models.RoleAdmin},
	}
	if got := pickDefault(list, ""); got != "mine" {
		t.Errorf("first admin project: %q", got)
	}
	if got := pickDefault(list, "other"); got != "other" {
		t.Errorf("configured default: %q", got)
	}
	if got := pickDefault(list, "gone"); got != "mine" {
		t.Errorf("missing default falls back: %q", got)
	}
	if got := pickDefault(nil, "x"); got != "" {
		t.Errorf("empty list: %q", got)
	}
}

func TestUpdateRequestSendsOnlyChanges(t *testing.T) {
	orig := editValues{Cloud: "c1", BillingEmails: "a@x.io", TechEmails: "", Country: "FI", Group: "g1"}
	if _, changed := updateRequest(orig, orig); changed {
		t.Fatal("no change should send nothing")
	}
	v := orig
	v.TechEmails = "ops@x.io, oncall@x.io"
	v.Country = "se"
	req, changed := updateRequest(orig, v)
	if !changed || req.Cloud != nil || req.BillingEmails != nil || req.BillingGroupID != nil {
		t.Fatalf("unexpected fields: %+v", req)
	}
	if req.TechEmails == nil || len(*req.TechEmails) != 2 || *req.CountryCode != "SE" {
		t.Fatalf("changed fields: %+v", req)
	}
	// Clearing a list sends an empty list, not null.
	v = orig
	v.BillingEmails = ""
	req, _ = updateRequest(orig, v)
	if req.BillingEmails == nil || len(*req.BillingEmails) != 0 {
		t.Fatalf("cleared list: %+v", req.BillingEmails)
	}
}

func TestValidators(t *testing.T) {
	if optionalEmails("") != nil || optionalEmails("a@b.io, c@d.io") != nil || optionalEmails("not-an-email") == nil {
		t.Error("optionalEmails")
	}
	if optionalCountry("") != nil || optionalCountry("fi") != nil || optionalCountry("FIN") == nil {
		t.Error("optionalCountry")
	}
}

func TestCloudOptionsGroupedByRegion(t *testing.T) {
	opts := cloudOptions([]models.Cloud{
		{CloudName: "z-eu", GeoRegion: "europe"}, {CloudName: "a-us", GeoRegion: "north-america"}, {CloudName: "a-eu", GeoRegion: "europe"},
	}, "legacy-cloud")
	var got []string
	for _, o := range opts {
		got = append(got, o.Value)
	}
	want := []string{"legacy-cloud", "a-eu", "z-eu", "a-us"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v want %v", got, want)
		}
	}
}
