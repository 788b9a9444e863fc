package search

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// resultView is what the results pane shows.
type resultView int

const (
	viewTable resultView = iota
	viewAggs
	viewRaw
)

func (v resultView) String() string {
	return [...]string{"table", "aggregations", "raw JSON"}[v]
}

// maxColouredBytes bounds syntax colouring: beyond it raw JSON is shown plain, so a huge
// answer never stalls the UI.
const maxColouredBytes = 2 << 20

// answer is one completed request, shaped for every view.
type answer struct {
	req      search.ParsedRequest
	sql      bool
	status   int
	took     *int64
	rt       time.Duration
	body     []byte
	errText  string // engine error (type: reason) or transport error; "" on success
	sent     bool   // false when nothing reached the service
	hits     *search.HitsTable
	aggs     []search.AggTable
	sqlTable *search.Table
	page     int
}

// results is the results pane: a status line and one of the views.
type results struct {
	ctx    *common.Context
	ans    *answer
	view   resultView
	table  *components.Table
	lines  []string // raw or aggregation lines, rendered for the current width
	offset int
	w, h   int
	// title is drawn before the status line (focus marker).
	title string
}

func newResults(ctx *common.Context) *results {
	r := &results{ctx: ctx}
	r.table = components.NewTable(ctx, []components.Column{{Title: "_id", Flex: true}})
	r.table.Empty = "No hits."
	return r
}

// set shows a new answer, keeping the chosen view when the answer has it.
func (r *results) set(a *answer) {
	r.ans = a
	r.offset = 0
	r.fillTable()
	if r.view == viewAggs && len(a.aggs) == 0 {
		r.view = viewTable
	}
	// An aggregation-only answer (size 0) opens on its aggregations.
	if len(a.aggs) > 0 && a.sqlTable == nil && (a.hits == nil || len(a.hits.Rows) == 0) {
		r.view = viewAggs
	}
	r.render()
}

// fillTable builds the table's rows once per answer; the table then draws only the
// rows in its window, whatever their number.
func (r *results) fillTable() {
	a := r.ans
	var cols []string
	var rows [][]string
	switch {
	case a.sqlTable != nil:
		cols, rows = a.sqlTable.Columns, a.sqlTable.Rows
	case a.hits != nil:
		cols, rows = a.hits.Columns, a.hits.Rows
	default:
		return
	}
	r.table = newHitsTable(r.ctx, cols, rows)
	r.table.SetSize(r.w, max(1, r.h-1))
}

func newHitsTable(ctx *common.Context, cols []string, rows [][]string) *components.Table {
	tc := make([]components.Column, len(cols))
	for i, c := range cols {
		tc[i] = components.Column{Title: c, Max: 40}
		if c == "_score" {
			tc[i].Right, tc[i].Numeric, tc[i].Max = true, true, 8
		}
	}
	if len(tc) > 0 {
		tc[len(tc)-1].Flex = true
	}
	t := components.NewTable(ctx, tc)
	t.Empty = "No hits."
	out := make([]components.Row, len(rows))
	for i, row := range rows {
		out[i] = components.Row{Key: strconv.Itoa(i), Cells: row}
	}
	t.SetRows(out)
	return t
}

func (r *results) setSize(w, h int) {
	r.w, r.h = w, h
	r.table.SetSize(w, max(1, h-1))
	r.render()
}

// cycle moves to the next view the answer can show; false when it has only one.
func (r *results) cycle() bool {
	if r.ans == nil {
		return false
	}
	before := r.shownView()
	for range 3 {
		r.view = (r.view + 1) % 3
		if r.available(r.view) {
			break
		}
	}
	r.offset = 0
	r.render()
	return r.shownView() != before
}

// shownView is the view on screen: the chosen one, or raw JSON when the answer lacks it.
func (r *results) shownView() resultView {
	if r.available(r.view) {
		return r.view
	}
	return viewRaw
}

