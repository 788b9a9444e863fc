package search

import (
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/sandbox/opensearch"
	"github.com/svcui/svcui/internal/search"
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
	p, rl, _ := enginePane(t)
	w := confirmWrite(t, p, "PUT /review-probe\n")
	_, write := p.Update(w)
	p.editor.SetValue("GET /_cluster/health\n")
	p.gotoLine(0)
	run := p.run()
	_, msgs := deliver(t, p, tea.Batch(write, run))
	if n := rl.count("PUT", "/review-probe"); n != 1 {
		t.Fatalf("PUT /review-probe reached the engine %d times: %v", n, rl.all())
	}
	if got := notes(msgs); !strings.Contains(got, "PUT /review-probe: 200 OK") {
		t.Fatalf("the write's outcome was not said: %q", got)
	}
	found := false
	for _, ix := range p.indices.Items() {
		found = found || ix.Index == "review-probe"
	}
	if !found {
		t.Fatalf("the index list does not show the new index: %+v", p.indices.Items())
	}
}

// A write whose answer is lost (the connection dropped after the engine took it) is read
// back, never sent again: the index exists, so it was created.
func TestALostWriteIsReadBackNotResent(t *testing.T) {
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
	p.conn = &connection{project: "p", service: "os", user: "u", client: c}
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
