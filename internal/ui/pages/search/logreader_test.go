package search

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// Enter on an index runs its search, newest first over the time range, and shows the
// hits under the histogram; the request enters the editor once however often enter
// is pressed.
func TestEnterOnAnIndexRunsItsSearchOnce(t *testing.T) {
	t.Parallel()
	p, rl := enginePane(t)
	p.setFocus(focusIndices)
	if !p.indices.list.Table.Select("logs-app") {
		t.Fatal("no logs-app in the index list")
	}
	before := strings.Count(p.editor.ta.Value(), "/logs-app/_search")
	for range 3 {
		p.setFocus(focusIndices)
		_, cmd := p.Update(enter)
		deliver(t, p, cmd)
	}
	if n := strings.Count(p.editor.ta.Value(), "GET /logs-app/_search"); n != before+1 {
		t.Fatalf("the request is in the editor %d times:\n%s", n, p.editor.ta.Value())
	}
	if n := rl.count("GET", "/logs-app/_search") + rl.count("POST", "/logs-app/_search"); n != 3 {
		t.Fatalf("enter ran %d searches, want one a press", n)
	}
	a := p.reader.res.ans
	if a == nil || a.status != 200 || a.hits == nil || len(a.hits.Rows) == 0 || !a.log.histogram {
		t.Fatalf("answer: %+v", a)
	}
	if !strings.Contains(a.req.Body, `"sort"`) || !strings.Contains(a.req.Body, `"desc"`) {
		t.Fatalf("not sorted by time:\n%s", a.req.Body)
	}
	if p.focus != focusResults {
		t.Fatal("the hits are not focused")
	}
	if v := ansi.Strip(p.View()); !strings.ContainsAny(v, "▁▂▃▄▅▆▇█") {
		t.Fatalf("no histogram over the hits:\n%s", v)
	}
}

// In results full screen the pickers T and F open are drawn, not typed into blind.
func TestPickersAreDrawnInFullScreen(t *testing.T) {
	t.Parallel()
	p, _ := enginePane(t)
	runLine(t, p, "GET /logs-app/_search\n{\"size\": 20, \"query\": {\"match_all\": {}}}\n")
	p.setFocus(focusResults)
	p.Update(runes("z"))
	if !p.zoom {
		t.Fatal("z did not zoom")
	}
	for _, k := range []struct{ key, title string }{{"T", "Time range"}, {"F", "Field stats of"}} {
		p.Update(runes(k.key))
		if p.picker == nil {
			t.Fatalf("%s opened nothing", k.key)
		}
		if v := ansi.Strip(p.View()); !strings.Contains(v, k.title) || !strings.Contains(v, "search:") {
			t.Fatalf("%s in full screen draws no picker:\n%s", k.key, v)
		}
		p.Update(tea.KeyMsg{Type: tea.KeyEsc})
		if p.picker != nil || !p.zoom {
			t.Fatalf("esc after %s: picker %v, zoom %v", k.key, p.picker != nil, p.zoom)
		}
	}
}

// After t, t (a tail started and stopped) Y copies the request that ran, its time range
// with it.
func TestCopyCurlAfterTheTailKeepsTheTimeRange(t *testing.T) {
	t.Parallel()
	p, _ := enginePane(t)
	runLine(t, p, "GET /logs-app/_search\n{\"size\": 20, \"query\": {\"match_all\": {}}}\n")
	deliver(t, p, p.reader.setRange(search.TimeRange{Quick: "24h"}))
	if !strings.Contains(p.reader.res.ans.req.Body, `"range"`) {
		t.Fatalf("the range was not applied: %s", p.reader.res.ans.req.Body)
	}
	p.setFocus(focusResults)
	for range 2 {
		_, cmd := p.Update(runes("t"))
		deliver(t, p, cmd)
	}
	if p.tail.run != nil {
		t.Fatal("t, t left the tail running")
	}
	_, cmd := p.Update(runes("Y"))
	var copied string
	for _, m := range uitest.Run(cmd) {
		if c, ok := m.(common.CopyRequest); ok {
			copied = c.Value
		}
	}
	if !strings.Contains(copied, `"range"`) || !strings.Contains(copied, `"@timestamp"`) {
		t.Fatalf("the copy has no time range:\n%s", copied)
	}
}

