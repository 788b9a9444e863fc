package opensearch

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

func TestSearchHitsAndOrder(t *testing.T) {
	_, h := loadFixture(t)
	cases := []struct {
		name string
		body string
		ids  []string
	}{
		{"match single term, tf wins", `{"query":{"match":{"body":"fox"}}}`, []string{"3", "1"}},
		{"match or, both terms then shorter doc", `{"query":{"match":{"body":"brown butter"}}}`, []string{"5", "4", "1"}},
		{"match and", `{"query":{"match":{"body":{"query":"brown butter","operator":"and"}}}}`, []string{"5"}},
		{"match minimum_should_match", `{"query":{"match":{"body":{"query":"brown butter bread","minimum_should_match":2}}}}`, []string{"5"}},
		{"match fuzziness", `{"query":{"match":{"body":{"query":"buter","fuzziness":"AUTO"}}}}`, []string{"4", "5"}},
		{"match_phrase shorter doc first", `{"query":{"match_phrase":{"body":"lazy dog"}}}`, []string{"2", "1"}},
		{"match_phrase wrong order", `{"query":{"match_phrase":{"body":"dog lazy"}}}`, nil},
		{"match on keyword is exact", `{"query":{"match":{"category":"food"}},"sort":["_doc"]}`, []string{"4", "5"}},
		{"term on text is not analyzed", `{"query":{"term":{"title":"Fox"}}}`, nil},
		{"term on keyword sub-field", `{"query":{"term":{"title.keyword":"Fox news"}}}`, []string{"3"}},
		{"terms", `{"query":{"terms":{"category":["news","food"]}}}`, []string{"3", "4", "5"}},
		{"range number", `{"query":{"range":{"price":{"gte":20,"lt":150}}}}`, []string{"2", "4"}},
		{"range dates", `{"query":{"range":{"published":{"gte":"2024-03-02","lt":"2024-03-05"}}},"sort":[{"published":"asc"}]}`, []string{"5", "3"}},
		{"range date math", `{"query":{"range":{"published":{"gte":"now-12d/d"}}},"sort":[{"published":"asc"}]}`, []string{"3", "4"}},
		{"bool must + filter", `{"query":{"bool":{"must":[{"match":{"body":"fox"}}],"filter":[{"term":{"category":"animals"}}]}}}`, []string{"1"}},
		{"bool must_not only", `{"query":{"bool":{"must_not":{"term":{"category":"news"}}}}}`, []string{"1", "2", "4", "5"}},
		{"bool should msm", `{"query":{"bool":{"should":[{"term":{"tags":"a"}},{"term":{"tags":"b"}},{"term":{"category":"food"}}],"minimum_should_match":2}}}`, []string{"1", "5"}},
		{"exists", `{"query":{"exists":{"field":"price"}}}`, []string{"1", "2", "3", "4"}},
		{"ids", `{"query":{"ids":{"values":["3","1","nope"]}}}`, []string{"1", "3"}},
		{"prefix keyword", `{"query":{"prefix":{"title.keyword":"Fox"}}}`, []string{"3"}},
		{"wildcard keyword", `{"query":{"wildcard":{"category":"f*d"}}}`, []string{"4", "5"}},
		{"wildcard text terms", `{"query":{"wildcard":{"body":"bu?ter"}}}`, []string{"4", "5"}},
		{"boolean term", `{"query":{"term":{"active":false}}}`, []string{"2", "5"}},
		{"match_none", `{"query":{"match_none":{}}}`, nil},
		{"multi_match boosted title", `{"query":{"multi_match":{"query":"fox","fields":["title^2","body"]}}}`, []string{"3", "1"}},
		{"query_string", `{"query":{"query_string":{"query":"category:food AND body:bread"}}}`, []string{"5"}},
		{"sort price desc, missing last", `{"sort":[{"price":{"order":"desc"}}]}`, []string{"3", "2", "4", "1", "5"}},
		{"sort price asc, missing last", `{"sort":["price"]}`, []string{"1", "4", "2", "3", "5"}},
		{"sort keyword sub-field", `{"sort":[{"title.keyword":"asc"}]}`, []string{"5", "4", "3", "2", "1"}},
		{"from/size", `{"sort":["qty"],"from":1,"size":2}`, []string{"4", "1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, m := doJSON(t, h, "POST", "/docs/_search", tc.body)
			mustStatus(t, 200, code, m)
			got := hitIDs(m)
			if !reflect.DeepEqual(got, tc.ids) {
				t.Fatalf("ids = %v, want %v", got, tc.ids)
			}
		})
	}
}

