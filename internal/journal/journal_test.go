package journal

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
)

var t0 = time.Date(2026, 11, 27, 14, 2, 0, 0, time.UTC)

func svc(name, plan string, state models.ServiceState) models.Service {
	return models.Service{ServiceName: name, ServiceType: "pg", Plan: plan, State: state, CloudName: "google-europe-north1",
		DiskSpaceMB: 8192, UserConfig: models.UserConfig{"pg_version": "16"}}
}

func services(ss ...models.Service) []Item {
	out := make([]Item, len(ss))
	for i, s := range ss {
		out[i] = FromService(s)
	}
	return out
}

func TestDiffSaysWhatWasCreatedDeletedAndChanged(t *testing.T) {
	scope := ServicesOf("acme")
	old := NewSet(t0, services(svc("pg-main", "startup-4", "RUNNING"), svc("pg-old", "hobbyist", "RUNNING")))
	now := NewSet(t0.Add(time.Minute), services(svc("pg-main", "business-4", "REBALANCING"), svc("pg-new", "startup-4", "REBUILDING")))
	got := Diff(scope, old, now, t0.Add(time.Minute))
	want := []string{
		"pg-main changed state RUNNING → REBALANCING",
		"pg-main changed plan startup-4 → business-4",
		"pg-new created  → pg · startup-4 · google-europe-north1 · REBUILDING",
		"pg-old deleted pg · hobbyist · google-europe-north1 · RUNNING → ",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entries, want %d: %+v", len(got), len(want), got)
	}
	for i, e := range got {
		line := e.Name + " " + e.Change.String() + " " + strings.TrimSpace(e.Field+" "+e.Before) + " → " + e.After
		if e.Change == Created {
			line = e.Name + " created  → " + e.After
		}
		if line != want[i] {
			t.Errorf("entry %d = %q, want %q", i, line, want[i])
		}
		if e.Project != "acme" || e.Kind != KindService || !e.At.Equal(t0.Add(time.Minute)) {
			t.Errorf("entry %d located as %+v", i, e)
		}
	}
	if Diff(scope, nil, now, t0) != nil {
		t.Error("a first read has nothing to compare with, yet made entries")
	}
}

func TestEveryServiceFieldTheIssueNamesIsCompared(t *testing.T) {
	a := svc("s", "p1", "RUNNING")
	b := a
	b.CloudName, b.DiskSpaceMB, b.TerminationProtection = "aws-us-east-1", 16384, true
	b.Maintenance = &models.Maintenance{DOW: "sunday", Time: "04:00:00"}
	b.UserConfig = models.UserConfig{"pg_version": "17", "ip_filter": []any{"10.0.0.0/8"}}
	b.State = models.StatePowerOff
	got := map[string]bool{}
	for _, e := range Diff(ServicesOf("p"), NewSet(t0, services(a)), NewSet(t0, services(b)), t0) {
		got[e.Field] = true
	}
	for _, f := range []string{"cloud", "disk", "protection", "maintenance", "ip filter", "version", "state"} {
		if !got[f] {
			t.Errorf("a change of %s made no entry (got %v)", f, got)
		}
	}
}

func TestHereMarksOnlyThisConsolesWrites(t *testing.T) {
	j := New()
	j.Observe(ServicesOf("acme"), services(svc("a", "p1", "RUNNING"), svc("b", "p1", "RUNNING")), t0)
	j.Observe(UsersOf("acme", "a"), []Item{FromUser(models.ServiceUser{Username: "u1"}), FromUser(models.ServiceUser{Username: "u2"})}, t0)
	j.MarkHere(ServicesOf("acme"), "a", Changed, t0.Add(time.Second))
	es := j.Observe(ServicesOf("acme"), services(svc("a", "p2", "REBALANCING"), svc("b", "p3", "RUNNING")), t0.Add(2*time.Second))
	here := map[string]bool{}
	for _, e := range es {
		here[e.Name+" "+e.Field] = e.Here
	}
	if !here["a plan"] || !here["a state"] {
		t.Errorf("the console's own plan change is not marked here: %+v", es)
	}
	if here["b plan"] {
		t.Error("a plan change made elsewhere is marked here")
	}
	// A delete with no name is spent on the first deletion it explains.
	j.MarkHere(UsersOf("acme", "a"), "", Deleted, t0.Add(3*time.Second))
	es = j.Observe(UsersOf("acme", "a"), nil, t0.Add(4*time.Second))
	if len(es) != 2 || es[0].Here == es[1].Here {
		t.Errorf("one unnamed delete explained %+v", es)
	}
	// Long after the write, a change is somebody else's.
	es = j.Observe(ServicesOf("acme"), services(svc("a", "p4", "REBALANCING"), svc("b", "p3", "RUNNING")), t0.Add(time.Hour))
	if len(es) != 1 || es[0].Here {
		t.Errorf("a change an hour after the console's write: %+v", es)
	}
}

