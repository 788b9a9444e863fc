package opensearch

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// fuzzOnce sends body to path and fails on a server error or a non-JSON answer.
func fuzzOnce(t *testing.T, h http.Handler, path, ctype string, body []byte) {
	req := httptest.NewRequest("POST", path, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", ctype)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Fatalf("%s answered %d for %q: %s", path, rec.Code, body, rec.Body)
	}
	if strings.Contains(path, "format=") {
		return
	}
	if !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("%s answered invalid JSON for %q: %s", path, body, rec.Body)
	}
}

func FuzzSearch(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"query":{"match":{"body":"fox"}}}`, `{"query":{"bool":{"should":[{"term":{"tags":"a"}}],"minimum_should_match":"-50%"}}}`,
		`{"aggs":{"d":{"date_histogram":{"field":"published","fixed_interval":"1m"}}}}`, `{"sort":[{"qty":{"order":"desc","missing":"_first"}}],"search_after":[null]}`,
		`{"query":{"range":{"published":{"gt":"now-1d/d||+1M"}}}}`, `{"query":{"match_phrase_prefix":{"body":"laz"}}}`,
		`{"aggs":{"h":{"histogram":{"field":"price","interval":1e-300}}}}`, `{"query":{"regexp":{"category":"(("}}}`,
		`{"query":{"query_string":{"query":"title:\"fox AND (qty:[1 TO"}}}`, `{"size":-1}`, `[1,2]`, `{"query":{"wildcard":{"title":"**??*"}}}`,
	} {
		f.Add([]byte(s))
	}
	_, h := loadFixture(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzOnce(t, h, "/docs/_search", "application/json", body)
	})
}

func FuzzBulk(f *testing.F) {
	for _, s := range []string{
		"{\"index\":{\"_id\":\"1\"}}\n{\"a\":1}\n", "{\"delete\":{\"_id\":\"1\"}}\n", "{\"update\":{\"_id\":\"z\"}}\n{\"doc\":{\"a.b\":[1,{\"c\":2}]}}\n",
		"{\"create\":{}}\n{\"published\":\"2024-13-45\"}\n", "\n\n", "{\"index\":{\"_index\":\"A\"}}\n{}\n", "{\"index\":{}}\n[]\n",
	} {
		f.Add([]byte(s))
	}
	_, h := loadFixture(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzOnce(t, h, "/docs/_bulk", "application/x-ndjson", body)
	})
}

func FuzzSQL(f *testing.F) {
	for _, s := range []string{
		"SELECT * FROM docs", "SELECT category, COUNT(*) FROM docs GROUP BY category", "SELECT 'unterminated FROM docs",
		"SELECT * FROM (SELECT * FROM docs)", "SELECT * FROM docs, docs d2 WHERE docs.qty = d2.qty", "SELECT load_extension('x') FROM docs",
		"SELECT * FROM `docs` /* c */ -- x", "SELECT * FROM \"", "SELECT * FROM docs WHERE x IN (SELECT 1 FROM d*)",
	} {
		f.Add(s)
	}
	_, h := loadFixture(f)
	f.Fuzz(func(t *testing.T, q string) {
		body, _ := json.Marshal(map[string]string{"query": q})
		fuzzOnce(t, h, "/_plugins/_sql", "application/json", body)
		fuzzOnce(t, h, "/_plugins/_sql?format=csv", "application/json", body)
	})
}
