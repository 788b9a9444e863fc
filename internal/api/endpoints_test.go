package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/svcui/svcui/internal/models"
)

// route is what the fake platform expects for one call and what it answers.
type route struct {
	body   string // expected request body (JSON, compared structurally); "" means none
	query  string
	answer string
	status int
}

// fakePlatform checks every request against its routes: method, escaped path, query,
// headers and the exact body.
type fakePlatform struct {
	t      *testing.T
	mu     sync.Mutex
	routes map[string]route
	hits   map[string]int
}

func (f *fakePlatform) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.Method + " " + r.URL.EscapedPath()
	f.mu.Lock()
	rt, ok := f.routes[key]
	f.hits[key]++
	f.mu.Unlock()
	if !ok {
		f.t.Errorf("unexpected request %s", key)
		writeErr(w, 404, "no route")
		return
	}
	if got := r.Header.Get("User-Agent"); got != "svcui/1.2.3" {
		f.t.Errorf("%s: User-Agent %q", key, got)
	}
	wantAuth := "svcv1 " + testToken
	if r.URL.Path == "/v1/clouds" {
		wantAuth = ""
	}
	if got := r.Header.Get("Authorization"); got != wantAuth {
		f.t.Errorf("%s: Authorization %q, want %q", key, got, wantAuth)
	}
	if r.URL.RawQuery != rt.query {
		f.t.Errorf("%s: query %q, want %q", key, r.URL.RawQuery, rt.query)
	}
	body, _ := io.ReadAll(r.Body)
	if rt.body == "" {
		if len(body) != 0 || r.Header.Get("Content-Type") != "" {
			f.t.Errorf("%s: unexpected body %q (%s)", key, body, r.Header.Get("Content-Type"))
		}
	} else {
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			f.t.Errorf("%s: Content-Type %q", key, ct)
		}
		var got, want any
		if err := json.Unmarshal(body, &got); err != nil {
			f.t.Errorf("%s: body not JSON: %q", key, body)
		}
		_ = json.Unmarshal([]byte(rt.body), &want)
		if !reflect.DeepEqual(got, want) {
			f.t.Errorf("%s: body %s, want %s", key, body, rt.body)
		}
	}
	status := rt.status
	if status == 0 {
		status = 200
	}
	if rt.answer == "" {
		w.WriteHeader(status)
		return
	}
	writeJSON(w, status, rt.answer)
}

