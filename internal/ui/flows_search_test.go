package ui

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/sandbox"
)

// startSearchSandbox is the demo sandbox with its opensearch services listening over TLS.
func startSearchSandbox(t *testing.T) env {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{Data: "demo", Seed: 1, Search: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() { srv.Close(); _ = sb.Close() })
	return env{url: srv.URL, admin: sb.AdminToken(), dev: sb.DeveloperToken(), sb: sb}
}

func (s *screen) special(ts ...tea.KeyType) {
	for _, k := range ts {
		s.tm.Send(tea.KeyMsg{Type: k})
	}
}

// typeLines types text into the editor, pressing enter between lines.
func (s *screen) typeLines(text string) {
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			s.special(tea.KeyEnter)
		}
		s.typeText(l)
	}
}

// readOnlySearchSandbox is one demo search sandbox shared by the flows that only read
// from it (searches, SQL, paging, the document view, the editor): loading the demo costs
// seconds under -race. It serves fixed data (Handler, never Start: no live documents)
// until the test binary ends. A flow that writes (bulk load, delete, credentials)
// starts its own with startSearchSandbox.
func readOnlySearchSandbox(t *testing.T) env {
	t.Helper()
	sharedSearch.once.Do(func() {
		sb, err := sandbox.New(sandbox.Options{Data: "demo", Seed: 1, Search: true})
		if err != nil {
			sharedSearch.err = err
			return
		}
		srv := httptest.NewServer(sb.Handler())
		sharedSearch.env = env{url: srv.URL, admin: sb.AdminToken(), dev: sb.DeveloperToken(), sb: sb}
	})
	if sharedSearch.err != nil {
		t.Fatal(sharedSearch.err)
	}
	return sharedSearch.env
}

var sharedSearch struct {
	once sync.Once
	env  env
	err  error
}

// openSearch starts the UI on a search sandbox of its own and waits for the Search
// tab's index list.
func openSearch(t *testing.T) *screen {
	s, _ := openSearchWith(t)
	return s
}

// openReadOnlySearch is openSearch on the shared sandbox, for a flow that writes nothing.
func openReadOnlySearch(t *testing.T) *screen {
	s, _ := openSearchOn(t, readOnlySearchSandbox(t))
	return s
}

// openSearchWith is openSearch that also gives the UI's platform client.
func openSearchWith(t *testing.T) (*screen, *api.Client) {
	return openSearchOn(t, startSearchSandbox(t))
}

func openSearchOn(t *testing.T, e env) (*screen, *api.Client) {
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.mark()
	s.keys("5")
	s.waitFor("opensearch-logs", "logs-app", "5000", "cluster ● green")
	return s, c
}

func TestFlowSearchHitsPagingAndViews(t *testing.T) {
	t.Parallel()
	s := openReadOnlySearch(t)
	// Editor → results → index list; enter runs a search of the selected index (and puts
	// it in the editor) and focuses its hits.
	s.special(tea.KeyTab, tea.KeyTab)
	s.waitFor("▸ Indices")
	s.mark()
	s.keys("enter")
	// Laid out for logs: time first, the message taking the room left.
	s.waitFor("GET /logs-app/_search", "▸ Results", "● 200", "took ", "hits 1–20 of 5,000", "@timestamp UTC", "message", "columns hidden")
	s.mark()
	s.keys("n")
	s.waitFor("hits 21–40 of 5,000", "page 2")
	s.mark()
	s.keys("p") // back through the same request
	s.waitFor("hits 1–20 of 5,000")
	s.mark()
	s.keys("n")
	s.waitFor("hits 21–40 of 5,000", "page 2")
	s.mark()
	s.keys("v") // no aggregations: straight to raw JSON
	s.waitFor("· raw JSON ·", `"hits": {`, `"_index": "logs-app"`)

	// Aggregations: a terms aggregation typed at the end of the buffer.
	s.special(tea.KeyTab, tea.KeyTab) // indices, editor
	s.special(tea.KeyCtrlEnd, tea.KeyEnter, tea.KeyEnter)
	s.typeLines("POST /logs-app/_search\n{\"size\": 0, \"aggs\": {\"levels\": {\"terms\": {\"field\": \"level\"}}}}")
	s.mark()
	s.special(tea.KeyCtrlR)
	s.waitFor("· aggregations ·", "levels", "(buckets)", "INFO", "█")
}

