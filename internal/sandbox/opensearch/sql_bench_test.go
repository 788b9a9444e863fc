package opensearch

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// sqlBenchHandler serves 100,000 benchDoc log lines in index "bench", loaded through _bulk.
func sqlBenchHandler(b *testing.B) (h interface {
	ServeHTTP(w http.ResponseWriter, r *http.Request)
}) {
	c := newTestCluster(b)
	h = c.Handler()
	code, m := doJSON(b, h, "PUT", "/bench", `{"mappings":{"properties":{"message":{"type":"text"},"service":{"type":"keyword"},"level":{"type":"keyword"},"latency":{"type":"long"}}}}`)
	mustStatus(b, 200, code, m)
	rng := rand.New(rand.NewPCG(5, 6))
	for batch := 0; batch < 100; batch++ {
		var sb strings.Builder
		for i := 0; i < 1000; i++ {
			sb.WriteString("{\"index\":{}}\n")
			sb.Write(benchDoc(rng))
			sb.WriteByte('\n')
		}
		if code, raw := do(b, h, "POST", "/bench/_bulk", sb.String()); code != 200 {
			b.Fatalf("bulk: %d %s", code, raw)
		}
	}
	return h
}

func benchSQL(b *testing.B, query string, rows int) {
	h := sqlBenchHandler(b)
	body := `{"query":` + string(jsonout.Marshal(query)) + `}`
	code, m := doJSON(b, h, "POST", "/_plugins/_sql", body)
	if code != 200 || len(m["datarows"].([]any)) != rows {
		b.Fatalf("bad answer %d %v", code, m)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code, _ := do(b, h, "POST", "/_plugins/_sql", body); code != 200 {
			b.Fatal(code)
		}
	}
}

func BenchmarkSQLGroupBy100k(b *testing.B) {
	benchSQL(b, "SELECT service, COUNT(*) AS n, AVG(latency) FROM bench WHERE level = 'ERROR' GROUP BY service ORDER BY n DESC", 25)
}

func BenchmarkSQLMatchOrderLimit100k(b *testing.B) {
	benchSQL(b, "SELECT service, latency FROM bench WHERE MATCH(message, 'payment timeout') ORDER BY latency DESC LIMIT 10", 10)
}
