package opensearch

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// Tests for issue #17: each follows a REST spec story of opensearch-api-specification
// (tests/default/...) or a fact docs/search.md checked against OpenSearch's own material.

func logsFixture(t *testing.T) http.Handler {
	t.Helper()
	c := newTestCluster(t)
	h := c.Handler()
	var b strings.Builder
	msgs := []string{
		`GET /favicon.ico 404 from 203.0.113.61`,
		`GET /index.html 200 from 203.0.113.7`,
		`client 203.0.113.61 fetched v1.2.3 release`,
		`favicon missing`,
	}
	for _, m := range msgs {
		b.WriteString(`{"index":{}}` + "\n" + `{"message":"` + m + `"}` + "\n")
	}
	code, m := doJSON(t, h, "POST", "/logs/_bulk?refresh=true", b.String())
	mustStatus(t, 200, code, m)
	return h
}

// The standard analyzer follows UAX #29 word segmentation (Lucene StandardTokenizer): numbers and
// words joined by '.' stay one token. docs/search.md "Facts checked": 203.0.113.61, favicon.ico and
// v1.2.3 stay one token each.
func TestStandardAnalyzerKeepsDottedTokens(t *testing.T) {
	h := logsFixture(t)
	count := func(q string) any {
		_, m := doJSON(t, h, "POST", "/logs/_search", `{"query":{"match":{"message":"`+q+`"}}}`)
		return get(m, "hits.total.value")
	}
	for q, want := range map[string]float64{"203.0.113.61": 2, "favicon": 1, "favicon.ico": 1, "v1.2.3": 1, "203": 0, "ico": 0} {
		if got := count(q); got != want {
			t.Errorf("match message %q: %v hits, want %v", q, got, want)
		}
	}
}

// BaseRestHandler refuses parameters no handler consumed (docs/search.md "Facts checked").
func TestUnknownURLParameterRefused(t *testing.T) {
	h := logsFixture(t)
	code, m := doJSON(t, h, "GET", "/logs/_search?foo=1", "")
	mustStatus(t, 400, code, m)
	if get(m, "error.type") != "illegal_argument_exception" ||
		get(m, "error.reason") != "request [/logs/_search] contains unrecognized parameter: [foo]" {
		t.Fatalf("error = %v", m)
	}
	code, m = doJSON(t, h, "GET", "/logs/_search?sizee=1&foo=2", "")
	mustStatus(t, 400, code, m)
	if get(m, "error.reason") != "request [/logs/_search] contains unrecognized parameters: [foo], [sizee] -> did you mean [size]?" {
		t.Fatalf("suggestion: %v", get(m, "error.reason"))
	}
	code, m = doJSON(t, h, "GET", "/logs/_search?size=1&pretty&filter_path=hits.total", "")
	mustStatus(t, 200, code, m)
}

