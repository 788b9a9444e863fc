package search

import (
	"bytes"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/sandbox/opensearch"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// requestLog records what reached the emulated engine: "METHOD /path".
type requestLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *requestLog) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = append(l.seen, s)
}

func (l *requestLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

// count is how many requests had this method and path (query string left out).
func (l *requestLog) count(method, path string) int {
	n := 0
	for _, s := range l.all() {
		m, p, _ := strings.Cut(s, " ")
		if m == method && p == path {
			n++
		}
	}
	return n
}

// engineWithLog is the sandbox's OpenSearch emulation with its demo data, over TLS,
// every request recorded; cluster lets a test write to it directly. A test that writes
// (through the pane or the cluster) gets a copy of its own (demoCopy) of the demo
// indices it names, of all of them when it names none; one that only reads shares
// readEngine's cluster.
func engineWithLog(t testing.TB, only ...string) (search.Target, *requestLog, *opensearch.Cluster) {
	t.Helper()
	cl := demoCopy(t, only...)
	tg, rl := serveEngine(t, cl.Handler())
	return tg, rl, cl
}

// sharedDemo is the demo cluster the tests that only read share: loading the demo
// (about 9,200 documents) is most of such a test's time under -race. It is built on
// first use, kept until the test binary ends and never written (readEngine's guard).
var sharedDemo struct {
	once sync.Once
	cl   *opensearch.Cluster
	err  error
}

func demoCluster(t testing.TB) *opensearch.Cluster {
	t.Helper()
	sharedDemo.once.Do(func() {
		sharedDemo.cl = opensearch.New(opensearch.Options{Name: "test"})
		sharedDemo.err = sharedDemo.cl.LoadDemo(1)
	})
	if sharedDemo.err != nil {
		t.Fatal(sharedDemo.err)
	}
	return sharedDemo.cl
}

// demoImage is the shared demo cluster as Import takes it, and its aliases (which
// Export leaves out) as the actions that set them again.
var demoImage struct {
	once    sync.Once
	data    []byte
	aliases []byte
	err     error
}

// demoCopy is a cluster of the test's own holding what the demo cluster holds (its
// Export imported, its aliases set): about 40 % cheaper than loading the demo again.
// TestDemoCopyIsFaithful holds it to the demo's answers. With only, it holds those of
// the demo's indices and their aliases: a test that writes to an index of its own
// needs no more than a loaded index list, and copying the 9,000 log documents it never
// reads was a third of this package's CPU under -race.
func demoCopy(t testing.TB, only ...string) *opensearch.Cluster {
	t.Helper()
	src := demoCluster(t)
	demoImage.once.Do(func() {
		demoImage.data, demoImage.err = src.Export()
		if demoImage.err == nil {
			demoImage.aliases, demoImage.err = aliasActions(src)
		}
	})
	if demoImage.err != nil {
		t.Fatal(demoImage.err)
	}
	data, aliases := demoImage.data, demoImage.aliases
	if len(only) > 0 {
		v, _ := demoSubsets.LoadOrStore(strings.Join(only, ","), &demoSubsetImage{})
		sub := v.(*demoSubsetImage)
		sub.once.Do(func() { sub.data, sub.aliases, sub.err = demoSubset(data, aliases, only) })
		if sub.err != nil {
			t.Fatal(sub.err)
		}
		data, aliases = sub.data, sub.aliases
	}
	cl := opensearch.New(opensearch.Options{Name: "test"})
	if err := cl.Import(data); err != nil {
		t.Fatal(err)
	}
	if aliases == nil {
		return cl
	}
	if status, body := call(cl, "POST", "/_aliases", aliases); status != http.StatusOK {
		t.Fatalf("setting the demo's aliases: %d %s", status, body)
	}
	return cl
}

// demoSubsets holds a demoSubsetImage for each list of indices a test copies.
var demoSubsets sync.Map

type demoSubsetImage struct {
	once          sync.Once
	data, aliases []byte
	err           error
}

// demoSubset keeps the named indices of an exported image and the alias actions that
// name them (nil when there are none).
func demoSubset(data, aliases []byte, only []string) ([]byte, []byte, error) {
	keep := map[string]bool{}
	for _, n := range only {
		keep[n] = true
	}
	var image map[string]json.RawMessage
	var indices []json.RawMessage
	if err := json.Unmarshal(data, &image); err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal(image["indices"], &indices); err != nil {
		return nil, nil, err
	}
	if streams := image["data_streams"]; len(streams) > 0 && string(streams) != "null" && string(streams) != "[]" {
		return nil, nil, fmt.Errorf("the demo has data streams now: demoSubset must keep their backing indices")
	}
	kept := []json.RawMessage{}
	for _, ix := range indices {
		var head struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(ix, &head); err != nil {
			return nil, nil, err
		}
		if keep[head.Name] {
			kept = append(kept, ix)
		}
	}
	if len(kept) != len(keep) {
		return nil, nil, fmt.Errorf("the demo has %d of the indices %q", len(kept), only)
	}
	image["indices"], _ = json.Marshal(kept)
	var acts struct {
		Actions []struct {
			Add map[string]any `json:"add"`
		} `json:"actions"`
	}
	if err := json.Unmarshal(aliases, &acts); err != nil {
		return nil, nil, err
	}
	var keptActs []any
	for _, a := range acts.Actions {
		if ix, _ := a.Add["index"].(string); keep[ix] {
			keptActs = append(keptActs, map[string]any{"add": a.Add})
		}
	}
	subset, err := json.Marshal(image)
	if err != nil || keptActs == nil {
		return subset, nil, err
	}
	setAliases, err := json.Marshal(map[string]any{"actions": keptActs})
	return subset, setAliases, err
}

// aliasActions reads cl's aliases (GET /_alias) as the POST /_aliases actions that add
// them.
func aliasActions(cl *opensearch.Cluster) ([]byte, error) {
	status, body := call(cl, "GET", "/_alias", nil)
	if status != http.StatusOK {
		return nil, fmt.Errorf("GET /_alias: %d %s", status, body)
	}
	var byIndex map[string]struct {
		Aliases map[string]map[string]any `json:"aliases"`
	}
	if err := json.Unmarshal(body, &byIndex); err != nil {
		return nil, err
	}
	var actions []map[string]any
	for ix, a := range byIndex {
		for name, def := range a.Aliases {
			add := map[string]any{"index": ix, "alias": name}
			for k, v := range def {
				add[k] = v
			}
			actions = append(actions, map[string]any{"add": add})
		}
	}
	return json.Marshal(map[string]any{"actions": actions})
}

// call sends one request straight to cl's handler.
func call(cl *opensearch.Cluster, method, path string, body []byte) (int, []byte) {
	r := httptest.NewRequest(method, path, bytes.NewReader(body))
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	cl.Handler().ServeHTTP(w, r)
	return w.Code, w.Body.Bytes()
}

// readEngine serves the shared demo cluster to one test, its requests recorded in a log
// of the test's own. Only requests that read reach the cluster: any other is refused
// with a 403 and fails the test, so no test changes what the others read (a test that
// writes uses engineWithLog).
func readEngine(t testing.TB) (search.Target, *requestLog) {
	t.Helper()
	h := demoCluster(t).Handler()
	return serveEngine(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !search.ReadOnlyRequest(search.ParsedRequest{Method: r.Method, Path: r.URL.Path}) {
			t.Errorf("%s %s would change the shared demo cluster: the test must use engineWithLog", r.Method, r.URL.Path)
			http.Error(w, `{"error":"the shared test cluster only reads"}`, http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	}))
}

// serveEngine serves h over TLS until the test ends, recording every request.
func serveEngine(t testing.TB, h http.Handler) (search.Target, *requestLog) {
	t.Helper()
	rl := &requestLog{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rl.add(r.Method + " " + r.URL.Path)
		h.ServeHTTP(w, r)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	ca := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	return search.Target{Host: u.Hostname(), Port: port, Username: "u", Password: "pw", CACertPEM: ca, ServiceName: "os"}, rl
}

// enginePane is a pane connected to the shared demo cluster (readEngine), its index
// list loaded: for a test that only reads.
func enginePane(t testing.TB) (*Pane, *requestLog) {
	t.Helper()
	tg, rl := readEngine(t)
	return paneOn(t, tg), rl
}

// writingPane is a pane connected to a demo cluster of its own (engineWithLog), its
// index list loaded: for a test that writes.
func writingPane(t testing.TB, only ...string) (*Pane, *requestLog, *opensearch.Cluster) {
	t.Helper()
	tg, rl, cl := engineWithLog(t, only...)
	return paneOn(t, tg), rl, cl
}

// paneOn is a pane connected to the engine at tg, its index list loaded.
func paneOn(t testing.TB, tg search.Target) *Pane {
	t.Helper()
	ctx, _ := testContext(t)
	c, err := search.NewClient(tg)
	if err != nil {
		t.Fatal(err)
	}
	p := newPane(ctx, "")
	p.link.conn = &connection{project: "p", service: "os", user: "u", client: c}
	p.editor.savedText = p.editor.ta.Value()
	p.SetSize(120, 40)
	deliver(t, p, p.indices.list.Reset())
	if len(p.indices.list.Items()) == 0 {
		t.Fatal("the index list did not load")
	}
	t.Cleanup(p.Leave)
	return p
}

// modalOf finds the modal opened among msgs.
func modalOf(t testing.TB, msgs []tea.Msg) common.Modal {
	t.Helper()
	for _, m := range msgs {
		if o, ok := m.(common.OpenModal); ok {
			o.Modal.SetSize(120, 40)
			return o.Modal
		}
	}
	t.Fatalf("no modal opened: %#v", msgs)
	return nil
}

// press hands keys to a modal and returns the messages its commands produce (without
// its text fields' cursor blink timers).
func press(m common.Modal, keys ...tea.KeyMsg) []tea.Msg {
	var out []tea.Msg
	for _, k := range keys {
		_, cmd := m.Update(k)
		out = append(out, uitest.RunForm(cmd)...)
	}
	return out
}

func typed(s string) []tea.KeyMsg {
	var out []tea.KeyMsg
	for _, r := range s {
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return out
}

var enter = tea.KeyMsg{Type: tea.KeyEnter}

// reviewOf runs text in the editor and returns the review it opens.
func reviewOf(t testing.TB, p *Pane, text string) *components.Review {
	t.Helper()
	msgs := runLine(t, p, text)
	review, ok := modalOf(t, msgs).(*components.Review)
	if !ok {
		t.Fatalf("not a review: %#v", msgs)
	}
	return review
}

func flat(s string) string { return strings.Join(strings.Fields(ansi.Strip(s)), " ") }

// runLine puts text in the editor, the cursor on its first line, and runs it.
func runLine(t testing.TB, p *Pane, text string) []tea.Msg {
	t.Helper()
	p.editor.ta.SetValue(text)
	p.editor.gotoLine(0)
	_, msgs := deliver(t, p, p.reader.run())
	return msgs
}

// DELETE /products opens a review with the index's document count and size; enter asks
// for the name; nothing reaches the service before the name is typed; after the delete
// the index list no longer shows it.
func TestEditorDeleteIndexIsReviewedAndNamed(t *testing.T) {
	t.Parallel()
	p, rl, _ := writingPane(t)
	review := reviewOf(t, p, "DELETE /products\n")
	if v := flat(review.View()); !strings.Contains(v, "DELETE /products") || !strings.Contains(v, "products 200 docs") ||
		!strings.Contains(v, "→ deleted") {
		t.Fatalf("review:\n%s", v)
	}
	if n := rl.count("DELETE", "/products"); n != 0 {
		t.Fatalf("DELETE sent before the review was confirmed (%d)", n)
	}
	confirm, ok := modalOf(t, press(review, enter)).(*components.TypedConfirm)
	if !ok {
		t.Fatal("enter in the review did not ask for the name")
	}
	if got := press(confirm, append(typed("product"), enter)...); len(got) != 0 || rl.count("DELETE", "/products") != 0 {
		t.Fatalf("a partial name sent something: %#v %v", got, rl.all())
	}
	if !strings.Contains(flat(confirm.View()), "Type products to confirm") {
		t.Fatalf("typed confirm:\n%s", confirm.View())
	}
	var sent tea.Msg
	for _, m := range press(confirm, append(typed("s"), enter)...) {
		if w, ok := m.(confirmedWrite); ok {
			sent = w
		}
	}
	if sent == nil {
		t.Fatal("the matching name did not confirm")
	}
	if rl.count("DELETE", "/products") != 0 {
		t.Fatal("sent before the pane took the confirmation")
	}
	deliver(t, p, func() tea.Msg { return sent })
	if n := rl.count("DELETE", "/products"); n != 1 {
		t.Fatalf("DELETE /products sent %d times: %v", n, rl.all())
	}
	if a := p.reader.res.ans; a == nil || a.status != 200 {
		t.Fatalf("answer: %+v", a)
	}
	for _, ix := range p.indices.list.Items() {
		if ix.Index == "products" {
			t.Fatalf("the index list still shows the deleted index: %+v", p.indices.list.Items())
		}
	}
}

// A close takes an index offline for everyone: the review says so and the name is typed, as
// for a delete; a close through a wildcard is refused before anything is sent.
func TestEditorCloseIsReviewedAndNamed(t *testing.T) {
	t.Parallel()
	p, rl, _ := writingPane(t)
	review := reviewOf(t, p, "POST /products/_close\n")
	if v := flat(review.View()); !strings.Contains(v, "products 200 docs") || !strings.Contains(v, "→ closed") {
		t.Fatalf("review:\n%s", v)
	}
	confirm, ok := modalOf(t, press(review, enter)).(*components.TypedConfirm)
	if !ok {
		t.Fatal("enter in the review did not ask for the name")
	}
	if v := flat(confirm.View()); !strings.Contains(v, "offline") || !strings.Contains(v, "POST /products/_open") {
		t.Fatalf("typed confirm:\n%s", v)
	}
	var sent tea.Msg
	for _, m := range press(confirm, append(typed("products"), enter)...) {
		if w, ok := m.(confirmedWrite); ok {
			sent = w
		}
	}
	if sent == nil || rl.count("POST", "/products/_close") != 0 {
		t.Fatalf("the name did not confirm, or the close was sent early: %v", rl.all())
	}
	deliver(t, p, func() tea.Msg { return sent })
	if n := rl.count("POST", "/products/_close"); n != 1 {
		t.Fatalf("POST /products/_close sent %d times: %v", n, rl.all())
	}
	// The list says closed, not "0 docs" beside a green dot; a delete counts no documents as
	// none, it names the closed index's.
	if v := flat(p.indices.list.View()); !regexp.MustCompile(`○\s+products\s+closed`).MatchString(v) {
		t.Fatalf("index list after the close:\n%s", v)
	}
	review, ok = modalOf(t, runLine(t, p, "DELETE /products\n")).(*components.Review)
	if !ok {
		t.Fatal("the delete of a closed index opened no review")
	}
	confirm, ok = modalOf(t, press(review, enter)).(*components.TypedConfirm)
	if v := strings.Join(strings.Fields(strings.ReplaceAll(flat(confirm.View()), "│", "")), " "); !ok ||
		!strings.Contains(v, "removes every document of closed products (a closed index gives no count)") {
		t.Fatalf("typed confirm of a closed index's delete:\n%s", v)
	}
	before := len(rl.all())
	msgs := runLine(t, p, "POST /logs-*/_close\n")
	if !strings.Contains(notes(msgs), "was not sent") || len(rl.all()) != before {
		t.Fatalf("a wildcard close was not refused: %v %v", msgs, rl.all()[before:])
	}
}

// Wildcard deletes are refused with a sentence, before anything is looked up or sent.
func TestEditorWildcardDeleteIsRefused(t *testing.T) {
	t.Parallel()
	p, rl := enginePane(t)
	before := len(rl.all())
	for _, text := range []string{"DELETE /logs-*", "DELETE /_all", "DELETE /*", "DELETE /products,logs-*"} {
		msgs := runLine(t, p, text+"\n")
		if !strings.Contains(notes(msgs), "wildcard") || p.reader.res.ans == nil || !strings.Contains(p.reader.res.ans.errText, "was not sent") {
			t.Fatalf("%s: %q %+v", text, notes(msgs), p.reader.res.ans)
		}
		for _, m := range msgs {
			if _, ok := m.(common.OpenModal); ok {
				t.Fatalf("%s opened a modal", text)
			}
		}
	}
	if got := rl.all()[before:]; len(got) != 0 {
		t.Fatalf("requests sent: %v", got)
	}
}

// A DELETE through an alias names every index behind it and needs the alias typed; a
// delete by query needs the index typed; other writes are reviewed only.
func TestEditorWritesAreReviewed(t *testing.T) {
	t.Parallel()
	p, rl, _ := writingPane(t)
	review := modalOf(t, runLine(t, p, "DELETE /logs\n"))
	v := flat(review.View())
	if !strings.Contains(v, "logs-app (via logs) 5,000 docs") || !strings.Contains(v, "logs-web (via logs) 4,000 docs") {
		t.Fatalf("alias review:\n%s", v)
	}
	if c, ok := modalOf(t, press(review, enter)).(*components.TypedConfirm); !ok || !strings.Contains(flat(c.View()), "Type logs to confirm") {
		t.Fatal("a delete through an alias did not ask for its name")
	}

	review = modalOf(t, runLine(t, p, "POST /logs-app/_delete_by_query\n{\"query\": {\"term\": {\"level\": \"DEBUG\"}}}\n"))
	debug := countOf(t, p, `{"term":{"level":"DEBUG"}}`)
	if v := flat(review.View()); !strings.Contains(v, "matching now "+thousands(debug)+" docs → deleted") {
		t.Fatalf("delete by query review:\n%s", v)
	}
	if c, ok := modalOf(t, press(review, enter)).(*components.TypedConfirm); !ok || !strings.Contains(flat(c.View()), "The "+thousands(debug)+" documents of logs-app that match") {
		t.Fatal("a delete by query did not ask for the index name, saying how many match")
	}
	if rl.count("POST", "/logs-app/_delete_by_query") != 0 {
		t.Fatal("delete by query sent unconfirmed")
	}

	review = modalOf(t, runLine(t, p, "POST /logs-archive/_doc\n{\"level\": \"INFO\"}\n"))
	if v := flat(review.View()); !strings.Contains(v, "logs-archive does not exist → written") {
		t.Fatalf("index a document:\n%s", v)
	}
	var sent tea.Msg
	for _, m := range press(review, enter) {
		if w, ok := m.(confirmedWrite); ok {
			sent = w
		}
	}
	if sent == nil {
		t.Fatal("enter in a plain review did not send")
	}
	deliver(t, p, func() tea.Msg { return sent })
	if rl.count("POST", "/logs-archive/_doc") != 1 {
		t.Fatalf("log: %v", rl.all())
	}
	found := false
	for _, ix := range p.indices.list.Items() {
		found = found || ix.Index == "logs-archive"
	}
	if !found {
		t.Fatal("the index list was not refreshed after the write")
	}

	// Reads go straight out.
	msgs := runLine(t, p, "POST /logs-app/_count\n")
	for _, m := range msgs {
		if _, ok := m.(common.OpenModal); ok {
			t.Fatal("a read opened a review")
		}
	}
	if p.reader.res.ans == nil || p.reader.res.ans.status != 200 {
		t.Fatalf("count: %+v", p.reader.res.ans)
	}
}

// A template inserted below the fold is in view, and the gutter marks its lines.
func TestEditorFollowsTheCursorAndMarksTheRequest(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	var b strings.Builder
	for i := range 40 {
		b.WriteString("GET /logs-app/_doc/" + strconv.Itoa(i) + "\n")
	}
	p.editor.ta.SetValue(b.String())
	p.editor.gotoLine(0)
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlT})
	p.picker.filter.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Delete index")})
	p.picker.refilter()
	p.Update(enter)
	view := ansi.Strip(p.editor.ta.View())
	if !strings.Contains(view, "DELETE /logs-errors") {
		t.Fatalf("the inserted template is not in view:\n%s", view)
	}
	if r, ok := p.editor.currentRequest(); !ok || r.Method != "DELETE" {
		t.Fatalf("the cursor is not on the inserted request: %+v", r)
	}
	for _, l := range strings.Split(view, "\n") {
		marked := strings.HasPrefix(l, gutterMark)
		if strings.Contains(l, "DELETE /logs-errors") != marked {
			t.Fatalf("gutter mark on the wrong line %q:\n%s", l, view)
		}
	}
}
