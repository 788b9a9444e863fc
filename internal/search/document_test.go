package search

import (
	"reflect"
	"strings"
	"testing"
)

func TestFlattenHit(t *testing.T) {
	long := strings.Repeat("x", 5000)
	hit := `{"_index":"logs-app","_id":"log-1","_score":1.5,"_source":{
		"@timestamp":"2026-01-02T03:04:05.678Z","level":"ERROR",
		"http":{"method":"GET","status":502,"headers":{}},
		"tags":["a","b"],"empty":[],"none":null,
		"spans":[{"name":"db","ms":3},{"name":"cache"}],
		"message":"line one\nline two ` + long + `"},
		"highlight":{"message":["<em>line</em> one"],"message.keyword":["x <em>y</em>"]},
		"sort":[1]}`
	got, err := FlattenHit([]byte(hit))
	if err != nil {
		t.Fatal(err)
	}
	want := []DocField{
		{Name: "_index", Value: "logs-app"},
		{Name: "_id", Value: "log-1"},
		{Name: "_score", Value: "1.5"},
		{Name: "@timestamp", Value: "2026-01-02T03:04:05.678Z"},
		{Name: "level", Value: "ERROR"},
		{Name: "http.method", Value: "GET"},
		{Name: "http.status", Value: "502"},
		{Name: "http.headers", Value: "{}"},
		{Name: "tags", Value: "a, b"},
		{Name: "empty", Value: "[]"},
		{Name: "none", Value: "null"},
		{Name: "spans.name", Value: "db, cache"},
		{Name: "spans.ms", Value: "3"},
		{Name: "message", Value: "line one\nline two " + long, Highlights: []string{"<em>line</em> one"}},
		{Name: "message.keyword", Value: "x <em>y</em>", Highlights: []string{"x <em>y</em>"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", got, want)
	}
	if got, _ := FlattenHit([]byte(`{"_id":"1","_source":"plain"}`)); len(got) != 2 || !reflect.DeepEqual(got[1], DocField{Name: "_source", Value: "plain"}) {
		t.Fatalf("scalar source: %+v", got)
	}
	for _, bad := range []string{"", "[1]", "{"} {
		if _, err := FlattenHit([]byte(bad)); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
}

func TestFlattenHitFromShapeHits(t *testing.T) {
	h, err := ShapeHits([]byte(`{"hits":{"hits":[{"_id":"a","_source":{"n":{"m":1}}}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := FlattenHit(h.Hits[0])
	if err != nil || len(got) != 2 || !reflect.DeepEqual(got[1], DocField{Name: "n.m", Value: "1"}) {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestSplitHighlight(t *testing.T) {
	for _, tc := range []struct {
		in, pre, post string
		want          []TextSpan
	}{
		{"a <em>b</em> c <em>d</em>", "", "", []TextSpan{{"a ", false}, {"b", true}, {" c ", false}, {"d", true}}},
		{"<em>x</em><em>y</em>", "", "", []TextSpan{{"xy", true}}},
		{"[[x]] y", "[[", "]]", []TextSpan{{"x", true}, {" y", false}}},
		{"a <em>open", "", "", []TextSpan{{"a ", false}, {"open", true}}},
		{"plain", "", "", []TextSpan{{"plain", false}}},
		{"", "", "", nil},
	} {
		if got := SplitHighlight(tc.in, tc.pre, tc.post); !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("%q: %+v", tc.in, got)
		}
	}
}

func TestHighlightTags(t *testing.T) {
	pre, post := HighlightTags(`{"highlight":{"pre_tags":["<b>"],"post_tags":["</b>"],"fields":{"message":{}}}}`)
	if pre != "<b>" || post != "</b>" {
		t.Fatalf("%q %q", pre, post)
	}
	if pre, post := HighlightTags(`{"query":{}}`); pre != "" || post != "" {
		t.Fatal("tags without highlight")
	}
	if pre, _ := HighlightTags(`not json`); pre != "" {
		t.Fatal("tags from garbage")
	}
}
