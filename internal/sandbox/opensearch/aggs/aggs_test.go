package aggs_test

import (
	"testing"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/aggs"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index/indextest"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

var now = time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC)

const mapping = `{"properties":{"cat":{"type":"keyword"},"tags":{"type":"keyword"},"price":{"type":"float"},
	"qty":{"type":"long"},"at":{"type":"date"},"body":{"type":"text"},
	"items":{"type":"nested","properties":{"sku":{"type":"keyword"},"n":{"type":"integer"}}}}}`

func tinyIndex(t *testing.T) *index.Index {
	return indextest.New(t, mapping,
		`{"cat":"a","tags":["x","y"],"price":10,"qty":1,"at":"2024-03-01T10:00:00Z","items":[{"sku":"s1","n":2},{"sku":"s2","n":1}]}`,
		`{"cat":"a","tags":["x"],"price":20,"qty":4,"at":"2024-03-01T20:00:00Z","items":[{"sku":"s1","n":5}]}`,
		`{"cat":"b","price":35,"qty":7,"at":"2024-03-03T08:00:00Z"}`,
		`{"cat":"c","tags":["y"],"qty":9,"body":"text only"}`,
	)
}

// topHitsSize stands for the search's top_hits parser: it keeps the size, and refuses a
// negative one.
func topHitsSize(name string, p map[string]any) (any, *apierr.Error) {
	if n, ok := jsonval.Int(p["size"]); ok && n < 0 {
		return nil, apierr.BadRequest("bad size in [%s]", name)
	}
	return p["size"], nil
}

// answer parses aggs and runs them over every document of ix (none when nil), rendered as JSON
// in request order.
func answer(t *testing.T, ix *index.Index, body string) (string, *apierr.Error) {
	t.Helper()
	specs, err := aggs.Parse(indextest.Decode(t, body), topHitsSize)
	if err != nil {
		return "", err
	}
	aggs.SortByRequest(specs, aggs.ReadOrder([]byte(`{"aggs":`+body+`}`)))
	segs := []index.Segment{}
	if ix != nil {
		segs = append(segs, indextest.All(ix))
	}
	ctx := &aggs.Context{Now: now, TopHits: func(sp *aggs.Spec, segs []index.Segment) (jsonout.Obj, *apierr.Error) {
		return jsonout.Obj{{"hits", index.CountSlots(segs)}, {"size", sp.TopHits}}, nil
	}}
	res, err := aggs.Run(specs, segs, ctx)
	if err != nil {
		return "", err
	}
	return string(jsonout.Marshal(res)), nil
}