// A copied document keeps U+202E (and the other characters the clipboard would strip)
// as JSON escapes: pasted and parsed, the copy is the document.
func TestCopiedDocumentEscapesBidiAsJSONDoes(t *testing.T) {
	t.Parallel()
	body := []byte("{\"hits\":{\"hits\":[{\"_id\":\"1\",\"_source\":{\"file\":\"report\u202egpj.exe\"}}]}}")
	p := docPane(t, body, false)
	d := newDocView(p.ctx, p.reader.res, 0, "", "")
	d.SetSize(120, 30)
	_, cmd := d.Update(runes("Y"))
	var copied string
	for _, m := range uitest.Run(cmd) {
		if c, ok := m.(common.CopyRequest); ok {
			copied = c.Value
		}
	}
	if !strings.Contains(copied, `report\u202egpj.exe`) {
		t.Fatalf("copy:\n%s", copied)
	}
	if out, removed := safe.Copy(copied); removed != 0 || out != copied {
		t.Fatalf("the clipboard still strips %d characters of the copy", removed)
	}
	var doc struct {
		Source struct {
			File string `json:"file"`
		} `json:"_source"`
	}
	if err := json.Unmarshal([]byte(copied), &doc); err != nil || doc.Source.File != "report\u202egpj.exe" {
		t.Fatalf("the copy is not the data: %q (%v)", doc.Source.File, err)
	}
}

// The history lists a search once however often it ran and whatever pages were read
// (n, p), with its body's start and when it ran, and says that secrets are masked.
func TestHistoryShowsExcerptsFoldsRepeatsAndSkipsPages(t *testing.T) {
	t.Parallel()
	p, _ := enginePane(t)
	h, err := search.OpenHistory(p.ctx.StateDir, "p-os")
	if err != nil {
		t.Fatal(err)
	}
	p.link.conn.history = h
	for range 3 {
		runLine(t, p, "GET /logs-app/_search\n{\"size\": 5, \"query\": {\"match_all\": {}}}\n")
	}
	p.setFocus(focusResults)
	for _, k := range []string{"n", "n", "p"} {
		_, cmd := p.Update(runes(k))
		deliver(t, p, cmd)
	}
	if p.reader.res.ans.page != 2 {
		t.Fatalf("paging: page %d", p.reader.res.ans.page)
	}
	if h.Len() != 1 || h.Entries()[0].Times() != 3 {
		t.Fatalf("history: %+v", h.Entries())
	}
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlH})
	deliver(t, p, p.editor.openHistory())
	if p.picker == nil {
		t.Fatal("no history picker")
	}
	v := ansi.Strip(p.View())
	for _, want := range []string{"secrets stored masked (***)", `GET /logs-app/_search  ran `, `· {"size": 5, "query": {"match_a`, "×3", "ran "} {
		if !strings.Contains(v, want) {
			t.Fatalf("history view lacks %q:\n%s", want, v)
		}
	}
}

// SQL mode runs each statement (separated by a blank line or ;) in order and shows
// every result; a failing one says so under its own text.
func TestSQLModeRunsEveryStatement(t *testing.T) {
	t.Parallel()
	p, rl := enginePane(t)
	p.editor.switchMode()
	p.editor.ta.SetValue("SELECT level, COUNT(*) FROM logs-app GROUP BY level\n\nSELECT name FROM products LIMIT 2; SELECT nope FROM nowhere;\n")
	_, msgs := deliver(t, p, p.reader.run())
	if n := rl.count("POST", "/_plugins/_sql"); n != 3 {
		t.Fatalf("%d SQL requests, want 3 (notes %q)", n, notes(msgs))
	}
	a := p.reader.res.ans
	if a == nil || len(a.parts) != 3 || a.parts[0].ans.sqlTable == nil || a.parts[1].ans.sqlTable == nil || a.parts[2].ans.errText == "" {
		t.Fatalf("answer: %+v", a)
	}
	p.SetSize(120, 60)
	v := ansi.Strip(p.View())
	for _, want := range []string{"3 statements", "1 failed", "1/3  SELECT level, COUNT(*) FROM logs-app GROUP BY level", "2/3  SELECT name FROM products LIMIT 2 · 2 rows", "3/3  SELECT nope FROM nowhere"} {
		if !strings.Contains(v, want) {
			t.Fatalf("view lacks %q:\n%s", want, v)
		}
	}
}

