package search

import (
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/sandbox/opensearch"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/components"
)

// confirmWrite runs text, confirms its review and returns the confirmed write.
func confirmWrite(t *testing.T, p *Pane, text string) tea.Msg {
	t.Helper()
	for _, m := range press(reviewOf(t, p, text), enter) {
		if w, ok := m.(confirmedWrite); ok {
			return w
		}
	}
	t.Fatal("the review did not confirm the write")
	return nil
}

// The probe of the issue: PUT /review-probe confirmed, then a GET run at once. The GET
// is a read: it neither cancels the PUT in flight nor makes its answer stale; the PUT
// reaches the engine and its outcome is said.
func TestARunDoesNotCancelAWriteInFlight(t *testing.T) {
	t.Parallel()
	p, rl, _ := writingPane(t, "products")
	w := confirmWrite(t, p, "PUT /review-probe\n")
	_, write := p.Update(w)
	p.editor.ta.SetValue("GET /_cluster/health\n")
	p.editor.gotoLine(0)
	run := p.reader.run()
	_, msgs := deliver(t, p, tea.Batch(write, run))
	if n := rl.count("PUT", "/review-probe"); n != 1 {
		t.Fatalf("PUT /review-probe reached the engine %d times: %v", n, rl.all())
	}
	if got := notes(msgs); !strings.Contains(got, "PUT /review-probe: 200 OK") {
		t.Fatalf("the write's outcome was not said: %q", got)
	}
	found := false
	for _, ix := range p.indices.list.Items() {
		found = found || ix.Index == "review-probe"
	}
	if !found {
		t.Fatalf("the index list does not show the new index: %+v", p.indices.list.Items())
	}
}

// A write whose answer is lost (the connection dropped after the engine took it) is read
// back, never sent again: the index exists, so it was created.
func TestALostWriteIsReadBackNotResent(t *testing.T) {
	t.Parallel()
	cl := opensearch.New(opensearch.Options{Name: "test"})
	rl := &requestLog{}
	h := cl.Handler()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rl.add(r.Method + " " + r.URL.Path)
		if r.Method == "PUT" {
			h.ServeHTTP(httptest.NewRecorder(), r) // the engine does it…
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close() // …and its answer never comes
			}
			return
		}
		h.ServeHTTP(w, r)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	ca := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	c, err := search.NewClient(search.Target{Host: u.Hostname(), Port: port, Username: "u", Password: "pw", CACertPEM: ca, ServiceName: "os"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := testContext(t)
	p := newPane(ctx, "")
	p.link.conn = &connection{project: "p", service: "os", user: "u", client: c}
	p.SetSize(120, 40)
	t.Cleanup(p.Leave)

	w := confirmWrite(t, p, "PUT /lost-probe\n")
	_, msgs := deliver(t, p, func() tea.Msg { return w })
	if n := rl.count("PUT", "/lost-probe"); n != 1 {
		t.Fatalf("PUT sent %d times: %v", n, rl.all())
	}
	got := notes(msgs)
	if !strings.Contains(got, "checking whether request PUT /lost-probe was created") ||
		!strings.Contains(got, "exists: it was created") || rl.count("GET", "/lost-probe") != 1 {
		t.Fatalf("the lost answer was not read back: %q %v", got, rl.all())
	}
}

// ctrl+o's load is reviewed (file, target index, documents, bytes) before anything is
// sent, then runs as one write of the pipeline and reports how it ended.
func TestBulkLoadIsReviewedThenSentThroughThePipeline(t *testing.T) {
	t.Parallel()
	p, rl, _ := writingPane(t, "products")
	path := filepath.Join(t.TempDir(), "docs.ndjson")
	data := "{\"n\":1}\n{\"n\":2}\n\n{\"n\":3}\n"
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	_, msgs := deliver(t, p, p.bulk.start(p.link.conn.client, path, "bulk-probe"))
	review, ok := modalOf(t, msgs).(*components.Review)
	if !ok {
		t.Fatalf("no review: %#v", msgs)
	}
	v := flat(review.View())
	for _, want := range []string{"file", "/tmp", "target index", "does not exist", "bulk-probe (created)", "documents 3 in the file → indexed", "bytes " + strconv.Itoa(len(data)) + " in the file → sent"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the review does not say %q:\n%s", want, v)
		}
	}
	if n := rl.count("POST", "/bulk-probe/_bulk") + rl.count("POST", "/_bulk"); n != 0 || p.bulk.job != nil {
		t.Fatalf("the load started before the review was confirmed: %v", rl.all())
	}
	var said []tea.Msg
	for _, m := range press(review, enter) {
		_, more := deliver(t, p, func() tea.Msg { return m })
		said = append(said, more...)
	}
	msgs = said
	if j := p.bulk.job; j == nil || j.running || j.result == nil || j.result.Succeeded != 3 {
		t.Fatalf("the load did not end with 3 documents: %+v", j)
	}
	if got := notes(msgs); !strings.Contains(got, "Bulk load finished: 3 documents indexed into bulk-probe") {
		t.Fatalf("the end was not said: %q", got)
	}
}
