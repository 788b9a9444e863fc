package search

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/safe"
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

// results is the results pane: a status line and one of the views.
type results struct {
	ctx *common.Context
	// req addresses the column choice's load and save to the pane; indices gives the
	// mapping hits are laid out by, tail says whether a live tail is paused.
	req     *common.Requests
	indices *indexPanel
	tail    *tailer
	ans     *answer
	view    resultView
	// table shows hits (laid out by plan) or SQL rows.
	table *components.Table
	plan  search.ColumnPlan
	lines []string // raw or aggregation lines, rendered for the current width
	// offset scrolls the aggregation and raw views.
	offset int
	w, h   int
	// title is drawn before the status line (focus marker).
	title string
	// liveSig is the layout a live tail's rows were formatted for, liveCells those rows
	// by document (see hitsTable).
	liveSig   string
	liveCells map[string][]string
	// bar is the histogram bar chosen with ← → (-1: the one under the cursor's time).
	bar int
	// chosen are the user's columns per index pattern, loaded from the state dir.
	chosen map[string][]string
	known  map[string]bool
}

func newResults(ctx *common.Context, req *common.Requests, indices *indexPanel, tail *tailer) *results {
	r := &results{ctx: ctx, req: req, indices: indices, tail: tail, bar: -1, chosen: map[string][]string{}, known: map[string]bool{}}
	r.table = components.NewTable(ctx, []components.Column{{Title: "_id", Flex: true}})
	r.table.Empty = "No hits."
	return r
}

// set shows a new answer, keeping the chosen view when the answer has it; it loads the
// column choice of the answer's index pattern the first time one is seen.
func (r *results) set(a *answer) tea.Cmd {
	r.ans = a
	r.offset, r.bar = 0, -1
	r.fillTable()
	if r.view == viewAggs && len(a.aggs) == 0 {
		r.view = viewTable
	}
	// An aggregation-only answer (size 0) opens on its aggregations.
	if len(a.aggs) > 0 && a.sqlTable == nil && (a.hits == nil || len(a.hits.Rows) == 0) {
		r.view = viewAggs
	}
	r.render()
	pattern := r.pattern()
	if a.hits == nil || pattern == "" || r.known[pattern] {
		return nil
	}
	return r.loadChoice(pattern)
}

// pattern is the index pattern of the shown answer's request ("" for none).
func (r *results) pattern() string {
	if r.ans == nil {
		return ""
	}
	return search.IndexPattern(r.ans.req.Path)
}

// fillTable builds the table's rows once per answer, size or column choice; the table
// then draws only the rows in its window, whatever their number.
func (r *results) fillTable() {
	a := r.ans
	if a == nil {
		return
	}
	key := r.table.SelectedKey()
	switch {
	case a.sqlTable != nil:
		r.table = plainTable(r.ctx, a.sqlTable.Columns, a.sqlTable.Rows)
	case a.hits != nil:
		r.table = r.hitsTable()
	default:
		return
	}
	r.table.SetSize(r.w, r.tableHeight())
	r.table.Select(key)
}

// tableHeight is the room under the status line, and the histogram when there is one.
func (r *results) tableHeight() int {
	top := 1
	if a := r.ans; a != nil && a.log.histogram && a.errText == "" {
		top++
		if len(a.hist) > 0 {
			top++ // the time axis under the bars
		}
	}
	return max(1, r.h-top)
}

// replan lays the hits out again (the mapping or the column choice changed).
func (r *results) replan() {
	if r.ans != nil && r.ans.hits != nil {
		r.fillTable()
	}
}

func plainTable(ctx *common.Context, cols []string, rows [][]string) *components.Table {
	tc := make([]components.Column, len(cols))
	for i, c := range cols {
		tc[i] = components.Column{Title: c, Max: 40}
	}
	if len(tc) > 0 {
		tc[len(tc)-1].Flex = true
	}
	t := components.NewTable(ctx, tc)
	t.Empty = "No rows."
	out := make([]components.Row, len(rows))
	for i, row := range rows {
		out[i] = components.Row{Key: strconv.Itoa(i), Cells: row}
	}
	t.SetRows(out)
	return t
}

// setLive shows a live tail's buffer, the cursor on the document it was on, or on the
// newest when it was at the newest edge.
func (r *results) setLive(a *answer, follow bool) {
	r.ans = a
	r.view = viewTable
	r.fillTable()
	if follow && len(a.keys) > 0 {
		r.table.Select(a.keys[len(a.keys)-1])
	}
}

// atNewest reports the cursor on the newest document of a live tail (or no rows).
func (r *results) atNewest() bool {
	a := r.ans
	if a == nil || len(a.keys) == 0 || !a.live {
		return true
	}
	return r.table.SelectedKey() == a.keys[len(a.keys)-1]
}