func TestBM25ScoresPositiveAndDescending(t *testing.T) {
	_, h := loadFixture(t)
	_, m := doJSON(t, h, "POST", "/docs/_search", `{"query":{"match":{"body":"brown butter fox"}}}`)
	hits := get(m, "hits.hits").([]any)
	if len(hits) != 5-1 {
		t.Fatalf("want 4 hits, got %d", len(hits))
	}
	prev := 1e9
	for _, hh := range hits {
		s := hh.(map[string]any)["_score"].(float64)
		if s <= 0 || s > prev {
			t.Fatalf("scores not positive and descending: %v", hits)
		}
		prev = s
	}
	if get(m, "hits.max_score").(float64) != get(m, "hits.hits.0._score").(float64) {
		t.Fatalf("max_score must equal the top score")
	}
	// Doc 3 says "fox" three times in five tokens: tf=3, dl=5, avgdl=6, N=5, n=2.
	_, m = doJSON(t, h, "POST", "/docs/_search", `{"query":{"match":{"body":"fox"}}}`)
	idf := math.Log(1 + (5-2+0.5)/(2+0.5))
	norm := 1.2 * (1 - 0.75 + 0.75*5.0/6.0)
	expect := float32(idf * 3 / (3 + norm))
	if got := float32(get(m, "hits.hits.0._score").(float64)); got != expect {
		t.Fatalf("BM25 score of doc 3 = %v, want %v", got, expect)
	}
}

func TestFieldSortShape(t *testing.T) {
	_, h := loadFixture(t)
	_, m := doJSON(t, h, "POST", "/docs/_search", `{"sort":[{"published":"desc"}],"size":1}`)
	if get(m, "hits.max_score") != nil || get(m, "hits.hits.0._score") != nil {
		t.Fatalf("field sort must null the scores: %v", m)
	}
	if got := get(m, "hits.hits.0.sort.0").(float64); got != 1709640000000 {
		t.Fatalf("date sort value = %v, want epoch millis 1709640000000", got)
	}
	_, m = doJSON(t, h, "POST", "/docs/_search", `{"sort":[{"price":"asc"}]}`)
	if get(m, "hits.hits.4.sort.0") != nil {
		t.Fatalf("missing float sort value should be null: %v", get(m, "hits.hits.4"))
	}
}

func TestSearchAfterPaging(t *testing.T) {
	_, h := loadFixture(t)
	var all []string
	body := `{"size":2,"sort":[{"qty":"asc"}]}`
	for page := 0; page < 5; page++ {
		_, m := doJSON(t, h, "POST", "/docs/_search", body)
		ids := hitIDs(m)
		if len(ids) == 0 {
			break
		}
		all = append(all, ids...)
		last := get(m, "hits.hits").([]any)
		sortVals := last[len(last)-1].(map[string]any)["sort"].([]any)
		body = `{"size":2,"sort":[{"qty":"asc"}],"search_after":[` + string(jsonout.Marshal(sortVals[0])) + `]}`
	}
	if want := []string{"2", "4", "1", "5", "3"}; !reflect.DeepEqual(all, want) {
		t.Fatalf("paged ids = %v, want %v", all, want)
	}
	code, m := doJSON(t, h, "POST", "/docs/_search", `{"search_after":[1],"sort":["qty","price"]}`)
	mustStatus(t, 400, code, m)
}

func TestTrackTotalHits(t *testing.T) {
	_, h := loadFixture(t)
	cases := []struct {
		body     string
		value    any
		relation any
	}{
		{`{}`, 5.0, "eq"},
		{`{"track_total_hits":true}`, 5.0, "eq"},
		{`{"track_total_hits":2}`, 2.0, "gte"},
		{`{"track_total_hits":10}`, 5.0, "eq"},
		{`{"track_total_hits":false}`, nil, nil},
	}
	for _, tc := range cases {
		_, m := doJSON(t, h, "POST", "/docs/_search", tc.body)
		if get(m, "hits.total.value") != tc.value || get(m, "hits.total.relation") != tc.relation {
			t.Fatalf("%s: total = %v", tc.body, get(m, "hits.total"))
		}
		if tc.value == nil {
			if _, has := get(m, "hits").(map[string]any)["total"]; has {
				t.Fatalf("track_total_hits:false must omit total")
			}
		}
	}
}

func TestSourceFiltering(t *testing.T) {
	_, h := loadFixture(t)
	cases := []struct {
		source string
		keys   []string
	}{
		{`true`, []string{"active", "body", "category", "price", "published", "qty", "tags", "title"}},
		{`"title"`, []string{"title"}},
		{`["title","ta*"]`, []string{"tags", "title"}},
		{`{"includes":["*"],"excludes":["body","tags","p*"]}`, []string{"active", "category", "qty", "title"}},
	}
	for _, tc := range cases {
		_, m := doJSON(t, h, "POST", "/docs/_search", `{"query":{"ids":{"values":["1"]}},"_source":`+tc.source+`}`)
		src := get(m, "hits.hits.0._source").(map[string]any)
		got := jsonval.SortedKeys(src)
		if !reflect.DeepEqual(got, tc.keys) {
			t.Fatalf("_source %s: keys %v, want %v", tc.source, got, tc.keys)
		}
	}
	_, m := doJSON(t, h, "POST", "/docs/_search", `{"_source":false,"size":1}`)
	if _, has := get(m, "hits.hits.0").(map[string]any)["_source"]; has {
		t.Fatalf("_source:false must omit _source")
	}
}

