package opensearch

import (
	"reflect"
	"strings"
	"testing"
)

// The data and expectations of search.aggregation/180_percentiles_tdigest_metric.yml (OpenSearch
// YAML REST tests): keys are Java doubles as strings ("99.0"), keyed:false gives a list of
// {key, value}, an unmapped field without missing gives nulls, a keyword field is refused.
func TestPercentiles(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	code, m := doJSON(t, h, "PUT", "/test_1", `{"mappings":{"properties":{"int_field":{"type":"integer"},"double_field":{"type":"double"},"string_field":{"type":"keyword"},"at":{"type":"date"}}}}`)
	mustStatus(t, 200, code, m)
	var bulk strings.Builder
	for i, v := range []string{"1", "51", "101", "151"} {
		bulk.WriteString(`{"index":{"_id":"` + itoa(i+1) + `"}}` + "\n")
		bulk.WriteString(`{"int_field":` + v + `,"double_field":` + v + `.0,"string_field":"foo","at":"2024-03-0` + itoa(i+1) + `T00:00:00Z"}` + "\n")
	}
	do(t, h, "POST", "/test_1/_bulk?refresh=true", bulk.String())

	// "Compression test" expectations (every value its own centroid).
	_, m = doJSON(t, h, "POST", "/test_1/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"int_field","tdigest":{"compression":200}}}}}`)
	want := map[string]float64{"1.0": 1, "5.0": 1, "25.0": 26, "50.0": 76, "75.0": 126, "95.0": 151, "99.0": 151}
	checkPercentiles(t, "compression test", get(m, "aggregations.p.values"), want)

	// "Filtered test" expectations, on the double field.
	_, m = doJSON(t, h, "POST", "/test_1/_search", `{"query":{"constant_score":{"filter":{"range":{"int_field":{"gte":50}}}}},
		"aggs":{"p":{"percentiles":{"field":"double_field"}}}}`)
	want = map[string]float64{"1.0": 51, "5.0": 51, "25.0": 63.5, "50.0": 101, "75.0": 138.5, "95.0": 151, "99.0": 151}
	checkPercentiles(t, "filtered test", get(m, "aggregations.p.values"), want)

	code, raw := do(t, h, "POST", "/test_1/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"int_field","percents":[5,25,50],"keyed":false}}}}`)
	mustStatus(t, 200, code, string(raw))
	if !strings.Contains(string(raw), `"p":{"values":[{"key":5.0,"value":1.0},{"key":25.0,"value":26.0},{"key":50.0,"value":76.0}]}`) {
		t.Fatalf("non-keyed: %s", raw)
	}
	_, raw = do(t, h, "POST", "/test_1/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"missing_field","percents":[50]}},
		"q":{"percentiles":{"field":"missing_field","missing":1.0,"percents":[50]}}}}`)
	if !strings.Contains(string(raw), `"p":{"values":{"50.0":null}}`) || !strings.Contains(string(raw), `"q":{"values":{"50.0":1.0}}`) {
		t.Fatalf("unmapped field: %s", raw)
	}
	_, raw = do(t, h, "POST", "/test_1/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"at","percents":[50]}}}}`)
	if !strings.Contains(string(raw), `"50.0_as_string":"2024-03-02T12:00:00.000Z"`) {
		t.Fatalf("date field: %s", raw)
	}
	for _, bad := range []string{`"percents":[]`, `"percents":null`, `"percents":["foo"]`, `"percents":[101]`, `"tdigest":{"compression":-1}`} {
		code, m = doJSON(t, h, "POST", "/test_1/_search", `{"aggs":{"p":{"percentiles":{"field":"int_field",`+bad+`}}}}`)
		if code != 400 {
			t.Errorf("%s: status %d, want 400: %v", bad, code, m)
		}
	}
	code, m = doJSON(t, h, "POST", "/test_1/_search", `{"aggs":{"p":{"percentiles":{"field":"string_field"}}}}`)
	mustStatus(t, 400, code, m)
}

func checkPercentiles(t *testing.T, name string, got any, want map[string]float64) {
	t.Helper()
	m, _ := got.(map[string]any)
	if len(m) != len(want) {
		t.Fatalf("%s: values = %v, want %v", name, got, want)
	}
	for k, w := range want {
		if m[k] != w {
			t.Errorf("%s: values[%s] = %v, want %v", name, k, m[k], w)
		}
	}
}

