package search

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/uitest"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

// platform is the fake platform with services in project "p" (the pane's project), each
// with connection details (avnadmin, password "pw") and the users given.
func platform(services []models.Service, users ...models.ServiceUser) *fake.API {
	f := fake.New()
	f.AddServices("p", services...)
	for _, s := range services {
		f.SetConnection("p", s.ServiceName, models.ConnectionInfo{User: "avnadmin", Password: "pw"})
		f.AddUsers("p", s.ServiceName, users...)
	}
	return f
}

// testContext is a context whose state directory is the test's and whose debug log is kept.
func testContext(t testing.TB) (*common.Context, *bytes.Buffer) {
	t.Helper()
	ctx := uitest.NewContext()
	uitest.Session(ctx).SetProject("p")
	ctx.StateDir = t.TempDir()
	var log bytes.Buffer
	ctx.Log = slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return ctx, &log
}

// deliver runs cmd and hands the pane every result addressed to it, then what those
// results start, until nothing is left; it returns the other messages (footer notes,
// modals, copies) in order. The editor's cursor blink timers are left out (each would
// wait 530 ms of wall clock for nothing a test reads).
func deliver(t testing.TB, v common.View, cmd tea.Cmd) (common.View, []tea.Msg) {
	t.Helper()
	others := uitest.PumpForm(cmd, func(msg tea.Msg) tea.Cmd {
		var next tea.Cmd
		v, next = v.Update(msg)
		return next
	}, func(msg tea.Msg) bool {
		a, ok := msg.(common.Addressed)
		return ok && a.Target() == v.ID()
	})
	return v, others
}

// notes are the footer messages among msgs.
func notes(msgs []tea.Msg) string {
	var b strings.Builder
	for _, m := range msgs {
		if n, ok := m.(common.Notify); ok {
			b.WriteString(n.Text + "\n")
		}
	}
	return b.String()
}

func TestResolveTargetSaysWhyThereIsNothingToSearch(t *testing.T) {
	t.Parallel()
	services := []models.Service{
		{ServiceName: "pg-main", ServiceType: models.TypePG},
		{ServiceName: "os-a", ServiceType: models.TypeOpenSearch, ServiceURI: "https://avnadmin:pw@127.0.0.1:1"},
		{ServiceName: "os-b", ServiceType: models.TypeOpenSearch, ServiceURI: "https://avnadmin:pw@127.0.0.1:2"},
	}
	api := platform(services)
	ctx := context.Background()
	c, _ := testContext(t)
	d := func(api common.API, insecure bool) dialer {
		c.API, c.SearchInsecure = api, insecure
		return newDialer(c)
	}

	r, err := d(api, false).resolveTarget(ctx, "", "")
	if err != nil || !strings.Contains(r.reason, "No project is selected") {
		t.Fatalf("no project: %+v %v", r, err)
	}
	r, _ = d(platform(services[:1]), false).resolveTarget(ctx, "p", "")
	if !strings.Contains(r.reason, "has no opensearch service") {
		t.Fatalf("no opensearch: %q", r.reason)
	}
	r, _ = d(api, false).resolveTarget(ctx, "p", "pg-main")
	if !strings.Contains(r.reason, "pg-main is pg, not opensearch") {
		t.Fatalf("named pg: %q", r.reason)
	}
	r, _ = d(api, false).resolveTarget(ctx, "p", "")
	if strings.Join(r.choices, ",") != "os-a,os-b" || r.conn != nil {
		t.Fatalf("several: %+v", r)
	}
	r, err = d(api, false).resolveTarget(ctx, "p", "os-b")
	if err != nil || r.conn == nil || r.conn.user != "avnadmin" || r.conn.client.Target().Port != 2 {
		t.Fatalf("named opensearch: %+v %v", r, err)
	}
	if strings.Contains(r.conn.client.Target().String(), "pw") {
		t.Fatal("target description carries the password")
	}
	if r.conn.client.Insecure() {
		t.Fatal("TLS verification must be on unless the profile turns it off")
	}
	if want := filepath.Join(c.StateDir, "history"); r.conn.history == nil || filepath.Dir(r.conn.history.Path()) != want || !strings.HasPrefix(filepath.Base(r.conn.history.Path()), "p-os-b.") {
		t.Fatalf("history must live in the context's state dir (%s), got %+v", want, r.conn.history)
	}
	r, err = d(api, true).resolveTarget(ctx, "p", "os-b")
	if err != nil || r.conn == nil || !r.conn.client.Insecure() {
		t.Fatalf("the profile's search_insecure_skip_verify must reach the client: %+v %v", r, err)
	}
}

