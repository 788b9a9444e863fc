package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// fakeAPI answers the service calls the pane makes; other methods are never called.
type fakeAPI struct {
	common.API
	services []models.Service
}

func (f fakeAPI) ListServices(context.Context, string) ([]models.Service, error) {
	return f.services, nil
}

func (f fakeAPI) GetService(_ context.Context, _, name string) (models.Service, error) {
	for _, s := range f.services {
		if s.ServiceName == name {
			return s, nil
		}
	}
	return models.Service{}, fmt.Errorf("no service %s", name)
}

func (f fakeAPI) GetConnectionInfo(context.Context, string, string) (models.ConnectionInfo, error) {
	return models.ConnectionInfo{User: "avnadmin", Password: "pw"}, nil
}

func TestResolveTargetSaysWhyThereIsNothingToSearch(t *testing.T) {
	api := fakeAPI{services: []models.Service{
		{ServiceName: "pg-main", ServiceType: models.TypePG},
		{ServiceName: "os-a", ServiceType: models.TypeOpenSearch, ServiceURI: "https://avnadmin:pw@127.0.0.1:1"},
		{ServiceName: "os-b", ServiceType: models.TypeOpenSearch, ServiceURI: "https://avnadmin:pw@127.0.0.1:2"},
	}}
	ctx := context.Background()
	HistoryDir = t.TempDir()
	defer func() { HistoryDir = "" }()

	r, err := dialer{api: api}.resolveTarget(ctx, "", "")
	if err != nil || !strings.Contains(r.reason, "No project is selected") {
		t.Fatalf("no project: %+v %v", r, err)
	}
	r, _ = dialer{api: fakeAPI{services: api.services[:1]}}.resolveTarget(ctx, "p", "")
	if !strings.Contains(r.reason, "has no opensearch service") {
		t.Fatalf("no opensearch: %q", r.reason)
	}
	r, _ = dialer{api: api}.resolveTarget(ctx, "p", "pg-main")
	if !strings.Contains(r.reason, "pg-main is pg, not opensearch") {
		t.Fatalf("named pg: %q", r.reason)
	}
	r, _ = dialer{api: api}.resolveTarget(ctx, "p", "")
	if strings.Join(r.choices, ",") != "os-a,os-b" || r.conn != nil {
		t.Fatalf("several: %+v", r)
	}
	r, err = dialer{api: api}.resolveTarget(ctx, "p", "os-b")
	if err != nil || r.conn == nil || r.conn.user != "avnadmin" || r.conn.client.Target().Port != 2 {
		t.Fatalf("named opensearch: %+v %v", r, err)
	}
	if strings.Contains(r.conn.client.Target().String(), "pw") {
		t.Fatal("target description carries the password")
	}
	if r.conn.client.Insecure() {
		t.Fatal("TLS verification must be on unless the profile turns it off")
	}
	r, err = dialer{api: api, insecure: true}.resolveTarget(ctx, "p", "os-b")
	if err != nil || r.conn == nil || !r.conn.client.Insecure() {
		t.Fatalf("the profile's search_insecure_skip_verify must reach the client: %+v %v", r, err)
	}
}

// connectedPane is a pane with a client that is never reached (tests of local behaviour).
func connectedPane(t *testing.T) *Pane {
	t.Helper()
	ctx := common.NewContext()
	ctx.Project = "p"
	c, err := search.NewClient(search.Target{Host: "127.0.0.1", Port: 1, Username: "u", Password: "pw", ServiceName: "os"})
	if err != nil {
		t.Fatal(err)
	}
	p := newPane(ctx, "")
	p.conn = &connection{service: "os", user: "u", client: c}
	p.SetSize(100, 30)
	return p
}

func TestJSONMistakeIsShownAndNothingSent(t *testing.T) {
	p := connectedPane(t)
	p.editor.SetValue("GET /logs/_search\n{\"query\": {\"match_all\": {}}\n")
	p.gotoLine(0)
	cmd := p.run()
	if p.running || p.runGen != 0 {
		t.Fatal("a request with a JSON mistake was sent")
	}
	a := p.res.ans
	if a == nil || a.sent || !strings.Contains(a.errText, "line 2, column") {
		t.Fatalf("answer: %+v", a)
	}
	if n, ok := cmd().(common.Notify); !ok || !strings.Contains(n.Text, "not sent") {
		t.Fatalf("footer: %#v", cmd())
	}
	if v := p.View(); !strings.Contains(v, "✗ not sent") || lipgloss.Height(v) > 30 {
		t.Fatalf("view:\n%s", v)
	}
}

