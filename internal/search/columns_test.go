package search

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// demoTypes is the mapping of the demo's logs-app index.
var demoTypes = map[string]string{
	"@timestamp": "date", "level": "keyword", "service": "keyword", "host": "keyword", "status": "long",
	"latency_ms": "float", "message": "text", "user_id": "keyword", "region": "keyword", "trace_id": "keyword",
}

// logHits builds a search answer of n demo-like log hits.
func logHits(t testing.TB, n int) *HitsTable {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"took":3,"hits":{"total":{"value":` + fmt.Sprint(n) + `,"relation":"eq"},"max_score":1.0,"hits":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		ts := time.Date(2026, 1, 2, 3, 4, 5, 678e6, time.UTC).Add(time.Duration(i) * time.Minute)
		fmt.Fprintf(&b, `{"_index":"logs-app","_id":"log-%05d","_score":1.0,"_source":{"@timestamp":%q,"level":"INFO","service":"checkout","host":"checkout-eu-1","status":200,"latency_ms":%d.5,"message":"Order ORD-%06d placed by user u-1234 total $%d.99 after a rather long checkout flow","user_id":"u-1234","region":"eu-west-1","trace_id":"%016x"}}`,
			i, ts.Format(time.RFC3339Nano), i%900, i, i%500, i*7919)
	}
	b.WriteString(`]}}`)
	h, err := ShapeHits([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func names(p ColumnPlan) string {
	var s []string
	for _, c := range p.Columns {
		s = append(s, c.Name)
	}
	return strings.Join(s, ",")
}

func rowWidth(p ColumnPlan, gap int) int {
	w := gap * (len(p.Columns) - 1)
	for _, c := range p.Columns {
		w += c.Width
	}
	return w
}

func TestPlanColumnsLogsAt120(t *testing.T) {
	h := logHits(t, 50)
	p := PlanColumns(h, PlanOptions{Width: 120, Gap: 1, Types: demoTypes})
	if p.Columns[0].Name != "@timestamp" || p.Columns[0].Kind != ColumnTime || p.Columns[0].Width != len(TimeLayoutMillis) || p.TimeLayout != TimeLayoutMillis {
		t.Fatalf("time column: %+v %s", p.Columns[0], p.TimeLayout)
	}
	last := p.Columns[len(p.Columns)-1]
	if last.Name != "message" || !last.Main || last.Width < 40 {
		t.Fatalf("message column: %+v in %s", last, names(p))
	}
	if rowWidth(p, 1) != 120 {
		t.Fatalf("row is %d wide: %+v", rowWidth(p, 1), p.Columns)
	}
	if !strings.HasPrefix(names(p), "@timestamp,_score,level,service,host,status") {
		t.Fatalf("order %s", names(p))
	}
	for _, c := range p.Columns {
		if c.Name == "level" && c.Width != 5 || c.Name == "service" && c.Width != 8 || c.Name == "status" && (c.Width != 6 || c.Kind != ColumnNumber) {
			t.Fatalf("content width: %+v", c)
		}
	}
	if len(p.Hidden) == 0 || p.Hidden[len(p.Hidden)-1] != "trace_id" {
		t.Fatalf("hidden %v", p.Hidden)
	}
	cells := p.Cells(h.Rows[1])
	if cells[0] != "01-02 03:05:05.678" || cells[2] != "INFO" {
		t.Fatalf("cells %q", cells)
	}
	msg := cells[len(cells)-1]
	if !strings.HasPrefix(msg, "Order ORD-000001 placed") {
		t.Fatalf("message cell %q", msg)
	}
	// At 160 columns the extra room goes to the message, not the timestamp.
	wide := PlanColumns(h, PlanOptions{Width: 160, Gap: 1, Types: demoTypes})
	if wide.Columns[0].Width != p.Columns[0].Width || wide.Columns[len(wide.Columns)-1].Width <= last.Width && len(wide.Columns) == len(p.Columns) {
		t.Fatalf("160: %+v", wide.Columns)
	}
	if !reflect.DeepEqual(PlanColumns(h, PlanOptions{Width: 120, Gap: 1, Types: demoTypes}), p) {
		t.Fatal("not deterministic")
	}
}

func TestPlanColumnsSortedChosenAndNarrow(t *testing.T) {
	h := logHits(t, 20)
	sorted := PlanColumns(h, PlanOptions{Width: 200, Gap: 2, Types: demoTypes, Sorted: true})
	if strings.Contains(names(sorted), "_score") || !strings.Contains(strings.Join(sorted.Hidden, ","), "_score") {
		t.Fatalf("sorted: %s hidden %v", names(sorted), sorted.Hidden)
	}
	if rowWidth(sorted, 2) != 200 {
		t.Fatalf("gap 2: %d", rowWidth(sorted, 2))
	}
	chosen := PlanColumns(h, PlanOptions{Width: 100, Gap: 1, Types: demoTypes, Chosen: []string{"message", "level", "nope", "level"}})
	if names(chosen) != "message,level,nope" || !chosen.Columns[0].Main || chosen.Columns[2].Source != -1 || rowWidth(chosen, 1) != 100 {
		t.Fatalf("chosen: %+v", chosen.Columns)
	}
	if cells := chosen.Cells(h.Rows[0]); cells[2] != "" || cells[1] != "INFO" {
		t.Fatalf("chosen cells %q", cells)
	}
	narrow := PlanColumns(h, PlanOptions{Width: 40, Gap: 1, Types: demoTypes})
	if names(narrow) != "@timestamp,message" || rowWidth(narrow, 1) != 40 {
		t.Fatalf("narrow: %+v", narrow.Columns)
	}
	tiny := PlanColumns(h, PlanOptions{Width: 8, Gap: 1, Types: demoTypes})
	if names(tiny) != "message" || tiny.Columns[0].Width != 8 {
		t.Fatalf("tiny: %+v", tiny.Columns)
	}
	if p := PlanColumns(nil, PlanOptions{Width: 80}); len(p.Columns) != 0 {
		t.Fatal("nil table planned")
	}
}

func TestPlanColumnsInfersKindsWithoutMapping(t *testing.T) {
	body := `{"hits":{"hits":[
		{"_id":"1","_score":null,"_source":{"ts":"2025-12-31T23:59:59Z","n":3,"code":"E_TIMEOUT","text":"` + strings.Repeat("word ", 20) + `","multi":"a\nb\tc"}},
		{"_id":"2","_score":null,"_source":{"ts":"2026-01-01T00:00:01Z","n":-4.5e3,"code":"` + strings.Repeat("k", 40) + `","text":"short","multi":"x"}}]}}`
	h, err := ShapeHits([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	p := PlanColumns(h, PlanOptions{Width: 200, Gap: 1})
	kinds := map[string]ColumnKind{}
	widths := map[string]int{}
	for _, c := range p.Columns {
		kinds[c.Name], widths[c.Name] = c.Kind, c.Width
	}
	if kinds["ts"] != ColumnTime || kinds["n"] != ColumnNumber || kinds["code"] != ColumnText || kinds["text"] != ColumnText || kinds["_id"] != ColumnID {
		t.Fatalf("kinds %v", kinds)
	}
	if p.TimeLayout != TimeLayoutYear || widths["ts"] != len(TimeLayoutYear) || widths["code"] != maxTextWidth {
		t.Fatalf("layout %s widths %v", p.TimeLayout, widths)
	}
	if last := p.Columns[len(p.Columns)-1]; last.Name != "text" || !last.Main {
		t.Fatalf("main %+v", last)
	}
	cells := p.Cells(h.Rows[0])
	got := map[string]string{}
	for i, c := range p.Columns {
		got[c.Name] = cells[i]
	}
	if got["ts"] != "2025-12-31 23:59:59" || got["multi"] != "a b c" {
		t.Fatalf("cells %q", got)
	}
	if c := PlanColumns(h, PlanOptions{Width: 200, Gap: 1}).Cells(h.Rows[1]); !strings.Contains(strings.Join(c, "|"), strings.Repeat("k", 31)+"…") {
		t.Fatalf("capped cell not cut: %q", c)
	}
}

func TestPlanColumnsEpochAndZone(t *testing.T) {
	h, _ := ShapeHits([]byte(`{"hits":{"hits":[{"_id":"1","_source":{"at":1767323045000,"msg":"日本語のログメッセージ"}}]}}`))
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no zone data")
	}
	p := PlanColumns(h, PlanOptions{Width: 40, Gap: 1, Types: map[string]string{"at": "date"}, Location: berlin})
	cells := p.Cells(h.Rows[0])
	if p.TimeLayout != TimeLayoutSeconds || cells[0] != "01-02 04:04:05" {
		t.Fatalf("epoch: %s %q", p.TimeLayout, cells)
	}
	narrow := PlanColumns(h, PlanOptions{Width: 20, Gap: 1, Types: map[string]string{"at": "date"}, Chosen: []string{"msg"}})
	if c := narrow.Cells(h.Rows[0]); displayWidth(c[0]) > 20 || !strings.HasSuffix(c[0], "…") {
		t.Fatalf("wide runes: %q", c)
	}
	if hd := narrow.Headers(); hd[0] != "msg" {
		t.Fatalf("headers %q", hd)
	}
}

func TestPlanPage(t *testing.T) {
	h := logHits(t, 30)
	p := PlanColumns(h, PlanOptions{Width: 100, Gap: 1, Types: demoTypes})
	if got := p.Page(h.Rows, 25, 40); len(got) != 5 || got[0][0] != "01-02 03:29:05.678" {
		t.Fatalf("page %q", got)
	}
	if got := p.Page(h.Rows, 40, 10); len(got) != 0 {
		t.Fatal("empty range gave rows")
	}
}

// BenchmarkPlanAndPage10k plans 10,000 hits × 12 fields at 160 columns and formats
// one visible page of 50 rows: what the hits table does for a View.
func BenchmarkPlanAndPage10k(b *testing.B) {
	h := logHits(b, 10000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := PlanColumns(h, PlanOptions{Width: 160, Gap: 1, Types: demoTypes})
		_ = p.Page(h.Rows, 5000, 5050)
	}
}