func TestSizeZeroStillAggregates(t *testing.T) {
	_, h := loadFixture(t)
	_, m := doJSON(t, h, "POST", "/docs/_search", `{"size":0,"query":{"term":{"category":"food"}},"aggs":{"n":{"value_count":{"field":"qty"}}}}`)
	if len(get(m, "hits.hits").([]any)) != 0 || get(m, "hits.total.value") != 2.0 || get(m, "aggregations.n.value") != 2.0 {
		t.Fatalf("size 0: %v", m)
	}
}

func TestMultiIndexAndPatterns(t *testing.T) {
	_, h := loadFixture(t)
	do(t, h, "PUT", "/other/_doc/x", `{"body":"fox in another index"}`)
	_, m := doJSON(t, h, "POST", "/docs,other/_search", `{"query":{"match":{"body":"fox"}}}`)
	if get(m, "hits.total.value") != 3.0 {
		t.Fatalf("comma list: %v", get(m, "hits"))
	}
	_, m = doJSON(t, h, "GET", "/do*/_search", ``)
	if get(m, "hits.total.value") != 5.0 {
		t.Fatalf("wildcard: %v", get(m, "hits.total"))
	}
	_, m = doJSON(t, h, "GET", "/_search?q=body:fox", ``)
	if get(m, "hits.total.value") != 3.0 {
		t.Fatalf("_search?q: %v", get(m, "hits.total"))
	}
	_, m = doJSON(t, h, "GET", "/nomatch-*/_search", ``)
	if get(m, "hits.total.value") != 0.0 {
		t.Fatalf("empty wildcard should be an empty result: %v", m)
	}
	code, m := doJSON(t, h, "GET", "/docs/_count", `{"query":{"term":{"category":"food"}}}`)
	if code != 200 || m["count"] != 2.0 {
		t.Fatalf("_count: %v", m)
	}
}

func TestSearchErrors(t *testing.T) {
	_, h := loadFixture(t)
	cases := []struct {
		name, method, path, body string
		status                   int
		rootType                 string
		reason                   string
	}{
		{"missing index", "POST", "/missing/_search", `{}`, 404, "index_not_found_exception", "no such index [missing]"},
		{"unknown query", "POST", "/docs/_search", `{"query":{"bogus":{}}}`, 400, "parsing_exception", "unknown query [bogus]"},
		{"clause without query", "POST", "/docs/_search", `{"match":{"body":"fox"}}`, 400, "parsing_exception", "Unknown key for a START_OBJECT in [match]."},
		{"result window", "POST", "/docs/_search", `{"from":9995,"size":10}`, 400, "illegal_argument_exception", "Result window is too large"},
		{"sort on text", "POST", "/docs/_search", `{"sort":["title"]}`, 400, "illegal_argument_exception", "Text fields are not optimised"},
		{"agg on text", "POST", "/docs/_search", `{"aggs":{"x":{"terms":{"field":"body"}}}}`, 400, "illegal_argument_exception", "fielddata=true on [body]"},
		{"bad json", "POST", "/docs/_search", `{"query": {"match_all": {}}`, 400, "json_parse_exception", "line: 1"},
		{"sort unmapped", "POST", "/docs/_search", `{"sort":["nope"]}`, 400, "query_shard_exception", "No mapping found for [nope]"},
		{"wrong method", "DELETE", "/docs/_search", ``, 405, "illegal_argument_exception", "Incorrect HTTP method"},
		{"already exists", "PUT", "/docs", `{}`, 400, "resource_already_exists_exception", "index [docs/"},
		{"bad index name", "PUT", "/Bad", ``, 400, "invalid_index_name_exception", "must be lowercase"},
		{"bad index chars", "PUT", "/a%2Ab", ``, 400, "invalid_index_name_exception", "must not contain"},
		{"leading underscore doc", "POST", "/-x/_doc", `{}`, 400, "invalid_index_name_exception", "must not start with"},
		{"bad date math", "POST", "/docs/_search", `{"query":{"range":{"published":{"gte":"yesterday"}}}}`, 400, "query_shard_exception", "failed to parse date field"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, m := doJSON(t, h, tc.method, tc.path, tc.body)
			mustStatus(t, tc.status, code, m)
			if m["status"] != float64(tc.status) {
				t.Fatalf("status member = %v", m["status"])
			}
			rt, _ := get(m, "error.root_cause.0.type").(string)
			rr, _ := get(m, "error.root_cause.0.reason").(string)
			if rt != tc.rootType || !strings.Contains(rr, tc.reason) {
				t.Fatalf("root_cause = %s %q, want %s containing %q", rt, rr, tc.rootType, tc.reason)
			}
			if _, ok := get(m, "error.type").(string); !ok {
				t.Fatalf("error.type missing: %v", m)
			}
		})
	}
}