func TestRunIsAsyncAndStaleResultsAreDropped(t *testing.T) {
	p := connectedPane(t)
	p.editor.SetValue("GET /_cluster/health\n")
	p.gotoLine(0)
	first := p.run()
	second := p.run()
	if first == nil || second == nil || p.runGen != 2 {
		t.Fatal("runs are not commands")
	}
	// The first run's answer arrives late: dropped.
	p.Update(runResult{id: p.req.ID, gen: 1, ans: &answer{sent: true, status: 500, errText: "old"}})
	if p.res.ans != nil {
		t.Fatal("a stale result was shown")
	}
	p.Update(runResult{id: p.req.ID, gen: 2, ans: &answer{sent: true, status: 200, body: []byte(`{"ok":true}`)}})
	if p.res.ans == nil || p.res.ans.status != 200 || p.running {
		t.Fatal("the current result was not shown")
	}
	p.Leave()
}

func TestFocusCapturingAndKeys(t *testing.T) {
	p := connectedPane(t)
	if !p.Capturing() {
		t.Fatal("the editor has focus but does not capture keys")
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if !strings.Contains(p.editor.Value(), "q") {
		t.Fatal("q was not typed into the editor")
	}
	p.Update(tea.KeyMsg{Type: tea.KeyTab})
	if p.focus != focusResults || p.Capturing() {
		t.Fatalf("tab: focus %d capturing %v", p.focus, p.Capturing())
	}
	p.Update(tea.KeyMsg{Type: tea.KeyTab})
	if p.focus != focusIndices {
		t.Fatalf("second tab: focus %d", p.focus)
	}
	if p.ClaimsKey(tea.KeyMsg{Type: tea.KeyCtrlR}) {
		t.Fatal("ctrl+r over the index list should stay the root's refresh")
	}
	p.Update(tea.KeyMsg{Type: tea.KeyShiftTab})
	if p.focus != focusResults {
		t.Fatalf("shift+tab: focus %d", p.focus)
	}
	if !p.ClaimsKey(tea.KeyMsg{Type: tea.KeyF5}) || !p.ClaimsKey(tea.KeyMsg{Type: tea.KeyCtrlR}) {
		t.Fatal("run keys are not claimed over the results")
	}
}

func TestSQLModeSendsTheStatement(t *testing.T) {
	p := connectedPane(t)
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	if !p.sqlMode {
		t.Fatal("ctrl+s did not switch to SQL")
	}
	p.editor.SetValue("SELECT level, COUNT(*) FROM logs-app GROUP BY level")
	r, ok := p.currentRequest()
	if !ok || r.Method != "POST" || r.Path != sqlPath || search.ValidateJSON(r.Body) != nil ||
		!strings.Contains(r.Body, `"SELECT level, COUNT(*) FROM logs-app GROUP BY level"`) {
		t.Fatalf("request: %+v", r)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	if p.sqlMode || !strings.Contains(p.editor.Value(), "GET /_cluster/health") {
		t.Fatal("the console buffer was not restored")
	}
}

func TestTemplatesPickerInsertsARequest(t *testing.T) {
	p := connectedPane(t)
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlT})
	if p.picker == nil || !p.Capturing() {
		t.Fatal("no templates picker")
	}
	first := search.Templates()[0]
	p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if p.picker != nil || !strings.Contains(p.editor.Value(), strings.TrimSpace(first.Text)) {
		t.Fatalf("template not inserted:\n%s", p.editor.Value())
	}
}

func TestFieldSuggestionsFromTheMapping(t *testing.T) {
	p := connectedPane(t)
	p.over.fields = []string{"level", "latency_ms", "message", "host.name"}
	p.editor.SetValue("GET /logs/_search\n{\"query\": {\"term\": {\"lev")
	p.editor.CursorEnd()
	p.updateSuggestions()
	if len(p.suggest) == 0 || p.suggest[0] != "level" {
		t.Fatalf("suggestions: %v", p.suggest)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyTab})
	if !strings.HasSuffix(p.editor.Value(), `"term": {"level`) || p.focus != focusEditor {
		t.Fatalf("tab did not accept: %q focus %d", p.editor.Value(), p.focus)
	}
}

