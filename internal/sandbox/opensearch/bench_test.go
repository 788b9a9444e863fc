package opensearch

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

var benchWords = strings.Fields("the quick brown fox jumps over lazy dog payment order checkout failed timeout user login search query " +
	"result cache miss hit warehouse stock level update service error warning request response latency slow fast retry connection " +
	"database token refresh expired session started finished queued delivered rejected accepted")

func benchDoc(rng *rand.Rand) []byte {
	n := 6 + rng.IntN(10)
	words := make([]string, n)
	for i := range words {
		words[i] = benchWords[rng.IntN(len(benchWords))]
	}
	return []byte(fmt.Sprintf(`{"message":%q,"service":"svc-%d","level":"%s","latency":%d}`,
		strings.Join(words, " "), rng.IntN(25), []string{"INFO", "WARN", "ERROR"}[rng.IntN(3)], rng.IntN(2000)))
}

// benchIndex is a 100,000-document "bench" index of short log lines.
func benchIndex(b *testing.B) *Cluster {
	c := newTestCluster(b)
	rng := rand.New(rand.NewPCG(1, 2))
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.createIndex("bench", map[string]any{"mappings": map[string]any{"properties": map[string]any{
		"message": map[string]any{"type": "text"}, "service": map[string]any{"type": "keyword"},
		"level": map[string]any{"type": "keyword"}, "latency": map[string]any{"type": "long"}}}}); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 100000; i++ {
		if _, _, err := c.indexDoc("bench", fmt.Sprint(i), benchDoc(rng), false); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

// benchSearch checks the answer once, then times the search.
func benchSearch(b *testing.B, body string, check func(m map[string]any) bool) {
	h := benchIndex(b).Handler()
	code, m := doJSON(b, h, "POST", "/bench/_search", body)
	if code != 200 || !check(m) {
		b.Fatalf("bad answer %d %v", code, m)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code, _ := do(b, h, "POST", "/bench/_search", body); code != 200 {
			b.Fatal(code)
		}
	}
}

func BenchmarkMatchWithTermsAgg100k(b *testing.B) {
	benchSearch(b, `{"query":{"match":{"message":"payment timeout"}},"aggs":{"svc":{"terms":{"field":"service"}}}}`,
		func(m map[string]any) bool { return len(get(m, "aggregations.svc.buckets").([]any)) == 10 })
}

// BenchmarkHighlight100k: a match over 100,000 documents with the ten hits highlighted.
func BenchmarkHighlight100k(b *testing.B) {
	benchSearch(b, `{"query":{"match":{"message":"payment timeout"}},"highlight":{"fields":{"message":{}}}}`,
		func(m map[string]any) bool { return get(m, "hits.hits.9.highlight.message.0") != nil })
}

// BenchmarkPercentiles100k: default percentiles of a numeric field over all 100,000 documents.
func BenchmarkPercentiles100k(b *testing.B) {
	benchSearch(b, `{"size":0,"aggs":{"lat":{"percentiles":{"field":"latency"}}}}`,
		func(m map[string]any) bool {
			vals, _ := get(m, "aggregations.lat.values").(map[string]any)
			return vals["99.0"] != nil
		})
}

func BenchmarkBulkIndex(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const batch = 1000
	var sb strings.Builder
	for i := 0; i < batch; i++ {
		sb.WriteString(`{"index":{}}` + "\n")
		sb.Write(benchDoc(rng))
		sb.WriteByte('\n')
	}
	body := sb.String()
	c := newTestCluster(b)
	h := c.Handler()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code, _ := do(b, h, "POST", "/bulk-bench/_bulk", body); code != 200 {
			b.Fatal(code)
		}
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "docs/s")
}
