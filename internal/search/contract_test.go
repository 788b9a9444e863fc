package search

// Contract tests: the client and the editor logic against the sandbox's OpenSearch
// emulation, over loopback TLS with basic auth, as the UI will use them.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/sandbox/opensearch"
)

// newEmulation serves a fresh cluster over TLS; the returned target carries the CA.
func newEmulation(t testing.TB, demo bool) (*opensearch.Cluster, Target) {
	t.Helper()
	cl := opensearch.New(opensearch.Options{Name: "contract"})
	if demo {
		if err := cl.LoadDemo(42); err != nil {
			t.Fatal(err)
		}
	}
	return cl, serveEmulation(t, cl)
}

// readOnlyDemo serves the demo cluster (seed 42) that the tests which only read it
// share, loaded once: a load costs seconds under -race. A test that writes uses
// newEmulation.
func readOnlyDemo(t testing.TB) Target {
	t.Helper()
	demoOnce.Do(func() {
		demoCluster = opensearch.New(opensearch.Options{Name: "contract"})
		demoErr = demoCluster.LoadDemo(42)
	})
	if demoErr != nil {
		t.Fatal(demoErr)
	}
	return serveEmulation(t, demoCluster)
}

var (
	demoOnce    sync.Once
	demoCluster *opensearch.Cluster
	demoErr     error
)

// serveEmulation serves cl over TLS with basic auth until the test ends.
func serveEmulation(t testing.TB, cl *opensearch.Cluster) Target {
	t.Helper()
	h := opensearch.BasicAuth(cl.Handler(), func(u, p string) bool { return u == testUser && p == testPass })
	srv := startTLS(t, h)
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	return Target{Host: u.Hostname(), Port: port, Username: testUser, Password: testPass, CACertPEM: serverCAPEM(srv), ServiceName: "contract-os"}
}

// run parses console text, validates it and sends the single request it holds.
func run(t *testing.T, c *Client, text string) (ParsedRequest, *Response) {
	t.Helper()
	reqs := ParseBuffer(text)
	if len(reqs) != 1 {
		t.Fatalf("%d requests in %q", len(reqs), text)
	}
	hr, err := reqs[0].HTTPRequest()
	if err != nil {
		t.Fatalf("%s: %v", reqs[0].Path, err)
	}
	resp, err := c.Do(ctxT(t), hr)
	if err != nil {
		t.Fatalf("%s %s: %v", hr.Method, hr.Path, err)
	}
	return reqs[0], resp
}

