package search

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// View with a live tail's full buffer (10,000 hits) and a histogram above them: only
// the rows in the window are drawn, whatever the buffer holds.
func BenchmarkViewTenThousandHitsWithHistogram(b *testing.B) {
	ctx := common.NewContext()
	ctx.StateDir = b.TempDir()
	c, err := search.NewClient(search.Target{Host: "127.0.0.1", Port: 1, Username: "u", Password: "pw", ServiceName: "os"})
	if err != nil {
		b.Fatal(err)
	}
	p := newPane(ctx, "")
	p.link.conn = &connection{project: "p", service: "os", user: "u", client: c}
	p.SetSize(160, 50)
	hits := make([]json.RawMessage, tailLimit)
	keys := make([]string, tailLimit)
	base := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	for i := range hits {
		hits[i] = json.RawMessage(fmt.Sprintf(`{"_index":"logs","_id":"d-%05d","_source":{"@timestamp":%q,"level":"INFO","service":"svc-%d","latency_ms":%d.5,"message":"Payment authorization declined for card ending %04d"}}`,
			i, base.Add(time.Duration(i)*time.Second).Format(time.RFC3339Nano), i%7, i%900, i))
		keys[i] = fmt.Sprintf("logs/d-%05d", i)
	}
	table, err := search.ShapeHits(rawHitsAnswer(hits))
	if err != nil {
		b.Fatal(err)
	}
	hist := make([]search.Bucket, 140)
	for i := range hist {
		hist[i] = search.Bucket{Key: base.Add(time.Duration(i) * 10 * time.Minute), Count: int64(i * 7 % 90)}
	}
	p.reader.res.set(&answer{req: search.ParsedRequest{Method: "GET", Path: "/logs/_search"}, sent: true, status: 200, hits: table, keys: keys,
		hist: hist, log: logMeta{timeField: "@timestamp", rangeLabel: "last 24h", interval: 10 * time.Minute, histogram: true}})
	if v := p.View(); !strings.Contains(v, "max ") || !strings.Contains(v, "hits 1–10,000 of 10,000") {
		b.Fatalf("view:\n%s", v)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_ = p.View()
	}
}

// One search with its histogram (size and aggs in one body) over 100,000 documents in
// the sandbox's engine, answered and shaped: what a run costs end to end.
func BenchmarkHistogramAndHitsOver100kDocs(b *testing.B) {
	tg, _, _ := engineWithLog(b)
	c, err := search.NewClient(tg)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	send := func(method, path, body, ct string) {
		resp, err := c.Do(ctx, asTyped(b, method, path, body))
		if err != nil || resp.Err() != nil {
			b.Fatalf("%s %s: %v %v", method, path, err, resp.Err())
		}
	}
	send("PUT", "/big", `{"mappings":{"properties":{"ts":{"type":"date"},"level":{"type":"keyword"},"message":{"type":"text"}}}}`, search.ContentTypeJSON)
	now := time.Now().UTC()
	levels := []string{"INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG"}
	for batch := range 20 {
		var w strings.Builder
		for i := range 5000 {
			n := batch*5000 + i
			fmt.Fprintf(&w, "{\"index\":{\"_id\":\"%d\"}}\n{\"ts\":%q,\"level\":%q,\"message\":\"request %d served\"}\n", n,
				now.Add(-time.Duration(n)*800*time.Millisecond).Format(time.RFC3339Nano), levels[n%len(levels)], n)
		}
		send("POST", "/big/_bulk", w.String(), search.ContentTypeNDJSON)
	}
	typed := search.ParsedRequest{Method: "GET", Path: "/big/_search", Body: `{"size": 50, "sort": [{"ts": "desc"}], "query": {"match_all": {}}}`}
	iv, name := search.HistogramInterval(24*time.Hour, 140)
	r, err := search.LogSearch(typed, search.LogOptions{TimeField: "ts", Range: search.TimeRange{Quick: "24h"}, Now: now, Histogram: iv, HistogramName: name})
	if err != nil {
		b.Fatal(err)
	}
	hr, err := r.HTTPRequest()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		resp, err := c.Do(ctx, hr)
		if err != nil || resp.Err() != nil {
			b.Fatal(err)
		}
		h, err := search.ShapeHits(resp.Body)
		if err != nil || len(h.Rows) != 50 {
			b.Fatalf("hits: %v", err)
		}
		if hist := search.ShapeHistogram(resp.Body); len(hist) == 0 {
			b.Fatal("no histogram")
		}
	}
}

// A poll that brought 20 documents into a full tail buffer: they are shaped and merged
// (in the poll's command), the oldest dropped.
func BenchmarkTailPollMerge20Into10000(b *testing.B) {
	doc := func(i int) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"_index":"logs","_id":"d-%05d","_source":{"@timestamp":"2026-11-25T10:00:%02d.000Z","level":"INFO","service":"svc-%d","message":"Payment authorization declined for card ending %04d"},"sort":[%d,%d]}`, i, i%60, i%7, i, i, i))
	}
	hits := make([]json.RawMessage, tailLimit)
	for i := range hits {
		hits[i] = doc(i)
	}
	full, err := search.ShapeHits(rawHitsAnswer(hits))
	if err != nil {
		b.Fatal(err)
	}
	fresh := make([]json.RawMessage, 20)
	for i := range fresh {
		fresh[i] = doc(tailLimit + i)
	}
	b.ReportAllocs()
	for range b.N {
		add, err := search.ShapeHits(rawHitsAnswer(fresh))
		if err != nil {
			b.Fatal(err)
		}
		if m := search.MergeHits(full, add, tailLimit); len(m.Rows) != tailLimit {
			b.Fatal(len(m.Rows))
		}
	}
}