func (r *results) available(v resultView) bool {
	a := r.ans
	switch v {
	case viewTable:
		return a.hits != nil || a.sqlTable != nil
	case viewAggs:
		return len(a.aggs) > 0
	}
	return true
}

// render prepares the scrollable lines of the aggregation and raw views.
func (r *results) render() {
	r.lines = nil
	if r.ans == nil {
		return
	}
	switch r.view {
	case viewAggs:
		r.lines = aggLines(r.ctx, r.ans.aggs, r.w)
	case viewRaw:
		r.lines = rawLines(r.ctx, r.ans.body, r.ans.sqlTable)
	}
}

func (r *results) update(msg tea.KeyMsg) tea.Cmd {
	if r.ans == nil {
		return nil
	}
	if r.view == viewTable && r.available(viewTable) {
		_, cmd := r.table.Update(msg)
		return cmd
	}
	k := r.ctx.Keys
	page := max(1, r.h-2)
	switch {
	case key.Matches(msg, k.Down):
		r.offset++
	case key.Matches(msg, k.Up):
		r.offset--
	case key.Matches(msg, k.PgDn):
		r.offset += page
	case key.Matches(msg, k.PgUp):
		r.offset -= page
	case key.Matches(msg, k.Top):
		r.offset = 0
	case key.Matches(msg, k.Bottom):
		r.offset = len(r.lines)
	}
	r.offset = max(0, min(r.offset, len(r.lines)-page))
	return nil
}

// statusLine is the badge, server and round-trip times, hit count and current view.
func (r *results) statusLine() string {
	st := r.ctx.Styles
	a := r.ans
	if a == nil {
		return st.Muted.Render("No request run yet: put the cursor in a request and press ctrl+r or f5.")
	}
	var parts []string
	switch {
	case !a.sent:
		parts = append(parts, st.Danger.Render("✗ not sent"))
	case a.status == 0:
		parts = append(parts, st.Danger.Render("✗ no answer"))
	case a.status >= 200 && a.status < 300:
		parts = append(parts, st.OK.Render("● "+strconv.Itoa(a.status)))
	default:
		parts = append(parts, st.Danger.Render("✗ "+strconv.Itoa(a.status)))
	}
	// Most important first: the line is cut at the pane's width.
	var shown string
	if h := a.hits; h != nil {
		if h.Total != nil {
			rel := ""
			if h.TotalRelation == "gte" {
				rel = "≥"
			}
			parts = append(parts, rel+strconv.FormatInt(*h.Total, 10)+" hits")
		}
		shown = strconv.Itoa(len(h.Rows)) + " shown"
		if a.page > 1 {
			shown += ", page " + strconv.Itoa(a.page)
		}
	}
	if a.sqlTable != nil {
		parts = append(parts, strconv.Itoa(len(a.sqlTable.Rows))+" rows")
	}
	if a.took != nil {
		parts = append(parts, "took "+strconv.FormatInt(*a.took, 10)+"ms")
	}
	if a.errText == "" {
		parts = append(parts, r.shownView().String())
	}
	if a.sent {
		parts = append(parts, "round trip "+roundTrip(a.rt))
	}
	if shown != "" {
		parts = append(parts, shown)
	}
	return strings.Join(parts, " · ")
}

func (r *results) View() string {
	st := r.ctx.Styles
	head := ansi.Truncate(r.title+" "+r.statusLine(), r.w, "…")
	bodyH := max(0, r.h-1)
	var body []string
	switch a := r.ans; {
	case a == nil:
	case a.errText != "":
		body = wrap(st.Danger.Render(a.errText), r.w)
		if a.sent && len(a.body) > 0 && r.view == viewRaw {
			body = append(body, rawLines(r.ctx, a.body, nil)...)
		}
	case r.view == viewTable && r.available(viewTable):
		return head + "\n" + r.table.View()
	case r.view == viewTable:
		body = rawLines(r.ctx, a.body, nil)
	default:
		end := min(len(r.lines), r.offset+bodyH)
		body = r.lines[min(r.offset, end):end]
	}
	if len(body) > bodyH {
		body = body[:bodyH]
	}
	for i, l := range body {
		body[i] = ansi.Truncate(l, r.w, "…")
	}
	return strings.Join(append([]string{head}, body...), "\n")
}

