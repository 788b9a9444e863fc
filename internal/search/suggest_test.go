package search

import (
	"strings"
	"testing"
)

var demoFields = []Field{
	{"@timestamp", "date"}, {"host", "keyword"}, {"latency_ms", "float"}, {"level", "keyword"},
	{"message", "text"}, {"message.keyword", "keyword"}, {"region", "keyword"}, {"service", "keyword"},
	{"status", "long"}, {"trace_id", "keyword"}, {"user_id", "keyword"},
}

// suggestAt completes text at the "|" marker.
func suggestAt(t *testing.T, marked string) (Suggestions, string) {
	t.Helper()
	cur := strings.Index(marked, "|")
	if cur < 0 {
		t.Fatal("no cursor marker")
	}
	text := marked[:cur] + marked[cur+1:]
	return Suggest(SuggestInput{Text: text, Cursor: cur, Indices: []string{".kibana", "logs-app", "products"}, Fields: demoFields}), text
}

func labels(s Suggestions) string {
	var out []string
	for _, it := range s.Items {
		out = append(out, it.Label)
	}
	return strings.Join(out, ",")
}

func TestSuggestContexts(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       string // labels, or a prefix of them ending in "..."
		replaced   string // the text the suggestion replaces
	}{
		{"method", "GET /_cluster/health\n\nP|", "POST,PUT", "P"},
		{"method on the request line", "DEL| /logs-app", "DELETE", "DEL"},
		{"paths for an index", "GET /lo|", "/logs-app/_search,/logs-app/_count,/logs-app/_mapping,/logs-app/_doc/,/logs-app/_alias/,/logs-app/_settings", "/lo"},
		{"paths after a typed index", "POST /logs-app/_|", "/logs-app/_search,/logs-app/_count,/logs-app/_doc,/logs-app/_bulk,/logs-app/_refresh", "/logs-app/_"},
		{"plugin paths", "PUT /_pl|", "/_plugins/_ism/policies/,/_plugins/_security/api/roles/", "/_pl"},
		{"system index only when asked", "GET /.k|", "/.kibana/_search,/.kibana/_count,/.kibana/_mapping,/.kibana/_doc/,/.kibana/_alias/,/.kibana/_settings", "/.k"},
		{"top-level keys", "GET /logs-app/_search\n{\n  \"q|", "query", "q"},
		{"top-level keys, none typed", "GET /logs-app/_search\n{\n  \"size\": 0,\n  |", "query,aggs,from,sort,_source,highlight,track_total_hits,search_after,post_filter,collapse,timeout", ""},
		{"query types", "GET /logs-app/_search\n{\"query\": {\"ma|", "match,match_phrase,match_all,match_phrase_prefix", "ma"},
		{"bool clauses", "GET /logs-app/_search\n{\"query\": {\"bool\": {\"|", "must,filter,should,must_not,minimum_should_match", ""},
		{"query inside a bool array", "GET /logs-app/_search\n{\"query\": {\"bool\": {\"filter\": [{\"te|", "term,terms", "te"},
		{"match wants text fields", "GET /logs-app/_search\n{\"query\": {\"match\": {\"m|", "message,message.keyword", "m"},
		{"term wants exact fields", "GET /logs-app/_search\n{\"query\": {\"term\": {\"|", "@timestamp,host,latency_ms,level,message.keyword,region,service,status,trace_id,user_id", ""},
		{"range wants dates and numbers", "GET /logs-app/_search\n{\"query\": {\"range\": {\"|", "@timestamp,latency_ms,status", ""},
		{"range bounds", "GET /logs-app/_search\n{\"query\": {\"range\": {\"@timestamp\": {\"g|", "gte,gt", "g"},
		{"aggregation types", "GET /logs-app/_search\n{\"aggs\": {\"per_day\": {\"da|", "date_histogram,date_range", "da"},
		{"no suggestion for an aggregation's name", "GET /logs-app/_search\n{\"aggs\": {\"|", "", ""},
		{"date_histogram params", "GET /logs-app/_search\n{\"aggs\": {\"d\": {\"date_histogram\": {\"field\": \"@timestamp\", \"|", "calendar_interval,fixed_interval,format,time_zone,min_doc_count,extended_bounds", ""},
		{"date_histogram field wants dates", "GET /logs-app/_search\n{\"aggs\": {\"d\": {\"date_histogram\": {\"field\": \"|", "@timestamp", ""},
		{"calendar_interval values", "GET /logs-app/_search\n{\"aggs\": {\"d\": {\"date_histogram\": {\"field\": \"@timestamp\", \"calendar_interval\": \"|", "minute,hour,day,week,month,quarter,year", ""},
		{"avg wants numbers", "GET /logs-app/_search\n{\"aggs\": {\"a\": {\"avg\": {\"field\": \"|", "latency_ms,status", ""},
		{"sub-aggregations", "GET /logs-app/_search\n{\"aggs\": {\"s\": {\"terms\": {\"field\": \"service\"}, \"aggs\": {\"t\": {\"top|", "top_hits", "top"},
		{"sort fields", "GET /logs-app/_search\n{\"sort\": [{\"@t|", "@timestamp", "@t"},
		{"sort order", "GET /logs-app/_search\n{\"sort\": [{\"@timestamp\": \"|", "desc,asc", ""},
		{"_source elements", "GET /logs-app/_search\n{\"_source\": [\"mess|", "message,message.keyword", "mess"},
		{"highlight fields", "GET /logs-app/_search\n{\"highlight\": {\"fields\": {\"me|", "message,message.keyword", "me"},
		{"keys already written are not offered", "GET /logs-app/_search\n{\"query\": {}, \"size\": 1, \"|", "aggs,from,sort,_source,highlight,track_total_hits,search_after,post_filter,collapse,timeout", ""},
		{"count body", "GET /logs-app/_count\n{\"|", "query", ""},
		{"aliases", "POST /_aliases\n{\"actions\": [{\"add\": {\"index\": \"|", "logs-app,products", ""},
		{"comment lines are skipped", "GET /logs-app/_search\n{\n# a \"quoted { comment\n  \"que|", "query", "que"},
		{"after a closed body a new request", "GET /logs-app/_search\n{\"size\": 1}\nG|", "GET", "G"},
		{"field value inside a later request", "GET /_cat/indices\n\nGET /logs-app/_search\n{\"query\": {\"exists\": {\"field\": \"us|", "user_id", "us"},
	} {
		got, text := suggestAt(t, tc.text)
		if labels(got) != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, labels(got), tc.want)
			continue
		}
		if r := text[got.Start:got.End]; r != tc.replaced {
			t.Errorf("%s: replaces %q, want %q", tc.name, r, tc.replaced)
		}
	}
}