func TestEveryEndpointShape(t *testing.T) {
	svc := `{"service_name":"pg-main","service_type":"pg","state":"RUNNING","plan":"startup-4","cloud_name":"aws-eu-west-1","node_count":"2","disk_space_mb":81920,"service_uri_params":{"port":25432,"host":"pg.example"},"connection_info":{"pg":["postgres://avnadmin:x@pg.example:25432/defaultdb"]},"unknown_field":true}`
	bg := `{"billing_group_id":"bg-1","billing_group_name":"Main","billing_email":[{"email":"a@acme.example"}],"card_info":{"brand":"Visa","last4":"4242","exp_month":"9","exp_year":2027,"nickname":"ops"},"projects":[{"project_name":"acme-prod"}]}`
	routes := map[string]route{
		"GET /v1/clouds":        {answer: `{"clouds":[{"cloud_name":"aws-eu-west-1","geo_latitude":53.3,"geo_region":"europe"}]}`},
		"GET /v1/service_types": {answer: `{"service_types":[{"service_type":"pg","latest_available_version":"17"}]}`},
		"GET /v1/project/acme%20prod/service_types/pg/plans": {query: "cloud=aws-eu-west-1", answer: `{"plans":[{"plan_name":"startup-4","price_usd":"0.137"}]}`},
		"GET /v1/project":                                           {answer: `{"projects":[{"project_name":"acme-prod","estimated_balance":"12.50"}],"project_membership":{"acme-prod":"admin","acme-analytics":"operator"}}`},
		"GET /v1/project/acme-prod":                                 {answer: `{"project":{"project_name":"acme-prod","billing_emails":[{"email":"x@acme.example"}]}}`},
		"POST /v1/project":                                          {body: `{"project":"acme-new","cloud":"aws-eu-west-1"}`, answer: `{"project":{"project_name":"acme-new"},"message":"created"}`, status: 201},
		"PUT /v1/project/acme-new":                                  {body: `{"billing_group_id":"bg-1"}`, answer: `{"project":{"project_name":"acme-new","billing_group_id":"bg-1"}}`},
		"DELETE /v1/project/acme-new":                               {},
		"GET /v1/project/acme-prod/service":                         {answer: `{"services":[` + svc + `]}`},
		"GET /v1/project/acme-prod/service/pg-main":                 {answer: `{"service":` + svc + `}`},
		"POST /v1/project/acme-prod/service":                        {body: `{"service_name":"pg-new","service_type":"pg","plan":"hobbyist","cloud":"aws-eu-west-1","termination_protection":true,"user_config":{"pg_version":"17"}}`, answer: `{"service":{"service_name":"pg-new","state":"REBUILDING"}}`},
		"PUT /v1/project/acme-prod/service/pg-main":                 {body: `{"plan":"business-4","disk_space_mb":102400,"powered":false,"maintenance":{"dow":"monday","time":"03:00:00"}}`, answer: `{"service":{"service_name":"pg-main","state":"REBALANCING","plan":"business-4"}}`},
		"DELETE /v1/project/acme-prod/service/pg-main":              {answer: `{"message":"deleted"}`},
		"GET /v1/project/acme-prod/service/pg-main/user":            {answer: `{"users":[{"username":"avnadmin","type":"primary"}]}`},
		"POST /v1/project/acme-prod/service/pg-main/user":           {body: `{"username":"app_ro","authentication":"scram-sha-256"}`, answer: `{"user":{"username":"app_ro","type":"regular","password":"AVNS_new"}}`},
		"PUT /v1/project/acme-prod/service/pg-main/user/app%2Fro":   {body: `{"operation":"reset-credentials"}`, answer: `{"user":{"username":"app/ro","type":"regular","password":"AVNS_reset"}}`},
		"DELETE /v1/project/acme-prod/service/pg-main/user/app_ro":  {},
		"GET /v1/project/acme-prod/service/pg-main/connection_info": {answer: `{"host":"pg.example","port":"25432","user":"avnadmin","password":"<redacted>","ca_cert":"-----BEGIN CERTIFICATE-----"}`},
		"GET /v1/project/acme-prod/service/kafka-events/acl":        {answer: `{"acl":[{"id":"acl1","username":"app","topic":"*","permission":"readwrite"}]}`},
		"POST /v1/project/acme-prod/service/kafka-events/acl":       {body: `{"username":"app","topic":"orders","permission":"read"}`, answer: `{"acl":[{"id":"acl1","username":"app","topic":"*","permission":"readwrite"},{"id":"acl2","username":"app","topic":"orders","permission":"read"}]}`},
		"GET /v1/project/acme-prod/service/kafka-events/topic":      {answer: `{"topics":[{"topic_name":"orders","partitions":3,"replication":"2","state":"ACTIVE"}]}`},
		"POST /v1/project/acme-prod/service/kafka-events/topic":     {body: `{"topic_name":"payments","partitions":6,"replication":3}`, answer: `{"message":"created"}`},
		"GET /v1/project/acme-prod/service/pg-main/database":        {answer: `{"databases":[{"database_name":"defaultdb"}]}`},
		"POST /v1/project/acme-prod/service/pg-main/database":       {body: `{"database":"reports"}`, answer: `{"message":"created"}`},
		"GET /v1/account/a1b2/billing-group":                        {answer: `{"billing_groups":[` + bg + `]}`},
		"POST /v1/account/a1b2/billing-group":                       {body: `{"billing_group_name":"Research","billing_currency":"EUR","billing_email":["r@acme.example"]}`, answer: `{"billing_group":{"billing_group_id":"bg-2","billing_group_name":"Research"}}`},
		"GET /v1/billing-group/bg-1":                                {answer: `{"billing_group":` + bg + `}`},
		"PUT /v1/billing-group/bg-1":                                {body: `{"company":"Acme Ltd","vat_id":""}`, answer: `{"billing_group":{"billing_group_id":"bg-1","company":"Acme Ltd"}}`},
		"GET /v1/billing-group/bg-1/invoice":                        {answer: `{"invoices":[{"invoice_number":"INV-1","period_begin":"2026-02-01T00:00:00Z","state":"refunded","total_inc_vat":"12.40"}]}`},
		"GET /v1/project/acme-prod/estimate":                        {answer: `{"estimated_balance":"42.10","billing_currency":"USD","services":[{"service_name":"pg-main","estimated_cost":"30.00"}]}`},
		"GET /v1/account/a1b2/credits":                              {answer: `{"available_credits":"100.00","total_credits":"250","currency":"USD"}`},
	}
	fp := &fakePlatform{t: t, routes: routes, hits: map[string]int{}}
	c, _, _ := newTestClient(t, fp, func(o *Options) { o.UserAgent = "svcui/1.2.3" })
	ctx := ctxT(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	clouds, err := c.ListClouds(ctx)
	must(err)
	if len(clouds) != 1 || clouds[0].GeoRegion != "europe" {
		t.Errorf("clouds %+v", clouds)
	}
	types, err := c.ListServiceTypes(ctx)
	must(err)
	if types[0].LatestAvailableVersion != "17" {
		t.Errorf("types %+v", types)
	}
	plans, err := c.ListPlans(ctx, "acme prod", "pg", "aws-eu-west-1")
	must(err)
	if plans[0].PriceUSD.String() == "" || plans[0].PlanName != "startup-4" {
		t.Errorf("plans %+v", plans)
	}
	pl, err := c.ListProjects(ctx)
	must(err)
	if len(pl.Projects) != 1 || pl.RoleOf("acme-prod") != models.RoleAdmin || pl.RoleOf("acme-analytics") != "operator" {
		t.Errorf("projects %+v", pl)
	}
	p, err := c.GetProject(ctx, "acme-prod")
	must(err)
	if len(p.BillingEmails) != 1 {
		t.Errorf("project %+v", p)
	}
	p, err = c.CreateProject(ctx, models.CreateProjectRequest{Project: "acme-new", Cloud: "aws-eu-west-1"})
	must(err)
	if p.ProjectName != "acme-new" {
		t.Errorf("created %+v", p)
	}
	p, err = c.AssignBillingGroup(ctx, "acme-new", "bg-1")
	must(err)
	if p.BillingGroupID != "bg-1" {
		t.Errorf("assigned %+v", p)
	}
	must(c.DeleteProject(ctx, "acme-new"))

	svcs, err := c.ListServices(ctx, "acme-prod")
	must(err)
	if len(svcs) != 1 || svcs[0].NodeCount != 2 || svcs[0].ServiceURIParams["port"] != "25432" || svcs[0].ConnectionInfo["pg"][0].Host != "pg.example" {
		t.Errorf("services %+v", svcs)
	}
	s, err := c.GetService(ctx, "acme-prod", "pg-main")
	must(err)
	if s.DiskSpaceMB != 81920 {
		t.Errorf("service %+v", s)
	}
	s, err = c.CreateService(ctx, "acme-prod", models.CreateServiceRequest{ServiceName: "pg-new", ServiceType: "pg", Plan: "hobbyist", Cloud: "aws-eu-west-1", TerminationProtection: true, UserConfig: models.UserConfig{"pg_version": "17"}})
	must(err)
	if s.State != models.StateRebuilding {
		t.Errorf("created service %+v", s)
	}
	s, err = c.UpdateService(ctx, "acme-prod", "pg-main", models.UpdateServiceRequest{Plan: models.Ptr("business-4"), DiskSpaceMB: models.Ptr(102400), Powered: models.Ptr(false), Maintenance: &models.Maintenance{DOW: "monday", Time: "03:00:00"}})
	must(err)
	if s.State != models.StateRebalancing {
		t.Errorf("updated service %+v", s)
	}
	must(c.DeleteService(ctx, "acme-prod", "pg-main"))

	users, err := c.ListUsers(ctx, "acme-prod", "pg-main")
	must(err)
	if users[0].Type != models.UserPrimary {
		t.Errorf("users %+v", users)
	}
	u, err := c.CreateUser(ctx, "acme-prod", "pg-main", models.CreateUserRequest{Username: "app_ro", Authentication: "scram-sha-256"})
	must(err)
	if u.Password != "AVNS_new" {
		t.Errorf("user %+v", u)
	}
	u, err = c.ResetCredentials(ctx, "acme-prod", "pg-main", "app/ro")
	must(err)
	if u.Password != "AVNS_reset" {
		t.Errorf("reset %+v", u)
	}
	must(c.DeleteUser(ctx, "acme-prod", "pg-main", "app_ro"))
	ci, err := c.GetConnectionInfo(ctx, "acme-prod", "pg-main")
	must(err)
	if ci.Port != 25432 || models.SecretAvailable(ci.Password) {
		t.Errorf("connection info %+v", ci)
	}

	acl, err := c.ListACLs(ctx, "acme-prod", "kafka-events")
	must(err)
	if acl[0].Permission != models.PermReadWrite {
		t.Errorf("acl %+v", acl)
	}
	acl, err = c.CreateACL(ctx, "acme-prod", "kafka-events", models.CreateACLRequest{Username: "app", Topic: "orders", Permission: models.PermRead})
	must(err)
	if len(acl) != 2 {
		t.Errorf("acl after create %+v", acl)
	}
	topics, err := c.ListTopics(ctx, "acme-prod", "kafka-events")
	must(err)
	if topics[0].Replication != 2 {
		t.Errorf("topics %+v", topics)
	}
	must(c.CreateTopic(ctx, "acme-prod", "kafka-events", models.CreateTopicRequest{TopicName: "payments", Partitions: 6, Replication: 3}))
	dbs, err := c.ListDatabases(ctx, "acme-prod", "pg-main")
	must(err)
	if dbs[0].DatabaseName != "defaultdb" {
		t.Errorf("databases %+v", dbs)
	}
	must(c.CreateDatabase(ctx, "acme-prod", "pg-main", "reports"))

	groups, err := c.ListBillingGroups(ctx, "a1b2")
	must(err)
	if groups[0].BillingEmail[0] != "a@acme.example" {
		t.Errorf("groups %+v", groups)
	}
	g, err := c.CreateBillingGroup(ctx, "a1b2", models.BillingGroupRequest{BillingGroupName: models.Ptr("Research"), BillingCurrency: models.Ptr("EUR"), BillingEmail: &[]string{"r@acme.example"}})
	must(err)
	if g.BillingGroupID != "bg-2" {
		t.Errorf("group %+v", g)
	}
	g, err = c.GetBillingGroup(ctx, "bg-1")
	must(err)
	if g.CardInfo == nil || g.CardInfo.ExpMonth != 9 || g.CardInfo.Extra["nickname"] != "ops" || len(g.Projects) != 1 {
		t.Errorf("group %+v", g)
	}
	g, err = c.UpdateBillingGroup(ctx, "bg-1", models.BillingGroupRequest{Company: models.Ptr("Acme Ltd"), VATID: models.Ptr("")})
	must(err)
	if g.Company != "Acme Ltd" {
		t.Errorf("updated group %+v", g)
	}
	inv, err := c.ListInvoices(ctx, "bg-1")
	must(err)
	if inv[0].State != "refunded" || inv[0].PeriodBegin.IsZero() {
		t.Errorf("invoices %+v", inv)
	}
	est, err := c.GetEstimate(ctx, "acme-prod")
	must(err)
	if est.EstimatedBalance.String() == "" || len(est.Services) != 1 {
		t.Errorf("estimate %+v", est)
	}
	cr, err := c.GetCredits(ctx, "a1b2")
	must(err)
	if cr.Currency != "USD" || !cr.TotalCredits.Set {
		t.Errorf("credits %+v", cr)
	}

	for key := range routes {
		if fp.hits[key] != 1 {
			t.Errorf("%s called %d times", key, fp.hits[key])
		}
	}
}

func TestDeleteAnswers(t *testing.T) {
	answers := map[string]string{"empty": "", "message": `{"message":"Service deleted"}`, "spaces": " \n", "text": "OK"}
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		_, _ = w.Write([]byte(answers[r.URL.Path[len("/v1/project/p/service/"):]]))
	}))
	for name := range answers {
		if err := c.DeleteService(ctxT(t), "p", name); err != nil {
			t.Errorf("delete answered %q: %v", answers[name], err)
		}
	}
}

