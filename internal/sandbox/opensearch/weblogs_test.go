package opensearch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sampleLogsPath = "../../../assets/sample-logs.ndjson"

// The committed asset is exactly what the generator writes for its defaults.
func TestSampleLogsAssetIsReproducible(t *testing.T) {
	committed, err := os.ReadFile(filepath.FromSlash(sampleLogsPath))
	if err != nil {
		t.Fatalf("reading the committed sample: %v", err)
	}
	var buf bytes.Buffer
	if err := WriteSampleLogs(&buf, SampleLogsSeed, SampleLogsCount, SampleLogsEnd); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), committed) {
		t.Fatalf("assets/sample-logs.ndjson differs from the generator's output (%d bytes, generated %d): "+
			"run `go generate ./internal/sandbox/opensearch/` and commit the file", len(committed), buf.Len())
	}
	if buf.Len() > 4<<20 {
		t.Fatalf("the sample is %d bytes, keep it under 4 MiB", buf.Len())
	}
}

// The sample loads the way the console's bulk loader sends it: each line a plain document after
// an {"index":{}} action; nothing is refused and the fields get their intended types.
func TestSampleLogsBulkLoad(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSampleLogs(&buf, 7, 1500, SampleLogsEnd); err != nil {
		t.Fatal(err)
	}
	c := newTestCluster(t)
	h := c.Handler()
	code, m := doJSON(t, h, "PUT", "/sample", demoWebIndex)
	mustStatus(t, 200, code, m)
	var body strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		body.WriteString(`{"index":{}}` + "\n" + line + "\n")
	}
	code, m = doJSON(t, h, "POST", "/sample/_bulk", body.String())
	mustStatus(t, 200, code, m)
	if m["errors"] != false || len(m["items"].([]any)) != 1500 {
		t.Fatalf("bulk load of the sample: errors=%v items=%d", m["errors"], len(m["items"].([]any)))
	}
	// Thirty days, in time order, ending before SampleLogsEnd.
	_, m = doJSON(t, h, "POST", "/sample/_search", `{"size":0,"aggs":{"first":{"min":{"field":"@timestamp"}},"last":{"max":{"field":"@timestamp"}}}}`)
	first, _ := time.Parse(isoMillis, get(m, "aggregations.first.value_as_string").(string))
	last, _ := time.Parse(isoMillis, get(m, "aggregations.last.value_as_string").(string))
	if !last.Before(SampleLogsEnd) || last.Sub(first) < 28*24*time.Hour {
		t.Fatalf("sample spans %s .. %s", first, last)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if !(lines[0] < lines[len(lines)-1]) || !strings.HasPrefix(lines[0], `{"@timestamp":"`) {
		t.Fatalf("lines should start with @timestamp and be in time order: %.80s", lines[0])
	}
}

// logs-web in the demo: a month of traffic with a daily rhythm, an outage and a scan to find.
// That logs-web is the same for the same seed is checked with the rest of the demo in
// TestLoadDemo.
func TestDemoWebLogs(t *testing.T) {
	h := sharedDemo(t).Handler()
	_, m := doJSON(t, h, "GET", "/logs-web/_count", ``)
	if m["count"] != float64(demoWebLogs) {
		t.Fatalf("logs-web count: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/logs/_count", ``)
	if m["count"] != float64(demoWebLogs+5000) {
		t.Fatalf("the logs alias should cover logs-app and logs-web: %v", m)
	}
	_, m = doJSON(t, h, "POST", "/logs-web/_search", `{"size":0,"query":{"range":{"@timestamp":{"gte":"now-30d","lte":"now"}}},"aggs":{
		"days":{"date_histogram":{"field":"@timestamp","calendar_interval":"day"},"aggs":{"errors":{"filter":{"range":{"status":{"gte":500}}}}}},
		"hours":{"histogram":{"field":"latency_ms","interval":100000}},
		"status":{"terms":{"field":"status","size":20}},
		"method":{"terms":{"field":"method"}},
		"lat":{"percentiles":{"field":"latency_ms","percents":[50,99]}}}}`)
	if get(m, "hits.total.value") != float64(demoWebLogs) {
		t.Fatalf("every entry is within the last thirty days: %v", get(m, "hits.total"))
	}
	days := get(m, "aggregations.days.buckets").([]any)
	if len(days) < 30 || len(days) > 31 {
		t.Fatalf("%d daily buckets, want 30 or 31", len(days))
	}
	busiest, quietest, worst, worstDay := 0.0, 1e9, 0.0, ""
	for _, d := range days {
		n := get(d, "doc_count").(float64)
		busiest, quietest = max(busiest, n), min(quietest, n)
		if e := get(d, "errors.doc_count").(float64); e > worst {
			worst, worstDay = e, get(d, "key_as_string").(string)
		}
	}
	outageDay := testNow.Add(-9 * 24 * time.Hour).Format("2006-01-02")
	if quietest == 0 || !strings.HasPrefix(worstDay, outageDay) || worst < 100 {
		t.Fatalf("days: quietest %v, most 5xx %v on %s (want the outage on %s)", quietest, worst, worstDay, outageDay)
	}
	statuses := map[float64]bool{}
	for _, b := range get(m, "aggregations.status.buckets").([]any) {
		statuses[get(b, "key").(float64)] = true
	}
	for _, s := range []float64{200, 304, 404, 401, 502, 503, 504} {
		if !statuses[s] {
			t.Errorf("no status %v among %v", s, statuses)
		}
	}
	if get(m, "aggregations.status.buckets.0.key") != 200.0 || get(m, "aggregations.method.buckets.0.key") != "GET" {
		t.Errorf("200 and GET should lead: %v %v", get(m, "aggregations.status.buckets.0"), get(m, "aggregations.method.buckets.0"))
	}
	p50 := get(m, "aggregations.lat.values").(map[string]any)["50.0"].(float64)
	p99 := get(m, "aggregations.lat.values").(map[string]any)["99.0"].(float64)
	if !(p50 > 1 && p50 < 100 && p99 > 5*p50) {
		t.Errorf("latency p50 %v p99 %v", p50, p99)
	}
	// The scanner shows up as one client with many 404s on admin paths.
	_, m = doJSON(t, h, "POST", "/logs-web/_search", `{"size":0,"query":{"term":{"path":"/wp-login.php"}},"aggs":{"ip":{"terms":{"field":"client_ip","size":1}}}}`)
	if get(m, "hits.total.value").(float64) < 3 || get(m, "aggregations.ip.buckets.0.doc_count") != get(m, "hits.total.value") {
		t.Errorf("scanner: %v", m)
	}
	// Messages read like access-log lines and are searchable.
	_, m = doJSON(t, h, "POST", "/logs-web/_search", `{"size":1,"query":{"match_phrase":{"message":"POST /api/v1/checkout"}},"highlight":{"fields":{"message":{}}}}`)
	if get(m, "hits.total.value").(float64) < 10 || !strings.Contains(get(m, "hits.hits.0.highlight.message.0").(string), "<em>checkout</em>") {
		t.Errorf("checkout requests: %v", m)
	}
}