func TestTransportMarksWritesThatLeftAndWereNotRefused(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) }))
	defer srv.Close()
	j := New()
	h := NewHere(func() time.Time { return t0 })
	c := &http.Client{Transport: h.Transport(http.DefaultTransport)}
	do := func(c *http.Client, method, path string) {
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	do(c, http.MethodPost, "/v1/project/acme/service") // before any journal is in use
	h.Use(srv.URL+"/v1", j)
	h.Use("http://elsewhere.example", New())
	do(c, http.MethodDelete, "/v1/project/acme/service/pg%2Fmain/user/bob")
	do(c, http.MethodGet, "/v1/project/acme/service")
	status = http.StatusForbidden
	do(c, http.MethodPut, "/v1/project/acme/service/other")
	if len(j.marks) != 1 {
		t.Fatalf("marks = %+v, want the one delete that was answered 200", j.marks)
	}
	if m := j.marks[0]; m.scope != UsersOf("acme", "pg/main") || m.name != "bob" || m.verb != Deleted {
		t.Errorf("mark = %+v", m)
	}
}

func TestDeletingAServiceForgetsWhatWasUnderIt(t *testing.T) {
	j := New()
	j.Observe(ServicesOf("acme"), services(svc("a", "p1", "RUNNING")), t0)
	j.Observe(UsersOf("acme", "a"), []Item{FromUser(models.ServiceUser{Username: "u1"})}, t0)
	j.Observe(ServicesOf("acme"), nil, t0.Add(time.Second))
	if j.Last(UsersOf("acme", "a")) != nil {
		t.Error("the users of a deleted service are still kept")
	}
}

func TestEstimatesFoldIntoOneEntryAMonthAndTheirLinesGoToTheLedger(t *testing.T) {
	j := New()
	est := func(v string) []Item {
		return FromEstimate(models.Estimate{EstimatedBalance: models.MustAmount(v), BillingCurrency: "USD",
			Services: []models.EstimateService{{ServiceName: "pg", EstimatedCost: models.MustAmount(v)}}})
	}
	j.Observe(EstimateOf("acme"), est("10.00"), t0)
	j.Observe(EstimateOf("acme"), est("10.50"), t0.Add(time.Minute))
	j.Observe(EstimateOf("acme"), est("11.00"), t0.Add(2*time.Minute))
	es := j.Entries()
	if len(es) != 1 || es[0].Before != "10.00 USD" || es[0].After != "11.00 USD" || es[0].Name != EstimateTotal {
		t.Errorf("entries = %+v, want one 10.00 → 11.00 of the total", es)
	}
	// A change seen between two growths: the folded entry, seen last, lists first.
	j.Observe(ServicesOf("acme"), services(svc("a", "p1", "RUNNING")), t0)
	j.Observe(ServicesOf("acme"), services(svc("a", "p2", "RUNNING")), t0.Add(3*time.Minute))
	j.Observe(EstimateOf("acme"), est("11.50"), t0.Add(4*time.Minute))
	if es := j.Entries(); len(es) != 2 || es[0].Kind != KindEstimate || !es[0].At.Equal(t0.Add(4*time.Minute)) || es[0].Before != "10.00 USD" || es[1].After != "p2" {
		t.Errorf("entries = %+v, want the estimate's 10.00 → 11.50 first, then the plan", es)
	}
	j.Observe(EstimateOf("acme"), est("11.00"), t0.Add(5*time.Minute))
	if es := j.Entries(); len(es) != 2 || es[0].After != "11.00 USD" || es[0].Before != "10.00 USD" {
		t.Errorf("entries = %+v, want the estimate's 10.00 → 11.00 first", es)
	}
	next := time.Date(2026, 12, 1, 1, 0, 0, 0, time.UTC)
	j.Observe(EstimateOf("acme"), est("0.50"), next)
	if es := j.Entries(); len(es) != 3 || es[0].Before != "11.00 USD" {
		t.Errorf("the next month: %+v", es)
	}
	for _, c := range []struct {
		at   time.Time
		want string
	}{{t0, "11.00 USD"}, {next, "0.50 USD"}} {
		if got, ok := j.MonthCost("acme", "pg", c.at); !ok || got != c.want {
			t.Errorf("pg's cost in %s = %q %v, want %q", monthOf(c.at), got, ok, c.want)
		}
	}
}

