package sandbox

import (
	"testing"
)

func TestProjectListShapeAndMembership(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.admin("GET", "/v1/project", nil)
	expectStatus(t, r, 200)
	m := r.json(t)
	mem := get(t, m, "project_membership").(map[string]any)
	want := map[string]string{"acme-prod": "admin", "acme-staging": "admin", "acme-analytics": "developer"}
	for p, role := range want {
		if mem[p] != role {
			t.Errorf("admin token in %s: role %v, want %s", p, mem[p], role)
		}
	}
	projects := get(t, m, "projects").([]any)
	if len(projects) != 3 {
		t.Fatalf("%d projects", len(projects))
	}
	p0 := projects[0].(map[string]any)
	for _, k := range []string{"project_name", "account_id", "account_name", "default_cloud", "billing_currency", "billing_group_id", "billing_group_name", "estimated_balance", "payment_method", "available_credits", "country_code", "vat_id"} {
		if _, ok := p0[k]; !ok {
			t.Errorf("project field %s missing", k)
		}
	}
	if _, ok := p0["estimated_balance"].(string); !ok {
		t.Errorf("estimated_balance is not a string: %v", p0["estimated_balance"])
	}
	r = e.dev("GET", "/v1/project", nil)
	for p, role := range get(t, r.json(t), "project_membership").(map[string]any) {
		if role != "developer" {
			t.Errorf("developer token in %s: %v", p, role)
		}
	}
}

func TestProjectCRUD(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.admin("POST", "/v1/project", map[string]any{"project": "new-proj", "cloud": "aws-eu-west-1"})
	expectStatus(t, r, 200)
	p := get(t, r.json(t), "project").(map[string]any)
	if p["project_name"] != "new-proj" || p["default_cloud"] != "aws-eu-west-1" || p["account_id"] != e.sb.AccountID() {
		t.Fatalf("created project %v", p)
	}
	expectError(t, e.admin("POST", "/v1/project", map[string]any{"project": "new-proj"}), 409, "already exists")
	expectError(t, e.admin("POST", "/v1/project", map[string]any{"project": "Bad_Name"}), 400, "project")
	expectError(t, e.admin("POST", "/v1/project", map[string]any{"project": "ab"}), 400, "at least 3")
	expectError(t, e.admin("POST", "/v1/project", map[string]any{"project": "xyz", "cloud": "mars"}), 400, "cloud")
	expectError(t, e.admin("POST", "/v1/project", map[string]any{"project": "xyz", "account_id": "nope"}), 404, "Account nope")
	expectError(t, e.admin("POST", "/v1/project", map[string]any{"project": "xyz", "billing_group_id": "nope"}), 404, "Billing group nope")
	expectError(t, e.admin("POST", "/v1/project", map[string]any{"project": "xyz", "copy_from_project": "nope"}), 404, "nope")
	expectError(t, e.dev("POST", "/v1/project", map[string]any{"project": "xyz"}), 403, "may not create projects")

	r = e.admin("POST", "/v1/project", map[string]any{"project": "copied", "copy_from_project": "acme-analytics"})
	expectStatus(t, r, 200)
	if c := get(t, r.json(t), "project").(map[string]any); c["billing_currency"] != "USD" || c["default_cloud"] != "aws-us-east-1" {
		t.Errorf("copy_from_project did not copy settings: %v", c)
	}

	r = e.admin("GET", "/v1/project/new-proj", nil)
	expectStatus(t, r, 200)
	expectError(t, e.admin("GET", "/v1/project/missing-proj", nil), 404, "Project missing-proj does not exist")

	r = e.admin("PUT", "/v1/project/new-proj", map[string]any{
		"cloud": "azure-eastus", "tech_emails": []string{"ops@acme.example"}, "billing_emails": []string{"b@acme.example"},
		"country_code": "de", "billing_address": "Street 1", "billing_currency": "GBP",
	})
	expectStatus(t, r, 200)
	up := get(t, r.json(t), "project").(map[string]any)
	if up["default_cloud"] != "azure-eastus" || up["country_code"] != "DE" || up["billing_currency"] != "GBP" {
		t.Fatalf("update not applied: %v", up)
	}
	expectError(t, e.admin("PUT", "/v1/project/new-proj", map[string]any{"tech_emails": []string{"not-an-email"}}), 400, "tech_emails")
	expectError(t, e.admin("PUT", "/v1/project/new-proj", map[string]any{"country_code": "DEU"}), 400, "country_code")
	expectError(t, e.admin("PUT", "/v1/project/new-proj", map[string]any{"billing_currency": "XXX"}), 400, "billing_currency")
	expectError(t, e.admin("PUT", "/v1/project/new-proj", map[string]any{"account_id": "other"}), 404, "Account other")
	expectError(t, e.dev("PUT", "/v1/project/new-proj", map[string]any{"cloud": "do-ams"}), 403, "not a member")
	expectError(t, e.dev("PUT", "/v1/project/acme-staging", map[string]any{"cloud": "do-ams"}), 403, "developer")

	expectError(t, e.admin("DELETE", "/v1/project/acme-prod", nil), 409, "Project acme-prod has services; delete them first")
	expectError(t, e.dev("DELETE", "/v1/project/acme-staging", nil), 403, "delete the project")
	r = e.admin("DELETE", "/v1/project/new-proj", nil)
	expectStatus(t, r, 200)
	if len(r.body) != 0 {
		t.Fatalf("delete answered a body: %q", r.body)
	}
	expectError(t, e.admin("GET", "/v1/project/new-proj", nil), 404, "new-proj")
}