func TestSuggestQuoting(t *testing.T) {
	got, _ := suggestAt(t, "GET /logs-app/_search\n{\"query\": {\"bool\": {mu|")
	if labels(got) != "must,must_not" || got.Items[0].Text != `"must"` || got.Items[0].Kind != SuggestKey {
		t.Fatalf("bare key: %+v", got.Items)
	}
	got, _ = suggestAt(t, "GET /logs-app/_search\n{\"track_total_hits\": |")
	if labels(got) != "true,false" || got.Items[0].Text != "true" {
		t.Fatalf("literal: %+v", got.Items)
	}
	got, _ = suggestAt(t, "GET /logs-app/_search\n{\"aggs\": {\"d\": {\"date_histogram\": {\"fixed_interval\": |")
	if got.Items[0].Text != `"30s"` {
		t.Fatalf("string value outside quotes: %+v", got.Items)
	}
	got, _ = suggestAt(t, "GET /logs-app/_search\n{\"query\": {\"term\": {\"lev|")
	if got.Items[0].Text != "level" || got.Items[0].Detail != "keyword" || got.Items[0].Kind != SuggestField {
		t.Fatalf("field inside quotes: %+v", got.Items)
	}
	got, _ = suggestAt(t, "GET /logs-app/_search|")
	if len(got.Items) != 0 {
		t.Fatalf("complete path offered itself: %+v", got.Items)
	}
	if got, _ := suggestAt(t, "|"); len(got.Items) != 0 {
		t.Fatalf("empty buffer: %+v", got.Items)
	}
	// A cursor past the end or before the start is clamped, never a panic.
	Suggest(SuggestInput{Text: "GET /x\n{\"", Cursor: 99})
	Suggest(SuggestInput{Text: "GET /x", Cursor: -3})
}

func TestFieldsFor(t *testing.T) {
	m := Mapping{Indices: []IndexMapping{
		{Index: "logs-app", Fields: []Field{{"a", "keyword"}, {"m", "text"}}},
		{Index: "logs-web", Fields: []Field{{"a", "keyword"}, {"z", "long"}}},
		{Index: "products", Fields: []Field{{"p", "float"}}},
	}}
	join := func(fs []Field) string {
		var s []string
		for _, f := range fs {
			s = append(s, f.Path)
		}
		return strings.Join(s, ",")
	}
	for pattern, want := range map[string]string{"logs-*": "a,m,z", "logs-app": "a,m", "products,logs-web": "a,p,z", "": "a,m,p,z", "nope": "", "*-app": "a,m"} {
		if got := join(FieldsFor(m, pattern)); got != want {
			t.Fatalf("FieldsFor(%q) = %q, want %q", pattern, got, want)
		}
	}
}

func FuzzSuggest(f *testing.F) {
	f.Add("GET /logs-app/_search\n{\"query\": {\"bool\": {\"must\": [{\"", 40)
	f.Add("POST /_bulk\n{\"index\": {\"_index\": \"", 30)
	f.Add("\"\\", 2)
	f.Fuzz(func(t *testing.T, text string, cur int) {
		s := Suggest(SuggestInput{Text: text, Cursor: cur, Indices: []string{"a"}, Fields: demoFields})
		if s.Start < 0 || s.End > len(text) || s.Start > s.End {
			t.Fatalf("range %d..%d of %d", s.Start, s.End, len(text))
		}
	})
}
