package search

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// A search of an index with a time field comes with its histogram (one body); T sets
// the range, the search runs again filtered on the time field, the header names it.
func TestTimeRangeAndHistogram(t *testing.T) {
	t.Parallel()
	p, rl := enginePane(t)
	runLine(t, p, "GET /logs-app/_search\n{\"size\": 20, \"query\": {\"match_all\": {}}}\n")
	a := p.reader.res.ans
	if a == nil || a.status != 200 || !a.log.histogram || len(a.hist) == 0 || a.hits == nil || *a.hits.Total != 5000 {
		t.Fatalf("answer: %+v", a)
	}
	if n := rl.count("GET", "/logs-app/_search") + rl.count("POST", "/logs-app/_search"); n != 1 {
		t.Fatalf("histogram and hits took %d requests", n)
	}
	for _, ag := range a.aggs {
		if ag.Name == search.HistogramAgg {
			t.Fatal("the histogram is listed among the aggregations")
		}
	}
	v := ansi.Strip(p.View())
	if !strings.Contains(v, "all time") || !strings.Contains(v, "max ") || !strings.ContainsAny(v, "▁▂▃▄▅▆▇█") {
		t.Fatalf("view:\n%s", v)
	}
	if strings.Contains(p.editor.ta.Value(), "range") {
		t.Fatal("the editor text was changed")
	}

	p.setFocus(focusResults)
	p.Update(runes("T"))
	if p.picker == nil {
		t.Fatal("T opened nothing")
	}
	p.picker.filter.Update(runes("24h"))
	p.picker.refilter()
	_, cmd := p.Update(enter)
	deliver(t, p, cmd)
	a = p.reader.res.ans
	if a == nil || a.status != 200 || a.hits.Total == nil || *a.hits.Total >= 5000 || *a.hits.Total == 0 {
		t.Fatalf("24h: %+v", a)
	}
	if !strings.Contains(a.req.Body, `"range"`) || !strings.Contains(a.req.Body, `"@timestamp"`) {
		t.Fatalf("sent body:\n%s", a.req.Body)
	}
	var sum int64
	for _, b := range a.hist {
		sum += b.Count
	}
	if sum != *a.hits.Total {
		t.Fatalf("histogram counts %d, hits %d", sum, *a.hits.Total)
	}
	if v := ansi.Strip(p.View()); !strings.Contains(v, "last 24h") || !strings.Contains(v, "max ") {
		t.Fatalf("view:\n%s", v)
	}
	// The next page keeps the range.
	deliver(t, p, p.reader.nextPage())
	if a := p.reader.res.ans; a.page != 2 || !strings.Contains(a.req.Body, `"range"`) || a.log.rangeLabel != "last 24h" {
		t.Fatalf("page 2: %+v", a)
	}

	// An absolute window typed as dates.
	p.Update(runes("T"))
	p.picker.filter.Update(runes("absolute"))
	p.picker.refilter()
	_, cmd = p.Update(enter)
	if _, ok := modalOf(t, uitest.Run(cmd)).(*components.Form); !ok {
		t.Fatal("absolute from/to opened no form")
	}
	from, _ := search.ParseRangeTime("2026-01-01", time.UTC)
	to, _ := search.ParseRangeTime("2026-01-02 12:00", time.UTC)
	_, cmd = p.Update(rangeChosen{id: p.req.ID, tr: search.TimeRange{From: from, To: to}})
	deliver(t, p, cmd)
	if a := p.reader.res.ans; a == nil || a.log.rangeLabel != "2026-01-01 → 2026-01-02 12:00 UTC" || !strings.Contains(a.req.Body, "1767225600000") {
		t.Fatalf("absolute: %+v", a)
	}

	// Not for SQL nor for other requests.
	runLine(t, p, "GET /logs-app/_mapping\n")
	if p.reader.res.ans.log.histogram || strings.Contains(ansi.Strip(p.View()), "max ") {
		t.Fatal("a mapping got a histogram")
	}
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	p.editor.ta.SetValue("SELECT level FROM logs-app LIMIT 3")
	deliver(t, p, p.reader.run())
	if a := p.reader.res.ans; a == nil || a.log.histogram || strings.Contains(a.req.Body, "range") {
		t.Fatalf("SQL: %+v", a)
	}
}

func TestBarsFitTheWidth(t *testing.T) {
	t.Parallel()
	b := make([]search.Bucket, 10)
	for i := range b {
		b[i].Count = int64(i)
	}
	line, top, per := bars(b, 40)
	if per != 1 || top != 9 || len([]rune(line)) != 40 || !strings.HasPrefix(line, "    ") || !strings.HasSuffix(line, "████") {
		t.Fatalf("%q %d %d", line, top, per)
	}
	line, top, per = bars(b, 4)
	if per != 3 || top != 21 || len([]rune(line)) != 4 {
		t.Fatalf("merged: %q %d %d", line, top, per)
	}
}

