package search

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
)

// hitsBody is a _search answer of logs-like hits: a timestamp, keywords and a long
// message (the column that must get the room).
func hitsBody(n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"took":3,"timed_out":false,"hits":{"total":{"value":%d,"relation":"eq"},"max_score":1,"hits":[`, n)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"_index":"logs","_id":"id-%d","_score":1,"_source":{"@timestamp":"2026-05-%02dT10:%02d:00.123Z","level":"INFO","service":"svc-%d","latency_ms":%d.5,"message":"Payment authorization declined for card ending %04d: insufficient funds, request %d"}}`,
			i, 1+i%28, i%60, i%7, i%300, i%10000, i)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

func resultsWith(tb testing.TB, n, w int) *results {
	tb.Helper()
	body := hitsBody(n)
	h, err := search.ShapeHits(body)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := common.NewContext()
	ctx.ScreenWidth = w
	p := newPane(ctx, "")
	r := p.reader.res
	r.setSize(w, 30)
	r.set(&answer{req: search.ParsedRequest{Method: "GET", Path: "/logs/_search"}, sent: true, status: 200, body: body, hits: h})
	return r
}

func TestResultsViewIsBoundedByTheWindow(t *testing.T) {
	t.Parallel()
	r := resultsWith(t, 2000, 120)
	for _, v := range []resultView{viewTable, viewRaw} {
		r.view = v
		r.render()
		out := r.View()
		if h := lipgloss.Height(out); h > 30 {
			t.Fatalf("%s view: %d lines", v, h)
		}
		for _, l := range strings.Split(out, "\n") {
			if lipgloss.Width(l) > 120 {
				t.Fatalf("%s view: line of %d columns", v, lipgloss.Width(l))
			}
		}
	}
	r.view = viewTable
	if out := r.View(); !strings.Contains(out, "hits 1–2,000 of 2,000") || !strings.Contains(out, "latency_ms") {
		t.Fatalf("table view:\n%s", out)
	}
}

// The hits table is laid out for logs: time first and compact, the message last with
// the room left (issue 10: a 6-character message column was the bug).
func TestHitsTableGivesTheMessageTheRoom(t *testing.T) {
	t.Parallel()
	for _, w := range []int{89, 120, 160} {
		r := resultsWith(t, 50, w)
		lines := strings.Split(ansi.Strip(r.View()), "\n")
		header := lines[1]
		if !strings.HasPrefix(strings.TrimSpace(header), "@timestamp") || !strings.HasSuffix(strings.TrimSpace(header), "message") {
			t.Fatalf("width %d: header %q", w, header)
		}
		row := lines[2]
		if !strings.Contains(row, "05-01 10:00:00.123") {
			t.Fatalf("width %d: compact time missing: %q", w, row)
		}
		at := strings.Index(header, "message")
		if msgW := w - at; msgW < 30 {
			t.Fatalf("width %d: message column %d wide:\n%s", w, msgW, strings.Join(lines[:4], "\n"))
		}
		if !strings.Contains(row, "Payment authorization declined") {
			t.Fatalf("width %d: message cut short: %q", w, row)
		}
	}
}

func TestSortedHitsHideScore(t *testing.T) {
	t.Parallel()
	body := []byte(`{"hits":{"total":{"value":1,"relation":"eq"},"max_score":null,"hits":[{"_index":"logs","_id":"a","_score":null,"_source":{"@timestamp":"2026-05-01T10:00:00Z","message":"x"},"sort":[1]}]}}`)
	h, _ := search.ShapeHits(body)
	p := newPane(common.NewContext(), "")
	p.reader.res.setSize(100, 10)
	p.reader.res.set(&answer{req: search.ParsedRequest{Path: "/logs/_search"}, sent: true, status: 200, body: body, hits: h})
	if out := ansi.Strip(p.reader.res.View()); strings.Contains(out, "_score") {
		t.Fatalf("_score shown for a sorted query:\n%s", out)
	}
}

func TestHighlightedMatchesAreMarked(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	body := []byte(`{"hits":{"total":{"value":1,"relation":"eq"},"hits":[{"_index":"logs","_id":"a","_score":2,` +
		`"_source":{"message":"payment timeout on checkout"},"highlight":{"message":["<em>payment</em> <em>timeout</em> on checkout"]}},` +
		`{"_index":"logs","_id":"b","_score":1,"_source":{"message":"other"}}]}}`)
	h, _ := search.ShapeHits(body)
	p := newPane(common.NewContext(), "")
	p.reader.res.setSize(100, 10)
	p.reader.res.set(&answer{req: search.ParsedRequest{Path: "/logs/_search"}, sent: true, status: 200, body: body, hits: h, highlight: true})
	p.reader.res.table.Select("1") // the selected row is drawn plain
	mark := matchStyle(p.ctx).Render("payment")
	if out := p.reader.res.View(); !strings.Contains(out, mark) || strings.Contains(out, "<em>") {
		t.Fatalf("match not marked:\n%q", out)
	}
	// Without highlight in the query, nothing is marked.
	p.reader.res.set(&answer{req: search.ParsedRequest{Path: "/logs/_search"}, sent: true, status: 200, body: body, hits: h})
	if out := p.reader.res.View(); strings.Contains(out, mark) {
		t.Fatal("marked without highlight")
	}
}

func TestAggregationsViewHasBars(t *testing.T) {
	t.Parallel()
	body := []byte(`{"took":1,"hits":{"total":{"value":3,"relation":"eq"},"hits":[]},"aggregations":{"levels":{"buckets":[{"key":"INFO","doc_count":2},{"key":"WARN","doc_count":1}]}}}`)
	aggs, err := search.ShapeAggs(body)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := search.ShapeHits(body)
	p := newPane(common.NewContext(), "")
	r := p.reader.res
	r.setSize(80, 20)
	r.set(&answer{sent: true, status: 200, body: body, hits: h, aggs: aggs})
	out := r.View()
	if r.view != viewAggs || !strings.Contains(out, "levels") || !strings.Contains(out, "INFO") || !strings.Contains(out, "█") {
		t.Fatalf("aggregations view:\n%s", out)
	}
}

// Text from the service never reaches the terminal as control sequences: field names
// (column headers, document view), aggregation names, keys and chart labels, errors.
func TestServiceTextIsEscaped(t *testing.T) {
	t.Parallel()
	evil := `\u001b]0;pwned\u0007\u001b[2J`
	body := []byte(`{"hits":{"total":{"value":1,"relation":"eq"},"hits":[{"_index":"logs","_id":"a","_score":1,"_source":{"` + evil + `":"v` + evil + `"}},` +
		`{"_index":"logs","_id":"b","_score":1,"_source":{"message":"v` + evil + `"}}]},` +
		`"aggregations":{"` + evil + `":{"buckets":[{"key":"` + evil + `","doc_count":2}]}}}`)
	h, err := search.ShapeHits(body)
	if err != nil {
		t.Fatal(err)
	}
	aggs, _ := search.ShapeAggs(body)
	p := newPane(common.NewContext(), "")
	r := p.reader.res
	r.setSize(100, 20)
	r.set(&answer{req: search.ParsedRequest{Path: "/logs/_search"}, sent: true, status: 200, body: body, hits: h, aggs: aggs})
	check := func(what, out string) {
		t.Helper()
		if strings.Contains(out, "\x1b]") || strings.Contains(out, "\x07") || strings.Contains(out, "\x1b[2J") {
			t.Fatalf("%s writes control sequences: %q", what, out)
		}
	}
	for _, v := range []resultView{viewTable, viewAggs, viewRaw} {
		r.view = v
		r.render()
		check(v.String(), r.View())
	}
	r.view = viewTable
	if out := r.View(); !strings.Contains(out, `v\x1b]`) {
		t.Fatalf("the escaped text is not shown:\n%s", out)
	}
	// (The hit with the hostile key is not valid JSON once the search package has
	// re-encoded it; the second hit carries the hostile value.)
	for i := range 2 {
		d := newDocView(p.ctx, r, i, "", "")
		d.SetSize(100, 20)
		check("document view", d.View())
	}
	d := newDocView(p.ctx, r, 1, "", "")
	d.SetSize(100, 20)
	if !strings.Contains(d.View(), `v\x1b]0;pwned`) {
		t.Fatalf("the escaped value is not shown:\n%s", d.View())
	}
	r.set(&answer{sent: true, status: 500, errText: "bad \x1b]52;c;ZXZpbA==\x07 answer"})
	check("error", r.View())
}

// Raw JSON is coloured from the theme's palette, and not at all under NO_COLOR.
func TestRawJSONColoursFollowTheTheme(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	text := search.PrettyJSON([]byte(`{"level":"INFO","n":3,"ok":true}`))
	dark := colourJSON(theme.New(theme.Dark, false), text)
	light := colourJSON(theme.New(theme.Light, false), text)
	none := colourJSON(theme.New(theme.Dark, true), text)
	if strings.Contains(none, "\x1b[") {
		t.Fatalf("colour under NO_COLOR: %q", none)
	}
	key := theme.New(theme.Dark, false).Accent.Render(`"level"`)
	if !strings.Contains(dark, key) {
		t.Fatalf("keys are not in the theme's accent:\n%q\nwant %q", dark, key)
	}
	if dark == light || ansi.Strip(dark) != ansi.Strip(light) || ansi.Strip(dark) != none {
		t.Fatal("light and dark should differ only in colour")
	}
}

func TestFullScreenHidesIndicesAndEditor(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	p.reader.res.set(&answer{req: search.ParsedRequest{Path: "/logs/_search"}, sent: true, status: 200, body: hitsBody(5)})
	p.Update(tea.KeyMsg{Type: tea.KeyTab}) // results
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("z")})
	if !p.zoom {
		t.Fatal("z did not make the results full screen")
	}
	out := ansi.Strip(p.View())
	if strings.Contains(out, "Indices") || strings.Contains(out, "Editor") || !strings.Contains(out, "Results") {
		t.Fatalf("full screen:\n%s", out)
	}
	if !p.ClaimsKey(tea.KeyMsg{Type: tea.KeyEsc}) {
		t.Fatal("esc must leave full screen before the root sees it")
	}
	p.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if p.zoom || !strings.Contains(ansi.Strip(p.View()), "Indices") {
		t.Fatal("esc did not bring the panes back")
	}
}

func BenchmarkHitsTableView10000(b *testing.B) {
	r := resultsWith(b, 10000, 160)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = r.View()
	}
}

func TestCycleReportsWhenOnlyRawJSONCanBeShown(t *testing.T) {
	t.Parallel()
	p := newPane(common.NewContext(), "")
	r := p.reader.res
	r.setSize(80, 20)
	r.set(&answer{sent: true, status: 200, body: []byte(`{"status":"green"}`)})
	if r.cycle() || r.shownView() != viewRaw {
		t.Fatalf("an answer without hits has only raw JSON; cycle should say it changed nothing (view %s)", r.shownView())
	}
	hits := resultsWith(t, 3, 100)
	if !hits.cycle() || hits.shownView() != viewRaw {
		t.Fatalf("hits: table → raw expected, got %s", hits.shownView())
	}
}
