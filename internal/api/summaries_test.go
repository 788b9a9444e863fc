package api

import (
	"fmt"
	"net/http"
	"testing"
	"unsafe"
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
		got, err := c.ListProjectSummaries(ctxT(t), nil)
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

// A refresh gives the summaries it repeats unchanged again instead of new copies (the
// list shown and the one read are not held twice), copies a repeated one whose role
// changed, and never changes a summary already given, whichever comes first of the
// projects and the membership.
func TestProjectSummariesOfARefreshReuseTheUnchanged(t *testing.T) {
	entry := func(name, balance string) string {
		return fmt.Sprintf(`{"project_name":%q,"account_id":"a1","default_cloud":"aws-eu-west-1","billing_currency":"EUR",`+
			`"estimated_balance":%q,"available_credits":"3.00"}`, name, balance)
	}
	answer := func(membershipFirst bool, projects, membership string) string {
		if membershipFirst {
			return `{"project_membership":{` + membership + `},"projects":[` + projects + `]}`
		}
		return `{"projects":[` + projects + `],"project_membership":{` + membership + `}}`
	}
	for _, first := range []bool{false, true} {
		body := answer(first, entry("same", "1.00")+","+entry("paid", "2.00")+","+entry("promoted", "3.00")+","+entry("left", "4.00"),
			`"same":"admin","paid":"admin","promoted":"developer","left":"admin"`)
		c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, http.StatusOK, body)
		}))
		before, err := c.ListProjectSummaries(ctxT(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		was := make([]string, len(before.Projects))
		for i, p := range before.Projects {
			was[i] = fmt.Sprint(*p)
		}
		// Reordered; one balance changed, one role changed, one role no longer given.
		body = answer(first, entry("left", "4.00")+","+entry("promoted", "3.00")+","+entry("paid", "2.50")+","+entry("same", "1.00"),
			`"same":"admin","paid":"admin","promoted":"admin"`)
		after, err := c.ListProjectSummaries(ctxT(t), before.Projects)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]int{}
		for i, p := range before.Projects {
			byName[p.ProjectName] = i
		}
		for _, p := range after.Projects {
			old := before.Projects[byName[p.ProjectName]]
			reused := p == old
			switch p.ProjectName {
			case "same":
				if !reused || p.Role != "admin" {
					t.Errorf("membership first %v: the unchanged summary was copied (%v) or lost its role (%q)", first, !reused, p.Role)
				}
			case "paid":
				if reused || p.EstimatedBalance.FormatNumber() != "2.50" {
					t.Errorf("membership first %v: the changed balance: reused %v, %s", first, reused, p.EstimatedBalance.FormatNumber())
				}
				if unsafe.StringData(p.ProjectName) != unsafe.StringData(old.ProjectName) {
					t.Errorf("membership first %v: the changed summary holds its name's text a second time", first)
				}
			case "promoted", "left":
				want := map[string]string{"promoted": "admin", "left": ""}[p.ProjectName]
				if reused || string(p.Role) != want {
					t.Errorf("membership first %v: %s reused %v with role %q, want a copy with %q", first, p.ProjectName, reused, p.Role, want)
				}
			}
		}
		for i, p := range before.Projects {
			if fmt.Sprint(*p) != was[i] {
				t.Errorf("membership first %v: a summary given before was changed: %s, was %s", first, fmt.Sprint(*p), was[i])
			}
		}
	}
}