// http.compression: the engine accepts gzip request bodies (the clients' compression options).
func TestGzipRequestBody(t *testing.T) {
	h := logsFixture(t)
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write([]byte(`{"query":{"match":{"message":"favicon.ico"}}}`))
	zw.Close()
	req := httptest.NewRequest("POST", "/logs/_search", &zb)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Content-Encoding", "gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"value":1`) {
		t.Fatalf("gzip search: %d %s", rec.Code, rec.Body)
	}
	// A body is cut at http.max_content_length: 100mb unless set (rest's own test cuts a
	// gzip bomb as it inflates). Set to 1 MiB here, so the test does not read 100 MiB.
	code, m := doJSON(t, h, "GET", "/_nodes", "")
	mustStatus(t, 200, code, m)
	if !strings.Contains(mustJSONString(m), `"max_content_length_in_bytes":104857600`) {
		t.Errorf("the default http.max_content_length is not 100mb: %s", mustJSONString(m))
	}
	small := New(Options{Name: "test-cluster", MaxContentLength: 1 << 20}).Handler()
	req = httptest.NewRequest("POST", "/logs/_search", bytes.NewReader(make([]byte, 1<<20+1)))
	rec = httptest.NewRecorder()
	small.ServeHTTP(rec, req)
	if rec.Code != 413 {
		t.Fatalf("body over http.max_content_length: %d %s", rec.Code, rec.Body)
	}
}

// Error shapes (item 8), following OpenSearch's server code: query_string is parsed on the shard
// (QueryStringQueryBuilder.doToQuery throws query_shard_exception "Failed to parse query [..]"),
// so the answer is search_phase_execution_exception "all shards failed"; ParsingException writes
// line/col; VersionConflictEngineException carries the shard id (index, shard, index_uuid);
// IndexNameExpressionResolver names a single-index miss an index_expression; level=indices is
// ClusterHealthResponse's per-index section (opensearch-api-specification
// tests/default/cluster/health.yaml asks for it).
func TestErrorShapes(t *testing.T) {
	h := logsFixture(t)
	for _, q := range []string{`message:(favicon`, `favicon AND`} {
		code, m := doJSON(t, h, "POST", "/logs/_search", `{"query":{"query_string":{"query":"`+q+`"}}}`)
		mustStatus(t, 400, code, m)
		if get(m, "error.type") != "search_phase_execution_exception" || get(m, "error.root_cause.0.type") != "query_shard_exception" ||
			get(m, "error.root_cause.0.index") != "logs" || get(m, "error.caused_by.caused_by.type") != "parse_exception" {
			t.Fatalf("query_string %q: %v", q, m)
		}
	}
	code, m := doJSON(t, h, "POST", "/logs/_search", "{\n  \"query\": {\"nope\": {}}}")
	mustStatus(t, 400, code, m)
	if get(m, "error.type") != "parsing_exception" || get(m, "error.line") != 2.0 || get(m, "error.col") != 21.0 ||
		get(m, "error.root_cause.0.line") != 2.0 {
		t.Fatalf("parsing_exception location: %v", m)
	}
	doJSON(t, h, "PUT", "/logs/_doc/x", `{"message":"a"}`)
	code, m = doJSON(t, h, "PUT", "/logs/_create/x", `{"message":"a"}`)
	mustStatus(t, 409, code, m)
	if get(m, "error.shard") != "0" || get(m, "error.index") != "logs" || get(m, "error.index_uuid") == "_na_" || get(m, "error.index_uuid") == nil {
		t.Fatalf("version conflict: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/nowhere/_doc/1", "")
	mustStatus(t, 404, code, m)
	if get(m, "error.resource.type") != nil || get(m, "error.type") != "index_not_found_exception" {
		t.Fatalf("missing index: %v", m)
	}
	if e := get(m, "error").(map[string]any); e["resource.type"] != "index_expression" {
		t.Fatalf("missing index resource.type: %v", e)
	}
	code, m = doJSON(t, h, "GET", "/_cluster/health?level=indices", "")
	mustStatus(t, 200, code, m)
	if get(m, "indices.logs.number_of_shards") != 1.0 || get(m, "indices.logs.status") == nil {
		t.Fatalf("health level=indices: %v", m)
	}
}

// PUT /{index}/_settings updates dynamic settings (opensearch-api-specification
// tests/default/indices/settings.yaml); static ones are refused on an open index.
func TestPutSettings(t *testing.T) {
	h := logsFixture(t)
	code, m := doJSON(t, h, "PUT", "/logs/_settings", `{"index":{"refresh_interval":"-1","number_of_replicas":0}}`)
	mustStatus(t, 200, code, m)
	if m["acknowledged"] != true {
		t.Fatalf("put settings: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/logs/_settings", "")
	if get(m, "logs.settings.index.refresh_interval") != "-1" || get(m, "logs.settings.index.number_of_replicas") != "0" {
		t.Fatalf("settings after update: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/logs/_settings", `{"refresh_interval":null}`)
	mustStatus(t, 200, code, m)
	_, m = doJSON(t, h, "GET", "/logs/_settings", "")
	if get(m, "logs.settings.index.refresh_interval") != nil {
		t.Fatalf("reset refresh_interval: %v", m)
	}
	doJSON(t, h, "PUT", "/other", `{"settings":{"index.refresh_interval":"5s"}}`)
	code, m = doJSON(t, h, "PUT", "/logs,other/_settings?preserve_existing=true", `{"index.refresh_interval":"30s"}`)
	mustStatus(t, 200, code, m)
	if _, m = doJSON(t, h, "GET", "/logs,other/_settings", ""); get(m, "logs.settings.index.refresh_interval") != "30s" ||
		get(m, "other.settings.index.refresh_interval") != "5s" {
		t.Fatalf("preserve_existing: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/logs/_settings", `{"index.number_of_shards":3}`)
	mustStatus(t, 400, code, m)
	if !strings.HasPrefix(get(m, "error.reason").(string), "Can't update non dynamic settings [[index.number_of_shards]]") {
		t.Fatalf("static setting: %v", m)
	}
}

func moviesFixture(t *testing.T) (*Cluster, http.Handler) {
	t.Helper()
	c := newTestCluster(t)
	h := c.Handler()
	body := `{"create":{"_index":"movies"}}
{"title":"The Lion King","year":1994}
{"create":{"_index":"movies"}}
{"title":"Drive","year":2011}
{"create":{"_index":"movies"}}
{"title":"Frozen","year":2013}
{"create":{"_index":"movies"}}
{"title":"Moneyball","year":2011}
{"create":{"_index":"movies"}}
{"title":"The Cruise","year":1998}
`
	code, m := doJSON(t, h, "POST", "/_bulk?refresh=true", body)
	mustStatus(t, 200, code, m)
	return c, h
}

func firstTitle(m map[string]any) any { return get(m, "hits.hits.0._source.title") }

// Scroll follows opensearch-api-specification tests/default/_core/search/scroll.yaml: pages of
// size 1 in index order through GET/POST /_search/scroll and /_search/scroll/{scroll_id}, then
// DELETE by id and by body.
func TestScrollStory(t *testing.T) {
	c, h := moviesFixture(t)
	code, m := doJSON(t, h, "GET", "/movies/_search?scroll=10m", `{"query":{"match_all":{}},"size":1}`)
	mustStatus(t, 200, code, m)
	id, _ := m["_scroll_id"].(string)
	if id == "" || firstTitle(m) != "The Lion King" || get(m, "hits.total.value") != 5.0 {
		t.Fatalf("first page: %v", m)
	}
	// python's scan helper asks the 6.x total shape; the scroll's pages keep the total.
	_, m3 := doJSON(t, h, "GET", "/movies/_search?scroll=1m&rest_total_hits_as_int=true", `{"size":4}`)
	if m3["hits"].(map[string]any)["total"] != 5.0 {
		t.Fatalf("rest_total_hits_as_int first page: %v", m3)
	}
	_, m3 = doJSON(t, h, "POST", "/_search/scroll", `{"scroll":"1m","scroll_id":"`+m3["_scroll_id"].(string)+`"}`)
	if get(m3, "hits.total.value") != 5.0 || len(get(m3, "hits.hits").([]any)) != 1 {
		t.Fatalf("second page of a rest_total_hits_as_int scroll: %v", m3)
	}
	_, m2 := doJSON(t, h, "GET", "/movies/_search?scroll=10m", `{"query":{"match_all":{}},"size":1}`)
	id2 := m2["_scroll_id"].(string)
	// A document written after the scroll started is not seen by it.
	doJSON(t, h, "POST", "/movies/_doc?refresh=true", `{"title":"Late","year":2020}`)
	steps := []struct{ method, path, body, want string }{
		{"GET", "/_search/scroll", `{"scroll":"10m","scroll_id":"` + id + `"}`, "Drive"},
		{"POST", "/_search/scroll", `{"scroll":"10m","scroll_id":"` + id + `"}`, "Frozen"},
		{"GET", "/_search/scroll/" + id, `{"scroll":"10m"}`, "Moneyball"},
		{"POST", "/_search/scroll/" + id, `{"scroll":"10m"}`, "The Cruise"},
	}
	for _, s := range steps {
		code, m := doJSON(t, h, s.method, s.path, s.body)
		mustStatus(t, 200, code, m)
		if firstTitle(m) != s.want || m["_scroll_id"] != id {
			t.Fatalf("%s %s: %v, want %s", s.method, s.path, m, s.want)
		}
	}
	_, m = doJSON(t, h, "POST", "/_search/scroll?rest_total_hits_as_int=true", `{"scroll":"1m","scroll_id":"`+id+`"}`)
	if n := len(get(m, "hits.hits").([]any)); n != 0 || get(m, "hits.total") != 5.0 {
		t.Fatalf("exhausted scroll: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/_search/scroll/"+id, "")
	mustStatus(t, 200, code, m)
	if m["num_freed"] != 1.0 || m["succeeded"] != true {
		t.Fatalf("clear scroll: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_search/scroll", `{"scroll_id":"`+id+`"}`)
	mustStatus(t, 404, code, m)
	if get(m, "error.root_cause.0.type") != "search_context_missing_exception" {
		t.Fatalf("cleared scroll: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/_search/scroll", `{"scroll_id":"`+id2+`"}`)
	mustStatus(t, 200, code, m)
	// Keep-alive runs on the cluster clock.
	_, m = doJSON(t, h, "GET", "/movies/_search?scroll=1m&size=2", ``)
	id = m["_scroll_id"].(string)
	now := testNow
	c.clock = func() time.Time { return now.Add(2 * time.Minute) }
	code, _ = doJSON(t, h, "GET", "/_search/scroll", `{"scroll_id":"`+id+`"}`)
	mustStatus(t, 404, code, nil)
	code, m = doJSON(t, h, "GET", "/movies/_search?scroll=1x", ``)
	mustStatus(t, 400, code, m)
}

// Point in time follows tests/default/_core/search/point_in_time.yaml (create with keep_alive,
// delete by body) and indices/search/point_in_time.yaml (search with "pit", list _all).
func TestPointInTimeStory(t *testing.T) {
	_, h := moviesFixture(t)
	code, m := doJSON(t, h, "POST", "/movies/_search/point_in_time?keep_alive=1m", "")
	mustStatus(t, 200, code, m)
	pit, _ := m["pit_id"].(string)
	if pit == "" || get(m, "_shards.total") != 1.0 || m["creation_time"] == nil {
		t.Fatalf("create pit: %v", m)
	}
	doJSON(t, h, "POST", "/movies/_doc?refresh=true", `{"title":"Late","year":2020}`)
	code, m = doJSON(t, h, "POST", "/_search", `{"size":2,"pit":{"id":"`+pit+`","keep_alive":"1m"},"sort":[{"year":"asc"}]}`)
	mustStatus(t, 200, code, m)
	if m["pit_id"] != pit || get(m, "hits.total.value") != 5.0 || firstTitle(m) != "The Lion King" {
		t.Fatalf("search pit: %v", m)
	}
	after := get(m, "hits.hits.1.sort")
	code, m = doJSON(t, h, "POST", "/_search", `{"size":2,"pit":{"id":"`+pit+`"},"sort":[{"year":"asc"}],"search_after":`+mustJSONString(after)+`}`)
	mustStatus(t, 200, code, m)
	if firstTitle(m) != "Drive" {
		t.Fatalf("search_after in pit: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/movies/_search", `{"pit":{"id":"`+pit+`"}}`)
	mustStatus(t, 400, code, m)
	_, m = doJSON(t, h, "GET", "/_search/point_in_time/_all", "")
	if len(m["pits"].([]any)) != 1 {
		t.Fatalf("list pits: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/_search/point_in_time", `{"pit_id":["`+pit+`"]}`)
	mustStatus(t, 200, code, m)
	if get(m, "pits.0.successful") != true || get(m, "pits.0.pit_id") != pit {
		t.Fatalf("delete pit: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_search", `{"pit":{"id":"`+pit+`"}}`)
	mustStatus(t, 404, code, m)
}

func mustJSONString(v any) string { return string(jsonout.Marshal(v)) }

func booksMovies(t *testing.T) http.Handler {
	t.Helper()
	h := newTestCluster(t).Handler()
	code, m := doJSON(t, h, "POST", "/_bulk?refresh=true", `{"create":{"_index":"books","_id":"book1"}}
{"author":"Harper Lee","title":"To Kill a Mockingbird","year":1960}
{"create":{"_index":"movies","_id":"movie1"}}
{"director":"Bennett Miller","title":"The Cruise","year":1998}
{"create":{"_index":"movies","_id":"movie2"}}
{"director":"Nicolas Winding Refn","title":"Drive","year":1960}
`)
	mustStatus(t, 200, code, m)
	return h
}

// _mget follows opensearch-api-specification tests/default/_core/mget.yaml (docs with per-doc
// _source) and indices/mget.yaml (/{index}/_mget with ids); a missing index is the item's error.
func TestMget(t *testing.T) {
	h := booksMovies(t)
	code, m := doJSON(t, h, "GET", "/_mget", `{"docs":[{"_index":"movies","_id":"movie1","_source":true},{"_index":"books","_id":"book1","_source":{"includes":["title"]}},{"_index":"nope","_id":"x"},{"_index":"books","_id":"zz"}]}`)
	mustStatus(t, 200, code, m)
	if get(m, "docs.0._id") != "movie1" || get(m, "docs.0.found") != true || get(m, "docs.1._source.author") != nil ||
		get(m, "docs.1._source.title") != "To Kill a Mockingbird" || get(m, "docs.2.error.type") != "index_not_found_exception" ||
		get(m, "docs.3.found") != false {
		t.Fatalf("mget: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/movies/_mget", `{"ids":["movie2","movie1"]}`)
	mustStatus(t, 200, code, m)
	if get(m, "docs.0._source.title") != "Drive" || get(m, "docs.1._id") != "movie1" {
		t.Fatalf("index mget: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_mget", `{"ids":["movie2"]}`)
	mustStatus(t, 400, code, m)
}

// _msearch follows tests/default/_core/msearch.yaml; a failing search is its item's error.
func TestMsearch(t *testing.T) {
	h := booksMovies(t)
	body := `{"index":"books"}
{"query":{"match_all":{}}}
{"index":"movies"}
{"query":{"match_all":{}}}
{"index":"nope"}
{}
{}
{"query":{"bogus":{}}}
`
	code, m := doJSON(t, h, "POST", "/_msearch?rest_total_hits_as_int=true", body)
	mustStatus(t, 200, code, m)
	if get(m, "responses.0.hits.total") != 1.0 || get(m, "responses.0.hits.hits.0._id") != "book1" ||
		get(m, "responses.1.hits.total") != 2.0 || get(m, "responses.1.status") != 200.0 ||
		get(m, "responses.2.status") != 404.0 || get(m, "responses.2.error.type") != "index_not_found_exception" ||
		get(m, "responses.3.status") != 400.0 || get(m, "responses.3.error.type") != "parsing_exception" {
		t.Fatalf("msearch: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/movies/_msearch", "\n{\"size\":0}\n{}\n{\"size\":0}\n")
	mustStatus(t, 200, code, m)
	if get(m, "responses.0.hits.total.value") != 2.0 || get(m, "responses.1.hits.total.value") != 2.0 {
		t.Fatalf("empty header lines: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_msearch", "{\"bad\":1}\n{}\n")
	mustStatus(t, 400, code, m)
}

// _delete_by_query and _update_by_query follow opensearch-api-specification
// tests/default/indices/delete_by_query.yaml and indices/update_by_query.yaml (term query with
// case_insensitive, "ctx._source.year += params.century", no body = rewrite every document).
func TestByQueryStories(t *testing.T) {
	h := newTestCluster(t).Handler()
	bulk := `{"create":{"_index":"books","_id":"book_1392214"}}
{"author":"Harper Lee","title":"To Kill a Mockingbird","year":60}
{"create":{"_index":"books","_id":"book_1392215"}}
{"author":"Elizabeth Rudnick","title":"Beauty and the Beast","year":91}
`
	code, m := doJSON(t, h, "POST", "/_bulk?refresh=true", bulk)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "POST", "/books/_update_by_query?refresh=true", "")
	mustStatus(t, 200, code, m)
	if m["updated"] != 2.0 || m["total"] != 2.0 {
		t.Fatalf("update_by_query without body: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/books/_update_by_query", `{"query":{"term":{"title":{"_name":"title","value":"beauty","case_insensitive":true,"boost":1}}},
		"script":{"source":"ctx._source.year += params.century","lang":"painless","params":{"century":1900}}}`)
	mustStatus(t, 200, code, m)
	if m["updated"] != 1.0 {
		t.Fatalf("update_by_query with script: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/books/_update_by_query", `{"query":{"term":{"year":60}},"script":{"source":"ctx._source.year += params.century","params":{"century":1900}}}`)
	mustStatus(t, 200, code, m)
	_, m = doJSON(t, h, "GET", "/books/_doc/book_1392214", "")
	if m["updated"] != nil || get(m, "_source.year") != 1960.0 || get(m, "_version") != 3.0 {
		t.Fatalf("after update_by_query: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/books/_delete_by_query", `{"query":{"term":{"title":{"_name":"title","value":"beauty","case_insensitive":true,"boost":1}}}}`)
	mustStatus(t, 200, code, m)
	if m["total"] != 1.0 || m["deleted"] != 1.0 || m["failures"] == nil {
		t.Fatalf("delete_by_query: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/books/_delete_by_query?refresh=true&conflicts=proceed", `{"query":{"match_all":{}}}`)
	mustStatus(t, 200, code, m)
	if m["deleted"] != 1.0 {
		t.Fatalf("delete the rest: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/books/_delete_by_query", ``)
	mustStatus(t, 400, code, m)
	code, m = doJSON(t, h, "POST", "/books/_update_by_query", `{"script":{"source":"while (true) {}"}}`)
	mustStatus(t, 400, code, m)
	if get(m, "error.type") != "script_exception" {
		t.Fatalf("unsupported script: %v", m)
	}
}

// Response shaping on search (item 6): filter_path (common response parameter, rest-api-spec
// search/*.yml uses it), rest_total_hits_as_int and typed_keys (URL parameters of the search API
// in opensearch-api-specification spec/namespaces/_core.yaml), fields and docvalue_fields
// (search request body members).
func TestSearchResponseShaping(t *testing.T) {
	_, h := loadFixture(t)
	code, m := doJSON(t, h, "POST", "/docs/_search?filter_path=hits.hits._id,hits.total.value,-hits.total.relation&rest_total_hits_as_int=false", `{"sort":["qty"],"size":2}`)
	mustStatus(t, 200, code, m)
	if len(m) != 1 || get(m, "hits.total.value") != 5.0 || get(m, "hits.hits.0._id") != "2" || get(m, "hits.hits.0._source") != nil || get(m, "hits.total.relation") != nil {
		t.Fatalf("filter_path: %v", m)
	}
	code, raw := do(t, h, "GET", "/docs/_search?filter_path=nothing.here", "")
	if code != 200 || string(raw) != "{}" {
		t.Fatalf("filter_path matching nothing: %d %s", code, raw)
	}
	_, m = doJSON(t, h, "POST", "/docs/_search?filter_path=**.doc_count", `{"size":0,"aggs":{"c":{"terms":{"field":"category"}}}}`)
	if get(m, "aggregations.c.buckets.0.doc_count") != 2.0 || get(m, "aggregations.c.buckets.0.key") != nil {
		t.Fatalf("filter_path **: %v", m)
	}
	_, m = doJSON(t, h, "POST", "/docs/_search?rest_total_hits_as_int=true&typed_keys=true", `{"size":0,"aggs":{"c":{"terms":{"field":"category"},"aggs":{"p":{"avg":{"field":"price"}}}},"q":{"terms":{"field":"qty"}},"d":{"date_histogram":{"field":"published","calendar_interval":"day"}}}}`)
	if get(m, "hits.total") != 5.0 || get(m, "aggregations.sterms#c.buckets.0.avg#p") == nil ||
		get(m, "aggregations.lterms#q") == nil || get(m, "aggregations.date_histogram#d") == nil {
		t.Fatalf("rest_total_hits_as_int/typed_keys: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/docs/_search?rest_total_hits_as_int=true", `{"track_total_hits":100}`)
	mustStatus(t, 400, code, m)
	_, m = doJSON(t, h, "POST", "/docs/_search", `{"query":{"ids":{"values":["1"]}},"_source":false,"fields":["title*","qty",{"field":"published","format":"yyyy-MM-dd"}],"docvalue_fields":["tags","price"]}`)
	f := get(m, "hits.hits.0.fields")
	want := `{"price":[10],"published":["2024-03-01"],"qty":[5],"tags":["a","b"],"title":["Quick brown fox"],"title.keyword":["Quick brown fox"]}`
	if got := string(jsonout.Marshal(f)); got != want || get(m, "hits.hits.0._source") != nil {
		t.Fatalf("fields: %s, want %s", got, want)
	}
	code, m = doJSON(t, h, "POST", "/docs/_search", `{"docvalue_fields":["body"]}`)
	mustStatus(t, 400, code, m)
}

// Legacy templates follow opensearch-api-specification tests/default/_core/template.yaml (create,
// update, get with string settings, HEAD, delete); a composable template wins over them.
func TestLegacyTemplateStory(t *testing.T) {
	h := newTestCluster(t).Handler()
	code, m := doJSON(t, h, "POST", "/_template/daily_logs", `{"index_patterns":["logs*"],"settings":{"number_of_shards":2,"number_of_replicas":2}}`)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "PUT", "/_template/daily_logs", `{"index_patterns":["logs*"],"aliases":{"my_logs":{}},"settings":{"number_of_shards":4,"number_of_replicas":4},
		"mappings":{"properties":{"timestamp":{"type":"date","format":"yyyy-MM-dd HH:mm:ss||yyyy-MM-dd||epoch_millis"},"value":{"type":"double"}}}}`)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/_template/daily_logs", "")
	mustStatus(t, 200, code, m)
	if get(m, "daily_logs.index_patterns.0") != "logs*" || get(m, "daily_logs.settings.index.number_of_shards") != "4" ||
		get(m, "daily_logs.settings.index.number_of_replicas") != "4" {
		t.Fatalf("get template: %v", m)
	}
	if code, _ := do(t, h, "HEAD", "/_template/daily_logs", ""); code != 200 {
		t.Fatalf("HEAD template: %d", code)
	}
	if code, _ := do(t, h, "HEAD", "/_template/nope", ""); code != 404 {
		t.Fatalf("HEAD missing template: %d", code)
	}
	doJSON(t, h, "PUT", "/logs-1", "")
	_, m = doJSON(t, h, "GET", "/logs-1", "")
	if get(m, "logs-1.settings.index.number_of_shards") != "4" || get(m, "logs-1.mappings.properties.value.type") != "double" || get(m, "logs-1.aliases.my_logs") == nil {
		t.Fatalf("index from legacy template: %v", m)
	}
	doJSON(t, h, "PUT", "/_index_template/v2", `{"index_patterns":["logs-2*"],"template":{"settings":{"number_of_shards":1}}}`)
	doJSON(t, h, "PUT", "/logs-2", "")
	_, m = doJSON(t, h, "GET", "/logs-2", "")
	if get(m, "logs-2.settings.index.number_of_shards") != "1" || get(m, "logs-2.aliases.my_logs") != nil {
		t.Fatalf("composable template first: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/_template/daily_logs", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "DELETE", "/_template/daily_logs", "")
	mustStatus(t, 404, code, m)
}

// _stats (tests/default/_core/stats.yaml), _nodes (nodes/nodes.yaml) and _cluster/settings
// (cluster/settings.yaml: nested and flat PUT, flat_settings and include_defaults GET).
func TestStatsNodesClusterSettings(t *testing.T) {
	_, h := loadFixture(t)
	doJSON(t, h, "DELETE", "/docs/_doc/5", "")
	doJSON(t, h, "POST", "/docs/_search", "")
	code, m := doJSON(t, h, "GET", "/_stats?human=true", "")
	mustStatus(t, 200, code, m)
	if get(m, "_all.primaries.docs.count") != 4.0 || get(m, "_all.primaries.docs.deleted") != 1.0 || get(m, "indices.docs.uuid") == nil ||
		get(m, "indices.docs.primaries.indexing.index_total") != 5.0 || get(m, "indices.docs.primaries.search.query_total") != 1.0 {
		t.Fatalf("stats: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_stats/docs?expand_wildcards=all&forbid_closed_indices=false&groups=*&level=indices", "")
	mustStatus(t, 200, code, m)
	if get(m, "indices.docs.primaries.store") != nil || get(m, "indices.docs.primaries.docs.count") != 4.0 {
		t.Fatalf("stats docs: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_nodes?human=true", "")
	mustStatus(t, 200, code, m)
	if get(m, "_nodes.total") != 1.0 || get(m, "nodes."+nodeID+".version") != engineVersion {
		t.Fatalf("nodes: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/_cluster/settings", `{"transient":{"cluster":{"max_shards_per_node":500}}}`)
	mustStatus(t, 200, code, m)
	if get(m, "transient.cluster.max_shards_per_node") != "500" || m["acknowledged"] != true {
		t.Fatalf("put cluster settings: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/_cluster/settings", `{"persistent":{"cluster.max_shards_per_node":600}}`)
	mustStatus(t, 200, code, m)
	_, m = doJSON(t, h, "GET", "/_cluster/settings?flat_settings=true", "")
	if get(m, "persistent").(map[string]any)["cluster.max_shards_per_node"] != "600" {
		t.Fatalf("flat cluster settings: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/_cluster/settings?include_defaults=true", "")
	if get(m, "defaults.search.max_buckets") == nil || get(m, "transient.cluster.max_shards_per_node") != "500" {
		t.Fatalf("cluster settings with defaults: %v", m)
	}
	doJSON(t, h, "PUT", "/_cluster/settings", `{"transient":{"cluster.max_shards_per_node":null}}`)
	_, m = doJSON(t, h, "GET", "/_cluster/settings", "")
	if get(m, "transient.cluster") != nil {
		t.Fatalf("reset cluster setting: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/_cluster/settings", `{"persistent":{"no.such":1}}`)
	mustStatus(t, 400, code, m)
}

// _analyze follows opensearch-api-specification tests/default/_core/analyze.yaml (standard
// analyzer, single and multi-valued text) and _core/analyze/filter/uppercase.yaml (keyword
// tokenizer + uppercase filter); the standard tokenizer types numbers <NUM>.
func TestAnalyzeAPI(t *testing.T) {
	h := logsFixture(t)
	code, m := doJSON(t, h, "POST", "/_analyze", `{"analyzer":"standard","text":"Moneyball, directed by Bennett Miller"}`)
	mustStatus(t, 200, code, m)
	if get(m, "tokens.0.token") != "moneyball" || get(m, "tokens.0.start_offset") != 0.0 || get(m, "tokens.0.end_offset") != 9.0 ||
		get(m, "tokens.0.position") != 0.0 || get(m, "tokens.0.type") != "<ALPHANUM>" || len(m["tokens"].([]any)) != 5 {
		t.Fatalf("standard: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_analyze", `{"analyzer":"standard","text":["Drive, directed by Nicolas Winding Refn","Moneyball"]}`)
	mustStatus(t, 200, code, m)
	if get(m, "tokens.6.token") != "moneyball" || get(m, "tokens.6.position") != 106.0 || get(m, "tokens.6.start_offset") != 40.0 {
		t.Fatalf("multi-valued: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_analyze", `{"tokenizer":"keyword","filter":["uppercase"],"text":"Moneyball"}`)
	mustStatus(t, 200, code, m)
	if get(m, "tokens.0.token") != "MONEYBALL" || get(m, "tokens.0.type") != "word" || get(m, "tokens.0.end_offset") != 9.0 {
		t.Fatalf("keyword+uppercase: %v", m)
	}
	_, m = doJSON(t, h, "POST", "/logs/_analyze", `{"field":"message","text":"GET /favicon.ico from 203.0.113.61"}`)
	if get(m, "tokens.1.token") != "favicon.ico" || get(m, "tokens.3.token") != "203.0.113.61" || get(m, "tokens.3.type") != "<NUM>" {
		t.Fatalf("field analyzer: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_analyze", `{"analyzer":"klingon","text":"x"}`)
	mustStatus(t, 400, code, m)
}

// nested: the aggregation follows opensearch-api-specification
// tests/default/_core/search/aggregations/nested.yaml (doc_count counts nested objects); the
// query matches the fields of one nested object together (NestedQueryBuilder), unlike a plain
// object whose arrays are flattened.
func TestNestedQueryAndAggregation(t *testing.T) {
	h := newTestCluster(t).Handler()
	code, m := doJSON(t, h, "PUT", "/books", `{"mappings":{"properties":{"details":{"type":"nested"}}}}`)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "POST", "/_bulk?refresh=true", `{"index":{"_index":"books","_id":"0"}}
{"details":{"title":"title1"}}
{"index":{"_index":"books","_id":"1"}}
{"details":{"title":"title2"}}
`)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "POST", "/books/_search", `{"size":0,"aggregations":{"details_agg":{"nested":{"path":"details"}}}}`)
	mustStatus(t, 200, code, m)
	if get(m, "aggregations.details_agg.doc_count") != 2.0 || get(m, "hits.total.value") != 2.0 {
		t.Fatalf("nested agg story: %v", m)
	}
	doJSON(t, h, "PUT", "/posts", `{"mappings":{"properties":{"comments":{"type":"nested","properties":{"author":{"type":"keyword"},"stars":{"type":"integer"}}}}}}`)
	doJSON(t, h, "PUT", "/posts/_doc/1?refresh=true", `{"comments":[{"author":"alice","stars":5},{"author":"bob","stars":1}]}`)
	doJSON(t, h, "PUT", "/posts/_doc/2?refresh=true", `{"comments":[{"author":"alice","stars":1}]}`)
	code, m = doJSON(t, h, "POST", "/posts/_search", `{"query":{"nested":{"path":"comments","query":{"bool":{"must":[{"term":{"comments.author":"alice"}},{"term":{"comments.stars":1}}]}}}}}`)
	mustStatus(t, 200, code, m)
	if ids := hitIDs(m); len(ids) != 1 || ids[0] != "2" {
		t.Fatalf("nested query matched %v, want [2]", ids)
	}
	_, m = doJSON(t, h, "POST", "/posts/_search", `{"size":0,"query":{"nested":{"path":"comments","query":{"term":{"comments.author":"alice"}}}},
		"aggs":{"c":{"nested":{"path":"comments"},"aggs":{"by_author":{"terms":{"field":"comments.author"}},"avg_stars":{"avg":{"field":"comments.stars"}}}}}}`)
	if get(m, "hits.total.value") != 2.0 || get(m, "aggregations.c.doc_count") != 3.0 || get(m, "aggregations.c.by_author.buckets.0.key") != "alice" ||
		get(m, "aggregations.c.by_author.buckets.0.doc_count") != 2.0 || get(m, "aggregations.c.avg_stars.value") != 7.0/3 {
		t.Fatalf("nested agg with subs: %v", m)
	}
	// Nested fields belong to the nested documents: a plain query on the parent does not see
	// them, unless the mapping includes them in the parent.
	_, m = doJSON(t, h, "POST", "/posts/_search", `{"query":{"term":{"comments.author":"alice"}}}`)
	if get(m, "hits.total.value") != 0.0 {
		t.Fatalf("plain query on a nested field: %v", m)
	}
	doJSON(t, h, "PUT", "/posts2", `{"mappings":{"properties":{"comments":{"type":"nested","include_in_parent":true,"properties":{"author":{"type":"keyword"}}}}}}`)
	doJSON(t, h, "PUT", "/posts2/_doc/1?refresh=true", `{"comments":[{"author":"alice"}]}`)
	_, m = doJSON(t, h, "POST", "/posts2/_search", `{"query":{"term":{"comments.author":"alice"}}}`)
	if get(m, "hits.total.value") != 1.0 {
		t.Fatalf("include_in_parent: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/posts/_search", `{"query":{"nested":{"path":"nope","query":{"match_all":{}}}}}`)
	mustStatus(t, 400, code, m)
	if get(m, "error.root_cause.0.type") != "query_shard_exception" {
		t.Fatalf("nested on a non-nested path: %v", m)
	}
}

// ISM add/remove/explain follow opensearch-api-specification tests/default/ism/add.yaml (index in
// the path or in ?index=) and ism/explain.yaml (GET and POST, with and without an index).
func TestISMAddExplain(t *testing.T) {
	h := newTestCluster(t).Handler()
	doJSON(t, h, "PUT", "/books", "")
	doJSON(t, h, "PUT", "/movies", "")
	code, m := doJSON(t, h, "PUT", "/_plugins/_ism/policies/rollover", `{"policy":{"description":"A rollover policy.","default_state":"ingest","states":[{"name":"ingest","actions":[{"rollover":{"min_doc_count":5}}]}]}}`)
	mustStatus(t, 201, code, m)
	code, m = doJSON(t, h, "POST", "/_plugins/_ism/add/books", `{"policy_id":"rollover"}`)
	mustStatus(t, 200, code, m)
	if m["updated_indices"] != 1.0 || m["failures"] != false {
		t.Fatalf("add: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_plugins/_ism/add?index=books", `{"policy_id":"rollover"}`)
	mustStatus(t, 200, code, m)
	if m["updated_indices"] != 0.0 || m["failures"] != true || get(m, "failed_indices.0.index_name") != "books" {
		t.Fatalf("add again: %v", m)
	}
	for _, method := range []string{"GET", "POST"} {
		code, m = doJSON(t, h, method, "/_plugins/_ism/explain", `{}`)
		mustStatus(t, 200, code, m)
		if m["total_managed_indices"] != 1.0 || get(m, "books.policy_id") != "rollover" {
			t.Fatalf("%s explain: %v", method, m)
		}
	}
	_, m = doJSON(t, h, "GET", "/_plugins/_ism/explain/movies", "")
	if m["total_managed_indices"] != 0.0 || m["movies"] == nil || get(m, "movies.enabled") != nil {
		t.Fatalf("explain unmanaged: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_plugins/_ism/add/movies", `{"policy_id":"nope"}`)
	mustStatus(t, 404, code, m)
	code, m = doJSON(t, h, "POST", "/_plugins/_ism/remove/books", "")
	mustStatus(t, 200, code, m)
	if m["updated_indices"] != 1.0 {
		t.Fatalf("remove: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/_plugins/_ism/explain/books", "")
	if m["total_managed_indices"] != 0.0 {
		t.Fatalf("explain after remove: %v", m)
	}
}

// PPL follows opensearch-api-specification tests/default/ppl/ppl.yaml ("search source=books" on
// an empty index) and answers with the plugin's SimpleJsonResponseFormatter shape; the pipeline
// runs as the SQL the engine already speaks.
func TestPPL(t *testing.T) {
	_, h := loadFixture(t)
	doJSON(t, h, "PUT", "/books", `{}`)
	code, m := doJSON(t, h, "POST", "/_plugins/_ppl", `{"query":"search source=books"}`)
	mustStatus(t, 200, code, m)
	if m["total"] != 0.0 || m["status"] != nil {
		t.Fatalf("empty source: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_plugins/_ppl", `{"query":"source=docs | where qty > 2 and category != \"news\" | sort - qty | head 2 | fields title, qty"}`)
	mustStatus(t, 200, code, m)
	if get(m, "schema.0.name") != "title" || get(m, "schema.0.type") != "string" || get(m, "schema.1.type") != "long" ||
		m["total"] != 2.0 || get(m, "datarows.0.1") != 7.0 || get(m, "datarows.1.0") != "Quick brown fox" {
		t.Fatalf("where/sort/head/fields: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_plugins/_ppl", `{"query":"source=docs | stats count() as n, avg(qty) by category | sort - n | head 1"}`)
	mustStatus(t, 200, code, m)
	if get(m, "schema.0.name") != "n" || get(m, "schema.1.name") != "avg(qty)" || get(m, "schema.2.name") != "category" ||
		get(m, "datarows.0.0") != 2.0 || m["total"] != 1.0 {
		t.Fatalf("stats: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_plugins/_ppl", `{"query":"source=docs | dedup category"}`)
	mustStatus(t, 400, code, m)
	if get(m, "error.type") != "SyntaxCheckException" || m["status"] != 400.0 {
		t.Fatalf("unsupported command: %v", m)
	}
}

// Open scrolls keep their hits; the sandbox bounds the total (maxScrollHits) and frees it when
// scrolls are cleared.
func TestScrollHitBudget(t *testing.T) {
	_, h := moviesFixture(t)
	old := maxScrollHits
	maxScrollHits = 8
	defer func() { maxScrollHits = old }()
	_, m := doJSON(t, h, "GET", "/movies/_search?scroll=1m&size=1", "")
	id := m["_scroll_id"].(string)
	code, m := doJSON(t, h, "GET", "/movies/_search?scroll=1m&size=1", "")
	mustStatus(t, 429, code, m)
	doJSON(t, h, "DELETE", "/_search/scroll/"+id, "")
	code, m = doJSON(t, h, "GET", "/movies/_search?scroll=1m&size=1", "")
	mustStatus(t, 200, code, m)
}

// A bulk update item may carry a script (rest-api-spec bulk/ "update" action with "script"); one
// outside the painless subset fails only its item.
func TestBulkUpdateScript(t *testing.T) {
	_, h := loadFixture(t)
	body := `{"update":{"_id":"1"}}
{"script":{"source":"ctx._source.qty += params.n","params":{"n":10}}}
{"update":{"_id":"2"}}
{"script":"if (x) {}"}
`
	code, m := doJSON(t, h, "POST", "/docs/_bulk", body)
	mustStatus(t, 200, code, m)
	if m["errors"] != true || get(m, "items.0.update.result") != "updated" || get(m, "items.1.update.error.type") != "script_exception" {
		t.Fatalf("bulk scripts: %v", m)
	}
	if _, m = doJSON(t, h, "GET", "/docs/_doc/1", ""); get(m, "_source.qty") != 15.0 {
		t.Fatalf("after bulk script: %v", m)
	}
}

// Rollover follows opensearch-api-specification tests/default/indices/alias/rollover.yaml
// (manual rollover to a named index); conditions and the generated name follow
// RolloverRequest/MetadataRolloverService ("logs-000001" → "logs-000002").
func TestRollover(t *testing.T) {
	h := newTestCluster(t).Handler()
	doJSON(t, h, "PUT", "/games", "")
	doJSON(t, h, "POST", "/games/_alias/jeux", "")
	code, m := doJSON(t, h, "POST", "/jeux/_rollover/rollover", "")
	mustStatus(t, 200, code, m)
	if m["acknowledged"] != true || m["old_index"] != "games" || m["new_index"] != "rollover" || m["rolled_over"] != true {
		t.Fatalf("manual rollover: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/_alias/jeux", "")
	if m["rollover"] == nil || m["games"] != nil {
		t.Fatalf("implicit write alias moves: %v", m)
	}
	doJSON(t, h, "PUT", "/logs-000001", `{"aliases":{"logs":{"is_write_index":true}}}`)
	doJSON(t, h, "POST", "/logs/_doc?refresh=true", `{"m":1}`)
	code, m = doJSON(t, h, "POST", "/logs/_rollover", `{"conditions":{"max_docs":2,"max_age":"7d"}}`)
	mustStatus(t, 200, code, m)
	if m["rolled_over"] != false || get(m, "conditions").(map[string]any)["[max_docs: 2]"] != false {
		t.Fatalf("conditions not met: %v", m)
	}
	doJSON(t, h, "POST", "/logs/_doc?refresh=true", `{"m":2}`)
	_, m = doJSON(t, h, "POST", "/logs/_rollover?dry_run", `{"conditions":{"max_docs":2}}`)
	if m["rolled_over"] != false || m["dry_run"] != true || m["new_index"] != "logs-000002" {
		t.Fatalf("dry run: %v", m)
	}
	_, m = doJSON(t, h, "POST", "/logs/_rollover", `{"conditions":{"max_docs":2}}`)
	if m["rolled_over"] != true || m["new_index"] != "logs-000002" {
		t.Fatalf("rollover: %v", m)
	}
	doJSON(t, h, "POST", "/logs/_doc?refresh=true", `{"m":3}`)
	_, m = doJSON(t, h, "GET", "/logs-000002/_count", "")
	if m["count"] != 1.0 {
		t.Fatalf("writes go to the new index: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/logs/_count", "")
	if m["count"] != 3.0 {
		t.Fatalf("the alias still reads both: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/games/_rollover", "")
	mustStatus(t, 400, code, m)
}

// _field_caps follows opensearch-api-specification tests/default/_core/field_caps.yaml (fields
// from the URL, include_unmapped, index_filter in the body).
func TestFieldCaps(t *testing.T) {
	_, h := loadFixture(t)
	doJSON(t, h, "PUT", "/movies", `{"mappings":{"properties":{"type":{"type":"keyword"},"title":{"type":"text"}}}}`)
	code, m := doJSON(t, h, "GET", "/_field_caps?fields=*&allow_no_indices=false&expand_wildcards=all&ignore_unavailable=true&include_unmapped=true", "")
	mustStatus(t, 200, code, m)
	if get(m, "fields.category.keyword.aggregatable") != true || get(m, "fields.body.text.aggregatable") != false ||
		get(m, "fields.type.unmapped.indices.0") != "docs" || get(m, "fields.title.text.searchable") != true {
		t.Fatalf("field_caps: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_field_caps?fields=type", `{"index_filter":{"match_all":{}}}`)
	mustStatus(t, 200, code, m)
	if l := m["indices"].([]any); len(l) != 1 || l[0] != "docs" || len(m["fields"].(map[string]any)) != 0 {
		t.Fatalf("an index without documents is filtered out: %v", m)
	}
	doJSON(t, h, "PUT", "/movies/_doc/1?refresh=true", `{"type":"drama","title":"Drive"}`)
	_, m = doJSON(t, h, "POST", "/movies/_field_caps?fields=type", `{"index_filter":{"match_all":{}}}`)
	if get(m, "indices.0") != "movies" || get(m, "fields.type.keyword.type") != "keyword" {
		t.Fatalf("field_caps with filter: %v", m)
	}
	_, m = doJSON(t, h, "POST", "/_field_caps?fields=*", `{"index_filter":{"term":{"category":"food"}}}`)
	if l := m["indices"].([]any); len(l) != 1 || l[0] != "docs" {
		t.Fatalf("index_filter keeps indices with a match: %v", m)
	}
}

// terminate_after stops each shard after that many documents and says terminated_early
// (rest-api-spec search/ and count/ "terminate_after" parameters).
func TestTerminateAfter(t *testing.T) {
	_, h := loadFixture(t)
	_, m := doJSON(t, h, "POST", "/docs/_search?terminate_after=2", `{"aggs":{"c":{"value_count":{"field":"qty"}}}}`)
	if m["terminated_early"] != true || get(m, "hits.total.value") != 2.0 || get(m, "aggregations.c.value") != 2.0 {
		t.Fatalf("search terminate_after: %v", m)
	}
	_, m = doJSON(t, h, "POST", "/docs/_search", `{"terminate_after":10}`)
	if m["terminated_early"] != false || get(m, "hits.total.value") != 5.0 {
		t.Fatalf("not reached: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/docs/_count?terminate_after=3", "")
	if m["count"] != 3.0 || m["terminated_early"] != true {
		t.Fatalf("count terminate_after: %v", m)
	}
	if _, m = doJSON(t, h, "POST", "/docs/_search", ""); m["terminated_early"] != nil {
		t.Fatalf("terminated_early without terminate_after: %v", m)
	}
}

func TestLimitBits(t *testing.T) {
	for _, c := range []struct {
		bits []uint64
		n    int
		want []uint64
		cut  bool
	}{
		{[]uint64{0b1011, 0}, 2, []uint64{0b0011, 0}, true},
		{[]uint64{0b1011, 0}, 3, []uint64{0b1011, 0}, false},
		{[]uint64{1 << 63, 0b11}, 2, []uint64{1 << 63, 0b01}, true},
		{[]uint64{1 << 63, 0, 0b1}, 1, []uint64{1 << 63, 0, 0}, true},
		{[]uint64{0, 0b1}, 5, []uint64{0, 0b1}, false},
	} {
		got := append([]uint64(nil), c.bits...)
		cut := limitBits(got, c.n)
		if cut != c.cut || mustJSONString(got) != mustJSONString(c.want) {
			t.Errorf("limitBits(%b, %d) = %b %v, want %b %v", c.bits, c.n, got, cut, c.want, c.cut)
		}
	}
}

// stored_fields fetches stored fields only (none here besides _source), so _source goes unless
// asked for, and "_none_" drops _id as well; what the emulation cannot compute (explain,
// profile, suggest, indices_boost) is refused rather than silently ignored.
func TestStoredFieldsAndRefusals(t *testing.T) {
	_, h := loadFixture(t)
	_, m := doJSON(t, h, "POST", "/docs/_search", `{"size":1,"stored_fields":["title"]}`)
	if get(m, "hits.hits.0._id") == nil || get(m, "hits.hits.0._source") != nil {
		t.Fatalf("stored_fields: %v", m)
	}
	_, m = doJSON(t, h, "POST", "/docs/_search", `{"size":1,"stored_fields":"_none_"}`)
	if get(m, "hits.hits.0._id") != nil || get(m, "hits.hits.0._index") != "docs" {
		t.Fatalf("stored_fields _none_: %v", m)
	}
	_, m = doJSON(t, h, "POST", "/docs/_search", `{"size":1,"stored_fields":["title"],"_source":["title"]}`)
	if get(m, "hits.hits.0._source.title") == nil {
		t.Fatalf("stored_fields with _source: %v", m)
	}
	for _, body := range []string{`{"explain":true}`, `{"profile":true}`, `{"suggest":{"s":{"text":"fox","term":{"field":"title"}}}}`, `{"indices_boost":[{"docs":2}]}`} {
		if code, m := doJSON(t, h, "POST", "/docs/_search", body); code != 400 {
			t.Errorf("%s: %d %v", body, code, m)
		}
	}
	if code, _ := doJSON(t, h, "POST", "/docs/_search", `{"explain":false,"timeout":"1s"}`); code != 200 {
		t.Errorf("explain false: %d", code)
	}
}

// A point in time keeps seeing the documents as they were (search/point_in_time in the
// OpenSearch docs: "a consistent view of the data"): deleted and updated documents keep their
// old versions, new ones stay unseen, aggregations included; other searches see the present.
func TestPointInTimeKeepsOldVersions(t *testing.T) {
	c, h := moviesFixture(t)
	_, m := doJSON(t, h, "POST", "/movies/_search?size=10", `{"query":{"match":{"title":"drive"}}}`)
	driveID := get(m, "hits.hits.0._id").(string)
	_, m = doJSON(t, h, "POST", "/movies/_search", `{"query":{"match":{"title":"frozen"}}}`)
	frozenID := get(m, "hits.hits.0._id").(string)
	_, m = doJSON(t, h, "POST", "/movies/_search/point_in_time?keep_alive=5m", "")
	pit := m["pit_id"].(string)
	doJSON(t, h, "DELETE", "/movies/_doc/"+driveID+"?refresh=true", "")
	doJSON(t, h, "POST", "/movies/_update/"+frozenID+"?refresh=true", `{"doc":{"year":2099}}`)
	doJSON(t, h, "POST", "/movies/_update/"+frozenID+"?refresh=true", `{"doc":{"year":3000}}`)
	doJSON(t, h, "POST", "/movies/_doc?refresh=true", `{"title":"Late","year":2020}`)
	_, m = doJSON(t, h, "POST", "/_search", `{"size":10,"pit":{"id":"`+pit+`"},"sort":[{"year":"asc"}],"aggs":{"max_year":{"max":{"field":"year"}}}}`)
	if get(m, "hits.total.value") != 5.0 || get(m, "aggregations.max_year.value") != 2013.0 || get(m, "_shards.total") != 1.0 {
		t.Fatalf("pit view: %v", m)
	}
	titles := map[any]any{}
	for _, x := range get(m, "hits.hits").([]any) {
		titles[get(x, "_source.title")] = get(x, "_source.year")
	}
	if titles["Drive"] != 2011.0 || titles["Frozen"] != 2013.0 || titles["Late"] != nil {
		t.Fatalf("pit hits: %v", titles)
	}
	_, m = doJSON(t, h, "POST", "/movies/_search", `{"size":0,"aggs":{"max_year":{"max":{"field":"year"}}}}`)
	if get(m, "hits.total.value") != 5.0 || get(m, "aggregations.max_year.value") != 3000.0 {
		t.Fatalf("present view: %v", m)
	}
	doJSON(t, h, "DELETE", "/_search/point_in_time", `{"pit_id":["`+pit+`"]}`)
	doJSON(t, h, "DELETE", "/movies/_doc/"+frozenID, "") // no point in time left to keep it
	if n := len(c.indices["movies"].Pins.Pins); n != 0 {
		t.Fatalf("%d pins left after the point in time was deleted", n)
	}
	// An expired point in time stops keeping documents at the next write, searched or not.
	doJSON(t, h, "POST", "/movies/_search/point_in_time?keep_alive=1m", "")
	now := testNow
	c.clock = func() time.Time { return now.Add(2 * time.Minute) }
	doJSON(t, h, "POST", "/movies/_doc?refresh=true", `{"title":"Later"}`)
	_, m = doJSON(t, h, "POST", "/movies/_search", `{"query":{"match":{"title":"later"}}}`)
	doJSON(t, h, "DELETE", "/movies/_doc/"+get(m, "hits.hits.0._id").(string), "")
	if n := len(c.indices["movies"].Pins.Pins); n != 0 {
		t.Fatalf("%d pins left after the point in time expired", n)
	}
}

// Time values are read as OpenSearch's TimeValue.parseTimeValue reads them (libs/core
// TimeValue.java; TimeValueTests): whole numbers only, case ignored but for minutes, and its
// three reasons for refusing one. The same reading is the console's (internal/timevalue).
func TestTimeValuesAsTheEngineReadsThem(t *testing.T) {
	_, h := loadFixture(t)
	for _, c := range []struct{ path, body, reason string }{
		{"/docs/_search?scroll=1.5m", ``, "failed to parse [1.5m], fractional time values are not supported"},
		{"/docs/_search?scroll=10", ``, "failed to parse setting [scroll] with value [10] as a time value: unit is missing or unrecognized"},
		{"/docs/_search?scroll=-5m", ``, "failed to parse setting [scroll] with value [-5m] as a time value: negative durations are not supported"},
		{"/docs/_search", `{"size":0,"aggs":{"h":{"date_histogram":{"field":"published","fixed_interval":"1.5h"}}}}`,
			"failed to parse [1.5h], fractional time values are not supported"},
		{"/docs/_search", `{"size":0,"aggs":{"h":{"date_histogram":{"field":"published","fixed_interval":"0s"}}}}`,
			"Zero or negative time interval not supported"},
	} {
		code, m := doJSON(t, h, "GET", c.path, c.body)
		mustStatus(t, 400, code, m)
		// The reason is TimeValue's wherever the error nests it (an aggregation's refusal is
		// the cause of the search's).
		if body, _ := json.Marshal(m); !strings.Contains(string(body), `"reason":"`+c.reason+`"`) {
			t.Errorf("%s %s: no reason %q in %s", c.path, c.body, c.reason, body)
		}
	}
	for _, ok := range []string{"/docs/_search?scroll=2M" /* months are not minutes */} {
		if code, _ := doJSON(t, h, "GET", ok, ``); code != 400 {
			t.Errorf("%s answered %d, want 400", ok, code)
		}
	}
	code, m := doJSON(t, h, "GET", "/docs/_search?scroll=1H&size=1", ``)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/docs/_search", `{"size":0,"aggs":{"h":{"date_histogram":{"field":"published","fixed_interval":"30D"}}}}`)
	mustStatus(t, 200, code, m)
}