func TestFlowSearchJSONMistakeIsNotSent(t *testing.T) {
	t.Parallel()
	s := openReadOnlySearch(t)
	s.special(tea.KeyCtrlEnd, tea.KeyEnter)
	s.typeLines("GET /logs-app/_search\n{\"query\": {\"match_all\": {}}")
	s.mark()
	s.special(tea.KeyCtrlR)
	// The buffer's first request takes lines 1-2; the new body is on line 4.
	s.waitFor("✗ not sent", "The request was not sent: line 4, column 28")
	s.never("● 200") // refused before sending: nothing was run
}

func TestFlowSearchSQLMode(t *testing.T) {
	t.Parallel()
	s := openReadOnlySearch(t)
	s.mark()
	s.special(tea.KeyCtrlS)
	s.waitFor("SQL (ctrl+s for requests)")
	s.special(tea.KeyCtrlU)
	s.typeText("SELECT level, COUNT(*) FROM logs-app GROUP BY level")
	s.mark()
	s.special(tea.KeyF5)
	s.waitFor("● 200", "rows", "level", "COUNT(*)", "ERROR", "WARN")
}

func TestFlowSearchBulkLoadWithFailure(t *testing.T) {
	t.Parallel()
	s := openSearch(t)
	path := filepath.Join(t.TempDir(), "docs.ndjson")
	data := `{"level":"INFO","message":"one"}
{"level":"WARN","message":"two"}
this line is not json
{"level":"ERROR","message":"three"}
`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	s.mark()
	s.special(tea.KeyCtrlO)
	s.waitFor("Bulk load into opensearch-logs", "NDJSON file")
	missing := filepath.Join(filepath.Dir(path), "missing.ndjson")
	s.typeText(missing)
	s.advance("Target index", "enter")
	s.mark()
	s.keys("enter") // the selected index, logs-app, is prefilled
	// The file is looked at when the load starts: the form comes back saying why.
	s.waitFor("does not exist")
	// The form comes back with its focus where it was left (the last field): go back
	// to the file's. No mark: the refused form may already show that field focused.
	s.special(tea.KeyShiftTab)
	s.waitFor("┃ NDJSON file")
	for range len(missing) {
		s.special(tea.KeyBackspace)
	}
	s.typeText(path)
	s.advance("Target index", "enter")
	s.mark()
	s.keys("enter")
	// The review says what will be loaded where before anything is sent.
	s.waitFor("Bulk load into logs-app", "4 in the file", "124 in the file")
	s.mark()
	s.keys("enter")
	// The failed line's reason, and the index list reloaded with the new count.
	s.waitFor("Bulk load", "3 indexed, 1 failed", "line 3:", "5003")
}

func TestFlowSearchNonOpenSearch(t *testing.T) {
	t.Parallel()
	e := readOnlySearchSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.mark()
	s.keys(":")
	s.typeText("search kafka-events")
	s.keys("enter")
	s.waitFor("not opensearch: only opensearch services have a search interface")
	s.mark()
	s.keys(":")
	s.typeText("project acme-staging")
	s.keys("enter")
	s.waitFor("Current project: acme-staging")
	s.mark()
	s.keys("5")
	s.waitFor("Project acme-staging has no opensearch service")
}

// Enter on a hit opens it; n and shift+tab move between hits; esc returns to the
// results with the cursor on the hit shown last; a goes full screen.
func TestFlowSearchDocumentView(t *testing.T) {
	t.Parallel()
	s := openReadOnlySearch(t)
	s.special(tea.KeyTab, tea.KeyTab)
	s.waitFor("▸ Indices")
	s.mark()
	s.keys("enter")
	s.waitFor("GET /logs-app/_search", "hits 1–20 of 5,000", "▸ Results")
	s.mark()
	s.keys("enter")
	s.waitFor("Hit 1 of 20", "_index", "logs-app", "@timestamp", "trace_id", "message")
	s.mark()
	s.keys("n", "n")
	s.waitFor("Hit 3 of 20")
	s.mark()
	s.special(tea.KeyShiftTab)
	s.waitFor("Hit 2 of 20")
	s.mark()
	s.keys("v")
	s.waitFor("raw JSON", `"_source": {`)
	s.mark()
	s.keys("esc")
	s.waitFor("▸ Results", "2/20")
	s.mark()
	s.keys("z")
	s.waitFor("results full screen")
	s.never("▸ Editor") // the full-screen frame has no editor
}

