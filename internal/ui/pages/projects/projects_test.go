package projects

import (
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/models"
)

func TestPickDefault(t *testing.T) {
	list := []member{
		{ProjectSummary: &models.ProjectSummary{ProjectName: "dev-only", Role: models.RoleDeveloper}},
		{ProjectSummary: &models.ProjectSummary{ProjectName: "mine", Role: models.RoleAdmin}},
		{ProjectSummary: &models.ProjectSummary{ProjectName: "other", Role: models.RoleAdmin}},
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

// A platform that reports the account's credits unconverted on a EUR project showed
// "312.50 EUR": the number is USD. The currency is the one the platform reports.
func TestCreditsShowInTheCurrencyThePlatformReports(t *testing.T) {
	usd := map[string]models.Credits{"acc": {AvailableCredits: models.MustAmount("312.50"), Currency: "USD"}}
	same := models.Project{AccountID: "acc", BillingCurrency: "EUR", AvailableCredits: models.MustAmount("312.50")}
	converted := models.Project{AccountID: "acc", BillingCurrency: "EUR", AvailableCredits: models.MustAmount("287.12")}
	if c := creditsCurrency(same, usd); c != "USD" || creditsCell(same, c) != "312.50 USD" {
		t.Errorf("unconverted: %q %q", c, creditsCell(same, c))
	}
	if c := creditsCurrency(converted, usd); c != "EUR" || creditsCell(converted, c) != "287.12" {
		t.Errorf("converted by the platform: %q %q", c, creditsCell(converted, c))
	}
	if c := creditsCurrency(same, nil); c != "" || creditsCell(same, c) != "312.50 ?" {
		t.Errorf("unknown: %q %q", c, creditsCell(same, c))
	}
	if s := creditsText(same, "USD"); !strings.Contains(s, "312.50 USD") || !strings.Contains(s, "not converted") {
		t.Errorf("detail: %q", s)
	}
}