// connectedPane is a pane with a client that is never reached (tests of local behaviour).
func connectedPane(t testing.TB) *Pane {
	t.Helper()
	ctx, _ := testContext(t)
	c, err := search.NewClient(search.Target{Host: "127.0.0.1", Port: 1, Username: "u", Password: "pw", ServiceName: "os"})
	if err != nil {
		t.Fatal(err)
	}
	p := newPane(ctx, "")
	p.link.conn = &connection{project: "p", service: "os", user: "u", client: c}
	p.editor.savedText = p.editor.ta.Value()
	p.SetSize(100, 30)
	return p
}

func TestJSONMistakeIsShownAndNothingSent(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	p.editor.ta.SetValue("GET /logs/_search\n{\"query\": {\"match_all\": {}}\n")
	p.editor.gotoLine(0)
	_, msgs := deliver(t, p, p.reader.run())
	if p.reader.running || p.req.InFlight() != 0 {
		t.Fatal("a request with a JSON mistake was sent")
	}
	a := p.reader.res.ans
	if a == nil || a.sent || !strings.Contains(a.errText, "line 2, column") {
		t.Fatalf("answer: %+v", a)
	}
	if !strings.Contains(notes(msgs), "not sent") {
		t.Fatalf("footer: %v", msgs)
	}
	if v := p.View(); !strings.Contains(v, "✗ not sent") || lipgloss.Height(v) > 30 {
		t.Fatalf("view:\n%s", v)
	}
}

// The footer's "not sent" is about that attempt: the next request that is sent takes it back,
// so the footer does not go on saying the run failed beside a 200.
func TestNextRunTakesBackTheRefusal(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	p.editor.ta.SetValue("GET /logs/_search\n{\"query\": {\"match_all\": {}}\n")
	p.editor.gotoLine(0)
	_, msgs := deliver(t, p, p.reader.run())
	refusal := notes(msgs)
	if !strings.Contains(refusal, "not sent") {
		t.Fatalf("footer: %v", msgs)
	}
	p.editor.ta.SetValue("GET /logs/_search\n{\"query\": {\"match_all\": {}}}\n")
	p.editor.gotoLine(0)
	_, msgs = deliver(t, p, p.reader.run())
	var took bool
	for _, m := range msgs {
		if r, ok := m.(common.Retract); ok && strings.Contains(refusal, r.Text) && r.Text != "" {
			took = true
		}
	}
	if !took {
		t.Fatalf("the refusal was not taken back after a request was sent: %v", msgs)
	}
}

// A run's result is taken only when it is the latest run of this very pane: a late
// answer of an earlier run, or one addressed to another pane with the same generation,
// is dropped.
func TestRunResultChecksViewAndGeneration(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	p.editor.ta.SetValue("GET /_cluster/health\n")
	p.editor.gotoLine(0)
	first := p.reader.run()
	second := p.reader.run()
	if first == nil || second == nil || !p.reader.running {
		t.Fatal("runs are not commands")
	}
	addr := common.Addr{View: p.req.ID, Kind: kindRun}
	for gen := uint64(1); gen < 10 && !p.req.Current(addr); gen++ {
		addr.Gen = gen
	}
	if !p.req.Current(addr) {
		t.Fatal("no current run")
	}
	ok := runOutcome{ans: &answer{sent: true, status: 200, body: []byte(`{"ok":true}`)}}
	p.Update(common.Result[runOutcome]{Addr: common.Addr{View: p.req.ID + 1000, Kind: kindRun, Gen: addr.Gen}, Value: ok})
	if p.reader.res.ans != nil {
		t.Fatal("a result addressed to another view was shown")
	}
	p.Update(common.Result[runOutcome]{Addr: common.Addr{View: p.req.ID, Kind: kindRun, Gen: addr.Gen - 1}, Value: runOutcome{ans: &answer{sent: true, status: 500}}})
	if p.reader.res.ans != nil {
		t.Fatal("a stale result was shown")
	}
	p.Update(common.Result[runOutcome]{Addr: addr, Value: ok})
	if p.reader.res.ans == nil || p.reader.res.ans.status != 200 || p.reader.running {
		t.Fatal("the current result was not shown")
	}
	p.Leave()
}