// TestContractTemplates runs every template, in menu order, on the demo data.
func TestContractTemplates(t *testing.T) {
	_, tg := newEmulation(t, true)
	c := newTestClient(t, tg)
	for _, tp := range Templates() {
		req, resp := run(t, c, tp.Text)
		if !resp.OK() {
			t.Fatalf("template %q: %v\n%s", tp.Name, resp.Err(), resp.Body)
		}
		body := string(resp.Body)
		switch tp.Name {
		case "Cluster health":
			h, err := c.Health(ctxT(t))
			if err != nil || h.ClusterName != "contract" || h.Status == "" {
				t.Fatalf("health: %+v %v", h, err)
			}
		case "List indices":
			if idx, err := ParseCatIndices(resp.Body); err != nil || len(idx) < 2 {
				t.Fatalf("cat: %v %v", idx, err)
			}
		case "Mapping":
			m, err := ParseMapping(resp.Body)
			if err != nil || strings.Join(FieldNames(m), ",") != "@timestamp,host,latency_ms,level,message,region,service,status,trace_id,user_id" {
				t.Fatalf("mapping: %v %v", FieldNames(m), err)
			}
		case "Search: latest logs", "Search (all options)", "Search: next page (search_after)", "Search: match", "Search: bool",
			"Search: range", "Search: terms", "Search: highlight":
			h, err := ShapeHits(resp.Body)
			if err != nil || len(h.Rows) == 0 || resp.Took == nil {
				t.Fatalf("%s: %+v %v\n%s", tp.Name, h, err, body)
			}
			switch tp.Name {
			case "Search (all options)":
				if h.Total == nil || *h.Total < 10 || h.TotalRelation != "eq" || h.LastSort == nil || !sameSet(h.Columns[2:], "@timestamp", "level", "service", "message") {
					t.Fatalf("all options: %+v", h)
				}
				if next, err := NextPage(req, h); err != nil || !strings.Contains(next.Body, "search_after") {
					t.Fatalf("next page: %v %v", next, err)
				}
			case "Search: highlight":
				fields, err := FlattenHit(h.Hits[0])
				if err != nil || !strings.Contains(strings.Join(highlightsOf(fields, "message"), " "), "<em>") {
					t.Fatalf("highlight: %+v %v", fields, err)
				}
			}
		case "Count":
			if !strings.Contains(body, `"count":`) || strings.Contains(body, `"count":0`) {
				t.Fatalf("count: %s", body)
			}
		case "Aggregations", "Errors over time (date_histogram)", "Latency percentiles", "Latest error per service (top_hits)":
			tabs, err := ShapeAggs(resp.Body)
			if err != nil || len(tabs) == 0 {
				t.Fatalf("%s: %v %v\n%s", tp.Name, tabs, err, body)
			}
			for _, tb := range tabs {
				if len(tb.Rows) == 0 {
					t.Fatalf("%s: %s has no rows\n%s", tp.Name, tb.Name, body)
				}
			}
			byName := map[string]AggTable{}
			for _, tb := range tabs {
				byName[tb.Name] = tb
			}
			if tp.Name == "Aggregations" {
				if len(tabs) != 4 || len(byName["by_service"].Series) != 6 || len(byName["per_day"].Series) < 30 ||
					len(byName["latency_ranges"].Rows) != 3 || byName["latency_stats"].Kind != AggMetric {
					t.Fatalf("aggs: %+v", tabs)
				}
			}
		case "SQL query":
			tb, err := ShapeSQL(resp.Body)
			if err != nil || len(tb.Columns) != 3 || len(tb.Rows) != 6 {
				t.Fatalf("sql: %+v %v\n%s", tb, err, body)
			}
		case "Alias: add":
			_, through := run(t, c, "GET /logs-current/_search\n{\"size\": 1}")
			if h, err := ShapeHits(through.Body); err != nil || len(h.Rows) != 1 {
				t.Fatalf("search through the alias: %s", through.Body)
			}
		case "Aliases: list":
			if !strings.Contains(body, "logs-current") {
				t.Fatalf("aliases: %s", body)
			}
		case "Get document":
			if !strings.Contains(body, `"found":true`) {
				t.Fatalf("get: %s", body)
			}
		case "Index a document":
			if !strings.Contains(body, `"result":"created"`) || resp.Status != 201 {
				t.Fatalf("index doc: %d %s", resp.Status, body)
			}
		case "Bulk index (NDJSON)":
			if strings.Contains(body, `"errors":true`) {
				t.Fatalf("bulk: %s", body)
			}
		case "Reindex":
			if strings.Contains(body, `"created":0`) {
				t.Fatalf("reindex: %s", body)
			}
			// The demo's logs-* template gave the new index its mapping.
			m, err := c.Mapping(ctxT(t), "logs-errors")
			if err != nil || !strings.Contains(strings.Join(FieldNames(m), ","), "level") {
				t.Fatalf("reindexed mapping: %v %v", FieldNames(m), err)
			}
		}
	}
	// Other demo indices may come and go: only what the templates touched is checked.
	idx, err := c.CatIndices(ctxT(t))
	seen := map[string]int64{}
	for _, ix := range idx {
		seen[ix.Index] = ix.DocsCount
	}
	if _, errorsLeft := seen["logs-errors"]; err != nil || errorsLeft || seen["logs-archive"] != 3 || seen["logs-app"] != 5000 {
		t.Fatalf("indices after delete: %v %v", seen, err)
	}
}

func highlightsOf(fields []DocField, name string) []string {
	for _, f := range fields {
		if f.Name == name {
			return f.Highlights
		}
	}
	return nil
}

func TestContractErrors(t *testing.T) {
	_, tg := newEmulation(t, false)
	c := newTestClient(t, tg)
	_, resp := run(t, c, "GET /nope/_search")
	ee := ShapeError(resp.Status, resp.Body)
	if resp.Status != 404 || ee.Type != "index_not_found_exception" || !strings.Contains(ee.Reason, "no such index [nope]") {
		t.Fatalf("missing index: %d %+v", resp.Status, ee)
	}
	run(t, c, "PUT /dup")
	_, resp = run(t, c, "PUT /dup")
	if ee := ShapeError(resp.Status, resp.Body); resp.Status != 400 || ee.Type != "resource_already_exists_exception" {
		t.Fatalf("duplicate index: %+v", ee)
	}
	_, resp = run(t, c, "GET /dup/_search\n{\"match_all\": {}}")
	if ee := ShapeError(resp.Status, resp.Body); resp.Status != 400 || ee.Type == "" {
		t.Fatalf("query without wrapper: %d %+v", resp.Status, ee)
	}
	_, resp = run(t, c, "POST /_plugins/_sql\n{\"query\": \"SELEC nonsense\"}")
	if _, err := ShapeSQL(resp.Body); resp.Status != 400 || err == nil {
		t.Fatalf("bad SQL: %d %s", resp.Status, resp.Body)
	}
	bad := tg
	bad.Password = "wrong-" + testPass
	bc := newTestClient(t, bad)
	_, err := bc.CatIndices(ctxT(t))
	var e401 *EngineError
	if !errors.As(err, &e401) || e401.Status != 401 || e401.Reason != "Unauthorized" || strings.Contains(err.Error(), bad.Password) {
		t.Fatalf("wrong password: %v", err)
	}
}

