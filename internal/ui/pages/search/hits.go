package search

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
)

// tableGap is the table's space between columns; tableMarker its cursor column.
const (
	tableGap    = 2
	tableMarker = 2
)

// hitsTable lays the hits out for logs (search.PlanColumns: time first and compact,
// keywords, the longest text last taking what is left, _score hidden when sorted, or
// the user's columns) and fills a table with them, matches marked when the query asked
// for highlighting.
func (r *results) hitsTable() *components.Table {
	a := r.ans
	h := a.hits
	pattern := r.pattern()
	// A live tail keeps its layout while documents arrive (no columns jumping at each
	// poll) and formats only the rows it has not formatted yet; a new column, width or
	// choice lays it out again.
	live := a.live && len(a.keys) == len(h.Rows)
	sig := strconv.Itoa(r.w) + "\x00" + strconv.Itoa(len(r.indices.mapping.Indices)) + "\x00" + strings.Join(h.Columns, "\x00") + "\x00" + strings.Join(r.chosen[pattern], "\x00")
	if !live || sig != r.liveSig {
		r.plan = search.PlanColumns(h, search.PlanOptions{
			Width:    max(1, r.w-tableMarker-anchorWidth(a)),
			Gap:      tableGap,
			Types:    fieldTypes(r.indices.mapping, pattern),
			Sorted:   h.LastSort != nil,
			Chosen:   r.chosen[pattern],
			Location: loc(),
			FullDate: true,
		})
		r.liveSig, r.liveCells = "", nil
		if live {
			r.liveSig, r.liveCells = sig, map[string][]string{}
		}
	}
	cols := tableColumns(r.plan)
	zone := zoneName(r.ctx)
	for i, c := range r.plan.Columns {
		if c.Kind == search.ColumnTime && ansi.StringWidth(cols[i].Title+" "+zone)+2 <= cols[i].Width {
			cols[i].Title += " " + zone // the zone once, in the header, not on every line
		}
	}
	if a.anchor != "" {
		cols = append([]components.Column{{Title: "", Width: 2, Max: 2, Styled: true}}, cols...)
	}
	t := components.NewTable(r.ctx, cols)
	t.Empty = "No hits."
	var terms [][]string
	if a.highlight {
		terms = highlightTerms(h.Hits, a.pre, a.post)
	}
	mark := matchStyle(r.ctx)
	rows := make([]components.Row, len(h.Rows))
	var cached map[string][]string
	if live {
		cached = make(map[string][]string, len(h.Rows))
	}
	for i, row := range h.Rows {
		if live {
			if cells, ok := r.liveCells[a.keys[i]]; ok {
				rows[i] = components.Row{Key: a.keys[i], Cells: cells}
				cached[a.keys[i]] = cells
				continue
			}
		}
		cells := r.plan.Cells(row)
		for j := range cells {
			cells[j] = safe.Text(cells[j])
			if i < len(terms) && len(terms[i]) > 0 && r.plan.Columns[j].Kind == search.ColumnText {
				cells[j] = markTerms(cells[j], terms[i], mark)
			}
			if levelField(r.plan.Columns[j].Name) {
				if st, ok := levelStyle(r.ctx, row[r.plan.Columns[j].Source]); ok {
					cells[j] = st.Render(cells[j])
				}
			}
		}
		key := strconv.Itoa(i)
		if i < len(a.keys) {
			key = a.keys[i] // a live tail: rows move, the cursor stays on its document
		}
		if a.anchor != "" {
			mark := " "
			if key == a.anchor {
				mark = r.ctx.Styles.Accent.Render("◆")
			}
			cells = append([]string{mark}, cells...)
		}
		rows[i] = components.Row{Key: key, Cells: cells}
		if live {
			cached[key] = cells
		}
	}
	if live {
		r.liveCells = cached // only the rows still in the buffer
	}
	t.SetRows(rows)
	return t
}

// levelField reports a level-like field: level, severity, loglevel, log.level, …
func levelField(name string) bool {
	n := strings.ToLower(strings.TrimSuffix(name, ".keyword"))
	if i := strings.LastIndexByte(n, '.'); i >= 0 {
		n = n[i+1:]
	}
	switch n {
	case "level", "severity", "loglevel", "log_level", "lvl", "severity_text", "levelname":
		return true
	}
	return false
}

// levelStyle colours a level's value through the theme: error and worse as danger,
// warnings as warn, info as info, debug and trace muted.
func levelStyle(ctx *common.Context, v string) (lipgloss.Style, bool) {
	st := ctx.Styles
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "error", "err", "fatal", "critical", "crit", "alert", "emerg", "emergency", "panic", "severe":
		return st.Danger, true
	case "warn", "warning":
		return st.Warn, true
	case "info", "information", "notice":
		return st.Info, true
	case "debug", "trace", "fine", "finer", "finest":
		return st.Muted, true
	}
	return lipgloss.Style{}, false
}

