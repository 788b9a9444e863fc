package sandbox

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func groupsByCurrency(t *testing.T, e *env) map[string]map[string]any {
	t.Helper()
	r := e.admin("GET", "/v1/account/"+e.sb.AccountID()+"/billing-group", nil)
	expectStatus(t, r, 200)
	out := map[string]map[string]any{}
	for _, g := range get(t, r.json(t), "billing_groups").([]any) {
		m := g.(map[string]any)
		out[m["billing_currency"].(string)] = m
	}
	return out
}

func TestBillingGroups(t *testing.T) {
	e := newEnv(t, Options{})
	acct := e.sb.AccountID()
	groups := groupsByCurrency(t, e)
	eur, usd := groups["EUR"], groups["USD"]
	if eur == nil || usd == nil || eur["payment_method"] != "card" || usd["payment_method"] != "paypal" {
		t.Fatalf("demo groups %v", groups)
	}
	if _, has := eur["projects"]; has {
		t.Error("list carries projects")
	}
	if _, has := eur["card_info"]; has {
		t.Error("list carries card_info")
	}
	r := e.dev("GET", "/v1/billing-group/"+eur["billing_group_id"].(string), nil)
	expectStatus(t, r, 200)
	g := get(t, r.json(t), "billing_group").(map[string]any)
	if get(t, g, "card_info", "brand") != "Visa" || get(t, g, "card_info", "last4") != "4242" {
		t.Fatalf("card_info %v", g["card_info"])
	}
	if len(g["projects"].([]any)) != 2 {
		t.Fatalf("EUR group projects %v", g["projects"])
	}
	expectError(t, e.admin("GET", "/v1/billing-group/nope", nil), 404, "Billing group nope")
	expectError(t, e.admin("GET", "/v1/account/nope/billing-group", nil), 404, "Account nope")

	// Create and update.
	path := "/v1/account/" + acct + "/billing-group"
	r = e.admin("POST", path, map[string]any{
		"billing_group_name": "Acme UK", "billing_currency": "GBP", "company": "Acme Ltd",
		"billing_email": []string{"uk@acme.example"}, "address_lines": []string{"1 High St"},
		"city": "London", "country_code": "GB", "zip_code": "EC1A 1BB", "vat_id": "GB123456789", "state": "",
	})
	expectStatus(t, r, 200)
	ng := get(t, r.json(t), "billing_group").(map[string]any)
	if ng["billing_group_name"] != "Acme UK" || ng["billing_currency"] != "GBP" || ng["account_id"] != acct || ng["city"] != "London" {
		t.Fatalf("created group %v", ng)
	}
	id := ng["billing_group_id"].(string)
	expectError(t, e.admin("POST", path, map[string]any{"billing_group_name": "Acme UK"}), 409, "already exists")
	expectError(t, e.admin("POST", path, map[string]any{}), 400, `"billing_group_name"`)
	expectError(t, e.admin("POST", path, map[string]any{"billing_group_name": " "}), 400, "billing_group_name")
	expectError(t, e.admin("POST", path, map[string]any{"billing_group_name": "X", "billing_currency": "ABC"}), 400, "billing_currency")
	expectError(t, e.admin("POST", path, map[string]any{"billing_group_name": "X", "country_code": "GBR"}), 400, "country_code")
	expectError(t, e.admin("POST", path, map[string]any{"billing_group_name": "X", "billing_email": []string{"nope"}}), 400, "billing_email")
	expectError(t, e.admin("POST", path, map[string]any{"billing_group_name": "X", "billing_email": "a@b.example"}), 400, `"billing_email"`, "array")

	r = e.admin("PUT", "/v1/billing-group/"+id, map[string]any{"city": "Manchester", "address_lines": []string{"2 Low St", "Floor 3"}})
	expectStatus(t, r, 200)
	if ug := get(t, r.json(t), "billing_group").(map[string]any); ug["city"] != "Manchester" || ug["billing_group_name"] != "Acme UK" || len(ug["address_lines"].([]any)) != 2 {
		t.Fatalf("updated group %v", ug)
	}
	expectError(t, e.admin("PUT", "/v1/billing-group/"+id, map[string]any{"billing_group_name": "Acme Europe"}), 409, "already exists")
	expectError(t, e.dev("PUT", "/v1/billing-group/"+id, map[string]any{"city": "x"}), 403, "change billing groups")
	expectError(t, e.admin("PUT", "/v1/billing-group/nope", map[string]any{"city": "x"}), 404, "nope")
}