// After the search user's password is reset elsewhere, the next run reads the
// connection details again, succeeds, and the footer says what happened.
func TestFlowSearchAfterPasswordChange(t *testing.T) {
	t.Parallel()
	s, c := openSearchWith(t)
	if _, err := c.ResetCredentials(context.Background(), "acme-prod", "opensearch-logs", "avnadmin"); err != nil {
		t.Fatal(err)
	}
	s.mark()
	s.special(tea.KeyF5)
	s.waitFor("● 200", "The password of avnadmin changed elsewhere; reconnected with the new one.")
}

// The editor's text is kept per service across restarts: what was typed last is there
// after ctrl+c straight from the editor (no esc, no run, no pause), and the quit does
// not race a save still on its way.
func TestFlowSearchEditorTextSurvivesARestart(t *testing.T) {
	t.Parallel()
	e := readOnlySearchSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.mark()
	s.keys("5")
	s.waitFor("logs-app", "cluster ● green")
	s.special(tea.KeyCtrlEnd, tea.KeyEnter)
	s.mark()
	s.typeText("GET /logs-web/_count")
	s.waitFor("GET /logs-web/_count")
	s.special(tea.KeyCtrlC)
	s.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))

	again := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	again.waitFor("acme-prod", "as admin")
	again.mark()
	again.keys("5")
	again.waitFor("logs-app", "GET /logs-web/_count")
}

// DELETE /products in the editor opens a review with the index's documents and size;
// enter asks for the name; nothing is deleted until it is typed; then the index list
// reloads without it. A wildcard delete is refused with a sentence.
func TestFlowSearchDeleteIndexIsReviewedAndNamed(t *testing.T) {
	t.Parallel()
	s := openSearch(t)
	s.waitFor("1/3")
	s.special(tea.KeyCtrlEnd, tea.KeyEnter)
	s.typeText("DELETE /logs-*")
	s.mark()
	s.special(tea.KeyCtrlR)
	s.waitFor("was not sent: a delete through a wildcard")
	s.special(tea.KeyCtrlU)
	s.typeText("DELETE /products")
	s.mark()
	s.special(tea.KeyCtrlR)
	s.waitFor("DELETE /products: review", "products  200 docs", "→ deleted")
	s.mark()
	s.keys("enter")
	s.waitFor("Type products to confirm")
	s.typeText("product")
	s.keys("enter") // not the whole name: nothing is sent, and it says so
	s.waitFor("keep typing")
	s.never("acknowledged")
	s.mark()
	s.typeText("s")
	s.keys("enter")
	s.waitFor(`"acknowledged": true`, "1/2")
}

// The results read like logs: T narrows to a range named in the header with a
// histogram above the hits; t follows the search live and stops again.
func TestFlowSearchLogReader(t *testing.T) {
	t.Parallel()
	s := openReadOnlySearch(t)
	s.special(tea.KeyTab, tea.KeyTab)
	s.waitFor("▸ Indices")
	s.mark()
	s.keys("enter")
	s.waitFor("GET /logs-app/_search", "hits 1–20 of 5,000", "all time", "max ", "/1d", "▸ Results")
	s.mark()
	s.keys("T")
	s.waitFor("Time range (now all time)", "last 24h")
	s.typeText("24h")
	s.mark()
	s.keys("enter")
	s.waitFor("last 24h", "/30m") // the range's answer: its histogram has 30-minute bars
	s.mark()
	s.keys("t")
	s.waitFor("● LIVE", "100 documents")
	s.mark()
	s.keys("t")
	s.waitFor("Live tail stopped")
}