// Shapes of search.aggregation/200_top_hits_metric.yml "top_hits aggregation with sequence
// numbers": top_hits under terms, hits.hits with _index, _id, _seq_no, _primary_term; and the
// opensearch-api-specification TopHitsAggregate (hits: HitsMetadata).
func TestTopHitsUnderTerms(t *testing.T) {
	_, h := loadFixture(t)
	code, m := doJSON(t, h, "POST", "/docs/_search", `{"size":0,"aggs":{"cats":{"terms":{"field":"category"},
		"aggs":{"newest":{"top_hits":{"size":1,"sort":[{"published":"desc"}],"_source":["title"],"seq_no_primary_term":true}}}}}}`)
	mustStatus(t, 200, code, m)
	buckets := get(m, "aggregations.cats.buckets").([]any)
	newest := map[string]string{}
	for _, b := range buckets {
		key := get(b, "key").(string)
		th := get(b, "newest.hits")
		if get(th, "total.value") != get(b, "doc_count") || get(th, "total.relation") != "eq" || get(th, "max_score") != nil {
			t.Fatalf("%s: top_hits header %v", key, th)
		}
		hits := get(th, "hits").([]any)
		if len(hits) != 1 {
			t.Fatalf("%s: size 1 gave %d hits", key, len(hits))
		}
		hit := hits[0].(map[string]any)
		if hit["_index"] != "docs" || hit["_score"] != nil || hit["_seq_no"] == nil || hit["_primary_term"] != 1.0 ||
			len(hit["_source"].(map[string]any)) != 1 || hit["sort"] == nil {
			t.Fatalf("%s: hit %v", key, hit)
		}
		newest[key] = hit["_id"].(string)
	}
	if newest["animals"] != "2" || newest["food"] != "4" || newest["news"] != "3" {
		t.Fatalf("newest per category = %v", newest)
	}

	// Without a sort: by the query's score, max_score set, three hits by default.
	_, m = doJSON(t, h, "POST", "/docs/_search", `{"size":0,"query":{"match":{"body":"fox dog"}},
		"aggs":{"all":{"filter":{"match_all":{}},"aggs":{"best":{"top_hits":{}}}}}}`)
	hits := get(m, "aggregations.all.best.hits.hits").([]any)
	if len(hits) != 3 || get(hits[0], "_id") != "1" || get(hits[1], "_id") != "3" || get(m, "aggregations.all.best.hits.max_score") != get(hits[0], "_score") {
		t.Fatalf("top_hits by score: %v", get(m, "aggregations.all.best"))
	}
	code, m = doJSON(t, h, "POST", "/docs/_search", `{"aggs":{"t":{"top_hits":{"size":1},"aggs":{"x":{"max":{"field":"qty"}}}}}}`)
	mustStatus(t, 400, code, m)
	code, m = doJSON(t, h, "POST", "/docs/_search", `{"aggs":{"t":{"top_hits":{"bogus":1}}}}`)
	mustStatus(t, 400, code, m)
}

// The terms aggregation counts single-valued keywords by ordinal; after updates and deletes it
// must agree with the value-by-value path (which include forces) and with the documents left.
func TestTermsByOrdinalAfterWrites(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	do(t, h, "PUT", "/t", `{"mappings":{"properties":{"k":{"type":"keyword"},"n":{"type":"long"}}}}`)
	var bulk strings.Builder
	for i := 0; i < 60; i++ {
		bulk.WriteString(`{"index":{"_id":"` + itoa(i) + `"}}` + "\n" + `{"k":"v` + itoa(i%4) + `","n":` + itoa(i) + `}` + "\n")
	}
	for i := 0; i < 10; i++ { // v0 → v9 for ten documents, then delete five v1s
		bulk.WriteString(`{"index":{"_id":"` + itoa(i*4) + `"}}` + "\n" + `{"k":"v9","n":0}` + "\n")
		if i < 5 {
			bulk.WriteString(`{"delete":{"_id":"` + itoa(i*4+1) + `"}}` + "\n")
		}
	}
	do(t, h, "POST", "/t/_bulk", bulk.String())
	fast := `{"size":0,"aggs":{"k":{"terms":{"field":"k"},"aggs":{"s":{"sum":{"field":"n"}}}}}}`
	slow := `{"size":0,"aggs":{"k":{"terms":{"field":"k","include":["v0","v1","v2","v3","v9"]},"aggs":{"s":{"sum":{"field":"n"}}}}}}`
	_, ma := doJSON(t, h, "POST", "/t/_search", fast)
	_, mb := doJSON(t, h, "POST", "/t/_search", slow)
	if !reflect.DeepEqual(ma["aggregations"], mb["aggregations"]) {
		t.Fatalf("ordinal and value paths differ:\n%v\n%v", ma["aggregations"], mb["aggregations"])
	}
	want := map[string]float64{"v0": 5, "v1": 10, "v2": 15, "v3": 15, "v9": 10}
	for _, bk := range get(ma, "aggregations.k.buckets").([]any) {
		if k := get(bk, "key").(string); get(bk, "doc_count") != want[k] {
			t.Errorf("%s: %v documents, want %v", k, get(bk, "doc_count"), want[k])
		}
	}
}
