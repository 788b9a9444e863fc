package opensearch

import (
	"strings"
	"testing"
)

// Alias shapes checked against opensearch-api-specification tests/default/indices/alias/alias.yaml
// (GET /{index}/_alias → {"games":{"aliases":{"jeux":{}}}}), tests/default/_core/aliases.yaml
// (POST /_aliases actions add/remove → {"acknowledged":true}), tests/default/_core/alias.yaml
// (GET /_alias/{missing} → 404), tests/default/cat/aliases.yaml, and the YAML REST tests
// cat.aliases/10_basic.yml (columns alias index filter routing.index routing.search is_write_index,
// "-" when unset) and indices.update_aliases/40_remove_with_must_exist.yml ("aliases [x] missing").
// The 404 body of GET /_alias/{missing}, {"error":"alias [x] missing","status":404}, is the one of
// RestGetAliasesAction (indices.get_alias/10_basic.yml in the Elasticsearch 7 tests OpenSearch forked).
func TestAliasesLifecycle(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	for _, ix := range []string{"logs-a", "logs-b", "other"} {
		code, m := doJSON(t, h, "PUT", "/"+ix, ``)
		mustStatus(t, 200, code, m)
	}
	do(t, h, "POST", "/logs-a/_doc/1?refresh=true", `{"msg":"alpha error","level":"ERROR"}`)
	do(t, h, "POST", "/logs-a/_doc/2?refresh=true", `{"msg":"alpha fine","level":"INFO"}`)
	do(t, h, "POST", "/logs-b/_doc/1?refresh=true", `{"msg":"beta error","level":"ERROR"}`)
	do(t, h, "POST", "/other/_doc/1?refresh=true", `{"msg":"other error","level":"ERROR"}`)

	code, m := doJSON(t, h, "POST", "/_aliases", `{"actions":[
		{"add":{"indices":["logs-a","logs-b"],"alias":"logs"}},
		{"add":{"index":"logs-a","aliases":["current","errors"]}}]}`)
	mustStatus(t, 200, code, m)
	if m["acknowledged"] != true {
		t.Fatalf("_aliases: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/other/_alias/misc", `{"is_write_index":true}`)
	mustStatus(t, 200, code, m)

	// Search and count through an alias over two indices.
	code, m = doJSON(t, h, "POST", "/logs/_search", `{"query":{"match":{"msg":"error"}}}`)
	mustStatus(t, 200, code, m)
	if got := strings.Join(hitIndices(m), ","); got != "logs-a,logs-b" && got != "logs-b,logs-a" {
		t.Fatalf("search through alias reached %q: %v", got, m)
	}
	if get(m, "_shards.total") != 2.0 {
		t.Fatalf("two indices, two shards: %v", m["_shards"])
	}
	_, m = doJSON(t, h, "GET", "/logs/_count", ``)
	if m["count"] != 3.0 {
		t.Fatalf("count through alias = %v, want 3", m["count"])
	}
	_, m = doJSON(t, h, "GET", "/logs,other/_count", ``)
	if m["count"] != 4.0 {
		t.Fatalf("alias and index together = %v, want 4", m["count"])
	}

	// Reading the aliases back.
	code, raw := do(t, h, "GET", "/logs-a/_alias", ``)
	mustStatus(t, 200, code, string(raw))
	if string(raw) != `{"logs-a":{"aliases":{"current":{},"errors":{},"logs":{}}}}` {
		t.Fatalf("GET /logs-a/_alias = %s", raw)
	}
	_, raw = do(t, h, "GET", "/_alias/logs", ``)
	if string(raw) != `{"logs-a":{"aliases":{"logs":{}}},"logs-b":{"aliases":{"logs":{}}}}` {
		t.Fatalf("GET /_alias/logs = %s", raw)
	}
	_, raw = do(t, h, "GET", "/_alias", ``)
	if !strings.Contains(string(raw), `"other":{"aliases":{"misc":{"is_write_index":true}}}`) {
		t.Fatalf("GET /_alias = %s", raw)
	}
	code, m = doJSON(t, h, "GET", "/_alias/nope", ``)
	mustStatus(t, 404, code, m)
	if m["error"] != "alias [nope] missing" || m["status"] != 404.0 {
		t.Fatalf("missing alias: %v", m)
	}
	if code, _ := do(t, h, "HEAD", "/_alias/logs", ``); code != 200 {
		t.Fatalf("HEAD /_alias/logs = %d, want 200", code)
	}
	if code, _ := do(t, h, "HEAD", "/_alias/nope", ``); code != 404 {
		t.Fatalf("HEAD /_alias/nope = %d, want 404", code)
	}
	// PUT /_alias/{name} with the index in the body (tests/default/_core/alias.yaml).
	code, m = doJSON(t, h, "PUT", "/_alias/film", `{"index":"other"}`)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "DELETE", "/other/_alias/film", ``)
	mustStatus(t, 200, code, m)
	code, raw = do(t, h, "GET", "/_cat/aliases?v", ``)
	mustStatus(t, 200, code, string(raw))
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 6 || strings.Join(strings.Fields(lines[0]), " ") != "alias index filter routing.index routing.search is_write_index" ||
		strings.Join(strings.Fields(lines[5]), " ") != "misc other - - - true" {
		t.Fatalf("_cat/aliases:\n%s", raw)
	}

	// Writes go to the alias's write index and say which index they reached.
	code, m = doJSON(t, h, "POST", "/current/_doc/9", `{"msg":"through alias"}`)
	mustStatus(t, 201, code, m)
	if m["_index"] != "logs-a" {
		t.Fatalf("write through alias: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/logs/_doc", `{"msg":"ambiguous"}`)
	mustStatus(t, 400, code, m)
	if !strings.HasPrefix(get(m, "error.reason").(string), "no write index is defined for alias [logs]") {
		t.Fatalf("write through a two-index alias: %v", m)
	}

	// Names clash neither way.
	code, m = doJSON(t, h, "PUT", "/logs", ``)
	mustStatus(t, 400, code, m)
	if get(m, "error.type") != "invalid_index_name_exception" {
		t.Fatalf("index named like an alias: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/logs-a/_alias/other", ``)
	mustStatus(t, 400, code, m)
	if get(m, "error.type") != "invalid_alias_name_exception" {
		t.Fatalf("alias named like an index: %v", m)
	}

	// Removing.
	code, m = doJSON(t, h, "POST", "/_aliases", `{"actions":[{"remove":{"index":"logs-b","alias":"logs"}}]}`)
	mustStatus(t, 200, code, m)
	_, m = doJSON(t, h, "GET", "/logs/_count", ``)
	if m["count"] != 3.0 { // logs-a: two documents and the one written through "current"
		t.Fatalf("after remove, count = %v, want 3", m["count"])
	}
	code, m = doJSON(t, h, "POST", "/_aliases", `{"actions":[{"remove":{"index":"logs-b","alias":"gone","must_exist":true}}]}`)
	mustStatus(t, 404, code, m)
	if get(m, "error.reason") != "aliases [gone] missing" {
		t.Fatalf("remove missing with must_exist: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/logs-a/_alias/current", ``)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "DELETE", "/logs-a/_alias/current", ``)
	mustStatus(t, 404, code, m)
	if get(m, "error.type") != "aliases_not_found_exception" {
		t.Fatalf("delete missing alias: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/errors", ``)
	mustStatus(t, 400, code, m)
	code, m = doJSON(t, h, "POST", "/_aliases", `{"actions":[{"add":{"index":"logs-a"}}]}`)
	mustStatus(t, 400, code, m)
	if get(m, "error.reason") != "Validation Failed: 1: One of [alias/aliases] is required;" {
		t.Fatalf("add without alias: %v", m)
	}
}

// A filtered alias shows only what its filter matches; the same index named directly shows all.
func TestFilteredAliasAndCreateIndexAliases(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	code, m := doJSON(t, h, "PUT", "/app", `{"aliases":{"app-errors":{"filter":{"term":{"level.keyword":"ERROR"}}},"app-all":{}}}`)
	mustStatus(t, 200, code, m)
	do(t, h, "POST", "/app/_bulk", `{"index":{}}`+"\n"+`{"level":"ERROR"}`+"\n"+`{"index":{}}`+"\n"+`{"level":"INFO"}`+"\n")
	for path, want := range map[string]float64{"/app-errors/_count": 1, "/app-all/_count": 2, "/app-errors,app/_count": 2} {
		_, m = doJSON(t, h, "GET", path, ``)
		if m["count"] != want {
			t.Errorf("%s = %v, want %v", path, m["count"], want)
		}
	}
	_, m = doJSON(t, h, "POST", "/app-errors/_search", `{}`)
	if get(m, "hits.total.value") != 1.0 {
		t.Fatalf("search through filtered alias: %v", m)
	}
	_, raw := do(t, h, "GET", "/app", ``)
	if !strings.Contains(string(raw), `"aliases":{"app-all":{},"app-errors":{"filter":{"term":{"level.keyword":"ERROR"}}}}`) {
		t.Fatalf("GET /app aliases: %s", raw)
	}
	_, raw = do(t, h, "GET", "/_cat/aliases/app-e*?format=json", ``)
	if string(raw) != `[{"alias":"app-errors","index":"app","filter":"*","routing.index":"-","routing.search":"-","is_write_index":"-"}]` {
		t.Fatalf("_cat/aliases/app-e*: %s", raw)
	}
}

func hitIndices(m map[string]any) []string {
	var out []string
	for _, h := range get(m, "hits.hits").([]any) {
		out = append(out, h.(map[string]any)["_index"].(string))
	}
	return out
}