func TestContractPagingDemo(t *testing.T) {
	tg := readOnlyDemo(t)
	c := newTestClient(t, tg)
	for _, body := range []string{
		`{"size": 40, "query": {"term": {"level": "ERROR"}}, "sort": [{"@timestamp": "desc"}, {"trace_id": "asc"}]}`,
		`{"size": 40, "query": {"term": {"level": "ERROR"}}}`,
	} {
		req := ParseBuffer("GET /logs-app/_search\n" + body)[0]
		seen := map[string]bool{}
		total := -1
		for page := 0; page < 50; page++ {
			hr, err := req.HTTPRequest()
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.Do(ctxT(t), hr)
			if err != nil || !resp.OK() {
				t.Fatalf("page %d: %v %s", page, err, resp.Body)
			}
			h, err := ShapeHits(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			total = int(*h.Total)
			for _, r := range h.Rows {
				if seen[r[0]] {
					t.Fatalf("page %d repeats %s", page, r[0])
				}
				seen[r[0]] = true
			}
			next, err := NextPage(req, h)
			if errors.Is(err, ErrNoMorePages) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			req = next
		}
		if len(seen) != total || total < 100 {
			t.Fatalf("paged %d of %d hits", len(seen), total)
		}
	}
}

func TestContractDemoShapes(t *testing.T) {
	tg := readOnlyDemo(t)
	c := newTestClient(t, tg)
	_, resp := run(t, c, `GET /logs-app/_search
{"size": 3, "query": {"match": {"message": "timeout"}}, "aggs": {"levels": {"terms": {"field": "level"}, "aggs": {"p": {"avg": {"field": "latency_ms"}}}}, "daily": {"date_histogram": {"field": "@timestamp", "calendar_interval": "week"}}}}`)
	h, err := ShapeHits(resp.Body)
	if err != nil || len(h.Rows) == 0 || h.MaxScore == nil || h.Rows[0][1] == "" {
		t.Fatalf("scored hits: %+v %v", h, err)
	}
	tabs, err := ShapeAggs(resp.Body)
	if err != nil || len(tabs) != 2 || len(tabs[0].Series) == 0 || tabs[1].Series[0].Label == "" {
		t.Fatalf("aggs: %+v %v", tabs, err)
	}
	_, resp = run(t, c, "POST /_plugins/_sql?format=csv\n{\"query\": \"SELECT level, COUNT(*) FROM logs-app GROUP BY level\"}")
	tb, err := ShapeSQL(resp.Body)
	if err != nil || !resp.OK() || tb.Text == "" || len(tb.Rows) != 4 {
		t.Fatalf("csv: %d %+v %v", resp.Status, tb, err)
	}
	m, err := c.Mapping(ctxT(t), "products")
	if err != nil || len(Complete(FieldNames(m), "name")) < 2 {
		t.Fatalf("products fields: %v %v", FieldNames(m), err)
	}
	idx, err := c.CatIndices(ctxT(t))
	if err != nil || len(idx) < 2 || idx[0].Index != "logs-app" || idx[0].DocsCount != 5000 {
		t.Fatalf("cat: %+v %v", idx, err)
	}
}

func TestContractBulkLoad(t *testing.T) {
	_, tg := newEmulation(t, false)
	c := newTestClient(t, tg)
	run(t, c, "PUT /metrics\n{\"mappings\": {\"properties\": {\"v\": {\"type\": \"float\"}}}}")
	var in strings.Builder
	for i := 0; i < 2500; i++ {
		if i == 100 {
			in.WriteString(`{"v": "not a number"}` + "\n")
			continue
		}
		fmt.Fprintf(&in, `{"v": %d, "host": "h%d"}`+"\n", i, i%7)
	}
	res, err := BulkLoad(ctxT(t), c, "metrics", strings.NewReader(in.String()), BulkOptions{BatchDocs: 500}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Docs != 2500 || res.Succeeded != 2499 || res.Failed != 1 || res.Batches != 5 {
		t.Fatalf("result: %+v", res)
	}
	if f := res.Failures[0]; f.Line != 101 || f.Status != 400 || f.Type == "" || f.Reason == "" {
		t.Fatalf("failure: %+v", f)
	}
	run(t, c, "POST /metrics/_refresh")
	_, resp := run(t, c, "GET /metrics/_search\n{\"size\": 0, \"track_total_hits\": true}")
	h, _ := ShapeHits(resp.Body)
	if h == nil || h.Total == nil || *h.Total != 2499 {
		t.Fatalf("indexed: %s", resp.Body)
	}
	// Pairs input is recognised and passes actions through.
	pairs := "{\"index\":{\"_id\":\"a\"}}\n{\"v\":1}\n{\"delete\":{\"_id\":\"a\"}}\n"
	res, err = BulkLoad(ctxT(t), c, "metrics", strings.NewReader(pairs), BulkOptions{}, nil)
	if err != nil || !res.PairsInput || res.Succeeded != 2 || res.Failed != 0 {
		t.Fatalf("pairs: %+v %v", res, err)
	}
}

// docGenerator produces n NDJSON documents without holding them in memory.
type docGenerator struct {
	n, i int
	buf  []byte
}

func (g *docGenerator) Read(p []byte) (int, error) {
	for len(g.buf) < len(p) && g.i < g.n {
		g.buf = fmt.Appendf(g.buf, `{"@timestamp":"2026-01-%02dT%02d:00:00Z","level":"%s","service":"svc-%d","latency_ms":%d.5,"message":"request %d served"}`+"\n",
			g.i%28+1, g.i%24, [...]string{"INFO", "WARN", "ERROR"}[g.i%3], g.i%11, g.i%997, g.i)
		g.i++
	}
	if len(g.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	return n, nil
}

func BenchmarkBulkLoad100k(b *testing.B) {
	const docs = 100_000
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		_, tg := newEmulation(b, false)
		c, err := NewClient(tg)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		peak := before.HeapInuse
		b.StartTimer()
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		res, err := BulkLoad(ctx, c, "bench", &docGenerator{n: docs}, BulkOptions{}, func(BulkProgress) {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak {
				peak = ms.HeapInuse
			}
		})
		cancel()
		elapsed := time.Since(start)
		b.StopTimer()
		if err != nil || res.Succeeded != docs {
			b.Fatalf("%+v %v", res, err)
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(docs)/elapsed.Seconds(), "docs/s")
		b.ReportMetric(float64(res.BytesRead)/elapsed.Seconds()/(1<<20), "MiB/s")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-inuse-MiB")
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), "total-alloc-MiB")
		b.StartTimer()
	}
}

