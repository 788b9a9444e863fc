package ui

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/sandbox"
	searchpane "github.com/svcui/svcui/internal/ui/pages/search"
)

// startSearchSandbox is the demo sandbox with its opensearch services listening over TLS.
func startSearchSandbox(t *testing.T) env {
	t.Helper()
	searchpane.HistoryDir = t.TempDir()
	t.Cleanup(func() { searchpane.HistoryDir = "" })
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

// openSearch starts the UI on the search sandbox and waits for the Search tab's index list.
func openSearch(t *testing.T) *screen {
	e := startSearchSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.mark()
	s.keys("5")
	s.waitFor("opensearch-logs", "logs-app", "5000", "cluster ● green")
	return s
}

func TestFlowSearchHitsPagingAndViews(t *testing.T) {
	s := openSearch(t)
	// Editor → results → index list; enter inserts a search of the selected index.
	s.special(tea.KeyTab, tea.KeyTab)
	s.waitFor("▸ Indices")
	s.mark()
	s.keys("enter")
	s.waitFor("GET /logs-app/_search", "▸ Editor")
	s.mark()
	s.special(tea.KeyF5)
	s.waitFor("● 200", "took ", "5000 hits", "10 shown", "@timestamp", "level", "latency_ms")
	s.special(tea.KeyTab) // results
	s.mark()
	s.keys("n")
	s.waitFor("10 shown, page 2")
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
	s := openSearch(t)
	s.special(tea.KeyCtrlEnd, tea.KeyEnter)
	s.typeLines("GET /logs-app/_search\n{\"query\": {\"match_all\": {}}")
	s.mark()
	s.special(tea.KeyCtrlR)
	// The buffer's first request takes lines 1-2; the new body is on line 4.
	s.waitFor("✗ not sent", "The request was not sent: line 4, column 28")
	s.absent("● 200", 300e6)
}

func TestFlowSearchSQLMode(t *testing.T) {
	s := openSearch(t)
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
	s.special(tea.KeyCtrlB)
	s.waitFor("Bulk load into opensearch-logs", "NDJSON file")
	s.typeText(filepath.Join(filepath.Dir(path), "missing.ndjson"))
	s.waitFor("no such file")
	for range len(filepath.Join(filepath.Dir(path), "missing.ndjson")) {
		s.special(tea.KeyBackspace)
	}
	s.typeText(path)
	s.mark()
	s.keys("enter")
	s.waitFor("Target index")
	s.keys("enter") // the selected index, logs-app, is prefilled
	// The failed line's reason, and the index list reloaded with the new count.
	s.waitFor("Bulk load", "3 indexed, 1 failed", "line 3:", "5003")
}

func TestFlowSearchNonOpenSearch(t *testing.T) {
	e := startSearchSandbox(t)
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
