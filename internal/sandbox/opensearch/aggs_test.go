package opensearch

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// bucketsOf renders buckets as "key:count" strings (key_as_string when present).
func bucketsOf(t *testing.T, v any) []string {
	t.Helper()
	var out []string
	for _, b := range v.([]any) {
		bm := b.(map[string]any)
		key := bm["key_as_string"]
		if key == nil {
			key = bm["key"]
		}
		out = append(out, string(jsonout.Marshal(key))+":"+string(jsonout.Marshal(bm["doc_count"])))
	}
	return out
}

func TestAggregations(t *testing.T) {
	_, h := loadFixture(t)
	cases := []struct {
		name    string
		aggs    string
		path    string
		buckets []string
	}{
		{"terms default order", `{"a":{"terms":{"field":"category"}}}`, "a.buckets", []string{`"animals":2`, `"food":2`, `"news":1`}},
		{"terms multi-valued", `{"a":{"terms":{"field":"tags"}}}`, "a.buckets", []string{`"a":2`, `"b":2`, `"c":1`}},
		{"terms key desc", `{"a":{"terms":{"field":"category","order":{"_key":"desc"}}}}`, "a.buckets", []string{`"news":1`, `"food":2`, `"animals":2`}},
		{"terms min_doc_count", `{"a":{"terms":{"field":"category","min_doc_count":2}}}`, "a.buckets", []string{`"animals":2`, `"food":2`}},
		{"terms numeric", `{"a":{"terms":{"field":"qty","size":2}}}`, "a.buckets", []string{`1:1`, `3:1`}},
		{"terms boolean", `{"a":{"terms":{"field":"active"}}}`, "a.buckets", []string{`"true":3`, `"false":2`}},
		{"terms by sub metric", `{"a":{"terms":{"field":"category","order":{"p":"desc"}},"aggs":{"p":{"max":{"field":"price"}}}}}`, "a.buckets", []string{`"news":1`, `"animals":2`, `"food":2`}},
		{"range", `{"r":{"range":{"field":"price","ranges":[{"to":50},{"from":50,"to":150},{"from":150}]}}}`, "r.buckets", []string{`"*-50.0":2`, `"50.0-150.0":1`, `"150.0-*":1`}},
		{"histogram", `{"h":{"histogram":{"field":"qty","interval":5}}}`, "h.buckets", []string{`0:2`, `5:3`}},
		{"histogram fills gaps", `{"h":{"histogram":{"field":"qty","interval":3}}}`, "h.buckets", []string{`0:1`, `3:2`, `6:1`, `9:1`}},
		{"histogram min_doc_count", `{"h":{"histogram":{"field":"price","interval":50,"min_doc_count":1}}}`, "h.buckets", []string{`0:2`, `50:1`, `150:1`}},
		{"date_histogram day with empty bucket", `{"d":{"date_histogram":{"field":"published","calendar_interval":"day"}}}`, "d.buckets",
			[]string{`"2024-03-01T00:00:00.000Z":2`, `"2024-03-02T00:00:00.000Z":1`, `"2024-03-03T00:00:00.000Z":0`, `"2024-03-04T00:00:00.000Z":1`, `"2024-03-05T00:00:00.000Z":1`}},
		{"date_histogram month format", `{"d":{"date_histogram":{"field":"published","calendar_interval":"month","format":"yyyy-MM"}}}`, "d.buckets", []string{`"2024-03":5`}},
		{"date_histogram fixed 12h", `{"d":{"date_histogram":{"field":"published","fixed_interval":"12h","min_doc_count":1}}}`, "d.buckets",
			[]string{`"2024-03-01T00:00:00.000Z":1`, `"2024-03-01T12:00:00.000Z":1`, `"2024-03-02T00:00:00.000Z":1`, `"2024-03-04T00:00:00.000Z":1`, `"2024-03-05T12:00:00.000Z":1`}},
		{"date_histogram week starts monday", `{"d":{"date_histogram":{"field":"published","calendar_interval":"week"}}}`, "d.buckets",
			[]string{`"2024-02-26T00:00:00.000Z":3`, `"2024-03-04T00:00:00.000Z":2`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, m := doJSON(t, h, "POST", "/docs/_search", `{"size":0,"aggs":`+tc.aggs+`}`)
			mustStatus(t, 200, code, m)
			got := bucketsOf(t, get(m["aggregations"], tc.path))
			if !reflect.DeepEqual(got, tc.buckets) {
				t.Fatalf("buckets = %v, want %v", got, tc.buckets)
			}
		})
	}
}