// With several date fields, T offers them; the one picked is used and remembered.
func TestTimeFieldPickedIsUsedAndRemembered(t *testing.T) {
	t.Parallel()
	p, _, _ := writingPane(t, "products")
	ctx := context.Background()
	for _, r := range []search.Request{
		asTyped(t, "PUT", "/events", `{"mappings":{"properties":{"a_at":{"type":"date"},"b_at":{"type":"date"},"msg":{"type":"text"}}}}`),
		asTyped(t, "POST", "/events/_doc?refresh=true", `{"a_at":"2020-01-01T00:00:00Z","b_at":"2026-01-01T00:00:00Z","msg":"x"}`),
	} {
		if resp, err := p.link.conn.client.Do(ctx, r); err != nil || resp.Err() != nil {
			t.Fatalf("%s %s: %v", r.Method, r.Path, err)
		}
	}
	deliver(t, p, p.indices.list.Load())
	runLine(t, p, "GET /events/_search\n")
	if p.reader.res.ans.log.timeField != "a_at" {
		t.Fatalf("automatic time field: %q", p.reader.res.ans.log.timeField)
	}
	p.setFocus(focusResults)
	p.Update(runes("T"))
	p.picker.filter.Update(runes("b_at"))
	p.picker.refilter()
	if len(p.picker.shown) != 1 {
		t.Fatalf("time fields offered: %+v", p.picker.shown)
	}
	_, cmd := p.Update(enter)
	deliver(t, p, cmd)
	if p.reader.res.ans.log.timeField != "b_at" || !strings.Contains(p.reader.res.ans.req.Body, `"b_at"`) {
		t.Fatalf("picked time field not used: %+v", p.reader.res.ans.log)
	}
	if m, _ := search.LoadTimeFields(p.ctx.StateDir); m["events"] != "b_at" {
		t.Fatalf("not remembered: %v", m)
	}
}

// n and p page both ways through search_after pages, saying which hits are shown.
func TestPagingBothWays(t *testing.T) {
	t.Parallel()
	p, _ := enginePane(t)
	runLine(t, p, "GET /logs-app/_search\n{\"size\": 20, \"sort\": [{\"@timestamp\": \"desc\"}], \"query\": {\"match_all\": {}}}\n")
	first := p.reader.res.ans.hits.Rows[0]
	if got := p.reader.res.statusLine(); !strings.Contains(got, "hits 1–20 of 5,000") {
		t.Fatalf("page 1: %s", got)
	}
	if msgs := uitest.Run(p.reader.prevPage()); !strings.Contains(notes(msgs), "first page") {
		t.Fatalf("p on page 1: %v", msgs)
	}
	deliver(t, p, p.reader.nextPage())
	deliver(t, p, p.reader.nextPage())
	if got := p.reader.res.statusLine(); !strings.Contains(got, "hits 41–60 of 5,000") || !strings.Contains(got, "page 3") {
		t.Fatalf("page 3: %s", got)
	}
	deliver(t, p, p.reader.prevPage())
	if got := p.reader.res.statusLine(); !strings.Contains(got, "hits 21–40 of 5,000") || !strings.Contains(got, "page 2") {
		t.Fatalf("back to page 2: %s", got)
	}
	deliver(t, p, p.reader.prevPage())
	if got := p.reader.res.statusLine(); !strings.Contains(got, "hits 1–20 of 5,000") || strings.Join(p.reader.res.ans.hits.Rows[0], "|") != strings.Join(first, "|") {
		t.Fatalf("back to page 1: %s", got)
	}
}

func TestLevelsAreColouredByKind(t *testing.T) {
	t.Parallel()
	ctx, _ := testContext(t)
	st := ctx.Styles
	for v, want := range map[string]lipgloss.Style{"ERROR": st.Danger, "fatal": st.Danger, "CRITICAL": st.Danger, "WARN": st.Warn,
		"warning": st.Warn, "INFO": st.Info, "debug": st.Muted, "TRACE": st.Muted} {
		got, ok := levelStyle(ctx, v)
		if !ok || got.GetForeground() != want.GetForeground() || got.GetBold() != want.GetBold() {
			t.Errorf("%s: %v", v, ok)
		}
	}
	if _, ok := levelStyle(ctx, "payment"); ok {
		t.Error("a non-level value is coloured")
	}
	for name, want := range map[string]bool{"level": true, "log.level": true, "severity": true, "level.keyword": true, "message": false, "levels": false} {
		if levelField(name) != want {
			t.Errorf("%s: %v", name, !want)
		}
	}
}

// Timestamps show the date and time in the configured zone, named in the column title.
func TestTimestampsShowDateTimeAndZone(t *testing.T) {
	t.Parallel()
	defer SetTimeZone("UTC")
	r := resultsWith(t, 3, 120)
	v := ansi.Strip(r.View())
	if !strings.Contains(v, "@timestamp UTC") || !strings.Contains(v, "2026-05-01 10:00:00.123") {
		t.Fatalf("UTC:\n%s", v)
	}
	zone.Store(time.FixedZone("XST", 3600))
	r = resultsWith(t, 3, 120)
	v = ansi.Strip(r.View())
	if !strings.Contains(v, "@timestamp XST") || !strings.Contains(v, "2026-05-01 11:00:00.123") {
		t.Fatalf("XST:\n%s", v)
	}
	SetTimeZone("local")
	if loc() != time.Local {
		t.Fatal("local is not the machine's zone")
	}
}