func TestUnreadableSuccessAnswers(t *testing.T) {
	// A malformed entry no longer fails the list (TestMalformedEntriesSkipped).
	bodies := []string{"", "not json", `{"services":`, `[]`, `{"wrong":[]}`, `{"services":{"a":1}}`, `null`}
	for _, body := range bodies {
		c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, body)
		}))
		_, err := c.ListServices(ctxT(t), "acme-prod")
		if err == nil || !strings.HasPrefix(Message(err), "The platform sent an unreadable answer: ") {
			t.Errorf("body %q: err %v", body, err)
		}
		if IsNotFound(err) {
			t.Errorf("body %q: classified as not found", body)
		}
	}
	// An empty list and a null list are both a project without services.
	for _, body := range []string{`{"services":[]}`, `{"services":null}`} {
		c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, body) }))
		if svcs, err := c.ListServices(ctxT(t), "p"); err != nil || len(svcs) != 0 {
			t.Errorf("body %q: %v %v", body, svcs, err)
		}
	}
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `{"service":null}`) }))
	if _, err := c.GetService(ctxT(t), "p", "s"); err == nil {
		t.Error("a null service was accepted")
	}
	c, _, _ = newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `"flat"`) }))
	if _, err := c.GetCredits(ctxT(t), "a"); err == nil {
		t.Error("a non-object credits answer was accepted")
	}
	c, _, _ = newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `<html>`) }))
	if err := c.CreateDatabase(ctxT(t), "p", "s", "d"); err == nil {
		t.Error("a non-JSON create answer was accepted")
	}
}