func TestBulkFormValidation(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "d.ndjson")
	if err := os.WriteFile(file, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		ok   bool
	}{{file, true}, {"", false}, {dir, false}, {filepath.Join(dir, "missing"), false}} {
		if err := validateNDJSONPath(c.path); (err == nil) != c.ok {
			t.Errorf("path %q: %v", c.path, err)
		}
	}
	for _, c := range []struct {
		name string
		ok   bool
	}{{"logs-2026", true}, {"", false}, {"Logs", false}, {"a b", false}, {"_x", false}} {
		if err := validateIndexName(c.name); (err == nil) != c.ok {
			t.Errorf("index %q: %v", c.name, err)
		}
	}
}

// hitsBody is a _search answer with n hits of a few _source fields.
func hitsBody(n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"took":3,"timed_out":false,"hits":{"total":{"value":%d,"relation":"eq"},"max_score":1,"hits":[`, n)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"_index":"logs","_id":"id-%d","_score":1,"_source":{"level":"INFO","service":"svc-%d","latency_ms":%d.5,"message":"request %d handled"}}`, i, i%7, i%300, i)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

func resultsWith(tb testing.TB, n int) *results {
	tb.Helper()
	body := hitsBody(n)
	h, err := search.ShapeHits(body)
	if err != nil {
		tb.Fatal(err)
	}
	r := newResults(common.NewContext())
	r.setSize(120, 30)
	r.set(&answer{sent: true, status: 200, body: body, hits: h})
	return r
}

func TestResultsViewIsBoundedByTheWindow(t *testing.T) {
	r := resultsWith(t, 2000)
	for _, v := range []resultView{viewTable, viewRaw} {
		r.view = v
		r.render()
		out := r.View()
		if h := lipgloss.Height(out); h > 30 {
			t.Fatalf("%s view: %d lines", v, h)
		}
		for _, l := range strings.Split(out, "\n") {
			if lipgloss.Width(l) > 120 {
				t.Fatalf("%s view: line of %d columns", v, lipgloss.Width(l))
			}
		}
	}
	r.view = viewTable
	if out := r.View(); !strings.Contains(out, "2000 hits") || !strings.Contains(out, "2000 shown") || !strings.Contains(out, "latency_ms") {
		t.Fatalf("table view:\n%s", out)
	}
}

func TestAggregationsViewHasBars(t *testing.T) {
	body := []byte(`{"took":1,"hits":{"total":{"value":3,"relation":"eq"},"hits":[]},"aggregations":{"levels":{"buckets":[{"key":"INFO","doc_count":2},{"key":"WARN","doc_count":1}]}}}`)
	aggs, err := search.ShapeAggs(body)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := search.ShapeHits(body)
	r := newResults(common.NewContext())
	r.setSize(80, 20)
	r.set(&answer{sent: true, status: 200, body: body, hits: h, aggs: aggs})
	out := r.View()
	if r.view != viewAggs || !strings.Contains(out, "levels") || !strings.Contains(out, "INFO") || !strings.Contains(out, "█") {
		t.Fatalf("aggregations view:\n%s", out)
	}
}

func BenchmarkResultsView10000Hits(b *testing.B) {
	r := resultsWith(b, 10000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = r.View()
	}
}

func TestSeveralServicesArePicked(t *testing.T) {
	HistoryDir = t.TempDir()
	defer func() { HistoryDir = "" }()
	ctx := common.NewContext()
	ctx.Project = "p"
	ctx.API = fakeAPI{services: []models.Service{
		{ServiceName: "os-a", ServiceType: models.TypeOpenSearch, ServiceURI: "https://avnadmin:pw@127.0.0.1:1"},
		{ServiceName: "os-b", ServiceType: models.TypeOpenSearch, ServiceURI: "https://avnadmin:pw@127.0.0.1:2"},
	}}
	p := newPane(ctx, "")
	p.SetSize(100, 30)
	p.Update(p.Init()())
	if v := p.View(); !strings.Contains(v, "several opensearch services") || !strings.Contains(v, "os-b") {
		t.Fatalf("chooser:\n%s", v)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyDown})
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter did not connect")
	}
	// The connection answer arrives, then the overview load starts (unreachable here).
	nv, _ := p.Update(cmd())
	if np := nv.(*Pane); np.conn == nil || np.conn.service != "os-b" || np.Title() != "Search os-b" {
		t.Fatalf("connected to %+v", np.conn)
	}
	p.Leave()
}

