package search

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
)

// lateRun is what a simulated tail under late deliveries showed.
type lateRun struct {
	written, late, lost, duplicated, outOfOrder, said int
	elapsed                                           time.Duration
}

// tailWithLateDocuments starts a tail, then simulates seconds of writing: each second
// rate documents are indexed, a tenth of them stamped up to 10 s in the past (a
// shipper's delay), and the tail polls once, as the root's ticks would. The seconds
// are simulated, not waited for: documents carry their simulated timestamps and each
// poll follows its second's writes, so 30 s take a few wall seconds. It returns what the
// buffer holds at the end against what was written.
func tailWithLateDocuments(t testing.TB, seconds, rate int) lateRun {
	p, _, _ := writingPane(t, "products")
	c := p.link.conn.client
	do(t, c, "PUT", "/late-test", `{"mappings":{"properties":{"ts":{"type":"date"},"n":{"type":"long"}}}}`, search.ContentTypeJSON)
	base := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	var pre strings.Builder
	for i := range 10 {
		fmt.Fprintf(&pre, "{\"index\":{\"_index\":\"late-test\",\"_id\":\"pre-%d\"}}\n{\"ts\":%q,\"n\":%d}\n", i, base.Add(-time.Minute+time.Duration(i)*time.Millisecond).Format(time.RFC3339Nano), i)
	}
	do(t, c, "POST", "/_bulk?refresh=true", pre.String(), search.ContentTypeNDJSON)
	deliver(t, p, p.indices.list.Load())
	runLine(t, p, "GET /late-test/_search\n{\"query\": {\"match_all\": {}}}\n")
	p.setFocus(focusResults)
	_, cmd := p.Update(runes("t"))
	deliver(t, p, cmd)
	if p.tail.run == nil || len(p.tail.run.keys) != 10 {
		t.Fatalf("tail start: %+v", p.tail.run)
	}
	p.tail.run.limit = 10 + seconds*rate // keep all, to count every one

	rng := rand.New(rand.NewPCG(7, 28))
	run := lateRun{written: 10}
	started := time.Now()
	for s := range seconds {
		var bulk strings.Builder
		for i := range rate {
			at := base.Add(time.Duration(s)*time.Second + time.Duration(rng.IntN(1000))*time.Millisecond)
			if rng.IntN(10) == 0 {
				at = base.Add(time.Duration(s)*time.Second - time.Duration(rng.IntN(10_000))*time.Millisecond)
				run.late++
			}
			fmt.Fprintf(&bulk, "{\"index\":{\"_index\":\"late-test\",\"_id\":\"d-%02d-%03d\"}}\n{\"ts\":%q,\"n\":%d}\n", s, i, at.Format(time.RFC3339Nano), s*rate+i)
		}
		do(t, c, "POST", "/_bulk?refresh=true", bulk.String(), search.ContentTypeNDJSON)
		run.written += rate
		deliver(t, p, p.Refresh())
		if p.tail.run == nil {
			t.Fatalf("the tail stopped: %+v", p.reader.res.ans)
		}
	}
	deliver(t, p, p.Refresh())
	run.elapsed = time.Since(started)

	seen := map[string]bool{}
	var prev time.Time
	for _, raw := range p.tail.run.buf {
		var h struct {
			ID     string `json:"_id"`
			Source struct {
				TS time.Time `json:"ts"`
			} `json:"_source"`
		}
		if err := json.Unmarshal(raw, &h); err != nil {
			t.Fatal(err)
		}
		if seen[h.ID] {
			run.duplicated++
			continue
		}
		seen[h.ID] = true
		if h.Source.TS.Before(prev) {
			run.outOfOrder++
		}
		prev = h.Source.TS
	}
	run.lost = run.written - len(seen)
	run.said = p.tail.run.late
	if !strings.Contains(ansi.Strip(p.reader.res.statusLine()), thousands(int64(p.tail.run.late))+" late") {
		t.Errorf("the status line does not say how many came late: %s", ansi.Strip(p.reader.res.statusLine()))
	}
	return run
}

// A document stamped before the newest shown (a shipper's delay) appears, placed by its
// time, once; the status line counts it.
func TestTailInsertsLateDocumentsByTime(t *testing.T) {
	t.Parallel()
	r := tailWithLateDocuments(t, 3, 100)
	if r.lost != 0 || r.duplicated != 0 || r.outOfOrder != 0 {
		t.Fatalf("%d written (%d late): %d lost, %d shown twice, %d out of time order", r.written, r.late, r.lost, r.duplicated, r.outOfOrder)
	}
	if r.late == 0 || r.said == 0 {
		t.Fatalf("no late document was written (%d) or said (%d)", r.late, r.said)
	}
}

// BenchmarkTailLate30s is the measure: 500 documents a second for 30 simulated
// seconds, 10 % up to 10 s late, one poll a simulated second: lost and duplicated must
// both be 0.
func BenchmarkTailLate30s(b *testing.B) {
	for range b.N {
		r := tailWithLateDocuments(b, 30, 500)
		b.ReportMetric(float64(r.written), "written")
		b.ReportMetric(float64(r.late), "late")
		b.ReportMetric(float64(r.lost), "lost")
		b.ReportMetric(float64(r.duplicated), "duplicated")
		b.ReportMetric(float64(r.outOfOrder), "out-of-order")
		b.ReportMetric(r.elapsed.Seconds(), "wall-s")
	}
}
