package api

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/svcui/svcui/internal/models"
)

// Entries without a name (null, {}, a blank name) are dropped from every list, said
// in the debug log and counted in the context's report and the client's stats.
func TestListsDropEntriesWithoutAName(t *testing.T) {
	blank := func(key, field string) string {
		return `{"` + key + `":[null,{},{"` + field + `":""},{"` + field + `":"  "},{"` + field + `":"ok1"},{"` + field + `":"ok2"}]}`
	}
	answers := map[string]string{
		"/v1/clouds":                           blank("clouds", "cloud_name"),
		"/v1/service_types":                    blank("service_types", "service_type"),
		"/v1/project/p/service_types/pg/plans": blank("plans", "plan_name"),
		"/v1/project":                          `{"projects":[null,{},{"project_name":""},{"project_name":"  "},{"project_name":"ok1"},{"project_name":"ok2"}],"project_membership":{"":"admin","ok1":"admin","ok2":"developer"}}`,
		"/v1/project/p/service":                blank("services", "service_name"),
		"/v1/project/p/service/s/user":         blank("users", "username"),
		"/v1/project/p/service/s/topic":        blank("topics", "topic_name"),
		"/v1/project/p/service/s/database":     blank("databases", "database_name"),
		"/v1/project/p/service/s/acl":          `{"acl":[null,{},{"username":"u"},{"topic":"t"},{"username":"ok1","topic":"t"},{"username":"ok2","topic":"*"}]}`,
		"/v1/account/a/billing-group":          blank("billing_groups", "billing_group_id"),
		"/v1/billing-group/b/invoice":          blank("invoices", "invoice_number"),
	}
	var log bytes.Buffer
	var logMu sync.Mutex
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, answers[r.URL.Path])
	}), func(o *Options) { o.Logger = newDebugLogger(&lockedWriter{w: &log, mu: &logMu}) })
	ctx, report := WithSkipReport(ctxT(t))
	counts := map[string]int{}
	count := func(what string, n int, err error) {
		if err != nil {
			t.Errorf("%s: %v", what, err)
		}
		counts[what] = n
	}
	clouds, err := c.ListClouds(ctx)
	count("clouds", len(clouds), err)
	types, err := c.ListServiceTypes(ctx)
	count("service types", len(types), err)
	plans, err := c.ListPlans(ctx, "p", "pg", "")
	count("plans", len(plans), err)
	pl, err := c.ListProjects(ctx)
	count("projects", len(pl.Projects), err)
	svcs, err := c.ListServices(ctx, "p")
	count("services", len(svcs), err)
	users, err := c.ListUsers(ctx, "p", "s")
	count("users", len(users), err)
	topics, err := c.ListTopics(ctx, "p", "s")
	count("topics", len(topics), err)
	dbs, err := c.ListDatabases(ctx, "p", "s")
	count("databases", len(dbs), err)
	acl, err := c.ListACLs(ctx, "p", "s")
	count("acl", len(acl), err)
	groups, err := c.ListBillingGroups(ctx, "a")
	count("billing groups", len(groups), err)
	invoices, err := c.ListInvoices(ctx, "b")
	count("invoices", len(invoices), err)
	for what, n := range counts {
		if n != 2 {
			t.Errorf("%s: %d entries kept, want the 2 named ones", what, n)
		}
	}
	if _, ok := pl.Membership[""]; ok || len(pl.Membership) != 2 {
		t.Errorf("membership %v", pl.Membership)
	}
	sk := report.Skipped()
	if sk.Unnamed != 4*len(answers) || sk.Malformed != 0 || c.Stats().Skipped != int64(sk.Unnamed) {
		t.Errorf("report %+v, stats %+v", sk, c.Stats())
	}
	if !strings.Contains(sk.Sentence(), "44 entries without a name were left out") {
		t.Errorf("sentence %q", sk.Sentence())
	}
	logMu.Lock()
	defer logMu.Unlock()
	if !strings.Contains(log.String(), `msg="api list entry left out"`) || !strings.Contains(log.String(), `entry="projects[0] has no name"`) {
		t.Errorf("debug log lacks the left-out entries:\n%s", log.String())
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// No request is built from an empty name: DELETE /v1/project/ would address the
// collection. "." and ".." are refused too.
func TestEmptyNamesNeverReachAPath(t *testing.T) {
	var calls atomic.Int64
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		writeJSON(w, 200, `{}`)
	}))
	ctx := ctxT(t)
	cases := []struct {
		what string
		err  error
		want string
	}{
		{"delete project", c.DeleteProject(ctx, ""), "the project name is empty; nothing was sent"},
		{"delete blank project", c.DeleteProject(ctx, "   "), "the project name is empty"},
		{"delete service", c.DeleteService(ctx, "p", ""), "the service name is empty"},
		{"delete user", c.DeleteUser(ctx, "p", "s", ""), "the username is empty"},
		{"delete user ..", c.DeleteUser(ctx, "p", "s", ".."), `the username ".." cannot be part of an address`},
		{"delete service .", c.DeleteService(ctx, "p", "."), `the service name "." cannot be part of an address`},
		{"create service in no project", func() error {
			_, err := c.CreateService(ctx, "", models.CreateServiceRequest{ServiceName: "x"})
			return err
		}(), "the project name is empty"},
		{"billing group", func() error { _, err := c.GetBillingGroup(ctx, ""); return err }(), "the billing group id is empty"},
		{"find user", func() error { _, _, err := c.FindUser(ctx, "p", "s", ""); return err }(), "the username is empty"},
		{"find billing group", func() error { _, _, err := c.FindBillingGroup(ctx, "a", " "); return err }(), "the billing group name is empty"},
	}
	for _, tc := range cases {
		if tc.err == nil || !strings.Contains(Message(tc.err), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.what, tc.err, tc.want)
		}
		if strings.ContainsRune(tc.err.Error(), 0) {
			t.Errorf("%s: the error holds the marker: %q", tc.what, tc.err.Error())
		}
	}
	if calls.Load() != 0 {
		t.Fatalf("%d requests were sent", calls.Load())
	}
}

