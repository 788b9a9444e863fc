package search

import (
	"errors"
	"strings"
	"testing"
)

const searchAnswer = `{"took":5,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":10000,"relation":"gte"},"max_score":null,"hits":[
 {"_index":"logs","_id":"a1","_score":null,"_source":{"msg":"hello","host":{"name":"web-1","ip":"10.0.0.1"},"tags":["x","y"],"n":1.50},"sort":[1433116800000,"a1"]},
 {"_index":"logs","_id":"a2","_score":null,"_source":{"level":"warn","msg":"bye","host":{"name":"web-2"},"events":[{"k":1}],"_id":"inner"},"sort":[1433116900000,"a2"]}
]}}`

func TestShapeHits(t *testing.T) {
	h, err := ShapeHits([]byte(searchAnswer))
	if err != nil {
		t.Fatal(err)
	}
	if h.Total == nil || *h.Total != 10000 || h.TotalRelation != "gte" || h.MaxScore != nil || h.Took == nil || *h.Took != 5 {
		t.Fatalf("header = %+v", h)
	}
	wantCols := "_id,_score,msg,host.name,host.ip,tags,n,level,events,_source._id"
	if got := strings.Join(h.Columns, ","); got != wantCols {
		t.Fatalf("columns = %s", got)
	}
	if got := strings.Join(h.Rows[0], "|"); got != "a1||hello|web-1|10.0.0.1|x, y|1.50|||" {
		t.Fatalf("row 0 = %s", got)
	}
	if got := strings.Join(h.Rows[1], "|"); got != `a2||bye|web-2||||warn|[{"k":1}]|inner` {
		t.Fatalf("row 1 = %s", got)
	}
	if string(h.LastSort) != `[1433116900000,"a2"]` {
		t.Fatalf("last sort = %s", h.LastSort)
	}
	if len(h.Hits) != 2 || !strings.HasPrefix(string(h.Hits[0]), `{"_index":"logs","_id":"a1"`) {
		t.Fatalf("raw hits = %s", h.Hits)
	}
}

func TestShapeHitsTotals(t *testing.T) {
	h, err := ShapeHits([]byte(`{"hits":{"max_score":1.2,"hits":[{"_id":"1","_score":1.2,"_source":{}}]}}`))
	if err != nil || h.Total != nil || h.TotalRelation != "" || h.MaxScore == nil || *h.MaxScore != 1.2 || h.Rows[0][1] != "1.2" {
		t.Fatalf("absent total: %+v %v", h, err)
	}
	h, err = ShapeHits([]byte(`{"hits":{"total":3,"hits":[]}}`))
	if err != nil || h.Total == nil || *h.Total != 3 || h.TotalRelation != "eq" || len(h.Rows) != 0 || strings.Join(h.Columns, ",") != "_id,_score" {
		t.Fatalf("numeric total: %+v %v", h, err)
	}
	if _, err := ShapeHits([]byte(`{"acknowledged":true}`)); !errors.Is(err, ErrNoHits) {
		t.Fatalf("non-search answer: %v", err)
	}
	if _, err := ShapeHits([]byte(`Unauthorized`)); err == nil {
		t.Fatal("text accepted")
	}
}

const aggAnswer = `{"took":3,"hits":{"total":{"value":6,"relation":"eq"},"hits":[]},"aggregations":{
 "by_level":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
   {"key":"info","doc_count":4,"avg_n":{"value":2.5},"by_host":{"buckets":[{"key":"web-1","doc_count":3},{"key":"web-2","doc_count":1}]}},
   {"key":"warn","doc_count":2,"avg_n":{"value":null},"by_host":{"buckets":[]}}]},
 "avg_n":{"value":2.5},
 "n_stats":{"count":6,"min":1,"max":4,"avg":2.5,"sum":15},
 "per_day":{"buckets":[{"key_as_string":"2015-06-01T00:00:00.000Z","key":1433116800000,"doc_count":2},{"key_as_string":"2015-06-02T00:00:00.000Z","key":1433203200000,"doc_count":0}]},
 "sizes":{"buckets":[{"key":"*-50.0","to":50.0,"doc_count":1},{"key":"50.0-*","from":50.0,"doc_count":5}]},
 "errors_only":{"doc_count":2,"max_n":{"value":4}},
 "pct":{"values":{"50.0":2,"99.0":4}},
 "weird":[1,2]
}}`