// The history is written by the run's command, not by Update.
func TestHistoryIsWrittenInTheRunCommand(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	h, err := search.OpenHistory(p.ctx.StateDir, "p-os")
	if err != nil {
		t.Fatal(err)
	}
	p.link.conn.history = h
	p.editor.ta.SetValue("GET /_cluster/health\n")
	p.editor.gotoLine(0)
	cmd := p.reader.run()
	if _, err := os.Stat(h.Path()); !os.IsNotExist(err) {
		t.Fatal("the history was written before the command ran")
	}
	_, msgs := deliver(t, p, cmd)
	if h.Len() != 1 {
		t.Fatalf("history entries: %d", h.Len())
	}
	if _, err := os.Stat(h.Path()); err != nil {
		t.Fatalf("history file: %v", err)
	}
	// The service is unreachable: the answer is Describe's sentence, the detail is logged.
	if a := p.reader.res.ans; a == nil || !a.sent || a.status != 0 || strings.Contains(a.errText, "dial tcp") {
		t.Fatalf("answer: %+v (notes %q)", a, notes(msgs))
	}
}

func TestFocusCapturingAndKeys(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	if !p.Capturing() {
		t.Fatal("the editor has focus but does not capture keys")
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if !strings.Contains(p.editor.ta.Value(), "q") {
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
	for _, k := range []tea.KeyMsg{{Type: tea.KeyF5}, {Type: tea.KeyCtrlR}, {Type: tea.KeyEnter, Alt: true}} {
		if !p.ClaimsKey(k) {
			t.Fatalf("%s is not claimed over the results", k)
		}
	}
}

// Keys come from ctx.Keys: an override moves them, and the old key does nothing.
func TestKeysFollowTheKeyMap(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	km, errs := keys.New(map[string][]string{"templates": {"ctrl+g"}, "run": {"f9"}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	p.ctx.Keys = km
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlT})
	if p.picker != nil {
		t.Fatal("ctrl+t opened templates although the key map moved them")
	}
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlG})
	if p.picker == nil {
		t.Fatal("the overridden templates key did nothing")
	}
	p.picker = nil
	if p.ClaimsKey(tea.KeyMsg{Type: tea.KeyF5}) {
		t.Fatal("f5 still runs although the key map moved run")
	}
	if !p.ClaimsKey(tea.KeyMsg{Type: tea.KeyF9}) {
		t.Fatal("the overridden run key is not claimed")
	}
}

// In the editor, the footer lists the keys that work there, esc first; f1 (a key of the
// Help binding that types nothing) opens the help from inside it.
func TestEditorHelpFollowsFocus(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	var short []string
	for _, b := range p.ShortHelp() {
		short = append(short, b.Help().Key+" "+b.Help().Desc)
	}
	got := strings.Join(short, ", ")
	if !strings.HasPrefix(got, "esc leave editor") || !strings.Contains(got, "ctrl+r/f5 run") || !strings.Contains(got, "ctrl+t templates") ||
		strings.Contains(got, "open hit") {
		t.Fatalf("editor footer: %s", got)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyTab})
	short = short[:0]
	for _, b := range p.ShortHelp() {
		short = append(short, b.Help().Desc)
	}
	if got := strings.Join(short, ", "); !strings.Contains(got, "open hit") || strings.Contains(got, "leave editor") {
		t.Fatalf("results footer: %s", got)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyShiftTab})
	km, _ := keys.New(map[string][]string{"help": {"?", "f1"}})
	p.ctx.Keys = km
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyF1})
	if cmd == nil {
		t.Fatal("f1 in the editor did nothing")
	}
	if _, ok := cmd().(common.OpenModal); !ok {
		t.Fatalf("f1: %#v", cmd())
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
	if !strings.Contains(p.editor.ta.Value(), "?") {
		t.Fatal("? is text in the editor")
	}
}

