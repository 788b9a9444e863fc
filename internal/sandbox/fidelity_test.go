package sandbox

import (
	"testing"

	"github.com/shopspring/decimal"
)

// A project's creator is its only member: the developer token does not see, read or
// change a project the admin creates.
func TestCreatedProjectHasOnlyItsCreator(t *testing.T) {
	e := newEnv(t, Options{})
	expectStatus(t, e.admin("POST", "/v1/project", map[string]any{"project": "admins-own"}), 200)
	mem := get(t, e.dev("GET", "/v1/project", nil).json(t), "project_membership").(map[string]any)
	if role, ok := mem["admins-own"]; ok {
		t.Fatalf("the developer became %v of a project the admin created", role)
	}
	expectError(t, e.dev("GET", "/v1/project/admins-own", nil), 403, "not a member of project admins-own")
	if role := get(t, e.admin("GET", "/v1/project", nil).json(t), "project_membership", "admins-own"); role != "admin" {
		t.Fatalf("creator's role %v, want admin", role)
	}
}

// The single-group read carries projects even when the group has none.
func TestBillingGroupReadAlwaysCarriesProjects(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.admin("POST", "/v1/account/"+e.sb.AccountID()+"/billing-group", map[string]any{"billing_group_name": "Unused"})
	expectStatus(t, r, 200)
	id := get(t, r.json(t), "billing_group", "billing_group_id").(string)
	g := get(t, e.admin("GET", "/v1/billing-group/"+id, nil).json(t), "billing_group").(map[string]any)
	ps, ok := g["projects"].([]any)
	if !ok || len(ps) != 0 {
		t.Fatalf("projects of a group without projects: %#v (present: %v), want []", g["projects"], ok)
	}
}

// A project's available_credits is an amount of its billing_currency: the account's
// credits converted, never the same number under another currency's name.
func TestProjectCreditsAreInItsCurrency(t *testing.T) {
	e := newEnv(t, Options{})
	cr := e.admin("GET", "/v1/account/"+e.sb.AccountID()+"/credits", nil).json(t)
	avail := decimal.RequireFromString(cr["available_credits"].(string))
	from := cr["currency"].(string)
	seen := map[string]bool{}
	for _, name := range []string{"acme-prod", "acme-analytics"} {
		p := get(t, e.admin("GET", "/v1/project/"+name, nil).json(t), "project").(map[string]any)
		cur := p["billing_currency"].(string)
		seen[cur] = true
		got := decimal.RequireFromString(p["available_credits"].(string))
		want := avail.Div(rateOf(from)).Mul(rateOf(cur)).Round(2)
		if !got.Equal(want) {
			t.Errorf("%s: available_credits %s %s; the account has %s %s, which is %s %s", name, got, cur, avail, from, want, cur)
		}
	}
	if !seen["EUR"] || !seen["USD"] {
		t.Fatalf("the test needs an EUR and a USD project; saw %v", seen)
	}
}
