package search

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
)

// do sends a request straight to the engine (the test's own writes).
func do(t testing.TB, c *search.Client, method, path, body, ct string) {
	t.Helper()
	resp, err := c.Do(context.Background(), asTyped(t, method, path, body))
	if err != nil || resp.Err() != nil {
		t.Fatalf("%s %s: %v %v", method, path, err, resp.Err())
	}
}

// While 500 documents a second are indexed, ten sharing each millisecond and pairs of
// batches sharing a millisecond across requests, the tail shows each exactly once, in
// order.
func TestTailShowsEachDocumentOnceInOrder(t *testing.T) {
	t.Parallel()               // 3 s of a writer on a ticker: the other tests run meanwhile
	r := tailUnderLoad(t, 150) // 1,500 documents over 3 s
	if r.polls < 10 {
		t.Fatalf("only %d polls while writing", r.polls)
	}
	if r.lost != 0 || r.duplicated != 0 || r.outOfOrder != 0 {
		t.Fatalf("%d written: %d lost, %d shown twice, %d out of order", r.written, r.lost, r.duplicated, r.outOfOrder)
	}
}

// BenchmarkTail30s is the measure: 500 documents a second for 30 s while the tail
// runs, many sharing a millisecond. It reports what was lost and duplicated (0 and 0).
func BenchmarkTail30s(b *testing.B) {
	for range b.N {
		r := tailUnderLoad(b, 1500)
		b.ReportMetric(float64(r.written), "written")
		b.ReportMetric(float64(r.lost), "lost")
		b.ReportMetric(float64(r.duplicated), "duplicated")
		b.ReportMetric(float64(r.outOfOrder), "out-of-order")
	}
}

type tailResult struct{ written, lost, duplicated, outOfOrder, polls int }