func TestAggregationValuesAndShapes(t *testing.T) {
	_, h := loadFixture(t)
	_, raw := do(t, h, "POST", "/docs/_search", `{"size":0,"aggs":{
	  "cat":{"terms":{"field":"category","size":1},"aggs":{"avg_price":{"avg":{"field":"price"}},"total":{"sum":{"field":"qty"}}}},
	  "none":{"filter":{"term":{"category":"nothing"}},"aggs":{"a":{"avg":{"field":"price"}},"s":{"sum":{"field":"price"}},"m":{"min":{"field":"price"}}}},
	  "mx":{"max":{"field":"published"}},
	  "st":{"stats":{"field":"qty"}},
	  "card":{"cardinality":{"field":"tags"}},
	  "keyed":{"range":{"field":"qty","ranges":[{"key":"few","to":4},{"key":"many","from":4}]}}
	}}`)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	aggs := m["aggregations"]
	checks := map[string]any{
		"cat.doc_count_error_upper_bound": 0.0,
		"cat.sum_other_doc_count":         3.0,
		"cat.buckets.0.key":               "animals",
		"cat.buckets.0.avg_price.value":   32.75,
		"cat.buckets.0.total.value":       6.0,
		"none.doc_count":                  0.0,
		"none.a.value":                    nil,
		"none.s.value":                    0.0,
		"none.m.value":                    nil,
		"mx.value":                        1709640000000.0,
		"mx.value_as_string":              "2024-03-05T12:00:00.000Z",
		"st.count":                        5.0,
		"st.min":                          1.0,
		"st.max":                          9.0,
		"st.avg":                          5.0,
		"st.sum":                          25.0,
		"card.value":                      3.0,
		"keyed.buckets.0.key":             "few",
		"keyed.buckets.0.doc_count":       2.0,
		"keyed.buckets.1.key":             "many",
		"keyed.buckets.1.doc_count":       3.0,
	}
	for path, want := range checks {
		if got := get(aggs, path); got != want {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}
	// Open ends have no from/to; bounded ends do.
	_, m = doJSON(t, h, "POST", "/docs/_search", `{"size":0,"aggs":{"r":{"range":{"field":"price","ranges":[{"to":50},{"from":50}]}}}}`)
	first := get(m, "aggregations.r.buckets.0").(map[string]any)
	second := get(m, "aggregations.r.buckets.1").(map[string]any)
	if _, has := first["from"]; has || first["to"] != 50.0 {
		t.Fatalf("open-start bucket: %v", first)
	}
	if _, has := second["to"]; has || second["from"] != 50.0 {
		t.Fatalf("open-end bucket: %v", second)
	}
	// Aggregations cover all hits regardless of from/size, and follow the query.
	_, m = doJSON(t, h, "POST", "/docs/_search", `{"size":1,"from":1,"query":{"match":{"body":"butter"}},"aggs":{"c":{"terms":{"field":"category"}}}}`)
	if got := bucketsOf(t, get(m, "aggregations.c.buckets")); !reflect.DeepEqual(got, []string{`"food":2`}) {
		t.Fatalf("aggs over query hits: %v", got)
	}
	// Sub-aggregations inside date_histogram buckets.
	_, m = doJSON(t, h, "POST", "/docs/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"published","calendar_interval":"day"},"aggs":{"q":{"sum":{"field":"qty"}}}}}}`)
	if get(m, "aggregations.d.buckets.0.q.value") != 6.0 || get(m, "aggregations.d.buckets.2.q.value") != 0.0 {
		t.Fatalf("date_histogram sub-aggs: %v", get(m, "aggregations.d"))
	}
}

func TestAggregationErrors(t *testing.T) {
	_, h := loadFixture(t)
	for _, body := range []string{
		`{"aggs":{"x":{"bogus":{"field":"qty"}}}}`,
		`{"aggs":{"x":{"histogram":{"field":"qty","interval":0}}}}`,
		`{"aggs":{"x":{"date_histogram":{"field":"published","calendar_interval":"2d"}}}}`,
		`{"aggs":{"x":{"date_histogram":{"field":"published","fixed_interval":"1ms","extended_bounds":{"min":"2000-01-01","max":"2030-01-01"}}}}}`,
		`{"aggs":{"x":{"avg":{"field":"qty"},"aggs":{"y":{"max":{"field":"qty"}}}}}}`,
		`{"aggs":{"x":{"avg":{"field":"category"}}}}`,
	} {
		code, m := doJSON(t, h, "POST", "/docs/_search", body)
		if code != 400 || get(m, "error.root_cause.0.type") == nil {
			t.Errorf("%s: status %d %v", body, code, m)
		}
	}
}