func TestSQLModeSendsTheStatement(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	if !p.editor.sqlMode {
		t.Fatal("ctrl+s did not switch to SQL")
	}
	p.editor.ta.SetValue("SELECT level, COUNT(*) FROM logs-app GROUP BY level")
	r, ok := p.editor.currentRequest()
	if !ok || r.Method != "POST" || r.Path != sqlPath || !json.Valid([]byte(r.Body)) ||
		!strings.Contains(r.Body, `"SELECT level, COUNT(*) FROM logs-app GROUP BY level"`) {
		t.Fatalf("request: %+v", r)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	if p.editor.sqlMode || !strings.Contains(p.editor.ta.Value(), "GET /_cluster/health") {
		t.Fatal("the console buffer was not restored")
	}
}

func TestTemplatesPickerInsertsARequest(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlT})
	if p.picker == nil || !p.Capturing() {
		t.Fatal("no templates picker")
	}
	first := search.Templates()[0]
	p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if p.picker != nil || !strings.Contains(p.editor.ta.Value(), strings.TrimSpace(first.Text)) {
		t.Fatalf("template not inserted:\n%s", p.editor.ta.Value())
	}
}

// Suggestions come from search.Suggest: the target index's fields from the mapping
// (not another index's), and query keys.
func TestSuggestionsFromTheTargetIndexMapping(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	p.indices.mapping = search.Mapping{Indices: []search.IndexMapping{
		{Index: "logs", Fields: []search.Field{{Path: "level", Type: "keyword"}, {Path: "latency_ms", Type: "float"}}},
		{Index: "other", Fields: []search.Field{{Path: "levitation", Type: "keyword"}}},
	}}
	p.editor.ta.SetValue("GET /logs/_search\n{\"query\": {\"term\": {\"le")
	p.editor.ta.CursorEnd()
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("v")})
	var labels []string
	for _, it := range p.editor.suggest.Items {
		labels = append(labels, it.Label)
	}
	if len(labels) == 0 || labels[0] != "level" || strings.Contains(strings.Join(labels, ","), "levitation") {
		t.Fatalf("suggestions: %v", labels)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyTab})
	if !strings.Contains(p.editor.ta.Value(), `"term": {"level`) || p.focus != focusEditor {
		t.Fatalf("tab did not accept: %q focus %d", p.editor.ta.Value(), p.focus)
	}
	p.editor.ta.SetValue("GET /logs/_search\n{\"qu")
	p.editor.ta.CursorEnd()
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("e")})
	if len(p.editor.suggest.Items) == 0 || !strings.Contains(p.editor.suggest.Items[0].Label, "query") {
		t.Fatalf("query key suggestions: %+v", p.editor.suggest.Items)
	}
}

// Validators are pure: whether the file exists is found when the load starts, in a
// command, and the form comes back saying so.
func TestBulkFileIsCheckedInTheCommand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		path string
		ok   bool
	}{{"/no/such/file.ndjson", true}, {"", false}, {"  ", false}} {
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
	p := connectedPane(t)
	if cmd := p.bulk.open(p.link.conn, "", "logs"); cmd == nil {
		t.Fatal("no form")
	}
	missing := filepath.Join(t.TempDir(), "missing.ndjson")
	_, msgs := deliver(t, p, p.bulk.start(p.link.conn.client, missing, "logs"))
	if p.bulk.job != nil || len(msgs) != 1 {
		t.Fatalf("a missing file started a load: %v", msgs)
	}
	if _, ok := msgs[0].(common.OpenModal); !ok {
		t.Fatalf("the form did not come back: %#v", msgs[0])
	}
	m := msgs[0].(common.OpenModal).Modal
	m.SetSize(120, 40)
	if v := strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(m.View()), "│", " ")), " "); !strings.Contains(v, "missing.ndjson does not") || !strings.Contains(v, "Nothing was sent") {
		t.Fatalf("form:\n%s", v)
	}
}