func TestResponseSizeCap(t *testing.T) {
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		// Valid JSON as far as it goes (whitespace inside the list), so that only the
		// cap can stop it.
		_, _ = w.Write([]byte(`{"services":[`))
		chunk := bytes.Repeat([]byte(" "), 1<<20)
		for range 3 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	c.responseCap = 2 << 20
	_, err := c.ListServices(ctxT(t), "p")
	if err == nil || !errorsIs(err, errResponseTooLarge) || c.Stats().Retries != 0 {
		t.Fatalf("err = %v, stats %+v", err, c.Stats())
	}
}

func TestRateLimitHeadersExposed(t *testing.T) {
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/clouds" {
			writeJSON(w, 200, `{"clouds":[]}`) // unauthenticated: no headers
			return
		}
		w.Header().Set("X-RateLimit-Limit", "120")
		w.Header().Set("X-RateLimit-Remaining", "117")
		w.Header().Set("X-RateLimit-Reset", "28")
		writeJSON(w, 200, `{"service_types":[]}`)
	}))
	if rl := c.RateLimit(); rl.Known {
		t.Fatalf("known before any call: %+v", rl)
	}
	if _, err := c.ListServiceTypes(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	rl := c.RateLimit()
	if !rl.Known || rl.Limit != 120 || rl.Remaining != 117 {
		t.Fatalf("rate limit %+v", rl)
	}
	if d := rl.Reset.Sub(rl.At); d != 28*1e9 {
		t.Errorf("reset in %v", d)
	}
	if _, err := c.ListClouds(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if rl2 := c.RateLimit(); rl2.Remaining != 117 {
		t.Errorf("an answer without headers changed the rate limit: %+v", rl2)
	}
}
