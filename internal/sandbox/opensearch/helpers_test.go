package opensearch

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

var testNow = time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC)

// sharedDemo is a cluster holding the demo data of seed 42, loaded once for the tests
// that only read it (a load costs seconds under -race). A test that writes, or checks the
// load itself, loads its own with newTestCluster and LoadDemo.
func sharedDemo(t testing.TB) *Cluster {
	t.Helper()
	demoOnce.Do(func() {
		demo = New(Options{Name: "test-cluster", Clock: func() time.Time { return testNow }})
		demoErr = demo.LoadDemo(42)
	})
	if demoErr != nil {
		t.Fatal(demoErr)
	}
	return demo
}

var (
	demoOnce sync.Once
	demo     *Cluster
	demoErr  error
)

func newTestCluster(t testing.TB) *Cluster {
	t.Helper()
	return New(Options{Name: "test-cluster", Clock: func() time.Time { return testNow }})
}

// do sends a request through the handler and returns status and raw body.
func do(t testing.TB, h http.Handler, method, path, body string) (int, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if strings.Contains(path, "_bulk") {
		req.Header.Set("Content-Type", "application/x-ndjson")
	} else if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// doJSON is do plus decoding the answer into a generic map.
func doJSON(t testing.TB, h http.Handler, method, path, body string) (int, map[string]any) {
	t.Helper()
	code, raw := do(t, h, method, path, body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s %s: answer is not a JSON object (%d): %s", method, path, code, raw)
	}
	return code, m
}

// get walks a decoded JSON value by keys and array indices ("hits.hits.0._id").
func get(v any, path string) any {
	for _, p := range strings.Split(path, ".") {
		switch t := v.(type) {
		case map[string]any:
			v = t[p]
		case []any:
			i := 0
			for _, c := range p {
				i = i*10 + int(c-'0')
			}
			if i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	return v
}

func hitIDs(m map[string]any) []string {
	var ids []string
	for _, h := range get(m, "hits.hits").([]any) {
		ids = append(ids, h.(map[string]any)["_id"].(string))
	}
	return ids
}

func mustStatus(t testing.TB, want, got int, body any) {
	t.Helper()
	if want != got {
		t.Fatalf("status = %d, want %d: %v", got, want, body)
	}
}

// fixture: a small fixed data set used by the compatibility tests.
const fixtureMapping = `{
  "settings": {"number_of_shards": 1, "number_of_replicas": 0},
  "mappings": {"properties": {
    "title": {"type": "text", "fields": {"keyword": {"type": "keyword", "ignore_above": 256}}},
    "body": {"type": "text"},
    "category": {"type": "keyword"},
    "price": {"type": "float"},
    "qty": {"type": "long"},
    "published": {"type": "date"},
    "active": {"type": "boolean"},
    "tags": {"type": "keyword"}
  }}
}`

var fixtureDocs = []string{
	`{"index":{"_id":"1"}}`, `{"title":"Quick brown fox","body":"the quick brown fox jumps over the lazy dog","category":"animals","price":10,"qty":5,"published":"2024-03-01T10:00:00Z","active":true,"tags":["a","b"]}`,
	`{"index":{"_id":"2"}}`, `{"title":"Lazy dog","body":"a lazy dog sleeps all day long","category":"animals","price":55.5,"qty":1,"published":"2024-03-01T18:30:00Z","active":false,"tags":["b"]}`,
	`{"index":{"_id":"3"}}`, `{"title":"Fox news","body":"fox fox fox reporting live","category":"news","price":150,"qty":9,"published":"2024-03-04T08:00:00Z","active":true,"tags":["c"]}`,
	`{"index":{"_id":"4"}}`, `{"title":"Cooking with butter","body":"butter makes everything better","category":"food","price":20,"qty":3,"published":"2024-03-05T12:00:00Z","active":true}`,
	`{"index":{"_id":"5"}}`, `{"title":"Brown bread","body":"brown bread recipe with butter","category":"food","qty":7,"published":"2024-03-02T09:15:00Z","active":false,"tags":["a"]}`,
}

func loadFixture(t testing.TB) (*Cluster, http.Handler) {
	t.Helper()
	c := newTestCluster(t)
	h := c.Handler()
	code, m := doJSON(t, h, "PUT", "/docs", fixtureMapping)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "POST", "/docs/_bulk", strings.Join(fixtureDocs, "\n")+"\n")
	mustStatus(t, 200, code, m)
	if m["errors"] != false {
		t.Fatalf("fixture bulk had errors: %v", m)
	}
	return c, h
}