func TestShapeAggs(t *testing.T) {
	tabs, err := ShapeAggs([]byte(aggAnswer))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, tb := range tabs {
		names = append(names, tb.Name+":"+string(tb.Kind))
	}
	if got := strings.Join(names, ","); got != "by_level:buckets,avg_n:metric,n_stats:metric,per_day:buckets,sizes:buckets,errors_only:buckets,pct:metric,weird:generic" {
		t.Fatalf("tables = %s", got)
	}
	lv := tabs[0]
	if got := strings.Join(lv.Columns, ","); got != "key,doc_count,avg_n,by_host.key,by_host.doc_count" {
		t.Fatalf("terms columns = %s", got)
	}
	var rows []string
	for _, r := range lv.Rows {
		rows = append(rows, strings.Join(r, "|"))
	}
	if got := strings.Join(rows, ";"); got != "info|4|2.5|web-1|3;info|4|2.5|web-2|1;warn|2|null||" {
		t.Fatalf("terms rows = %s", got)
	}
	if len(lv.Series) != 2 || lv.Series[0] != (SeriesPoint{"info", 4}) || lv.Series[1] != (SeriesPoint{"warn", 2}) {
		t.Fatalf("series = %+v", lv.Series)
	}
	if got := strings.Join(tabs[1].Columns, ",") + "=" + strings.Join(tabs[1].Rows[0], ","); got != "value=2.5" {
		t.Fatalf("avg = %s", got)
	}
	if got := strings.Join(tabs[2].Columns, ",") + "=" + strings.Join(tabs[2].Rows[0], ","); got != "count,min,max,avg,sum=6,1,4,2.5,15" {
		t.Fatalf("stats = %s", got)
	}
	if tabs[3].Series[0].Label != "2015-06-01T00:00:00.000Z" || tabs[3].Series[1].Value != 0 || tabs[3].Rows[0][0] != "2015-06-01T00:00:00.000Z" {
		t.Fatalf("date_histogram = %+v", tabs[3])
	}
	if tabs[4].Series[0].Label != "*-50.0" || tabs[4].Series[1].Value != 5 {
		t.Fatalf("range = %+v", tabs[4])
	}
	if got := strings.Join(tabs[5].Columns, ",") + "=" + strings.Join(tabs[5].Rows[0], ","); got != "key,doc_count,max_n=errors_only,2,4" {
		t.Fatalf("filter = %s", got)
	}
	if got := strings.Join(tabs[6].Columns, ","); got != "values.50.0,values.99.0" {
		t.Fatalf("percentiles = %s", got)
	}
	if tabs[7].Rows[0][0] != "1, 2" {
		t.Fatalf("generic = %+v", tabs[7])
	}
}

func TestShapeAggsKeyedAndAbsent(t *testing.T) {
	tabs, err := ShapeAggs([]byte(`{"aggregations":{"f":{"buckets":{"errors":{"doc_count":3},"ok":{"doc_count":9}}},"r":{"buckets":[{"from":1,"doc_count":2}]}}}`))
	if err != nil || len(tabs) != 2 {
		t.Fatalf("%v %v", tabs, err)
	}
	if tabs[0].Rows[1][0] != "ok" || tabs[0].Series[1].Value != 9 || tabs[1].Rows[0][0] != "1-*" {
		t.Fatalf("keyed = %+v / %+v", tabs[0], tabs[1])
	}
	tabs, err = ShapeAggs([]byte(`{"hits":{"hits":[]}}`))
	if err != nil || tabs != nil {
		t.Fatalf("no aggs: %v %v", tabs, err)
	}
	if _, err := ShapeAggs([]byte(`[`)); err == nil {
		t.Fatal("broken JSON accepted")
	}
}