func TestInvoicesAndDownloads(t *testing.T) {
	e := newEnv(t, Options{})
	states := map[string]int{}
	currencies := map[string]bool{}
	var link string
	for cur, g := range groupsByCurrency(t, e) {
		r := e.dev("GET", "/v1/billing-group/"+g["billing_group_id"].(string)+"/invoice", nil)
		expectStatus(t, r, 200)
		invs := get(t, r.json(t), "invoices").([]any)
		if len(invs) < 12 {
			t.Fatalf("%s group has %d invoices", cur, len(invs))
		}
		prev := ""
		for _, i := range invs {
			m := i.(map[string]any)
			states[m["state"].(string)]++
			currencies[m["currency"].(string)] = true
			inc, err1 := decimal.NewFromString(m["total_inc_vat"].(string))
			zero, err2 := decimal.NewFromString(m["total_vat_zero"].(string))
			if err1 != nil || err2 != nil || inc.LessThan(zero) || !zero.IsPositive() {
				t.Fatalf("amounts %v / %v", m["total_inc_vat"], m["total_vat_zero"])
			}
			if prev != "" && m["period_begin"].(string) > prev {
				t.Fatalf("invoices not newest first: %s after %s", m["period_begin"], prev)
			}
			prev = m["period_begin"].(string)
			link = m["download_url"].(string)
		}
		if invs[0].(map[string]any)["state"] != "unpaid" {
			t.Errorf("%s: newest invoice is %v, want unpaid", cur, invs[0].(map[string]any)["state"])
		}
	}
	for _, s := range []string{"paid", "unpaid", "void", "uncollectible"} {
		if states[s] == 0 {
			t.Errorf("no %s invoice", s)
		}
	}
	if states["paid"] < states["unpaid"]+states["void"]+states["uncollectible"] {
		t.Errorf("invoices are not mostly paid: %v", states)
	}
	if len(currencies) < 2 {
		t.Errorf("invoice currencies %v", currencies)
	}
	if !strings.HasPrefix(link, e.srv.URL+"/files/invoices/") || !strings.Contains(link, ".pdf?token=") {
		t.Fatalf("download_url %s", link)
	}
	expectError(t, e.admin("GET", "/v1/billing-group/nope/invoice", nil), 404, "nope")

	// The PDF is served without the API token, with the capability.
	res, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	pdf, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/pdf" || res.ContentLength != int64(len(pdf)) {
		t.Fatalf("download: %d %s len %d/%d", res.StatusCode, res.Header.Get("Content-Type"), res.ContentLength, len(pdf))
	}
	number := link[strings.LastIndex(link, "/")+1 : strings.Index(link, ".pdf")]
	if !bytes.HasPrefix(pdf, []byte("%PDF-1.4")) || !bytes.Contains(pdf, []byte("Invoice "+number)) || !bytes.HasSuffix(pdf, []byte("%%EOF\n")) {
		t.Fatalf("not a PDF naming %s: %q", number, pdf[:40])
	}
	// The xref offsets point at the objects.
	xi := bytes.LastIndex(pdf, []byte("startxref\n"))
	var xref int
	if _, err := fmtSscan(string(pdf[xi+10:]), &xref); err != nil || !bytes.HasPrefix(pdf[xref:], []byte("xref")) {
		t.Fatalf("startxref does not point at the xref table")
	}
	// A wrong or missing capability is refused.
	bad, _ := http.Get(link[:strings.Index(link, "?")] + "?token=guess")
	bad.Body.Close()
	none, _ := http.Get(link[:strings.Index(link, "?")])
	none.Body.Close()
	if bad.StatusCode != 404 || none.StatusCode != 404 {
		t.Fatalf("bad capability %d, none %d", bad.StatusCode, none.StatusCode)
	}
}

func TestEstimateAndCredits(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.dev("GET", "/v1/project/acme-prod/estimate", nil)
	expectStatus(t, r, 200)
	m := r.json(t)
	if m["billing_currency"] != "EUR" {
		t.Fatalf("estimate currency %v", m["billing_currency"])
	}
	sum := decimal.Zero
	names := map[string]bool{}
	for _, s := range m["services"].([]any) {
		sm := s.(map[string]any)
		if sm["service_type"] == "" {
			t.Fatalf("estimate line without type %v", sm)
		}
		names[sm["service_name"].(string)] = true
		sum = sum.Add(decimal.RequireFromString(sm["estimated_cost"].(string)))
	}
	if !sum.Equal(decimal.RequireFromString(m["estimated_balance"].(string))) || !sum.IsPositive() {
		t.Fatalf("balance %v is not the sum %s", m["estimated_balance"], sum)
	}
	// The project shows the same balance.
	p := get(t, e.admin("GET", "/v1/project/acme-prod", nil).json(t), "project").(map[string]any)
	if p["estimated_balance"] != m["estimated_balance"] {
		t.Fatalf("project balance %v, estimate %v", p["estimated_balance"], m["estimated_balance"])
	}
	// The estimate follows the current services.
	expectStatus(t, e.admin("DELETE", "/v1/project/acme-prod/service/caching-sessions", nil), 200)
	if strings.Contains(string(e.admin("GET", "/v1/project/acme-prod/estimate", nil).body), "caching-sessions") {
		t.Fatal("deleted service still estimated")
	}
	if !names["caching-sessions"] {
		t.Fatal("service missing from the estimate")
	}
	expectError(t, e.admin("GET", "/v1/project/nope/estimate", nil), 404, "nope")

	r = e.dev("GET", "/v1/account/"+e.sb.AccountID()+"/credits", nil)
	expectStatus(t, r, 200)
	c := r.json(t)
	av, tot := decimal.RequireFromString(c["available_credits"].(string)), decimal.RequireFromString(c["total_credits"].(string))
	if av.GreaterThan(tot) || c["currency"] == "" {
		t.Fatalf("credits %v", c)
	}
	expectError(t, e.admin("GET", "/v1/account/nope/credits", nil), 404, "Account nope")
}