// One malformed entry is left out, not the whole list; the report says which and why.
func TestMalformedEntriesSkipped(t *testing.T) {
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"services":[{"service_name":"a","node_count":"many"},{"service_name":"b","state":"RUNNING"},5,"x",{"service_name":"c","create_time":7}]}`)
	}))
	ctx, report := WithSkipReport(ctxT(t))
	svcs, err := c.ListServices(ctx, "p")
	if err != nil || len(svcs) != 1 || svcs[0].ServiceName != "b" {
		t.Fatalf("services %+v, err %v", svcs, err)
	}
	sk := report.Skipped()
	if sk.Malformed != 4 || sk.Unnamed != 0 {
		t.Fatalf("skipped %+v", sk)
	}
	want := []string{
		"services[0].node_count is a string, not an integer",
		"services[2] is a number, not an object",
		"services[3] is a string, not an object",
	}
	for i, w := range want {
		if sk.Details[i] != w {
			t.Errorf("detail %d = %q, want %q", i, sk.Details[i], w)
		}
	}
	if sk.Sentence() != "4 entries could not be read and were left out" {
		t.Errorf("sentence %q", sk.Sentence())
	}
}

// An unreadable answer says what was unreadable: briefly in the message, fully (status,
// content type, path, type found and expected, byte) in Detail, never with a value.
func TestUnreadableAnswerDetail(t *testing.T) {
	answer := `{"service":{"service_name":"a","node_count":"many"}}`
	ctype := "application/json"
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(200)
		_, _ = w.Write([]byte(answer))
	}))
	ctx := ctxT(t)
	_, err := c.GetService(ctx, "p", "s")
	if got, want := Message(err), "The platform sent an unreadable answer: service.node_count is a string, not an integer"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	d := Detail(err)
	for _, want := range []string{"GET /v1/project/p/service/s", "status 200", "content type application/json", "service.node_count", "expected Go type models.FlexInt", "stopped near byte"} {
		if !strings.Contains(d, want) {
			t.Errorf("detail %q lacks %q", d, want)
		}
	}
	if IsOutcomeUnknown(err) {
		t.Error("a read is never of unknown outcome")
	}

	// A value of the wrong type is named by its type, never shown.
	answer = `{"host":"h","port":5432,"password":918273645}`
	_, err = c.GetConnectionInfo(ctx, "p", "s")
	if !strings.Contains(Message(err), "password is a number, not a string") || strings.Contains(Detail(err)+err.Error(), "918273645") {
		t.Errorf("message %q, detail %q", Message(err), Detail(err))
	}

	// A proxy's page: the content type says what came instead.
	answer, ctype = "<html><body>Bad gateway</body></html>", "text/html; charset=utf-8"
	_, err = c.ListServices(ctx, "p")
	if got := Message(err); got != "The platform sent an unreadable answer: it is text/html, not JSON" {
		t.Errorf("html answer: %q", got)
	}
	if d := Detail(err); !strings.Contains(d, "content type text/html; charset=utf-8") {
		t.Errorf("html detail %q", d)
	}

	answer, ctype = `{"services":[{"service_name":"a"}`, "application/json"
	_, err = c.ListServices(ctx, "p")
	if got := Message(err); got != "The platform sent an unreadable answer: it ends early (at services)" {
		t.Errorf("truncated answer: %q", got)
	}
}

// A redirect loop is the platform's answer, not a connection failure: it is not
// retried (it took 5 attempts of 10 requests each before).
func TestRedirectLoopNotRetried(t *testing.T) {
	var calls atomic.Int64
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	}))
	_, err := c.ListServices(ctxT(t), "p")
	if got := calls.Load(); got != maxRedirects {
		t.Errorf("the server saw %d requests, want %d", got, maxRedirects)
	}
	if err == nil || IsConnection(err) || !strings.Contains(Message(err), "redirected the request more than 10 times") {
		t.Fatalf("err %v", err)
	}
	if st := c.Stats(); st.Retries != 0 {
		t.Errorf("stats %+v", st)
	}
}

// Callers answered by one collapsed request each get their own answer: one changing
// its list or map does not change another's.
func TestCollapsedCallersGetTheirOwnAnswers(t *testing.T) {
	release := make(chan struct{})
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		writeJSON(w, 200, `{"projects":[{"project_name":"a","tech_emails":["x@y.z"]}],"project_membership":{"a":"admin"}}`)
	}))
	const n = 3
	results := make([]models.ProjectList, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			pl, err := c.ListProjects(ctxT(t))
			if err != nil {
				t.Error(err)
			}
			results[i] = pl
		})
	}
	waitFor(t, "the callers to join", func() bool { return c.Stats().Collapsed == n-1 })
	close(release)
	wg.Wait()
	results[0].Membership["a"] = models.RoleDeveloper
	results[0].Projects[0].ProjectName = "changed"
	results[0].Projects[0].TechEmails[0] = "changed"
	for i := 1; i < n; i++ {
		p := results[i]
		if p.Membership["a"] != models.RoleAdmin || p.Projects[0].ProjectName != "a" || p.Projects[0].TechEmails[0] != "x@y.z" {
			t.Errorf("caller %d sees another caller's change: %+v", i, p)
		}
	}
}

func TestDeepCopy(t *testing.T) {
	type answer struct {
		Services []models.Service
		Project  models.Project
	}
	in := answer{
		Services: []models.Service{{ServiceName: "a", ServiceURIParams: map[string]string{"k": "v"},
			UserConfig:  models.UserConfig{"ip_filter": []any{"10.0.0.0/8", map[string]any{"network": "1.2.3.4/32"}}},
			Maintenance: &models.Maintenance{DOW: "monday"}}},
		Project: models.Project{EstimatedBalance: models.MustAmount("1.50"), TechEmails: models.EmailList{"a@b.c"}},
	}
	out := deepCopy(in).(answer)
	out.Services[0].ServiceURIParams["k"] = "changed"
	out.Services[0].UserConfig["ip_filter"].([]any)[1].(map[string]any)["network"] = "changed"
	out.Services[0].Maintenance.DOW = "changed"
	out.Project.TechEmails[0] = "changed"
	s := in.Services[0]
	if s.ServiceURIParams["k"] != "v" || s.UserConfig.IPFilter()[1] != "1.2.3.4/32" || s.Maintenance.DOW != "monday" || in.Project.TechEmails[0] != "a@b.c" {
		t.Fatalf("the copy shares with the original: %+v", in)
	}
	if out.Project.EstimatedBalance.String() != "1.50" {
		t.Errorf("amount %q", out.Project.EstimatedBalance.String())
	}
}