func TestProjectBillingGroupAssignment(t *testing.T) {
	e := newEnv(t, Options{})
	groups := get(t, e.admin("GET", "/v1/account/"+e.sb.AccountID()+"/billing-group", nil).json(t), "billing_groups").([]any)
	var usd string
	for _, g := range groups {
		m := g.(map[string]any)
		if m["billing_currency"] == "USD" {
			usd = m["billing_group_id"].(string)
		}
	}
	r := e.admin("PUT", "/v1/project/acme-staging", map[string]any{"billing_group_id": usd})
	expectStatus(t, r, 200)
	p := get(t, r.json(t), "project").(map[string]any)
	if p["billing_group_id"] != usd || p["billing_currency"] != "USD" || p["billing_group_name"] != "Acme Americas" || p["payment_method"] != "paypal" {
		t.Fatalf("assignment not reflected in the project: %v", p)
	}
	g := get(t, e.admin("GET", "/v1/billing-group/"+usd, nil).json(t), "billing_group").(map[string]any)
	found := false
	for _, pp := range g["projects"].([]any) {
		if pp.(map[string]any)["project_name"] == "acme-staging" {
			found = true
		}
	}
	if !found {
		t.Fatalf("assignment not reflected in the group: %v", g["projects"])
	}
	expectError(t, e.admin("PUT", "/v1/project/acme-staging", map[string]any{"billing_group_id": "nope"}), 404, "Billing group nope")
}

func TestAuthentication(t *testing.T) {
	e := newEnv(t, Options{})
	expectError(t, e.do("GET", "/v1/project", "", nil), 401, "Authorization")
	expectError(t, e.do("GET", "/v1/project", "wrong-token", nil), 401, "Invalid token")
	req := e.doHeader("GET", "/v1/project", "Bearer "+e.sb.AdminToken())
	expectError(t, req, 401, "svcv1")
	// Tokens look like long base64 personal tokens and differ.
	if len(e.sb.AdminToken()) < 100 || e.sb.AdminToken() == e.sb.DeveloperToken() {
		t.Fatalf("tokens are not long and distinct")
	}
}

func TestRoutingErrors(t *testing.T) {
	e := newEnv(t, Options{})
	expectError(t, e.admin("GET", "/v1/nothing/here", nil), 404, "/v1/nothing/here")
	r := e.admin("PATCH", "/v1/project/acme-prod", map[string]any{})
	expectError(t, r, 405, "PATCH")
	if r.header.Get("Allow") == "" {
		t.Error("405 without Allow header")
	}
	expectError(t, e.admin("POST", "/v1/clouds", map[string]any{}), 405, "POST")
}

func TestStrictDecoding(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/v1/project/acme-prod/service"
	ok := map[string]any{"service_name": "pg-x", "service_type": "pg", "plan": "startup-4", "cloud": "aws-eu-west-1"}
	// Not JSON.
	expectError(t, e.admin("POST", path, "{not json"), 400, "not valid JSON")
	// Not an object.
	expectError(t, e.admin("POST", path, "[1,2]"), 400, "JSON object")
	// No body.
	expectError(t, e.doCT("POST", path, e.sb.AdminToken(), "", "application/json"), 400, "body is required")
	// Wrong content type and none.
	expectError(t, e.doCT("POST", path, e.sb.AdminToken(), ok, "text/plain"), 400, "Content-Type")
	expectError(t, e.doCT("POST", path, e.sb.AdminToken(), ok, ""), 400, "Content-Type")
	// Missing required field.
	bad := map[string]any{"service_type": "pg", "plan": "startup-4", "cloud": "aws-eu-west-1"}
	expectError(t, e.admin("POST", path, bad), 400, `"service_name"`)
	// Null counts as missing.
	expectError(t, e.admin("POST", path, map[string]any{"service_name": nil, "service_type": "pg", "plan": "startup-4", "cloud": "aws-eu-west-1"}), 400, `"service_name"`)
	// Wrong type.
	wrong := map[string]any{"service_name": "pg-x", "service_type": "pg", "plan": "startup-4", "cloud": "aws-eu-west-1", "disk_space_mb": "lots"}
	expectError(t, e.admin("POST", path, wrong), 400, `"disk_space_mb"`, "integer")
	expectError(t, e.admin("PUT", path+"/pg-main", map[string]any{"powered": "yes"}), 400, `"powered"`, "boolean")
	// Unknown field.
	unknown := map[string]any{"service_name": "pg-x", "service_type": "pg", "plan": "startup-4", "cloud": "aws-eu-west-1", "colour": "blue"}
	expectError(t, e.admin("POST", path, unknown), 400, `"colour"`)
	// Content-Type with a charset is fine.
	r := e.doCT("POST", path, e.sb.AdminToken(), ok, "application/json; charset=utf-8")
	expectStatus(t, r, 200)
}
