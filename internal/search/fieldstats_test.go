package search

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFieldStatsRequestsAndFilters(t *testing.T) {
	m := Mapping{Indices: []IndexMapping{{Index: "logs", Fields: []Field{{Path: "level", Type: "keyword"}, {Path: "message", Type: "text"},
		{Path: "host", Type: "text"}, {Path: "host.keyword", Type: "keyword"}, {Path: "latency_ms", Type: "float"}}}}}
	for f, want := range map[string]string{"level": "level", "message": "", "host": "host.keyword", "latency_ms": "latency_ms"} {
		if got := AggField(m, "logs", f); got != want {
			t.Errorf("%s: %q", f, got)
		}
	}
	r := ParsedRequest{Method: "GET", Path: "/logs/_search", Body: `{"size": 20, "sort": [{"ts": "desc"}], "query": {"match": {"message": "x"}}, "aggs": {"a": {}}}`}
	s, err := StatsRequest(r, "level", 10)
	if err != nil || s.Body != `{"query":{"match":{"message":"x"}},"size":0,"track_total_hits":true,"aggs":{"`+StatsAgg+`":{"terms":{"field":"level","size":10}}}}` {
		t.Fatalf("stats: %s %v", s.Body, err)
	}
	st, err := ShapeStats([]byte(`{"hits":{"total":{"value":50}},"aggregations":{"` + StatsAgg + `":{"sum_other_doc_count":5,"buckets":[{"key":"INFO","doc_count":40},{"key":3,"doc_count":5}]}}}`))
	if err != nil || st.Total != 50 || st.Other != 5 || st.Values[0].Value != "INFO" || st.Values[1].Value != "3" || string(st.Values[1].Raw) != "3" {
		t.Fatalf("shape: %+v %v", st, err)
	}
	f, err := WithFilter(r, "level", json.RawMessage(`"ERROR"`), false, false)
	if err != nil {
		t.Fatal(err)
	}
	var b map[string]any
	_ = json.Unmarshal([]byte(f.Body), &b)
	q := b["query"].(map[string]any)["bool"].(map[string]any)
	if q["must"] == nil || q["filter"].([]any)[0].(map[string]any)["term"].(map[string]any)["level"] != "ERROR" {
		t.Fatalf("filter: %s", f.Body)
	}
	f2, _ := WithFilter(f, "host.keyword", json.RawMessage(`"a"`), true, false)
	if !strings.Contains(f2.Body, `"must_not": [`) || strings.Count(f2.Body, `"bool"`) != 1 {
		t.Fatalf("exclude: %s", f2.Body)
	}
	f3, _ := WithFilter(ParsedRequest{Method: "GET", Path: "/logs/_search"}, "message", json.RawMessage(`"WARN x"`), false, true)
	if !strings.Contains(f3.Body, `"filter": [`) || !strings.Contains(f3.Body, `"match_phrase"`) {
		t.Fatalf("empty body: %s", f3.Body)
	}
}