func TestBulkProgressAndEnd(t *testing.T) {
	p := connectedPane(t)
	job := &bulkJob{path: "f.ndjson", index: "logs", size: 100, running: true, visible: true, cancel: func() {}, updates: make(chan tea.Msg, 1)}
	p.bulk = job
	if cmd := p.handleBulk(bulkMsg{id: p.req.ID, job: job, progress: search.BulkProgress{BytesRead: 50, DocsSent: 5, Batches: 1}}); cmd == nil {
		t.Fatal("progress did not re-arm the wait")
	}
	if v := p.View(); !strings.Contains(v, "50%") || !strings.Contains(v, "5 documents sent") {
		t.Fatalf("progress view:\n%s", v)
	}
	p.handleBulk(bulkMsg{id: p.req.ID, job: job, done: true, result: search.BulkResult{Docs: 6, Succeeded: 5, Failed: 1, BytesRead: 100,
		Failures: []search.BulkFailure{{Line: 3, Type: "mapper_parsing_exception", Reason: "failed to parse"}}}})
	v := p.View()
	if job.running || !strings.Contains(v, "5 indexed, 1 failed") || !strings.Contains(v, "line 3: mapper_parsing_exception: failed to parse") {
		t.Fatalf("end view:\n%s", v)
	}
	// The next run hides the finished panel.
	p.editor.SetValue("GET /_cluster/health\n")
	p.gotoLine(0)
	p.run()
	if job.visible {
		t.Fatal("the finished bulk panel stayed over the results")
	}
	p.Leave()
}

func TestReadOnlyRefusesRequestsThatChangeTheService(t *testing.T) {
	for _, c := range []struct {
		method, path string
		mutating     bool
	}{
		{"GET", "/logs/_search", false}, {"POST", "/logs/_search", false}, {"POST", "/_plugins/_sql", false},
		{"POST", "/logs/_count", false}, {"POST", "/logs/_doc", true}, {"PUT", "/logs", true},
		{"DELETE", "/logs", true}, {"POST", "/_bulk", true}, {"POST", "/_reindex", true},
	} {
		if got := mutatingRequest(search.ParsedRequest{Method: c.method, Path: c.path}); got != c.mutating {
			t.Errorf("%s %s: mutating %v", c.method, c.path, got)
		}
	}
	p := connectedPane(t)
	p.ctx.ReadOnly = true
	p.editor.SetValue("DELETE /logs-app\n")
	p.gotoLine(0)
	p.run()
	if p.runGen != 0 || p.res.ans == nil || !strings.Contains(p.res.ans.errText, "Read-only mode") {
		t.Fatalf("a DELETE ran in read-only mode: %+v", p.res.ans)
	}
	if cmd := p.openBulkForm("", ""); cmd == nil {
		t.Fatal("bulk load in read-only mode gave no answer")
	} else if n, ok := cmd().(common.Notify); !ok || !strings.Contains(n.Text, "Read-only") {
		t.Fatalf("bulk in read-only mode: %#v", cmd())
	}
}

func TestExternalEditorReadsTheBufferBack(t *testing.T) {
	p := connectedPane(t)
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "")
	if n, ok := p.openExternal()().(common.Notify); !ok || !strings.Contains(n.Text, "Set $EDITOR") {
		t.Fatal("no sentence without $EDITOR")
	}
	f := filepath.Join(t.TempDir(), "buf.txt")
	if err := os.WriteFile(f, []byte("GET /products/_search\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.Update(externalDone{id: p.req.ID, file: f})
	if p.editor.Value() != "GET /products/_search\n" {
		t.Fatalf("buffer: %q", p.editor.Value())
	}
	if _, err := os.Stat(f); !os.IsNotExist(err) {
		t.Fatal("the temporary file was left behind")
	}
}

func TestCycleReportsWhenOnlyRawJSONCanBeShown(t *testing.T) {
	r := newResults(common.NewContext())
	r.setSize(80, 20)
	r.set(&answer{sent: true, status: 200, body: []byte(`{"status":"green"}`)})
	if r.cycle() || r.shownView() != viewRaw {
		t.Fatalf("an answer without hits has only raw JSON; cycle should say it changed nothing (view %s)", r.shownView())
	}
	hits := resultsWith(t, 3)
	if !hits.cycle() || hits.shownView() != viewRaw {
		t.Fatalf("hits: table → raw expected, got %s", hits.shownView())
	}
}

func TestReasonIsWrappedNotCut(t *testing.T) {
	p := newPane(common.NewContext(), "")
	p.SetSize(60, 10)
	p.reason = "Service pg-main is pg, not opensearch: only opensearch services have a search interface."
	out := p.View()
	if strings.Contains(out, "…") || !strings.Contains(out, "interface.") {
		t.Fatalf("reason cut:\n%s", out)
	}
}