func wrap(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	return strings.Split(lipgloss.NewStyle().Width(w).Render(s), "\n")
}

// aggLines renders each aggregation as a small table, with bars for bucket series.
func aggLines(ctx *common.Context, aggs []search.AggTable, w int) []string {
	st := ctx.Styles
	if len(aggs) == 0 {
		return []string{st.Muted.Render("The answer has no aggregations.")}
	}
	var out []string
	for _, a := range aggs {
		out = append(out, st.Title.Render(a.Name)+st.Muted.Render(" ("+string(a.Kind)+")"))
		widths := make([]int, len(a.Columns))
		for i, c := range a.Columns {
			widths[i] = min(30, lipgloss.Width(c))
		}
		for _, row := range a.Rows {
			for i := range min(len(row), len(widths)) {
				widths[i] = min(30, max(widths[i], lipgloss.Width(row[i])))
			}
		}
		line := func(cells []string) string {
			var b strings.Builder
			for i := range widths {
				c := ""
				if i < len(cells) {
					c = cells[i]
				}
				b.WriteString(ansi.Truncate(c, widths[i], "…"))
				b.WriteString(strings.Repeat(" ", widths[i]-lipgloss.Width(ansi.Truncate(c, widths[i], "…"))+2))
			}
			return b.String()
		}
		out = append(out, st.TableHeader.Render(line(a.Columns)))
		for _, row := range a.Rows {
			out = append(out, line(row))
		}
		if len(a.Series) > 0 {
			maxV, labelW := 0.0, 0
			for _, p := range a.Series {
				maxV = max(maxV, p.Value)
				labelW = max(labelW, min(24, lipgloss.Width(p.Label)))
			}
			barW := max(4, w-labelW-14)
			for _, p := range a.Series {
				label := ansi.Truncate(p.Label, labelW, "…")
				label += strings.Repeat(" ", labelW-lipgloss.Width(label))
				out = append(out, label+" "+st.Accent.Render(components.Bar(p.Value, maxV, barW))+" "+strconv.FormatFloat(p.Value, 'f', -1, 64))
			}
		}
		out = append(out, "")
	}
	return out
}

// rawLines is the answer as indented JSON, coloured unless colour is off.
func rawLines(ctx *common.Context, body []byte, t *search.Table) []string {
	if t != nil && t.Text != "" {
		return strings.Split(strings.TrimRight(t.Text, "\n"), "\n")
	}
	text := search.PrettyJSON(body)
	if !ctx.Styles.NoColor && len(text) <= maxColouredBytes {
		if c, ok := colourJSON(text); ok {
			text = c
		}
	}
	return strings.Split(strings.TrimRight(text, "\n"), "\n")
}

// colourJSON highlights JSON with chroma for the terminal's colour profile; plain in
// an ASCII (NO_COLOR, tests) profile.
func colourJSON(text string) (string, bool) {
	var f chroma.Formatter
	switch lipgloss.ColorProfile() {
	case termenv.Ascii:
		return "", false
	case termenv.ANSI:
		f = formatters.Get("terminal16")
	default:
		f = formatters.Get("terminal256")
	}
	lex := lexers.Get("json")
	if lex == nil || f == nil {
		return "", false
	}
	it, err := chroma.Coalesce(lex).Tokenise(nil, text)
	if err != nil {
		return "", false
	}
	style := styles.Get("monokai")
	if !lipgloss.HasDarkBackground() {
		style = styles.Get("github")
	}
	var b bytes.Buffer
	if err := f.Format(&b, style, it); err != nil {
		return "", false
	}
	return b.String(), true
}

// roundTrip renders an elapsed time readably: "12ms", "1.2s", and "450µs" below a
// millisecond (loopback answers), never a misleading "0s".
func roundTrip(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(100 * time.Millisecond).String()
}