// anchorWidth is the room of the ◆ column of surrounding documents (0 elsewhere).
func anchorWidth(a *answer) int {
	if a.anchor != "" {
		return 2 + tableGap // the table keeps two cells after a title (its sort arrow)
	}
	return 0
}

// tableColumns turns the plan into the table's columns. The table keeps two cells
// after each title for its sort arrow, so a column whose name is wider than its content
// would grow: the main column gives that room back, or, when it has too little, the
// long names are cut.
func tableColumns(plan search.ColumnPlan) []components.Column {
	cols := make([]components.Column, len(plan.Columns))
	main, excess := -1, 0
	for i, c := range plan.Columns {
		numeric := c.Kind == search.ColumnNumber || c.Kind == search.ColumnScore
		cols[i] = components.Column{Title: safe.Text(c.Name), Width: c.Width, Max: c.Width, Styled: true, Right: numeric, Numeric: numeric}
		if c.Main {
			main = i
			continue
		}
		if tw := ansi.StringWidth(cols[i].Title) + 2; tw > c.Width {
			excess += tw - c.Width
		}
	}
	const minMain = 10
	if main >= 0 && cols[main].Width-excess >= minMain {
		cols[main].Width -= excess
		cols[main].Max = cols[main].Width
		excess = 0
	}
	for i := range cols {
		if (i == main || excess > 0) && ansi.StringWidth(cols[i].Title)+2 > cols[i].Width {
			cols[i].Title = ansi.Truncate(cols[i].Title, max(1, cols[i].Width-2), "…")
		}
	}
	return cols
}

// fieldTypes maps the fields of the indices pattern names to their mapping types.
func fieldTypes(m search.Mapping, pattern string) map[string]string {
	if pattern == "" {
		return nil
	}
	fs := search.FieldsFor(m, pattern)
	out := make(map[string]string, len(fs))
	for _, f := range fs {
		out[f.Path] = f.Type
	}
	return out
}

// matchStyle marks highlighted matches: bold and underlined, in the accent colour when
// there is colour.
func matchStyle(ctx *common.Context) lipgloss.Style { return ctx.Styles.Title.Underline(true) }

// highlightTerms lists, per hit, the words its highlight fragments mark (lower case).
func highlightTerms(hits []json.RawMessage, pre, post string) [][]string {
	out := make([][]string, len(hits))
	for i, raw := range hits {
		var h struct {
			Highlight map[string][]string `json:"highlight"`
		}
		if json.Unmarshal(raw, &h) != nil {
			continue
		}
		seen := map[string]bool{}
		for _, frags := range h.Highlight {
			for _, f := range frags {
				for _, sp := range search.SplitHighlight(f, pre, post) {
					w := strings.ToLower(strings.TrimSpace(sp.Text))
					if sp.Match && w != "" && !seen[w] {
						seen[w] = true
						out[i] = append(out[i], w)
					}
				}
			}
		}
	}
	return out
}

// markTerms styles every case-insensitive occurrence of terms in s (screen-safe text).
func markTerms(s string, terms []string, st lipgloss.Style) string {
	lower := strings.ToLower(s)
	if len(lower) != len(s) {
		return s // a case change altered byte offsets: leave it unmarked rather than garble it
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		hit := ""
		for _, t := range terms {
			if strings.HasPrefix(lower[i:], t) && len(t) > len(hit) {
				hit = t
			}
		}
		if hit == "" {
			i++
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(st.Render(s[i : i+len(hit)]))
		i += len(hit)
		last = i
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// columnChoice is the columns chosen for an index pattern (nil: automatic).
type columnChoice struct {
	pattern string
	columns []string
}

// loadChoice reads the columns remembered for pattern (in a command).
func (r *results) loadChoice(pattern string) tea.Cmd {
	dir := r.ctx.StateDir
	return common.Fetch(r.req, kindColumns, func(context.Context) (columnChoice, error) {
		cols, err := search.LoadColumns(dir, pattern)
		return columnChoice{pattern, cols}, err
	})
}

// choiceLoaded applies a remembered choice to the shown hits.
func (r *results) choiceLoaded(c columnChoice, err error) tea.Cmd {
	r.known[c.pattern] = true
	if err != nil {
		return common.Warn("Could not read the remembered columns: " + err.Error())
	}
	r.chosen[c.pattern] = c.columns
	if c.pattern == r.pattern() {
		r.replan()
	}
	return nil
}

// choose sets the columns of the shown answer's pattern and remembers them.
func (r *results) choose(cols []string) tea.Cmd {
	pattern := r.pattern()
	if len(cols) == 0 {
		cols = nil
	}
	r.chosen[pattern] = cols
	r.known[pattern] = true
	r.replan()
	if pattern == "" {
		return common.Info("These columns are kept for this session only: the request names no index to remember them for")
	}
	dir := r.ctx.StateDir
	return common.Fetch(r.req, kindSaveColumns, func(context.Context) (saved, error) {
		return saved{"The column choice"}, search.SaveColumns(dir, pattern, cols)
	})
}