// The histogram has a time axis (start, middle, end), marks the bar of the cursor's
// row with its time and count; ← → choose a bar and enter narrows the range to it.
func TestHistogramAxisCursorBarAndZoom(t *testing.T) {
	t.Parallel()
	p, _ := enginePane(t)
	p.SetSize(140, 40)
	runLine(t, p, "GET /logs-app/_search\n{\"size\": 20, \"sort\": [{\"@timestamp\": \"desc\"}], \"query\": {\"match_all\": {}}}\n")
	p.setFocus(focusResults)
	r := p.reader.res
	hb := r.shownBars()
	if len(hb) < 4 {
		t.Fatalf("%d bars", len(hb))
	}
	loc := loc()
	layout := axisFormat(hb[len(hb)-1].to.Sub(hb[0].from))
	start, end := hb[0].from.In(loc).Format(layout), hb[len(hb)-1].to.In(loc).Format(layout)
	v := ansi.Strip(p.View())
	if !strings.Contains(v, start) || !strings.Contains(v, end) {
		t.Fatalf("no time axis %q … %q:\n%s", start, end, v)
	}
	axis := axisLine(hb, len(hb)*barWidth(len(hb), r.histWidth()), loc)
	if len(strings.Fields(axis)) < 3*len(strings.Fields(start)) {
		t.Fatalf("axis without its middle: %q", axis)
	}
	// The newest hit is under the cursor: its bar is the last with documents.
	mark := r.markedBar(hb)
	if mark < 0 || !strings.Contains(v, "▲ "+hb[mark].from.In(loc).Format(layout)+" "+thousands(hb[mark].count)) {
		t.Fatalf("cursor's bar %d not shown:\n%s", mark, v)
	}
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyLeft})
	if r.bar != mark-1 || !strings.Contains(notes(uitest.Run(cmd)), "narrows the range") {
		t.Fatalf("← chose bar %d (cursor's %d)", r.bar, mark)
	}
	chosen := hb[r.bar]
	_, cmd = p.Update(enter)
	deliver(t, p, cmd)
	if !p.reader.trange.From.Equal(chosen.from) || !p.reader.trange.To.Equal(chosen.to) || r.bar != -1 {
		t.Fatalf("range %+v, want %v–%v", p.reader.trange, chosen.from, chosen.to)
	}
	a := p.reader.res.ans
	if a == nil || a.hits == nil || a.hits.Total == nil || *a.hits.Total != chosen.count {
		t.Fatalf("zoomed: %+v, want %d hits", a, chosen.count)
	}
}

// :save writes the search under the cursor as a 0600 YAML file; :saved in another
// console of the same user lists it, and choosing it runs it with its range.
func TestSavedSearchesAreSharedBetweenConsoles(t *testing.T) {
	t.Parallel()
	cfg := t.TempDir()
	p, _ := enginePane(t)
	p.ctx.ConfigDir = cfg
	p.editor.ta.SetValue("GET /logs-app/_search\n{\"query\": {\"match_all\": {}}}\n")
	p.editor.gotoLine(0)
	p.reader.trange = search.TimeRange{Quick: "24h"}
	_, cmd := p.Update(saveSearchAs{name: "errors today"})
	_, msgs := deliver(t, p, cmd)
	if !strings.Contains(notes(msgs), "Saved errors today in "+cfg) {
		t.Fatalf("notes: %q", notes(msgs))
	}
	files, _ := filepath.Glob(filepath.Join(cfg, search.SavedSubdir, "*.yaml"))
	if len(files) != 1 {
		t.Fatalf("files: %v", files)
	}
	if info, _ := os.Stat(files[0]); info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", info.Mode())
	}

	other, rl := enginePane(t) // another console on the same host
	other.ctx.ConfigDir = cfg
	_, cmd = other.Update(listSaved{})
	deliver(t, other, cmd)
	if other.picker == nil || !strings.Contains(ansi.Strip(other.View()), "errors today") {
		t.Fatalf("the other console does not list it:\n%s", ansi.Strip(other.View()))
	}
	_, cmd = other.Update(enter)
	deliver(t, other, cmd)
	if other.reader.trange.Quick != "24h" || rl.count("GET", "/logs-app/_search")+rl.count("POST", "/logs-app/_search") != 1 {
		t.Fatalf("range %+v, searches %v", other.reader.trange, rl.all())
	}
	if a := other.reader.res.ans; a == nil || a.status != 200 || a.log.rangeLabel != "last 24h" {
		t.Fatalf("answer %+v", a)
	}
}