func (r *results) setSize(w, h int) {
	if w == r.w && h == r.h {
		return
	}
	r.w, r.h = w, h
	r.fillTable()
	r.table.SetSize(w, r.tableHeight())
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
	switch r.shownView() {
	case viewAggs:
		r.lines = aggLines(r.ctx, r.ans.aggs, r.w)
	case viewRaw:
		if len(r.ans.parts) > 0 {
			r.lines = sqlPartsLines(r.ctx, r.ans.parts)
			break
		}
		r.lines = rawLines(r.ctx, r.ans.body, r.ans.sqlTable)
	}
}

// scroll moves the aggregation or raw view.
func (r *results) scroll(msg tea.KeyMsg) {
	r.offset = scrolled(r.ctx.Keys, msg, r.offset, len(r.lines), max(1, r.h-2))
}

// scrolled is offset after a movement key over n lines shown page at a time.
func scrolled(k *keys.KeyMap, msg tea.KeyMsg, offset, n, page int) int {
	switch {
	case key.Matches(msg, k.Down):
		offset++
	case key.Matches(msg, k.Up):
		offset--
	case key.Matches(msg, k.PgDn):
		offset += page
	case key.Matches(msg, k.PgUp):
		offset -= page
	case key.Matches(msg, k.Top):
		offset = 0
	case key.Matches(msg, k.Bottom):
		offset = n
	}
	return max(0, min(offset, n-page))
}

func (r *results) update(msg tea.KeyMsg) tea.Cmd {
	if r.ans == nil {
		return nil
	}
	if r.shownView() == viewTable {
		_, cmd := r.table.Update(msg)
		return cmd
	}
	r.scroll(msg)
	return nil
}

// statusLine is the badge, hit count, server and round-trip times and current view.
func (r *results) statusLine() string {
	st := r.ctx.Styles
	a := r.ans
	if a == nil {
		return st.Muted.Render("No request run yet: put the cursor in a request and press " + r.ctx.Keys.Run.Help().Key + ".")
	}
	var parts []string
	if a.live {
		parts = append(parts, st.Danger.Bold(true).Render("● LIVE"))
		if r.tail.paused() {
			parts[0] = st.Warn.Render("❚❚ LIVE paused")
		}
		if a.unseen > 0 {
			parts = append(parts, st.Accent.Render(thousands(int64(a.unseen))+" new ↓"))
		}
		parts = append(parts, thousands(int64(len(a.keys)))+" documents")
		if a.late > 0 {
			parts = append(parts, st.Accent.Render(thousands(int64(a.late))+" late (placed by time)"))
		}
		if a.dropped > 0 {
			parts = append(parts, st.Warn.Render("oldest "+thousands(int64(a.dropped))+" dropped (the tail keeps "+thousands(tailLimit)+")"))
		}
		return strings.Join(parts, " · ")
	}
	if a.tailNote != "" {
		parts = append(parts, st.Warn.Render(safe.Text(a.tailNote)))
	}
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
	if h := a.hits; h != nil {
		parts = append(parts, hitsSpan(a.first, len(h.Rows), h.Total, h.TotalRelation))
		if a.page > 1 {
			parts = append(parts, "page "+strconv.Itoa(a.page))
		}
	}
	if a.log.rangeLabel != "" {
		parts = append(parts, a.log.rangeLabel)
	}
	if a.sqlTable != nil {
		parts = append(parts, strconv.Itoa(len(a.sqlTable.Rows))+" rows")
	}
	if n := len(a.parts); n > 0 {
		failed := 0
		for _, part := range a.parts {
			if part.ans.errText != "" {
				failed++
			}
		}
		parts = append(parts, strconv.Itoa(n)+" statements")
		if failed > 0 {
			parts = append(parts, st.Danger.Render(strconv.Itoa(failed)+" failed"))
		}
	}
	if a.took != nil {
		parts = append(parts, "took "+strconv.FormatInt(*a.took, 10)+"ms")
	}
	if a.errText == "" && len(a.parts) == 0 {
		parts = append(parts, r.shownView().String())
	}
	if n := len(r.plan.Hidden); n > 0 && r.shownView() == viewTable && a.hits != nil {
		parts = append(parts, strconv.Itoa(n)+" columns hidden ("+r.ctx.Keys.Columns.Help().Key+")")
	}
	if a.sent && a.rt > 0 {
		parts = append(parts, "round trip "+roundTrip(a.rt))
	}
	return strings.Join(parts, " · ")
}