func TestSavedJournalSurvivesARestartAndSaysWhatChangedWhileClosed(t *testing.T) {
	path := Path(t.TempDir(), "work", "https://api.example/v1")
	j := New()
	j.Observe(ServicesOf("acme"), services(svc("a", "p1", "RUNNING")), t0)
	j.Observe(ServicesOf("acme"), services(svc("a", "p2", "RUNNING")), t0.Add(time.Second))
	j.Observe(EstimateOf("acme"), FromEstimate(models.Estimate{BillingCurrency: "USD",
		Services: []models.EstimateService{{ServiceName: "pg", EstimatedCost: models.MustAmount("3.00")}}}), t0)
	if err := j.Save(path, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	k, err := Load(path, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if es := k.Entries(); len(es) != 1 || es[0].After != "p2" || es[0].Away {
		t.Fatalf("entries after a restart = %+v", es)
	}
	if got, ok := k.MonthCost("acme", "pg", t0); !ok || got != "3.00 USD" {
		t.Errorf("the ledger after a restart: %q %v", got, ok)
	}
	es := k.Observe(ServicesOf("acme"), services(svc("a", "p3", "RUNNING"), svc("b", "p1", "RUNNING")), t0.Add(time.Hour))
	if len(es) != 2 || !es[0].Away || !es[1].Away {
		t.Fatalf("changes made while closed = %+v, want 2 marked away", es)
	}
	es = k.Observe(ServicesOf("acme"), services(svc("a", "p4", "RUNNING"), svc("b", "p1", "RUNNING")), t0.Add(time.Hour+time.Second))
	if len(es) != 1 || es[0].Away {
		t.Errorf("a change seen live is marked as made while closed: %+v", es)
	}
}

func TestTheFileHoldsNoSecretAndIsPrivate(t *testing.T) {
	const password, uri, token = "hunter2-PASSWORD", "postgres://avnadmin:hunter2-PASSWORD@pg.example:5432/db", "tok-SECRET-123"
	s := svc("pg-main", "p1", "RUNNING")
	s.ServiceURI = uri
	s.ServiceURIParams = map[string]string{"password": password}
	s.ConnectionInfo = models.ConnectionInfoMap{"pg": {{Host: "pg.example", URI: uri}}}
	s.UserConfig["admin_password"] = password
	j := New()
	j.Observe(ServicesOf("acme"), services(s), t0)
	j.Observe(UsersOf("acme", "pg-main"), []Item{FromUser(models.ServiceUser{Username: "avnadmin", Password: password, AccessKey: password, AccessCert: password})}, t0)
	j.Observe(InvoicesOf("bg"), []Item{FromInvoice(models.Invoice{InvoiceNumber: "1", DownloadURL: "https://x/inv?token=" + token})}, t0)
	j.Observe(UsersOf("acme", "pg-main"), nil, t0.Add(time.Second))
	path := Path(t.TempDir(), "work", "https://api.example/v1")
	if err := j.Save(path, t0); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{password, "avnadmin:", token} {
		if strings.Contains(string(data), secret) {
			t.Errorf("the journal file holds %q", secret)
		}
	}
	for _, p := range []string{path, filepath.Dir(path)} {
		info, _ := os.Stat(p)
		if want := map[bool]os.FileMode{true: 0o700, false: 0o600}[info.IsDir()]; info.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", p, info.Mode().Perm(), want)
		}
	}
}

func TestLoadRefusesWhatIsNotAJournal(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := Load(fifo, t0); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("a FIFO: %v", err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, MaxFile+10), 0o600); err != nil {
		t.Fatal(err)
	}
	if j, err := Load(big, t0); err == nil || len(j.Entries()) != 0 {
		t.Errorf("an oversized file: %v", err)
	}
	if j, err := Load(filepath.Join(dir, "missing.json"), t0); err != nil || j == nil {
		t.Errorf("a missing file is an empty journal, got %v", err)
	}
}