// tailUnderLoad starts a tail over ten documents, then writes batches of ten documents
// every 20 ms (500 a second; ten share each millisecond, and pairs of batches share a
// millisecond across requests) while the root's refresh ticks poll, and counts what the
// tail shows.
func tailUnderLoad(t testing.TB, batches int) tailResult {
	p, _, _ := writingPane(t, "products")
	c := p.link.conn.client
	do(t, c, "PUT", "/tail-test", `{"mappings":{"properties":{"ts":{"type":"date"},"n":{"type":"long"},"msg":{"type":"keyword"}}}}`, search.ContentTypeJSON)
	base := time.Now().UTC().Truncate(time.Second)
	// Ten documents already there: the tail starts with them.
	var pre strings.Builder
	for i := range 10 {
		fmt.Fprintf(&pre, "{\"index\":{\"_index\":\"tail-test\",\"_id\":\"pre-%d\"}}\n{\"ts\":%q,\"n\":%d,\"msg\":\"pre\"}\n", i, base.Add(-time.Minute).Add(time.Duration(i)*time.Millisecond).Format(time.RFC3339Nano), -10+i)
	}
	do(t, c, "POST", "/_bulk?refresh=true", pre.String(), search.ContentTypeNDJSON)
	deliver(t, p, p.indices.list.Load()) // its mapping: the time field
	runLine(t, p, "GET /tail-test/_search\n{\"sort\": [{\"ts\": \"desc\"}], \"query\": {\"match_all\": {}}}\n")
	if p.reader.res.ans.log.timeField != "ts" {
		t.Fatalf("time field: %+v", p.reader.res.ans.log)
	}
	p.setFocus(focusResults)
	_, cmd := p.Update(runes("t"))
	deliver(t, p, cmd)
	if p.tail.run == nil || len(p.tail.run.keys) != 10 || !strings.Contains(ansi.Strip(p.View()), "● LIVE") {
		t.Fatalf("tail start: %+v\n%s", p.tail.run, ansi.Strip(p.View()))
	}

	// The writer: every 20 ms a bulk of 10 documents sharing one millisecond; two
	// consecutive bulks share each millisecond.
	var written atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for b := range batches {
			<-tick.C
			ts := base.Add(time.Duration(b/2) * time.Millisecond).Format(time.RFC3339Nano)
			var bulk strings.Builder
			for i := range 10 {
				n := b*10 + i
				fmt.Fprintf(&bulk, "{\"index\":{\"_index\":\"tail-test\",\"_id\":\"d-%05d\"}}\n{\"ts\":%q,\"n\":%d,\"msg\":\"m\"}\n", n, ts, n)
			}
			resp, err := c.Do(context.Background(), asTyped(t, "POST", "/_bulk?refresh=true", bulk.String()))
			if err != nil || resp.Err() != nil {
				t.Errorf("bulk %d: %v", b, err)
				return
			}
			written.Add(10)
		}
	}()
	// The root's ticks: a poll, its answer, the next poll.
	polls := 0
	var tally tailTally
	for finished := false; ; {
		select {
		case <-done:
			finished = true
		default:
		}
		deliver(t, p, p.Refresh()) // the root's live refresh tick
		polls++
		if p.tail.run != nil {
			tally.look(t, p.tail.run.buf)
		}
		if p.tail.run == nil {
			t.Fatalf("the tail stopped: %+v", p.reader.res.ans)
		}
		if finished {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	tally.look(t, p.tail.run.buf)
	r := tally.tailResult
	r.written, r.polls = int(written.Load()), polls
	r.lost = 10 + r.written - len(tally.seen)
	return r
}

// tailTally follows the tail's buffer poll after poll: each document must appear once,
// newer after older, and never come back once the buffer bound dropped it.
type tailTally struct {
	tailResult
	seen, gone map[string]bool
	prev       int64
}

func (c *tailTally) look(t testing.TB, buf []json.RawMessage) {
	if c.seen == nil {
		c.seen, c.gone, c.prev = map[string]bool{}, map[string]bool{}, -1<<62
	}
	cur := make(map[string]bool, len(buf))
	for _, raw := range buf {
		var h struct {
			ID     string `json:"_id"`
			Source struct {
				N int64 `json:"n"`
			} `json:"_source"`
		}
		if err := json.Unmarshal(raw, &h); err != nil {
			t.Fatal(err)
		}
		if cur[h.ID] || c.gone[h.ID] {
			c.duplicated++
			continue
		}
		cur[h.ID] = true
		if !c.seen[h.ID] {
			c.seen[h.ID] = true
			if h.Source.N <= c.prev {
				c.outOfOrder++
			}
			c.prev = h.Source.N
		}
	}
	for id := range c.seen {
		if !cur[id] {
			c.gone[id] = true
		}
	}
}

// The cursor keeps its document as new ones arrive, and "N new" says what is below it;
// opening a document pauses the tail and coming back resumes it; the buffer keeps the
// newest 10,000 and says so; a failed poll and leaving the results stop it, saying why.
func TestTailCursorPauseBoundAndStops(t *testing.T) {
	t.Parallel()
	p, _, _ := writingPane(t, "products")
	now := time.Now()
	p.ctx.Now = func() time.Time { return now }
	c := p.link.conn.client
	do(t, c, "PUT", "/tail-b", `{"mappings":{"properties":{"ts":{"type":"date"},"n":{"type":"long"}}}}`, search.ContentTypeJSON)
	base := time.Now().UTC().Add(-time.Hour)
	n := 0
	write := func(count int) {
		var bulk strings.Builder
		for range count {
			fmt.Fprintf(&bulk, "{\"index\":{\"_index\":\"tail-b\",\"_id\":\"d-%06d\"}}\n{\"ts\":%q,\"n\":%d}\n", n, base.Add(time.Duration(n)*time.Millisecond).Format(time.RFC3339Nano), n)
			n++
		}
		do(t, c, "POST", "/_bulk?refresh=true", bulk.String(), search.ContentTypeNDJSON)
	}
	poll := func() {
		now = now.Add(time.Second)
		deliver(t, p, p.Refresh())
	}
	write(5)
	deliver(t, p, p.indices.list.Load())
	runLine(t, p, "GET /tail-b/_search\n")
	p.setFocus(focusResults)
	_, cmd := p.Update(runes("t"))
	deliver(t, p, cmd)
	if p.reader.res.table.SelectedKey() != "tail-b/d-000004" {
		t.Fatalf("cursor not on the newest: %q", p.reader.res.table.SelectedKey())
	}
	p.Update(tea.KeyMsg{Type: tea.KeyUp})
	p.Update(tea.KeyMsg{Type: tea.KeyUp})
	write(3)
	poll()
	if p.reader.res.table.SelectedKey() != "tail-b/d-000002" || !strings.Contains(ansi.Strip(p.reader.res.statusLine()), "3 new ↓") {
		t.Fatalf("cursor %q, status %s", p.reader.res.table.SelectedKey(), ansi.Strip(p.reader.res.statusLine()))
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("G")})
	if strings.Contains(p.reader.res.statusLine(), "new ↓") {
		t.Fatal("the new marker stayed at the newest edge")
	}

	// Opening a document pauses: the root stops polling (no interval); back, it resumes.
	_, cmd = p.Update(enter)
	if cmd == nil || !p.tail.run.paused || p.RefreshInterval() != 0 {
		t.Fatalf("open: paused %v interval %v", p.tail.run.paused, p.RefreshInterval())
	}
	write(2)
	now = now.Add(time.Minute) // reading the document for a while
	deliver(t, p, p.Refresh()) // the root refreshes the view it returns to
	if p.tail.run == nil || p.tail.run.paused || len(p.tail.run.keys) != 10 || p.RefreshInterval() != tailEvery {
		t.Fatalf("resume: %+v", p.tail.run)
	}

	// The buffer keeps the newest 10,000.
	write(tailLimit)
	poll()
	poll()
	if len(p.tail.run.keys) != tailLimit || p.tail.run.keys[len(p.tail.run.keys)-1] != fmt.Sprintf("tail-b/d-%06d", n-1) {
		t.Fatalf("buffer: %d, newest %s", len(p.tail.run.keys), p.tail.run.keys[len(p.tail.run.keys)-1])
	}
	if s := ansi.Strip(p.reader.res.statusLine()); !strings.Contains(s, "oldest 10 dropped (the tail keeps 10,000)") {
		t.Fatalf("status: %s", s)
	}

	// Leaving the results (no polls for a while) stops it, saying so.
	now = now.Add(time.Minute)
	_, msgs := deliver(t, p, p.Refresh())
	if p.tail.run != nil || !strings.Contains(notes(msgs), "not on screen") || !strings.Contains(p.reader.res.statusLine(), "Live tail stopped") {
		t.Fatalf("left: %v %q", p.tail.run, notes(msgs))
	}

	// A failed poll stops it with the engine's sentence.
	_, cmd = p.Update(runes("t"))
	deliver(t, p, cmd)
	do(t, c, "DELETE", "/tail-b", "", "")
	now = now.Add(time.Second)
	_, msgs = deliver(t, p, p.Refresh())
	if p.tail.run != nil || !strings.Contains(notes(msgs), "Live tail stopped: ") {
		t.Fatalf("error: %v %q", p.tail.run, notes(msgs))
	}
}
