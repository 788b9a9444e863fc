package opensearch

import (
	"strings"
	"testing"
)

// mustClosed checks an index_closed_exception: 400, reason "closed", naming the index.
func mustClosed(t *testing.T, code int, m map[string]any, name string) {
	t.Helper()
	mustStatus(t, 400, code, m)
	if get(m, "error.type") != "index_closed_exception" || get(m, "error.reason") != "closed" || get(m, "error.index") != name {
		t.Fatalf("want index_closed_exception for %s: %v", name, m)
	}
}

// OpenSearch's rest-api-spec test indices.open/10_basic.yml and opensearch-api-specification
// tests/default/indices/close.yaml and open.yaml: closing answers each index closed, a search of the
// closed index is a bad request until it is opened, and the documents are all there afterwards.
// "Close index response with result per index": a wildcard closes every index it matches.
func TestCloseAndOpen(t *testing.T) {
	_, h := loadFixture(t)
	code, m := doJSON(t, h, "POST", "/docs/_close", "")
	mustStatus(t, 200, code, m)
	if m["acknowledged"] != true || m["shards_acknowledged"] != true || get(m, "indices.docs.closed") != true {
		t.Fatalf("close: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/docs/_search", "")
	mustClosed(t, code, m, "docs")
	code, m = doJSON(t, h, "POST", "/docs/_open", "")
	mustStatus(t, 200, code, m)
	if len(m) != 2 || m["acknowledged"] != true || m["shards_acknowledged"] != true {
		t.Fatalf("open: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/docs/_count", "")
	if mustStatus(t, 200, code, m); m["count"] != 5.0 {
		t.Fatalf("count after open: %v", m)
	}

	for _, n := range []string{"index_1", "index_2", "index_3"} {
		code, m = doJSON(t, h, "PUT", "/"+n, "")
		mustStatus(t, 200, code, m)
	}
	code, m = doJSON(t, h, "POST", "/index_*/_close", "")
	mustStatus(t, 200, code, m)
	for _, n := range []string{"index_1", "index_2", "index_3"} {
		if get(m, "indices."+n+".closed") != true {
			t.Fatalf("wildcard close: %v", m)
		}
	}
	if _, has := m["indices"].(map[string]any)["docs"]; has {
		t.Fatalf("wildcard closed more than it matched: %v", m)
	}
	// Opening expands wildcards to closed indices (OpenIndexRequest's options); a missing name is 404.
	code, m = doJSON(t, h, "POST", "/_all/_open", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/index_2/_search", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "POST", "/nope/_close", "")
	mustStatus(t, 404, code, m)
	if get(m, "error.type") != "index_not_found_exception" {
		t.Fatalf("missing: %v", m)
	}
}

// What a closed index answers elsewhere, as IndexNameExpressionResolver and the cluster blocks
// of a closed index make OpenSearch 2.x answer: reads and writes naming it are
// index_closed_exception (400) — search, count, get, index, update, delete, a bulk item, an msearch
// entry, _stats, refresh, a search through an alias — unless ignore_unavailable skips it; wildcards
// and _all skip it (expand_wildcards=open), and expand_wildcards=closed reaches it only to refuse it.
// _cat/indices lists it with status close and no figures, GET /{index} and _mapping still read it,
// cluster health counts its shards (closed indices are replicated since 7.2), and it can be deleted.
func TestClosedIndexEverywhere(t *testing.T) {
	_, h := loadFixture(t)
	code, m := doJSON(t, h, "PUT", "/other", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "POST", "/_aliases", `{"actions":[{"add":{"index":"docs","alias":"all-docs"}}]}`)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "POST", "/docs/_close", "")
	mustStatus(t, 200, code, m)

	for _, req := range [][3]string{
		{"GET", "/docs/_search", ""},
		{"GET", "/docs/_count", ""},
		{"GET", "/all-docs/_search", ""},
		{"GET", "/docs,other/_search", ""},
		{"GET", "/*/_search?expand_wildcards=all", ""},
		{"GET", "/docs/_doc/1", ""},
		{"PUT", "/docs/_doc/9", `{"title":"x"}`},
		{"POST", "/docs/_update/1", `{"doc":{"qty":1}}`},
		{"DELETE", "/docs/_doc/1", ""},
		{"GET", "/docs/_stats", ""},
		{"POST", "/docs/_refresh", ""},
		{"POST", "/docs/_delete_by_query", `{"query":{"match_all":{}}}`},
	} {
		code, m = doJSON(t, h, req[0], req[1], req[2])
		if get(m, "error.index") == nil {
			t.Fatalf("%s %s: %d %v", req[0], req[1], code, m)
		}
		mustClosed(t, code, m, "docs")
	}

	// Wildcards and _all skip it; ignore_unavailable skips it when named.
	for _, path := range []string{"/_search", "/*/_search", "/d*/_search", "/docs,other/_search?ignore_unavailable=true", "/_count"} {
		code, m = doJSON(t, h, "GET", path, "")
		mustStatus(t, 200, code, m)
		if get(m, "hits.total.value") != nil && get(m, "hits.total.value") != 0.0 || m["count"] != nil && m["count"] != 0.0 {
			t.Fatalf("%s reached the closed index: %v", path, m)
		}
	}

	// A bulk item fails alone; an msearch entry answers the error in its place.
	code, m = doJSON(t, h, "POST", "/_bulk", `{"index":{"_index":"docs","_id":"9"}}`+"\n"+`{"a":1}`+"\n"+`{"index":{"_index":"other","_id":"9"}}`+"\n"+`{"a":1}`+"\n")
	mustStatus(t, 200, code, m)
	items := m["items"].([]any)
	if m["errors"] != true || get(items[0], "index.status") != 400.0 || get(items[0], "index.error.type") != "index_closed_exception" ||
		get(items[1], "index.status") != 201.0 {
		t.Fatalf("bulk: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_msearch", `{"index":"docs"}`+"\n{}\n"+`{"index":"other"}`+"\n{}\n")
	mustStatus(t, 200, code, m)
	rs := m["responses"].([]any)
	if get(rs[0], "error.type") != "index_closed_exception" || get(rs[0], "status") != 400.0 || get(rs[1], "status") != 200.0 {
		t.Fatalf("msearch: %v", m)
	}

	code, body := do(t, h, "GET", "/_cat/indices?h=status,index,docs.count&s=index", "")
	if code != 200 || !strings.Contains(string(body), "close docs") || !strings.Contains(string(body), "open  other") {
		t.Fatalf("_cat/indices: %d %q", code, body)
	}
	code, body = do(t, h, "GET", "/_cat/indices/docs?format=json&h=status,docs.count", "")
	if code != 200 || strings.TrimSpace(string(body)) != `[{"status":"close","docs.count":null}]` {
		t.Fatalf("_cat/indices?format=json: %d %s", code, body)
	}
	code, m = doJSON(t, h, "GET", "/docs/_mapping", "")
	mustStatus(t, 200, code, m)
	if get(m, "docs.mappings.properties.title.type") != "text" {
		t.Fatalf("mapping of a closed index: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/docs/_settings", "")
	if mustStatus(t, 200, code, m); get(m, "docs.settings.index.verified_before_close") != "true" {
		t.Fatalf("settings of a closed index: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_cluster/health/docs", "")
	if mustStatus(t, 200, code, m); m["active_primary_shards"] != 1.0 {
		t.Fatalf("health: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_stats", "")
	if mustStatus(t, 200, code, m); get(m, "indices.docs") != nil || get(m, "indices.other") == nil {
		t.Fatalf("_stats over all: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_search?expand_wildcards=nope", "")
	mustStatus(t, 400, code, m)

	code, m = doJSON(t, h, "DELETE", "/docs", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/docs/_search", "")
	mustStatus(t, 404, code, m)
	// A new index of the same name is open.
	code, m = doJSON(t, h, "PUT", "/docs", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/docs/_search", "")
	mustStatus(t, 200, code, m)
}

// Static settings change only on closed indices (MetadataUpdateSettingsService): on an open index
// they are "Can't update non dynamic settings", on a closed one analysis settings are taken, and
// a setting fixed at creation stays refused ("final index setting").
func TestStaticSettingsOnClosedIndex(t *testing.T) {
	_, h := loadFixture(t)
	const analysis = `{"index":{"analysis":{"analyzer":{"mine":{"type":"whitespace"}}}}}`
	code, m := doJSON(t, h, "PUT", "/docs/_settings", analysis)
	if mustStatus(t, 400, code, m); !strings.HasPrefix(get(m, "error.reason").(string), "Can't update non dynamic settings [[index.analysis.analyzer.mine.type]] for open indices [[docs/") {
		t.Fatalf("open: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/docs/_close", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "PUT", "/docs/_settings", analysis)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "PUT", "/docs/_settings", `{"index":{"number_of_shards":3}}`)
	if mustStatus(t, 400, code, m); get(m, "error.reason") != "final index setting [index.number_of_shards], not updateable" {
		t.Fatalf("final: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/docs/_open", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/docs/_settings", "")
	if mustStatus(t, 200, code, m); get(m, "docs.settings.index.analysis.analyzer.mine.type") != "whitespace" {
		t.Fatalf("settings after open: %v", m)
	}
}
