package opensearch

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentReadersAndWriters exercises the locking under -race: searches, SQL, bulk,
// single-document writes, mapping reads and exports at the same time.
func TestConcurrentReadersAndWriters(t *testing.T) {
	c, h := loadFixture(t)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	run := func(name string, f func(i int) int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				if code := f(i); code >= 500 {
					errs <- fmt.Sprintf("%s #%d: status %d", name, i, code)
					return
				}
			}
		}()
	}
	run("search", func(int) int {
		code, _ := do(t, h, "POST", "/docs/_search", `{"query":{"match":{"body":"fox"}},"aggs":{"c":{"terms":{"field":"category"}}}}`)
		return code
	})
	run("nested, scroll and pit", func(i int) int {
		if i == 0 {
			do(t, h, "PUT", "/posts", `{"mappings":{"properties":{"c":{"type":"nested"}}}}`)
		}
		do(t, h, "PUT", fmt.Sprintf("/posts/_doc/%d", i), `{"c":[{"a":"x","n":1},{"a":"y","n":2}]}`)
		code, _ := do(t, h, "POST", "/posts/_search?scroll=1m&size=1", `{"query":{"nested":{"path":"c","query":{"term":{"c.a":"x"}}}},"aggs":{"n":{"nested":{"path":"c"}}}}`)
		if code >= 500 {
			return code
		}
		code, _ = do(t, h, "POST", "/docs/_search/point_in_time?keep_alive=1m", "")
		return code
	})
	run("sql", func(int) int {
		code, _ := do(t, h, "POST", "/_plugins/_sql", `{"query":"SELECT category, COUNT(*) FROM docs GROUP BY category"}`)
		return code
	})
	run("bulk", func(i int) int {
		code, _ := do(t, h, "POST", "/docs/_bulk", fmt.Sprintf("{\"index\":{\"_id\":\"b%d\"}}\n{\"body\":\"fox %d\"}\n{\"delete\":{\"_id\":\"b%d\"}}\n", i, i, i-1))
		return code
	})
	run("doc", func(i int) int {
		code, _ := do(t, h, "PUT", fmt.Sprintf("/other-%d/_doc/1", i%3), `{"x":1}`)
		return code
	})
	run("cat", func(int) int {
		code, _ := do(t, h, "GET", "/_cat/indices?format=json", ``)
		return code
	})
	run("export", func(int) int {
		if _, err := c.Export(); err != nil {
			return 500
		}
		return 200
	})
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	_, m := doJSON(t, h, "GET", "/docs/_count", ``)
	if m["count"] != 6.0 {
		t.Fatalf("count after concurrent bulk = %v, want 6 (5 fixture + last b24)", m["count"])
	}
}

func TestUpdateAPIAndOpType(t *testing.T) {
	_, h := loadFixture(t)
	code, m := doJSON(t, h, "POST", "/docs/_update/1", `{"doc":{"qty":50,"extra":{"note":"n"}}}`)
	mustStatus(t, 200, code, m)
	if m["result"] != "updated" || m["_version"] != 2.0 {
		t.Fatalf("update: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/docs/_doc/1", ``)
	if get(m, "_source.qty") != 50.0 || get(m, "_source.title") != "Quick brown fox" || get(m, "_source.extra.note") != "n" {
		t.Fatalf("merged source: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/docs/_update/1", `{"doc":{"qty":50}}`)
	if code != 200 || m["result"] != "noop" {
		t.Fatalf("noop: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/docs/_update/nope", `{"doc":{"qty":1}}`)
	mustStatus(t, 404, code, m)
	// Scripts in the painless subset run (painless.go); others are a compile error.
	code, m = doJSON(t, h, "POST", "/docs/_update/1", `{"script":{"source":"ctx._source.qty++"}}`)
	mustStatus(t, 200, code, m)
	if _, m = doJSON(t, h, "GET", "/docs/_doc/1", ``); get(m, "_source.qty") != 51.0 {
		t.Fatalf("scripted update: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/docs/_update/1", `{"script":{"source":"if (ctx._source.qty > 1) { ctx.op = 'delete' }"}}`)
	mustStatus(t, 400, code, m)
	if get(m, "error.type") != "script_exception" || get(m, "error.reason") != "compile error" {
		t.Fatalf("unsupported script: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/docs/_doc/1?op_type=create", `{"title":"x"}`)
	mustStatus(t, 409, code, m)
	if get(m, "error.root_cause.0.type") != "version_conflict_engine_exception" {
		t.Fatalf("op_type=create: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/docs/_create/new", `{"title":"x"}`)
	mustStatus(t, 201, code, m)
}