// hitsSpan says which hits are shown: "hits 41–60 of 5,000", "≥10,000 hits" past the end.
func hitsSpan(first, rows int, total *int64, relation string) string {
	of := ""
	if total != nil {
		rel := ""
		if relation == "gte" {
			rel = "≥"
		}
		of = rel + thousands(*total)
		if rows == 0 {
			return of + " hits"
		}
		of = " of " + of
	}
	if rows == 0 {
		return "no hits"
	}
	return "hits " + thousands(int64(first+1)) + "–" + thousands(int64(first+rows)) + of
}

func (r *results) View() string {
	st := r.ctx.Styles
	head := ansi.Truncate(r.title+" "+r.statusLine(), r.w, "…")
	bodyH := max(0, r.h-1)
	var body []string
	switch a := r.ans; {
	case a == nil:
	case a.errText != "":
		body = wrap(st.Danger.Render(safe.Text(a.errText)), r.w)
		if a.sent && len(a.body) > 0 && r.view == viewRaw {
			body = append(body, r.lines...)
		}
	case r.shownView() == viewTable:
		if h := r.histogramView(); h != "" {
			for _, l := range strings.Split(h, "\n") {
				head += "\n" + ansi.Truncate(l, r.w, "")
			}
		}
		return head + "\n" + r.table.View()
	default:
		end := min(len(r.lines), r.offset+bodyH)
		body = r.lines[min(r.offset, end):end]
	}
	if len(body) > bodyH {
		body = body[:bodyH]
	}
	out := make([]string, 0, len(body)+1)
	out = append(out, head)
	for _, l := range body {
		out = append(out, ansi.Truncate(l, r.w, "…"))
	}
	return strings.Join(out, "\n")
}

func wrap(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	return strings.Split(lipgloss.NewStyle().Width(w).Render(s), "\n")
}

// aggLines renders each aggregation as a small table, with bars for bucket series.
// Names, keys and labels come from the service: they go through safe.Text.
func aggLines(ctx *common.Context, aggs []search.AggTable, w int) []string {
	st := ctx.Styles
	if len(aggs) == 0 {
		return []string{st.Muted.Render("The answer has no aggregations.")}
	}
	var out []string
	for _, a := range aggs {
		out = append(out, st.Title.Render(safe.Text(a.Name))+st.Muted.Render(" ("+safe.Text(string(a.Kind))+")"))
		out = append(out, gridLines(ctx, safeCells(a.Columns), safeRows(a.Rows))...)
		if len(a.Series) > 0 {
			maxV, labelW := 0.0, 0
			labels := make([]string, len(a.Series))
			for i, p := range a.Series {
				labels[i] = safe.Text(p.Label)
				maxV = max(maxV, p.Value)
				labelW = max(labelW, min(24, ansi.StringWidth(labels[i])))
			}
			barW := max(4, w-labelW-14)
			for i, p := range a.Series {
				label := ansi.Truncate(labels[i], labelW, "…")
				label += strings.Repeat(" ", labelW-ansi.StringWidth(label))
				out = append(out, label+" "+st.Accent.Render(components.Bar(p.Value, maxV, barW))+" "+strconv.FormatFloat(p.Value, 'f', -1, 64))
			}
		}
		out = append(out, "")
	}
	return out
}

// gridLines lays cells out in columns (each at most 30 wide), a header line first.
func gridLines(ctx *common.Context, cols []string, rows [][]string) []string {
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = min(30, ansi.StringWidth(c))
	}
	for _, row := range rows {
		for i := range min(len(row), len(widths)) {
			widths[i] = min(30, max(widths[i], ansi.StringWidth(row[i])))
		}
	}
	line := func(cells []string) string {
		var b strings.Builder
		for i := range widths {
			c := ""
			if i < len(cells) {
				c = ansi.Truncate(cells[i], widths[i], "…")
			}
			b.WriteString(c)
			b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(c)+2))
		}
		return b.String()
	}
	out := make([]string, 0, len(rows)+1)
	out = append(out, ctx.Styles.TableHeader.Render(line(cols)))
	for _, row := range rows {
		out = append(out, line(row))
	}
	return out
}

func safeCells(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = safe.Text(c)
	}
	return out
}

// rawLines is the answer as indented JSON, coloured from the theme's palette unless
// colour is off; SQL text formats as they came.
func rawLines(ctx *common.Context, body []byte, t *search.Table) []string {
	if t != nil && t.Text != "" {
		return strings.Split(strings.TrimRight(safe.Block(t.Text), "\n"), "\n")
	}
	text := colourJSON(ctx.Styles, search.PrettyJSON(body))
	return strings.Split(strings.TrimRight(text, "\n"), "\n")
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
