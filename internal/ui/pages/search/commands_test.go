package search

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
)

func TestSearchCommandUsesTheCurrentService(t *testing.T) {
	t.Parallel()
	ctx := uitest.NewContext()
	uitest.Session(ctx).SetService("os-b", models.TypeOpenSearch)
	msgs := uitest.Run(runSearch(ctx, ""))
	if len(msgs) != 2 || msgs[1] != (selectService{name: "os-b"}) {
		t.Fatalf(":search with an opensearch service current: %#v", msgs)
	}
	uitest.Session(ctx).SetService("pg-main", models.TypePG)
	if msgs := uitest.Run(runSearch(ctx, "")); len(msgs) != 1 {
		t.Fatalf(":search with a pg service current should let the tab find one: %#v", msgs)
	}
	if acceptsSearch(ctx, "pg-main") || !acceptsSearch(ctx, "os-a") {
		t.Fatal("the palette must not offer the current pg service, and offers others whose type is unknown")
	}
}

// Connecting makes the service current (breadcrumb, other commands), and a picker
// appears only when the context names no opensearch service.
func TestConnectingMakesTheServiceCurrent(t *testing.T) {
	t.Parallel()
	ctx, _ := testContext(t)
	ctx.API = platform([]models.Service{
		{ServiceName: "os-a", ServiceType: models.TypeOpenSearch, ServiceURI: "https://avnadmin:pw@127.0.0.1:1"},
		{ServiceName: "os-b", ServiceType: models.TypeOpenSearch, ServiceURI: "https://avnadmin:pw@127.0.0.1:2"},
	})
	p := newPane(ctx, "")
	p.SetSize(100, 30)
	deliver(t, p, p.Init())
	if v := p.View(); !strings.Contains(v, "several opensearch services") || !strings.Contains(v, "os-b") {
		t.Fatalf("chooser:\n%s", v)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyDown})
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	_, msgs := deliver(t, p, cmd)
	if p.link.conn == nil || p.link.conn.service != "os-b" || p.Title() != "Search os-b" {
		t.Fatalf("connected to %+v", p.link.conn)
	}
	found := false
	for _, m := range msgs {
		found = found || m == (common.SelectService{Project: "p", Name: "os-b", Type: models.TypeOpenSearch})
	}
	if !found {
		t.Fatalf("no SelectService: %#v", msgs)
	}
	// With os-b current, a new Search tab connects to it without asking.
	uitest.Session(ctx).SetService("os-b", models.TypeOpenSearch)
	np := newPane(ctx, "")
	np.SetSize(100, 30)
	deliver(t, np, np.Init())
	if np.link.conn == nil || np.link.conn.service != "os-b" {
		t.Fatalf("the current service was not used: %+v %q", np.link.conn, np.View())
	}
	p.Leave()
}

func TestBulkProgressAndEnd(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	job := &bulkJob{path: "f.ndjson", index: "logs", size: 100, running: true, visible: true, cancel: func() {}, updates: make(chan search.BulkProgress, 1)}
	p.bulk.job = job
	if cmd := p.bulk.progressed(bulkMsg{id: p.req.ID, job: job, progress: search.BulkProgress{BytesRead: 50, DocsSent: 5, Batches: 1}}); cmd == nil {
		t.Fatal("progress did not re-arm the wait")
	}
	if v := p.View(); !strings.Contains(v, "50%") || !strings.Contains(v, "5 documents sent") {
		t.Fatalf("progress view:\n%s", v)
	}
	p.bulk.ended(job, search.BulkResult{Docs: 6, Succeeded: 5, Failed: 1, BytesRead: 100,
		Failures: []search.BulkFailure{{Line: 3, Type: "mapper_parsing_exception", Reason: "failed to parse"}}}, nil)
	v := p.View()
	if job.running || !strings.Contains(v, "5 indexed, 1 failed") || !strings.Contains(v, "line 3: mapper_parsing_exception: failed to parse") {
		t.Fatalf("end view:\n%s", v)
	}
	// The next run hides the finished panel.
	p.editor.ta.SetValue("GET /_cluster/health\n")
	p.editor.gotoLine(0)
	p.reader.run()
	if job.visible {
		t.Fatal("the finished bulk panel stayed over the results")
	}
	p.Leave()
}

func TestReadOnlyRefusesRequestsThatChangeTheService(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		method, path string
		mutating     bool
	}{
		{"GET", "/logs/_search", false}, {"POST", "/logs/_search", false}, {"POST", "/_plugins/_sql", false},
		{"POST", "/logs/_count", false}, {"POST", "/logs/_doc", true}, {"PUT", "/logs", true},
		{"DELETE", "/logs", true}, {"POST", "/_bulk", true}, {"POST", "/_reindex", true},
	} {
		if got := !search.ReadOnlyRequest(search.ParsedRequest{Method: c.method, Path: c.path}); got != c.mutating {
			t.Errorf("%s %s: mutating %v", c.method, c.path, got)
		}
	}
	p := connectedPane(t)
	p.ctx.ReadOnly = true
	p.editor.ta.SetValue("DELETE /logs-app\n")
	p.editor.gotoLine(0)
	p.reader.run()
	if p.reader.running || p.reader.res.ans == nil || !strings.Contains(p.reader.res.ans.errText, "Read-only mode") {
		t.Fatalf("a DELETE ran in read-only mode: %+v", p.reader.res.ans)
	}
	if cmd := p.bulk.open(p.link.conn, "", ""); cmd == nil {
		t.Fatal("bulk load in read-only mode gave no answer")
	} else if n, ok := cmd().(common.Notify); !ok || !strings.Contains(n.Text, "Read-only") {
		t.Fatalf("bulk in read-only mode: %#v", cmd())
	}
}

func TestReasonIsWrappedNotCut(t *testing.T) {
	t.Parallel()
	p := newPane(common.NewContext(), "")
	p.SetSize(60, 10)
	p.link.reason = "Service pg-main is pg, not opensearch: only opensearch services have a search interface."
	out := p.View()
	if strings.Contains(out, "…") || !strings.Contains(out, "interface.") {
		t.Fatalf("reason cut:\n%s", out)
	}
}
