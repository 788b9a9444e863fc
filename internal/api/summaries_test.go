package api

import (
	"net/http"
	"testing"
)

// The Projects tab's read keeps what its table shows of each project, with the role
// written into it whether the membership follows the projects or comes first, and
// leaves out entries without a name as ListProjects does.
func TestProjectSummariesKeepWhatTheTableShows(t *testing.T) {
	projects := `"projects":[{"project_name":"p1","account_id":"a1","account_name":"Acme",` +
		`"default_cloud":"aws-eu-west-1","billing_currency":"EUR","billing_group_id":"g1","billing_group_name":"Europe",` +
		`"estimated_balance":"12.50","available_credits":"3.00","vat_id":"FI123","tech_emails":["x@y.z"]},{"project_name":""},` +
		`{"project_name":"p0"},{"project_name":"p2"}]`
	membership := `"project_membership":{"p2":"developer","p1":"admin","gone":"admin","bad":[1]}`
	for _, body := range []string{"{" + projects + "," + membership + "}", "{" + membership + "," + projects + "}"} {
		c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, http.StatusOK, body)
		}))
		got, err := c.ListProjectSummaries(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Projects) != 3 {
			t.Fatalf("%d projects, want 3: %+v", len(got.Projects), got.Projects)
		}
		p := got.Projects[0]
		if p.ProjectName != "p1" || p.AccountID != "a1" || p.DefaultCloud != "aws-eu-west-1" || p.BillingCurrency != "EUR" ||
			p.BillingGroupID != "g1" || p.BillingGroupName != "Europe" || p.EstimatedBalance.FormatNumber() != "12.50" ||
			p.AvailableCredits.FormatNumber() != "3.00" || p.Role != "admin" {
			t.Fatalf("summary %+v", p)
		}
		if got.Projects[1].Role != "" || got.Projects[2].Role != "developer" {
			t.Fatalf("roles %q %q, want \"\" and developer", got.Projects[1].Role, got.Projects[2].Role)
		}
	}
}