func TestOldEntriesGo(t *testing.T) {
	j := New()
	j.Observe(Projects(), []Item{FromProject(models.Project{ProjectName: "a"})}, t0)
	j.Observe(Projects(), []Item{FromProject(models.Project{ProjectName: "a"}), FromProject(models.Project{ProjectName: "b"})}, t0)
	j.Observe(Projects(), []Item{FromProject(models.Project{ProjectName: "a"})}, t0.Add(MaxAge+time.Hour))
	if es := j.Entries(); len(es) != 1 || es[0].Change != Deleted {
		t.Errorf("entries = %+v, want only the recent deletion", es)
	}
}

func TestManyProjectsEstimatesStillFoldIntoOneEntryEach(t *testing.T) {
	j := New()
	for round := range 3 {
		for p := range 200 {
			j.Observe(EstimateOf(fmt.Sprintf("p%03d", p)), FromEstimate(models.Estimate{BillingCurrency: "USD",
				EstimatedBalance: models.MustAmount(fmt.Sprintf("%d.00", 10+round))}), t0.Add(time.Duration(round)*time.Minute))
		}
	}
	if n := j.Len(); n != 200 {
		t.Errorf("%d entries for 200 projects' estimates over three reads, want 200", n)
	}
	if set := j.Last(EstimateOf("p000")); set.Len() != 1 {
		t.Errorf("an estimate keeps %d items, want only its total", set.Len())
	}
}

// Values that move on their own drift: an estimate's total, the credits available. A
// grant of credits changes their total, which someone did: announced, and not folded.
func TestDriftedIsWhatMovesOnItsOwn(t *testing.T) {
	amount := func(s string) models.Amount {
		a, err := models.ParseAmount(s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	credits := func(available, total string) []Item {
		return []Item{FromCredits("acme", models.Credits{AvailableCredits: amount(available), TotalCredits: amount(total), Currency: "USD"})}
	}
	j := New()
	j.Observe(CreditsOf("acme"), credits("300", "500"), t0)
	found := j.Observe(CreditsOf("acme"), credits("800", "1000"), t0.Add(time.Hour))
	drifted := map[string]bool{}
	for _, e := range found {
		drifted[e.Field] = e.Drifted()
	}
	if len(found) != 2 || !drifted["available"] || drifted["total"] {
		t.Errorf("a grant of credits: %+v, drifted %v; want available drifted, total not", found, drifted)
	}
	// A second grant that month: the balance's drift folds into its one entry, each
	// grant keeps its own.
	j.Observe(CreditsOf("acme"), credits("1200", "1500"), t0.Add(2*time.Hour))
	entries := map[string]int{}
	for _, e := range j.Entries() {
		entries[e.Field]++
	}
	if entries["available"] != 1 || entries["total"] != 2 {
		t.Errorf("two grants in a month made %v entries, want available 1, total 2", entries)
	}
	j.Observe(ServicesOf("acme"), []Item{FromService(svc("pg-main", "startup-4", models.StateRunning))}, t0)
	if e := j.Observe(ServicesOf("acme"), []Item{FromService(svc("pg-main", "business-4", models.StateRunning))}, t0.Add(time.Hour)); len(e) != 1 || e[0].Drifted() {
		t.Errorf("a plan change drifted: %+v", e)
	}
}
