package search

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// countOf asks the engine how many documents of logs-app match a query.
func countOf(t testing.TB, p *Pane, query string) int64 {
	t.Helper()
	resp, err := p.link.conn.client.Read(context.Background(), search.CountIn("logs-app", []byte(`{"query":`+query+`}`)))
	if err != nil || resp.Err() != nil {
		t.Fatal(err)
	}
	var c struct{ Count int64 }
	_ = json.Unmarshal(resp.Body, &c)
	return c.Count
}

// F on a column: its top values with exact counts over everything the search matches;
// enter filters the request in the editor to a value and runs it, - excludes one; a
// text field without a keyword is counted over the hits loaded, and says so.
func TestFieldStatsCountFilterAndExclude(t *testing.T) {
	t.Parallel()
	p, _ := enginePane(t)
	runLine(t, p, "GET /logs-app/_search\n{\"size\": 20, \"query\": {\"match_all\": {}}}\n")
	p.setFocus(focusResults)
	open := func(field string) *statsView {
		t.Helper()
		p.Update(runes("F"))
		if p.picker == nil {
			t.Fatal("F opened nothing")
		}
		for i, it := range p.picker.shown {
			if it.label == field {
				p.picker.cursor = i
			}
		}
		_, cmd := p.Update(enter)
		for _, m := range uitest.Run(cmd) {
			if pv, ok := m.(common.PushView); ok {
				v := pv.View.(*statsView)
				v.SetSize(120, 30)
				var vv common.View = v
				deliver(t, vv, v.Init())
				return v
			}
		}
		t.Fatalf("no stats view for %s", field)
		return nil
	}
	v := open("level")
	if v.local || v.stats.Total != 5000 || len(v.stats.Values) == 0 {
		t.Fatalf("level stats: %+v", v.stats)
	}
	errIdx := -1
	for i, c := range v.stats.Values {
		if c.Value == "ERROR" {
			errIdx = i
			if c.Count != countOf(t, p, `{"term":{"level":"ERROR"}}`) {
				t.Fatalf("ERROR counted %d", c.Count)
			}
		}
	}
	if errIdx < 0 {
		t.Fatalf("no ERROR: %+v", v.stats.Values)
	}
	if out := ansi.Strip(v.View()); !strings.Contains(out, "exact, over the 5,000 matching documents") || !strings.Contains(out, "%") {
		t.Fatalf("view:\n%s", out)
	}
	v.cursor = errIdx
	_, cmd := v.Update(enter)
	deliver(t, p, cmd)
	a := p.reader.res.ans
	if a == nil || a.hits == nil || *a.hits.Total != countOf(t, p, `{"term":{"level":"ERROR"}}`) {
		t.Fatalf("filtered answer: %+v", a)
	}
	if !strings.Contains(p.editor.ta.Value(), `"term": {`) || strings.Count(p.editor.ta.Value(), "GET /logs-app/_search") != 1 {
		t.Fatalf("the request in the editor was not filtered in place:\n%s", p.editor.ta.Value())
	}

	v = open("service")
	v.cursor = 0
	svc := v.stats.Values[0].Value
	_, cmd = v.Update(runes("-"))
	deliver(t, p, cmd)
	want := countOf(t, p, `{"bool":{"filter":[{"term":{"level":"ERROR"}}],"must_not":[{"term":{"service":"`+svc+`"}}]}}`)
	if a := p.reader.res.ans; *a.hits.Total != want || !strings.Contains(p.editor.ta.Value(), `"must_not"`) {
		t.Fatalf("excluded: %d, want %d\n%s", *a.hits.Total, want, p.editor.ta.Value())
	}

	v = open("message")
	if !v.local || !strings.Contains(ansi.Strip(v.View()), "of the 20 hits loaded") {
		t.Fatalf("message stats: %+v\n%s", v.stats, ansi.Strip(v.View()))
	}
}