func TestShapeSQL(t *testing.T) {
	tb, err := ShapeSQL([]byte(`{"schema":[{"name":"level","type":"keyword"},{"name":"COUNT(*)","alias":"n","type":"integer"}],"datarows":[["info",4],["warn",null]],"total":2,"size":2,"status":200}`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(tb.Columns, ",") != "level,n" || strings.Join(tb.Types, ",") != "keyword,integer" || tb.Total == nil || *tb.Total != 2 {
		t.Fatalf("%+v", tb)
	}
	if strings.Join(tb.Rows[0], ",") != "info,4" || strings.Join(tb.Rows[1], ",") != "warn,null" {
		t.Fatalf("rows = %v", tb.Rows)
	}
	tb, err = ShapeSQL([]byte("level,n\ninfo,4\n\"a,b\",5\n"))
	if err != nil || tb.Text == "" || strings.Join(tb.Columns, ",") != "level,n" || tb.Rows[1][0] != "a,b" {
		t.Fatalf("csv: %+v %v", tb, err)
	}
	tb, err = ShapeSQL([]byte("info|4\nwarn|2\n"))
	if err != nil || tb.Text != "info|4\nwarn|2\n" || tb.Columns != nil {
		t.Fatalf("raw: %+v %v", tb, err)
	}
	_, err = ShapeSQL([]byte(`{"error":{"reason":"Invalid SQL query","details":"Failed to parse","type":"SyntaxCheckException"},"status":400}`))
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Type != "SyntaxCheckException" || ee.Details != "Failed to parse" || ee.Status != 400 {
		t.Fatalf("sql error: %v", err)
	}
	for path, want := range map[string]string{"/_plugins/_sql": "jdbc", "/_plugins/_sql?format=CSV": "csv", "/_plugins/_sql?format=raw&x=1": "raw"} {
		if got := SQLFormat(path); got != want {
			t.Fatalf("SQLFormat(%s) = %s", path, got)
		}
	}
}

func TestShapeError(t *testing.T) {
	e := ShapeError(404, []byte(`{"error":{"root_cause":[{"type":"index_not_found_exception","reason":"no such index [x]","index":"x"}],"type":"index_not_found_exception","reason":"no such index [x] outer"},"status":404}`))
	if e.Type != "index_not_found_exception" || e.Reason != "no such index [x]" || len(e.RootCauses) != 1 || e.RootCauses[0].Index != "x" {
		t.Fatalf("%+v", e)
	}
	if e.Error() != "404 Not Found: index_not_found_exception: no such index [x]" {
		t.Fatalf("Error() = %q", e.Error())
	}
	e = ShapeError(400, []byte(`{"error":{"type":"parsing_exception","reason":"unknown query [foo]"},"status":400}`))
	if e.Type != "parsing_exception" || e.Reason != "unknown query [foo]" {
		t.Fatalf("%+v", e)
	}
	e = ShapeError(401, nil)
	if e.Reason != "Unauthorized" || e.Raw != "" {
		t.Fatalf("empty 401: %+v", e)
	}
	e = ShapeError(401, []byte("Unauthorized\n"))
	if e.Reason != "Unauthorized" || e.Raw != "Unauthorized" {
		t.Fatalf("text 401: %+v", e)
	}
	e = ShapeError(500, []byte(`{"error":"boom"}`))
	if e.Reason != "boom" {
		t.Fatalf("string error: %+v", e)
	}
	e = ShapeError(403, []byte(`{"status":"FORBIDDEN","message":"no permissions"}`))
	if e.Reason != "no permissions" {
		t.Fatalf("message error: %+v", e)
	}
	e = ShapeError(502, []byte(`{"unexpected":1}`))
	if e.Reason != "Bad Gateway" || e.Raw == "" {
		t.Fatalf("unknown json: %+v", e)
	}
	e = ShapeError(500, []byte(strings.Repeat("x", 5000)))
	if len(e.Raw) > maxRawError+4 {
		t.Fatalf("raw not truncated: %d", len(e.Raw))
	}
}

func TestNextPage(t *testing.T) {
	prev := &HitsTable{Rows: make([][]string, 2), LastSort: []byte(`[1433116900000,"a2"]`)}
	req := ParsedRequest{Method: "GET", Path: "/logs/_search", Body: `{"size": 2, "from": 4, "sort": [{"ts": "asc"}], "query": {"match_all": {}}}`, StartLine: 3}
	next, err := NextPage(req, prev)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"size\": 2,\n  \"sort\": [\n    {\n      \"ts\": \"asc\"\n    }\n  ],\n  \"query\": {\n    \"match_all\": {}\n  },\n  \"search_after\": [\n    1433116900000,\n    \"a2\"\n  ]\n}"
	if next.Body != want || next.StartLine != 3 || next.Path != req.Path {
		t.Fatalf("search_after page:\n%s", next.Body)
	}
	// Paging again replaces search_after rather than adding a second one.
	prev.LastSort = []byte(`[1433117000000,"a3"]`)
	again, err := NextPage(next, prev)
	if err != nil || strings.Count(again.Body, "search_after") != 1 || !strings.Contains(again.Body, "1433117000000") {
		t.Fatalf("second page: %v\n%s", err, again.Body)
	}

	plain := ParsedRequest{Method: "GET", Path: "/logs/_search", Body: `{"query":{"match_all":{}},"from":10}`}
	total := int64(100)
	next, err = NextPage(plain, &HitsTable{Rows: make([][]string, 10), Total: &total, TotalRelation: "eq"})
	if err != nil || !strings.Contains(next.Body, `"from": 20`) {
		t.Fatalf("from page: %v %s", err, next.Body)
	}
	next, err = NextPage(ParsedRequest{Method: "GET", Path: "/logs/_search"}, &HitsTable{Rows: make([][]string, 10)})
	if err != nil || next.Body != "{\n  \"from\": 10\n}" {
		t.Fatalf("no body: %v %q", err, next.Body)
	}
	if _, err := NextPage(plain, &HitsTable{Rows: make([][]string, 3)}); !errors.Is(err, ErrNoMorePages) {
		t.Fatalf("short page: %v", err)
	}
	total = 20
	if _, err := NextPage(plain, &HitsTable{Rows: make([][]string, 10), Total: &total, TotalRelation: "eq"}); !errors.Is(err, ErrNoMorePages) {
		t.Fatalf("last page: %v", err)
	}
	if _, err := NextPage(ParsedRequest{Method: "GET", Path: "/_cat/indices"}, prev); err == nil {
		t.Fatal("non-search paged")
	}
	if _, err := NextPage(ParsedRequest{Method: "GET", Path: "/x/_search", Body: `{"size":1,"sort":["a"]}`}, &HitsTable{Rows: make([][]string, 1)}); err == nil {
		t.Fatal("sorted page without sort values accepted")
	}
	if _, err := NextPage(ParsedRequest{Method: "GET", Path: "/x/_search", Body: `[1]`}, prev); err == nil {
		t.Fatal("array body accepted")
	}
}

func TestPrettyJSON(t *testing.T) {
	if got := PrettyJSON([]byte(`{"b":1,"a":[1,2]}`)); got != "{\n  \"b\": 1,\n  \"a\": [\n    1,\n    2\n  ]\n}" {
		t.Fatalf("object: %q", got)
	}
	if got := PrettyJSON([]byte("{\"a\":1}\n{\"b\":2}\n")); got != "{\n  \"a\": 1\n}\n{\n  \"b\": 2\n}" {
		t.Fatalf("ndjson: %q", got)
	}
	if got := PrettyJSON([]byte("green open logs")); got != "green open logs" {
		t.Fatalf("text: %q", got)
	}
}

func TestFieldNamesAndComplete(t *testing.T) {
	m, err := ParseMapping([]byte(`{"b":{"mappings":{"properties":{"zeta":{"type":"long"}}}},"a":{"mappings":{"properties":{
	  "message":{"type":"text","fields":{"keyword":{"type":"keyword"}}},
	  "address":{"properties":{"city":{"type":"keyword"},"geo":{"type":"nested","properties":{"lat":{"type":"float"}}}}},
	  "bad": 5}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.Indices[0].Index != "a" || m.Indices[0].Fields[0] != (Field{"address", "object"}) {
		t.Fatalf("%+v", m)
	}
	got := strings.Join(FieldNames(m), ",")
	if got != "address,address.city,address.geo,address.geo.lat,message,message.keyword,zeta" {
		t.Fatalf("fields = %s", got)
	}
	fields := FieldNames(m)
	if got := strings.Join(Complete(fields, "mess"), ","); got != "message,message.keyword" {
		t.Fatalf("prefix = %s", got)
	}
	if got := strings.Join(Complete(fields, "CIT"), ","); got != "address.city" {
		t.Fatalf("segment = %s", got)
	}
	if got := strings.Join(Complete(fields, "eo.l"), ","); got != "address.geo.lat" {
		t.Fatalf("substring = %s", got)
	}
	if got := strings.Join(Complete(fields, "zeta"), ","); got != "zeta" {
		t.Fatalf("exact = %s", got)
	}
	if len(Complete(fields, "")) != len(fields) || len(Complete(fields, "nomatch")) != 0 {
		t.Fatal("empty or missing prefix")
	}
	if _, err := ParseMapping([]byte(`nope`)); err == nil {
		t.Fatal("garbage mapping accepted")
	}
}

func TestCompletionPrefix(t *testing.T) {
	line := `  "query": {"match": {"mess`
	p, start, ok := CompletionPrefix(line, len(line))
	if !ok || p != "mess" || start != len(line)-4 {
		t.Fatalf("%q %d %v", p, start, ok)
	}
	if _, _, ok := CompletionPrefix(`{"a": 1, `, 9); ok {
		t.Fatal("outside a string reported as inside")
	}
	if p, _, ok := CompletionPrefix(`{"a\"b`, 6); !ok || p != `a\"b` {
		t.Fatalf("escaped quote: %q %v", p, ok)
	}
	if _, _, ok := CompletionPrefix("x", 5); ok {
		t.Fatal("column beyond the line accepted")
	}
}

func FuzzShapeAnswers(f *testing.F) {
	for _, s := range []string{searchAnswer, aggAnswer, `{"schema":[{"name":"a"}],"datarows":[[1,2,3],[]]}`, `{"error":{"root_cause":[]}}`, `a,b\n1`, `{"hits":{"hits":[{"_source":[1]}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if h, err := ShapeHits(body); err == nil {
			for _, r := range h.Rows {
				if len(r) != len(h.Columns) {
					t.Fatalf("ragged hits row %d vs %d columns", len(r), len(h.Columns))
				}
			}
		}
		if tabs, err := ShapeAggs(body); err == nil {
			for _, tb := range tabs {
				for _, r := range tb.Rows {
					if len(r) != len(tb.Columns) {
						t.Fatalf("ragged agg row in %s", tb.Name)
					}
				}
			}
		}
		if tb, err := ShapeSQL(body); err == nil {
			for _, r := range tb.Rows {
				if len(r) != len(tb.Columns) {
					t.Fatal("ragged SQL row")
				}
			}
		}
		if e := ShapeError(400, body); e == nil || e.Error() == "" {
			t.Fatal("ShapeError gave nothing")
		}
		_ = PrettyJSON(body)
		_, _ = ParseMapping(body)
		_, _ = ParseCatIndices(body)
	})
}

func TestPrettyJSONLeavesAbsurdNestingAlone(t *testing.T) {
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	if got := PrettyJSON([]byte(deep)); got != deep {
		t.Fatal("deeply nested JSON was re-indented")
	}
	if nestingDepth([]byte(`{"a":"[[[\"{{"}`)) != 1 {
		t.Fatal("brackets inside strings counted")
	}
}