func sameSet(got []string, want ...string) bool {
	if len(got) != len(want) {
		return false
	}
	m := map[string]bool{}
	for _, g := range got {
		m[g] = true
	}
	for _, w := range want {
		if !m[w] {
			return false
		}
	}
	return true
}

// BenchmarkBulkLoad100kLoaderOnly isolates the loader's own cost and memory: the
// server only counts lines and answers every item as created.
func BenchmarkBulkLoad100kLoaderOnly(b *testing.B) {
	const docs = 100_000
	srv := startTLS(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		n := strings.Count(string(data), "\n") / 2
		var sb strings.Builder
		sb.WriteString(`{"took":1,"errors":false,"items":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(`{"index":{"_id":"x","status":201,"result":"created"}}`)
		}
		sb.WriteString("]}")
		io.WriteString(w, sb.String())
	}))
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	c, err := NewClient(Target{Host: u.Hostname(), Port: port, CACertPEM: serverCAPEM(srv)})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		peak := before.HeapInuse
		start := time.Now()
		res, err := BulkLoad(context.Background(), c, "bench", &docGenerator{n: docs}, BulkOptions{}, func(BulkProgress) {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak {
				peak = ms.HeapInuse
			}
		})
		elapsed := time.Since(start)
		if err != nil || res.Succeeded != docs {
			b.Fatalf("%+v %v", res, err)
		}
		b.ReportMetric(float64(docs)/elapsed.Seconds(), "docs/s")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-inuse-MiB")
	}
}