func TestBuckets(t *testing.T) {
	ix := tinyIndex(t)
	cases := []struct{ name, aggs, want string }{
		{"terms by count then key", `{"t":{"terms":{"field":"cat"}}}`,
			`{"t":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[{"key":"a","doc_count":2},{"key":"b","doc_count":1},{"key":"c","doc_count":1}]}}`},
		{"terms size and other count", `{"t":{"terms":{"field":"cat","size":1}}}`,
			`{"t":{"doc_count_error_upper_bound":0,"sum_other_doc_count":2,"buckets":[{"key":"a","doc_count":2}]}}`},
		{"terms multi-valued, include", `{"t":{"terms":{"field":"tags","include":["y"]}}}`,
			`{"t":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[{"key":"y","doc_count":2}]}}`},
		{"terms on a long, ordered by a sub-metric", `{"t":{"terms":{"field":"qty","order":{"m":"desc"}},"aggs":{"m":{"max":{"field":"price"}}}}}`,
			`{"t":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[{"key":7,"doc_count":1,"m":{"value":35.0}},{"key":4,"doc_count":1,"m":{"value":20.0}},{"key":1,"doc_count":1,"m":{"value":10.0}},{"key":9,"doc_count":1,"m":{"value":null}}]}}`},
		{"range with keys and missing bounds", `{"r":{"range":{"field":"price","ranges":[{"from":15},{"to":15,"key":"cheap"}]}}}`,
			`{"r":{"buckets":[{"key":"cheap","to":15.0,"doc_count":1},{"key":"15.0-*","from":15.0,"doc_count":2}]}}`},
		{"histogram fills empty buckets", `{"h":{"histogram":{"field":"qty","interval":4}}}`,
			`{"h":{"buckets":[{"key":0.0,"doc_count":1},{"key":4.0,"doc_count":2},{"key":8.0,"doc_count":1}]}}`},
		{"histogram min_doc_count and extended bounds", `{"h":{"histogram":{"field":"qty","interval":4,"min_doc_count":2,"extended_bounds":{"min":-8}}}}`,
			`{"h":{"buckets":[{"key":4.0,"doc_count":2}]}}`},
		{"date_histogram by day", `{"d":{"date_histogram":{"field":"at","calendar_interval":"day","format":"yyyy-MM-dd"}}}`,
			`{"d":{"buckets":[{"key_as_string":"2024-03-01","key":1709251200000,"doc_count":2},{"key_as_string":"2024-03-02","key":1709337600000,"doc_count":0},{"key_as_string":"2024-03-03","key":1709424000000,"doc_count":1}]}}`},
		{"date_histogram fixed 12h in a time zone", `{"d":{"date_histogram":{"field":"at","fixed_interval":"12h","time_zone":"+02:00","min_doc_count":1}}}`,
			`{"d":{"buckets":[{"key_as_string":"2024-03-01T12:00:00.000+02:00","key":1709287200000,"doc_count":2},{"key_as_string":"2024-03-03T00:00:00.000+02:00","key":1709416800000,"doc_count":1}]}}`},
		{"filters keyed, with a sub-aggregation", `{"f":{"filters":{"filters":{"cheap":{"range":{"price":{"lt":15}}},"tagged":{"exists":{"field":"tags"}}}},"aggs":{"s":{"sum":{"field":"qty"}}}}}`,
			`{"f":{"buckets":{"cheap":{"doc_count":1,"s":{"value":1.0}},"tagged":{"doc_count":3,"s":{"value":14.0}}}}}`},
		{"filter and missing", `{"f":{"filter":{"term":{"cat":"a"}}},"m":{"missing":{"field":"price"}}}`,
			`{"f":{"doc_count":2},"m":{"doc_count":1}}`},
		{"nested", `{"n":{"nested":{"path":"items"},"aggs":{"s":{"terms":{"field":"items.sku"}},"q":{"sum":{"field":"items.n"}}}}}`,
			`{"n":{"doc_count":3,"s":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[{"key":"s1","doc_count":2},{"key":"s2","doc_count":1}]},"q":{"value":8.0}}}`},
		{"metrics", `{"a":{"avg":{"field":"price"}},"c":{"cardinality":{"field":"tags"}},"v":{"value_count":{"field":"qty"}},"s":{"stats":{"field":"qty"}}}`,
			`{"a":{"value":21.666666666666668},"c":{"value":2},"v":{"value":4},"s":{"count":4,"min":1.0,"max":9.0,"avg":5.25,"sum":21.0}}`},
		{"metrics on a date, with missing", `{"m":{"max":{"field":"at","format":"yyyy-MM-dd"}},"a":{"avg":{"field":"price","missing":0}}}`,
			`{"m":{"value":1.7094528E12,"value_as_string":"2024-03-03"},"a":{"value":16.25}}`},
		{"percentiles", `{"p":{"percentiles":{"field":"qty","percents":[50,100],"keyed":false}}}`,
			`{"p":{"values":[{"key":50.0,"value":5.5},{"key":100.0,"value":9.0}]}}`},
		{"top_hits is the search's", `{"t":{"terms":{"field":"cat","size":1},"aggs":{"h":{"top_hits":{"size":1}}}}}`,
			`{"t":{"doc_count_error_upper_bound":0,"sum_other_doc_count":2,"buckets":[{"key":"a","doc_count":2,"h":{"hits":2,"size":1}}]}}`},
	}
	for _, tc := range cases {
		got, err := answer(t, ix, tc.aggs)
		if err != nil {
			t.Errorf("%s: %s %s", tc.name, err.Type, err.Reason)
			continue
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// Parse refuses a malformed aggs section at once; what an aggregation's own parameters refuse is
// answered when it runs, so an aggregation that never runs (under a bucket never made) answers
// no error, and one that runs answers its first error.
func TestErrors(t *testing.T) {
	ix := tinyIndex(t)
	cases := []struct {
		name, aggs     string
		parse          bool // refused by Parse
		typ, reason    string
		noIndexAnswers bool // no error when the search reaches no index
	}{
		{"unknown type", `{"a":{"bogus":{}}}`, true, "parsing_exception", "Unknown aggregation type [bogus]", false},
		{"two types", `{"a":{"avg":{"field":"qty"},"sum":{"field":"qty"}}}`, true, "parsing_exception", "", false},
		{"metric with sub-aggregations", `{"a":{"avg":{"field":"qty"},"aggs":{"b":{"sum":{"field":"qty"}}}}}`, true, "aggregation_initialization_exception", "Aggregator [a] of type [avg] cannot accept sub-aggregations", false},
		{"filters neither object nor array", `{"f":{"filters":{"filters":1}}}`, true, "parsing_exception", "[filters] requires a [filters] object or array", false},
		{"terms size", `{"t":{"terms":{"field":"cat","size":0}}}`, false, "illegal_argument_exception", "[size] must be greater than 0. Found [0] in [t]", false},
		{"terms size before order", `{"t":{"terms":{"field":"cat","size":0,"order":{"_key":"up"}}}}`, false, "illegal_argument_exception", "[size] must be greater than 0. Found [0] in [t]", false},
		{"terms field before order", `{"t":{"terms":{"field":"body","order":{"_key":"up"}}}}`, false, "illegal_argument_exception", index.FielddataErr("body").Reason, false},
		{"terms order", `{"t":{"terms":{"field":"cat","order":{"_key":"up"}}}}`, false, "parsing_exception", "Unknown terms order direction [up] in terms aggregation [t]", false},
		{"terms order naming no metric", `{"t":{"terms":{"field":"cat","order":{"x":"asc"}}}}`, false, "aggregation_execution_exception", "", false},
		{"histogram interval", `{"h":{"histogram":{"field":"qty","interval":-1}}}`, false, "illegal_argument_exception", "[interval] must be >0 for histogram aggregation [h]", false},
		{"date_histogram interval before time zone", `{"d":{"date_histogram":{"field":"at","calendar_interval":"2d","time_zone":"Nowhere"}}}`, false, "illegal_argument_exception", "The supplied interval [2d] could not be parsed as a calendar interval.", false},
		{"date_histogram time zone", `{"d":{"date_histogram":{"field":"at","calendar_interval":"day","time_zone":"Nowhere"}}}`, false, "illegal_argument_exception", "Invalid time zone [Nowhere]", false},
		{"range bound before a bad entry", `{"r":{"range":{"field":"price","ranges":[{"from":"x"},1]}}}`, false, "parsing_exception", "[from] must be a number in range aggregation [r]", false},
		{"range entry", `{"r":{"range":{"field":"price","ranges":[{"from":1},1]}}}`, false, "parsing_exception", "[ranges] entries must be objects in [r]", false},
		{"date range bound is date math on a date field", `{"r":{"range":{"field":"at","ranges":[{"from":"someday"}]}}}`, false, "parse_exception", "", false},
		{"percents", `{"p":{"percentiles":{"field":"qty","percents":[101]}}}`, false, "illegal_argument_exception", "percent must be in [0,100], got [101.0]: [p]", false},
		{"top_hits, through the search's parser", `{"h":{"top_hits":{"size":-1}}}`, false, "illegal_argument_exception", "bad size in [h]", false},
		{"nested path", `{"n":{"nested":{}}}`, false, "parsing_exception", "Missing [path] field for nested aggregation [n]", false},
		{"a field is required, per index", `{"a":{"avg":{}}}`, false, "illegal_argument_exception", "Required one of fields [field, script], but none were specified.", true},
		{"sub-aggregation of no bucket", `{"t":{"terms":{"field":"nope"},"aggs":{"u":{"terms":{"field":"cat","size":0}}}}}`, false, "", "", true},
	}
	for _, tc := range cases {
		_, perr := aggs.Parse(indextest.Decode(t, tc.aggs), topHitsSize)
		if tc.parse != (perr != nil) {
			t.Errorf("%s: Parse error = %v, want refused by Parse %v", tc.name, perr, tc.parse)
			continue
		}
		_, err := answer(t, ix, tc.aggs)
		switch {
		case tc.typ == "" && err != nil:
			t.Errorf("%s: error %s %s, want none", tc.name, err.Type, err.Reason)
		case tc.typ != "" && (err == nil || err.Type != tc.typ || tc.reason != "" && err.Reason != tc.reason):
			t.Errorf("%s: error = %+v, want %s %q", tc.name, err, tc.typ, tc.reason)
		}
		if !tc.parse {
			_, err := answer(t, nil, tc.aggs)
			if tc.noIndexAnswers != (err == nil) {
				t.Errorf("%s over no index: error = %+v", tc.name, err)
			}
		}
	}
}

// A search making more than MaxBuckets buckets fails.
func TestTooManyBuckets(t *testing.T) {
	_, err := answer(t, tinyIndex(t), `{"h":{"histogram":{"field":"qty","interval":0.0001}}}`)
	if err == nil || err.Type != "too_many_buckets_exception" {
		t.Errorf("error = %+v, want too_many_buckets_exception", err)
	}
}

// SortByRequest puts aggregations back in the order the body wrote them; Parse reads a map.
func TestSortByRequest(t *testing.T) {
	body := `{"aggs":{"z":{"terms":{"field":"cat"},"aggs":{"y2":{"max":{"field":"qty"}},"y1":{"min":{"field":"qty"}}}},"a":{"avg":{"field":"qty"}}}}`
	m := indextest.Decode(t, body).(map[string]any)
	specs, err := aggs.Parse(m["aggs"], topHitsSize)
	if err != nil {
		t.Fatal(err.Reason)
	}
	aggs.SortByRequest(specs, aggs.ReadOrder([]byte(body)))
	if specs[0].Name != "z" || specs[1].Name != "a" || specs[0].Subs[0].Name != "y2" || specs[0].Subs[1].Name != "y1" {
		t.Errorf("order = %s %s (%s %s), want z a (y2 y1)", specs[0].Name, specs[1].Name, specs[0].Subs[0].Name, specs[0].Subs[1].Name)
	}
}
