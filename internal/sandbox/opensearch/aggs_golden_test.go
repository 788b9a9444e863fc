package opensearch

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

var updateAggGolden = flag.Bool("update-agg-golden", false, "rewrite testdata/aggs_golden.txt from the current answers")

// aggGoldenCases are aggregation requests over the demo data and the test fixture, every kind
// and its error cases, whose answers must stay byte for byte what testdata/aggs_golden.txt holds
// (took masked): the answers the aggregations gave before their parameters were typed.
var aggGoldenCases = []struct{ path, body string }{
	// metrics
	{"/products/_search", `{"size":0,"aggs":{"a":{"avg":{"field":"price"}},"s":{"sum":{"field":"stock"}},"mn":{"min":{"field":"rating"}},"mx":{"max":{"field":"created"}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"c":{"value_count":{"field":"brand"}},"d":{"cardinality":{"field":"category"}},"n":{"cardinality":{"field":"stock"}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"s":{"stats":{"field":"price"}},"e":{"extended_stats":{"field":"rating"}},"ds":{"stats":{"field":"created","format":"yyyy-MM-dd"}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":{"avg":{"field":"price","missing":100}},"m":{"min":{"field":"published"}},"x":{"max":{"field":"published","format":"yyyy"}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":{"avg":{"field":"nope"}},"s":{"sum":{"field":"nope"}},"e":{"extended_stats":{"field":"nope"}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":{"avg":{"field":"body"}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":{"avg":{"field":"category"}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":{"avg":{}}}}`},
	{"/nothing-here*/_search", `{"size":0,"aggs":{"a":{"avg":{}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":{"sum":{"field":"price","script":"x"}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":{"max":{"field":"price"},"aggs":{"b":{"min":{"field":"price"}}}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":{"bogus":{"field":"price"}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":{"meta":{}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":"x"}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":{"avg":"price"}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"a":{"value_count":{"field":"tags","missing":"z"}},"c":{"cardinality":{"field":"tags"}}}}`},
	// terms
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category"}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"brand","size":3,"order":{"_key":"asc"}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"tags","include":["sale","new"],"exclude":["new"]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"in_stock"}},"s":{"terms":{"field":"stock","size":5,"min_doc_count":2}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"created","size":2}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"rating","size":3,"order":[{"_count":"asc"},{"_key":"desc"}]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category","order":{"p":"desc"}},"aggs":{"p":{"avg":{"field":"price"}}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category","order":{"p.max":"asc"}},"aggs":{"p":{"stats":{"field":"price"}}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category","order":{"p.nope":"asc"}},"aggs":{"p":{"stats":{"field":"price"}}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category","order":{"q":"asc"}},"aggs":{"p":{"stats":{"field":"price"}}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category","order":{"_key":"up"}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category","order":"_key"}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category","order":{"_term":"desc"}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category","size":0}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category","size":"x"}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"description","order":{"_key":"up"}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"description","size":0}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category"},"aggs":{"u":{"terms":{"field":"brand","size":2},"aggs":{"m":{"max":{"field":"price"}}}}}}}}`},
	{"/products/_search", `{"size":0,"query":{"term":{"category":"zzz"}},"aggs":{"t":{"terms":{"field":"category"},"aggs":{"u":{"terms":{"field":"brand","size":0}}}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"tags","missing":"none"}},"n":{"terms":{"field":"price","missing":1}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"active","size":1}},"n":{"terms":{"field":"price"}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"nope"}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"t":{"terms":{}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"service","size":100},"aggs":{"l":{"terms":{"field":"level"}}}}}}`},
	// range, date_range
	{"/products/_search", `{"size":0,"aggs":{"r":{"range":{"field":"price","ranges":[{"to":50},{"from":50,"to":200},{"from":200,"key":"high"}]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"r":{"range":{"field":"price","keyed":true,"ranges":[{"from":100},{"to":100}]},"aggs":{"a":{"avg":{"field":"rating"}}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"r":{"range":{"field":"created","ranges":[{"to":"now-30d"},{"from":"now-30d"}]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"r":{"date_range":{"field":"created","format":"yyyy-MM","ranges":[{"to":"now-1M/M"},{"from":"now-1M/M","to":"now"}]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"r":{"date_range":{"field":"created","ranges":[{"from":"garbage"}]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"r":{"range":{"field":"price","ranges":[{"from":"x"}]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"r":{"range":{"field":"price","ranges":[{"from":"5"},3]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"r":{"range":{"field":"price","ranges":[{"from":"x"},3]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"r":{"range":{"field":"price","ranges":[]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"r":{"range":{"field":"price"}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"r":{"range":{"field":"category","ranges":[{"to":1}]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"r":{"range":{"field":"description","ranges":[{"to":1}]}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"r":{"range":{"field":"published","ranges":[{"from":1709251200000,"to":"2024-03-03"}]}}}}`},
	// histogram
	{"/products/_search", `{"size":0,"aggs":{"h":{"histogram":{"field":"price","interval":100}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"histogram":{"field":"rating","interval":0.5,"offset":0.25,"min_doc_count":1}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"histogram":{"field":"stock","interval":50,"extended_bounds":{"min":-100,"max":1000}},"aggs":{"m":{"max":{"field":"price"}}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"histogram":{"field":"stock"}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"histogram":{"field":"stock","interval":0}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"histogram":{"field":"stock","interval":-2}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"histogram":{"field":"stock","interval":0.0001,"extended_bounds":{"min":0,"max":100}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"histogram":{"field":"category","interval":1}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"h":{"histogram":{"field":"qty","interval":"2"}}}}`},
	// date_histogram
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","calendar_interval":"day"}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","fixed_interval":"6h","time_zone":"Europe/Paris","min_doc_count":1},"aggs":{"s":{"terms":{"field":"level"}}}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","interval":"week","offset":"-1d","format":"yyyy-MM-dd"}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","calendar_interval":"month","time_zone":"+05:30","extended_bounds":{"min":"now-90d","max":"now"}}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","interval":3600000,"min_doc_count":1}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","calendar_interval":"2d"}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","fixed_interval":"1.5h"}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","fixed_interval":"0s"}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","interval":"bogus"}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp"}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","calendar_interval":"day","time_zone":"Mars/Olympus"}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","calendar_interval":"day","offset":"soon"}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","calendar_interval":"day","extended_bounds":{"min":"yesterday-ish"}}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"level","calendar_interval":"day"}}}}`},
	{"/logs-app/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"@timestamp","fixed_interval":"1ms","extended_bounds":{"min":0,"max":"now"}}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"d":{"date_histogram":{"field":"qty","fixed_interval":"2ms"}}}}`},
	// filter, filters, missing, nested
	{"/products/_search", `{"size":0,"aggs":{"f":{"filter":{"term":{"in_stock":true}},"aggs":{"a":{"avg":{"field":"price"}}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"f":{"filter":{"bogus":{}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"f":{"filters":{"filters":{"cheap":{"range":{"price":{"lt":50}}},"dear":{"range":{"price":{"gte":50}}}}},"aggs":{"c":{"terms":{"field":"category","size":2}}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"f":{"filters":{"filters":[{"term":{"in_stock":true}},{"match_all":{}}]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"f":{"filters":{"filters":"x"}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"f":{"filters":{"filters":[]}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"m":{"missing":{"field":"tags"},"aggs":{"t":{"terms":{"field":"category"}}}},"p":{"missing":{"field":"price"}},"b":{"missing":{"field":"body"}}}}`},
	{"/docs/_search", `{"size":0,"aggs":{"m":{"missing":{}}}}`},
	{"/nested/_search", `{"size":0,"aggs":{"n":{"nested":{"path":"comments"},"aggs":{"a":{"terms":{"field":"comments.author"}},"s":{"avg":{"field":"comments.stars"}}}}}}`},
	{"/nested/_search", `{"size":0,"aggs":{"n":{"nested":{}}}}`},
	{"/nested/_search", `{"size":0,"aggs":{"n":{"nested":{"path":"title"}}}}`},
	{"/nested/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"title"},"aggs":{"n":{"nested":{"path":"comments"},"aggs":{"x":{"max":{"field":"comments.stars"}}}}}}}}`},
	// percentiles
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"price"}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"rating","percents":[10,50,99.9],"keyed":false}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"created","percents":[50]}},"q":{"percentiles":{"field":"created","percents":[50],"keyed":false,"format":"yyyy"}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"nope","missing":3,"tdigest":{"compression":200}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"price","percents":5}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"price","percents":[]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"price","percents":["50"]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"price","percents":[true]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"price","percents":[101]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"price","tdigest":{"compression":-1}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"category","tdigest":{"compression":-1}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"p":{"percentiles":{"field":"category"}}}}`},
	// top_hits
	{"/products/_search", `{"size":0,"aggs":{"t":{"terms":{"field":"category","size":2},"aggs":{"h":{"top_hits":{"size":1,"sort":[{"price":"desc"}],"_source":["name","price"]}}}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"top_hits":{"size":-1}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"top_hits":{"bogus":1}}}}`},
	{"/products/_search", `{"size":0,"query":{"match":{"description":"natural oils"}},"aggs":{"t":{"terms":{"field":"brand","size":2},"aggs":{"h":{"top_hits":{"size":2,"from":1,"version":true,"seq_no_primary_term":true,"highlight":{"fields":{"description":{}}},"_source":false}}}}}}`},
	{"/products/_search", `{"size":0,"query":{"match":{"description":"natural oils"}},"aggs":{"h":{"top_hits":{"size":2,"sort":[{"price":"asc"}],"track_scores":true,"explain":true}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"top_hits":{"size":2,"sort":[{"price":"asc"}]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"top_hits":{"size":100,"from":1}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"top_hits":{"size":100,"from":1,"sort":[{"description":"asc"}]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"h":{"top_hits":{"highlight":3}}}}`},
	{"/products/_search", `{"size":0,"query":{"term":{"category":"zzz"}},"aggs":{"t":{"terms":{"field":"category"},"aggs":{"h":{"top_hits":{"size":-1}}}}}}`},
	// several errors in one request: which one answers
	{"/products/_search", `{"size":0,"aggs":{"a":{"terms":{"field":"category","size":0}},"b":{"histogram":{"field":"price"}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"b":{"histogram":{"field":"price"}},"a":{"terms":{"field":"category","size":0}}}}`},
	{"/products/_search", `{"size":0,"query":{"bogus":{}},"aggs":{"a":{"terms":{"field":"category","size":0}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"a":{"terms":{"field":"category","size":0}}},"bogus_key":1}`},
	{"/products/_search", `{"size":0,"sort":[{"description":"asc"}],"aggs":{"a":{"terms":{"field":"category","size":0}}}}`},
	{"/products,docs/_search", `{"size":0,"aggs":{"c":{"terms":{"field":"category"}},"p":{"stats":{"field":"price"}},"r":{"range":{"field":"price","ranges":[{"to":100}]}}}}`},
	{"/products/_search", `{"size":0,"aggs":{"d":{"terms":{"field":"stock","size":65535},"aggs":{"e":{"terms":{"field":"brand","size":100}}}}}}`},
}

const aggGoldenNested = `{"mappings":{"properties":{"title":{"type":"keyword"},"comments":{"type":"nested","properties":{"author":{"type":"keyword"},"stars":{"type":"integer"}}}}}}`

var aggGoldenNestedDocs = []string{
	`{"index":{"_id":"1"}}`, `{"title":"a","comments":[{"author":"ann","stars":4},{"author":"bob","stars":2}]}`,
	`{"index":{"_id":"2"}}`, `{"title":"b","comments":[{"author":"ann","stars":5}]}`,
	`{"index":{"_id":"3"}}`, `{"title":"b"}`,
}

var tookRE = regexp.MustCompile(`"took":\d+`)

func TestAggregationAnswersGolden(t *testing.T) {
	c, h := loadFixture(t)
	if err := c.LoadDemo(7); err != nil {
		t.Fatal(err)
	}
	code, m := doJSON(t, h, "PUT", "/nested", aggGoldenNested)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "POST", "/nested/_bulk?refresh=true", strings.Join(aggGoldenNestedDocs, "\n")+"\n")
	mustStatus(t, 200, code, m)
	var got bytes.Buffer
	for i, tc := range aggGoldenCases {
		code, raw := do(t, h, "POST", tc.path, tc.body)
		fmt.Fprintf(&got, "### %d POST %s %s\n%d %s\n", i, tc.path, tc.body, code, tookRE.ReplaceAll(raw, []byte(`"took":0`)))
	}
	const file = "testdata/aggs_golden.txt"
	if *updateAggGolden {
		if err := os.WriteFile(file, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("answers differ from %s at line %d:\n got %.2000s\nwant %.2000s", file, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("answers differ from %s in length: %d lines, want %d", file, len(gl), len(wl))
	}
}
