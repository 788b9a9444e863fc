package search

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestTimeRangeBoundsAndLabels(t *testing.T) {
	now := time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC)
	from, to, ok := TimeRange{Quick: "24h"}.Bounds(now)
	if !ok || !to.Equal(now) || !from.Equal(now.Add(-24*time.Hour)) {
		t.Fatalf("24h: %v %v %v", from, to, ok)
	}
	if _, _, ok := (TimeRange{}).Bounds(now); ok {
		t.Fatal("all time has bounds")
	}
	if l := (TimeRange{Quick: "15m"}).Label(time.UTC); l != "last 15m" {
		t.Fatal(l)
	}
	if l := (TimeRange{}).Label(time.UTC); l != "all time" {
		t.Fatal(l)
	}
	a, _ := ParseRangeTime("2026-11-25 10:00", time.UTC)
	b, _ := ParseRangeTime("2026-11-25 12:30", time.UTC)
	if l := (TimeRange{From: a, To: b}).Label(time.UTC); l != "2026-11-25 10:00 → 12:30 UTC" {
		t.Fatal(l)
	}
	if _, err := ParseRangeTime("yesterday", time.UTC); err == nil || !strings.Contains(err.Error(), "2026-11-25 14:30") {
		t.Fatalf("bad date: %v", err)
	}
	if x, err := ParseRangeTime("2026-11-25T10:00:00+02:00", time.UTC); err != nil || x.UTC().Hour() != 8 {
		t.Fatalf("RFC 3339: %v %v", x, err)
	}
}

func TestHistogramInterval(t *testing.T) {
	for _, c := range []struct {
		span  time.Duration
		width int
		want  string
	}{{24 * time.Hour, 100, "30m"}, {15 * time.Minute, 100, "10s"}, {30 * 24 * time.Hour, 60, "1d"}, {0, 80, "1d"}, {time.Hour, 120, "1m"}} {
		if _, got := HistogramInterval(c.span, c.width); got != c.want {
			t.Errorf("%v over %d: %s, want %s", c.span, c.width, got, c.want)
		}
	}
}

func TestLogSearchAddsRangeAndHistogram(t *testing.T) {
	now := time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC)
	r := ParsedRequest{Method: "GET", Path: "/logs/_search", Body: `{"size": 5, "query": {"term": {"level": "ERROR"}}, "aggs": {"x": {"terms": {"field": "service"}}}}`}
	out, err := LogSearch(r, LogOptions{TimeField: "ts", Range: TimeRange{Quick: "1h"}, Now: now, Histogram: time.Minute, HistogramName: "1m"})
	if err != nil {
		t.Fatal(err)
	}
	var b map[string]any
	if err := json.Unmarshal([]byte(out.Body), &b); err != nil {
		t.Fatal(err)
	}
	q := b["query"].(map[string]any)["bool"].(map[string]any)
	if q["must"].([]any)[0].(map[string]any)["term"] == nil {
		t.Fatalf("the query was not kept: %s", out.Body)
	}
	rng := q["filter"].([]any)[0].(map[string]any)["range"].(map[string]any)["ts"].(map[string]any)
	if rng["gte"].(float64) != float64(now.Add(-time.Hour).UnixMilli()) || rng["lte"].(float64) != float64(now.UnixMilli()) {
		t.Fatalf("range: %v", rng)
	}
	aggs := b["aggs"].(map[string]any)
	if aggs["x"] == nil || aggs[HistogramAgg].(map[string]any)["date_histogram"].(map[string]any)["fixed_interval"] != "1m" {
		t.Fatalf("aggs: %v", aggs)
	}
	if !strings.HasPrefix(out.Body, "{\n  \"size\": 5,\n  \"query\"") {
		t.Fatalf("order not kept:\n%s", out.Body)
	}
	// A count gets the range only; other requests and no time field are left alone.
	c, _ := LogSearch(ParsedRequest{Method: "GET", Path: "/logs/_count"}, LogOptions{TimeField: "ts", Range: TimeRange{Quick: "1h"}, Now: now, Histogram: time.Minute, HistogramName: "1m"})
	if !strings.Contains(c.Body, `"range"`) || strings.Contains(c.Body, HistogramAgg) {
		t.Fatalf("count: %s", c.Body)
	}
	for _, rq := range []ParsedRequest{{Method: "GET", Path: "/logs/_mapping"}, {Method: "GET", Path: "/logs/_search"}} {
		o := LogOptions{TimeField: "ts", Range: TimeRange{Quick: "1h"}, Now: now}
		if rq.Path == "/logs/_search" {
			o.TimeField = ""
		}
		if got, _ := LogSearch(rq, o); got.Body != rq.Body {
			t.Fatalf("%s changed: %s", rq.Path, got.Body)
		}
	}
	h := ShapeHistogram([]byte(`{"aggregations":{"` + HistogramAgg + `":{"buckets":[{"key":1000,"doc_count":3},{"key":61000,"doc_count":0}]}}}`))
	if len(h) != 2 || h[0].Count != 3 || h[1].Key.UnixMilli() != 61000 {
		t.Fatalf("histogram: %+v", h)
	}
}
