package components

// The table is written on lipgloss rather than evertras/bubble-table v0.19.2, which the
// design card names, for measured reasons (BenchmarkBubbleTableView10000 and
// ...CacheFilled beside BenchmarkTableView10000, 10,000 rows, 160×40):
//   - bubble-table caches its filtered, sorted rows; with the cache filled its View costs
//     1.3–2.4 ms on a quiet 2-core machine, and after a change of rows, filter or sort
//     (empty cache) it filters and sorts them all (16–25 ms and 23 MB); this table's
//     View costs 0.07–0.08 ms whatever the row count;
//   - it pages (a page of rows at a time) instead of scrolling a window, and its cursor
//     is a row index, so it cannot stay on the same resource across a live refresh.
// Here filtering and sorting happen once per data change, filter edit or sort key, into
// an index slice; View only touches the rows in the window, so its cost is bounded by
// the terminal height, and the cursor follows the row's key.

import (
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// Column describes a table column.
type Column struct {
	// Columns are never compared: without this, every array of them a literal puts on the
	// heap gets an equality function compiled (8 of them, 16 KB of binary with Field's).
	_     [0]func()
	Title string
	// Width is the minimum width; the title's width always fits.
	Width int
	// Max caps the width computed from the content (0 = 40).
	Max int
	// Flex columns share the width left over.
	Flex bool
	// Right aligns numbers and money.
	Right bool
	// Numeric sorts by the number at the start of the cell (money, counts, sizes).
	Numeric bool
	// Optional columns are hidden in the compact layout (below 120 columns).
	Optional bool
	// Styled columns carry the UI's own styling (state badges), built from platform text
	// that went through safe.Text first; every other cell is outside text and is made
	// safe here.
	Styled bool
}

// Row is one table row. Key identifies it across refreshes (the resource name); the
// cursor follows the key. Cells may contain styling; filtering and sorting use the
// text without it, or Sort when given.
type Row struct {
	Key   string
	Cells []string
	// Sort optionally gives per-column sort values (same length as Cells).
	Sort []string
}

// Table is the shared table component.
type Table struct {
	ctx     *common.Context
	columns []Column
	// The rows are kept flat, not as Rows: row i's key is keys[i], its cells are
	// cells[i*w:(i+1)*w] (w columns) and its sort values, when a row gave any, are
	// sorts[i*w:(i+1)*w]. A Row per row with its own cells, sort slice and index was
	// 272 bytes before its text (80,000 projects: 21 MB); this is 16 per key and 16 per
	// cell. What filtering and sorting need is made from them when first asked.
	keys  []string
	cells []string
	sorts []string
	// lower is each row's cells in lower case for the filter, made when one is first
	// typed ("" not made yet); numbers are a numeric column's sort values, made when
	// it is first sorted by. Both are dropped with the rows.
	lower   []string
	numbers map[int][]float64
	// visible holds indices into rows after filter and sort.
	visible []int

	cursor, offset int
	width, height  int

	sortCol  int
	sortDesc bool
	sorted   bool

	filter    textinput.Model
	filtering bool

	contentMax []int

	// Empty is shown when there are no rows at all; Loading while the first load runs;
	// Err when the last load failed (rows, if any, stay shown with the error as status).
	Empty   string
	Loading bool
	Err     string
	// Marked, when set, says which rows carry a mark (base.List's marks), drawn in the
	// marker column beside the cursor.
	Marked func(key string) bool
}

// NewTable builds an empty table.
func NewTable(ctx *common.Context, columns []Column) *Table {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "filter"
	ti.CharLimit = 200
	t := &Table{ctx: ctx, columns: columns, filter: ti, sortCol: -1, Loading: true}
	return t
}

// SetRows replaces the data, keeping the cursor on the row with the same key, the
// filter and the sort.
func (t *Table) SetRows(rows []Row) {
	t.Refill(len(rows), func(i int) Row { return rows[i] })
}

// Refill replaces the data with n rows made by row, like SetRows, keeping them in the
// previous rows' storage when it has room, or else letting the previous rows go before
// the new ones are kept. A refresh of a large list thus never holds two sets of rows.
// A row's cells are copied as it is made, so row may make every row in one slice.
func (t *Table) Refill(n int, row func(i int) Row) {
	key := t.SelectedKey()
	w := len(t.columns)
	keys, cells, sorts := t.keys, t.cells, t.sorts
	t.keys, t.cells, t.sorts, t.lower, t.numbers = nil, nil, nil, nil, nil
	t.keys = reuse(keys, n)
	t.cells = reuse(cells, n*w)
	t.contentMax = make([]int, w)
	for i := range n {
		r := row(i)
		t.keys[i] = r.Key
		at := t.cells[i*w : (i+1)*w]
		for c := range at {
			if c < len(r.Cells) {
				at[c] = t.safeCell(c, r.Cells[c])
			}
			if cw := ansi.StringWidth(plain(at[c])); cw > t.contentMax[c] {
				t.contentMax[c] = cw
			}
		}
		if r.Sort != nil && t.sorts == nil {
			t.sorts = reuse(sorts, n*w)
			for j := range i * w { // the rows before gave none: their cells are theirs
				t.sorts[j] = plain(t.cells[j])
			}
		}
		if t.sorts != nil {
			for c := range w {
				if c < len(r.Sort) {
					t.sorts[i*w+c] = r.Sort[c]
				} else {
					t.sorts[i*w+c] = plain(at[c])
				}
			}
		}
	}
	t.Loading = false
	t.Err = ""
	t.rebuild(key)
}

// safeCell is a cell as kept: outside text made safe, the UI's own styling as it is.
func (t *Table) safeCell(col int, cell string) string {
	if t.columns[col].Styled {
		return cell
	}
	return safe.Text(cell)
}

// plain is a cell without its styling.
func plain(cell string) string {
	if strings.IndexByte(cell, 0x1b) >= 0 {
		return ansi.Strip(cell)
	}
	return cell
}

// reuse is s cut to n zero entries when it has room for them and not much more, else
// a new slice (s dropped first, so that it can be collected while the new one fills).
func reuse[E any](s []E, n int) []E {
	if cap(s) < n || cap(s) > 2*n+64 {
		s = nil
		return make([]E, n)
	}
	clear(s[:cap(s)]) // nothing past n stays reachable either
	return s[:n]
}

// SetCell replaces one cell of row (a cell that changes on its own, such as a time in
// state), leaving the column's width as it is; out of range, it does nothing.
func (t *Table) SetCell(row, col int, cell string) {
	w := len(t.columns)
	if row < 0 || row >= len(t.keys) || col < 0 || col >= w {
		return
	}
	t.cells[row*w+col] = t.safeCell(col, cell)
	if t.lower != nil {
		t.lower[row] = ""
	}
	if t.sorts == nil {
		delete(t.numbers, col)
	}
}

// rowCount is how many rows there are, filtered or not.
func (t *Table) rowCount() int { return len(t.keys) }

// SetError records a failed load; existing rows stay.
func (t *Table) SetError(msg string) { t.Err, t.Loading = msg, false }

// Len is the number of rows shown after the filter.
func (t *Table) Len() int { return len(t.visible) }

// SelectedKey returns the key of the row under the cursor, or "".
func (t *Table) SelectedKey() string {
	if t.cursor < 0 || t.cursor >= len(t.visible) {
		return ""
	}
	return t.keys[t.visible[t.cursor]]
}

// SelectedRow is the position in the rows given to SetRows of the row under the cursor.
func (t *Table) SelectedRow() (int, bool) {
	if t.cursor < 0 || t.cursor >= len(t.visible) {
		return 0, false
	}
	return t.visible[t.cursor], true
}

// Select moves the cursor to the row with key, if shown.
func (t *Table) Select(key string) bool {
	for i, ri := range t.visible {
		if t.keys[ri] == key {
			t.cursor = i
			t.clampOffset()
			return true
		}
	}
	return false
}

// Cursor is the cursor position among shown rows.
func (t *Table) Cursor() int { return t.cursor }

// Filtering reports whether the filter input has focus (the view is then capturing).
func (t *Table) Filtering() bool { return t.filtering }

// FilterText is the applied filter.
func (t *Table) FilterText() string { return t.filter.Value() }

// SetFilter applies a filter programmatically.
func (t *Table) SetFilter(s string) {
	t.filter.SetValue(s)
	t.refilter()
}

// refilter applies a changed filter: the cursor goes to the first match (the row a
// person filtering for something looks at first, whatever row was selected before);
// a cleared filter keeps the selected row.
func (t *Table) refilter() {
	if strings.TrimSpace(t.filter.Value()) == "" {
		t.rebuild(t.SelectedKey())
		return
	}
	t.cursor, t.offset = 0, 0
	t.rebuild("")
}

// SortBy sorts by column c (desc reverses); c < 0 restores the data order.
func (t *Table) SortBy(c int, desc bool) {
	t.sortCol, t.sortDesc, t.sorted = c, desc, c >= 0
	t.rebuild(t.SelectedKey())
}

// SortState returns the sort column (-1 for data order) and direction.
func (t *Table) SortState() (int, bool) { return t.sortCol, t.sortDesc }

// SetSize gives the table its area.
func (t *Table) SetSize(w, h int) {
	t.width, t.height = w, h
	t.filter.Width = max(10, w-4)
	t.clampOffset()
}

// rebuild recomputes the visible index from filter and sort, then puts the cursor back
// on key (or keeps its position when the key is gone).
func (t *Table) rebuild(key string) {
	q := strings.ToLower(strings.TrimSpace(t.filter.Value()))
	t.visible = t.visible[:0]
	for i := range t.rowCount() {
		if q == "" || strings.Contains(t.lowerOf(i), q) {
			t.visible = append(t.visible, i)
		}
	}
	if t.sorted && t.sortCol < len(t.columns) {
		c := t.sortCol
		numeric := t.columns[c].Numeric
		var numbers []float64
		var texts []string
		if numeric {
			numbers = t.numbersOf(c)
		} else {
			// Each shown row's value in lower case once, not at every comparison.
			texts = make([]string, t.rowCount())
			for _, i := range t.visible {
				texts[i] = strings.ToLower(t.sortValue(i, c))
			}
		}
		desc := t.sortDesc
		sort.SliceStable(t.visible, func(a, b int) bool {
			ia, ib := t.visible[a], t.visible[b]
			var less, greater bool
			if numeric {
				na, nb := numbers[ia], numbers[ib]
				less, greater = na < nb, na > nb
			} else {
				sa, sb := texts[ia], texts[ib]
				less, greater = sa < sb, sa > sb
			}
			if desc {
				return greater
			}
			return less
		})
	}
	if key != "" && t.Select(key) {
		return
	}
	t.cursor = min(t.cursor, len(t.visible)-1)
	t.cursor = max(t.cursor, 0)
	t.clampOffset()
}

// numbersOf is column c's numeric sort values, made once per rows.
func (t *Table) numbersOf(c int) []float64 {
	if ns, ok := t.numbers[c]; ok {
		return ns
	}
	ns := make([]float64, t.rowCount())
	for i := range ns {
		ns[i] = leadingNumber(t.sortValue(i, c))
	}
	if t.numbers == nil {
		t.numbers = map[int][]float64{}
	}
	t.numbers[c] = ns
	return ns
}

func (t *Table) sortValue(row, col int) string {
	if t.sorts != nil {
		return t.sorts[row*len(t.columns)+col]
	}
	return t.plainCell(row, col)
}

// cell is a row's cell as kept.
func (t *Table) cell(row, col int) string { return t.cells[row*len(t.columns)+col] }

// plainCell is a cell without ANSI.
func (t *Table) plainCell(row, col int) string { return plain(t.cell(row, col)) }

// lowerOf is a row's cells in lower case, each ended by a NUL, for the filter.
func (t *Table) lowerOf(row int) string {
	if t.lower == nil {
		t.lower = make([]string, t.rowCount())
	}
	if t.lower[row] == "" {
		var sb strings.Builder
		for c := range t.columns {
			sb.WriteString(strings.ToLower(t.plainCell(row, c)))
			sb.WriteByte(0)
		}
		t.lower[row] = sb.String()
	}
	return t.lower[row]
}

// leadingNumber parses "1,234.50 USD", "12 GiB", "-3" as numbers; text sorts last.
func leadingNumber(s string) float64 {
	s = strings.TrimSpace(strings.ReplaceAll(s, ",", ""))
	end := 0
	for end < len(s) && (s[end] == '-' || s[end] == '.' || (s[end] >= '0' && s[end] <= '9')) {
		end++
	}
	f, err := strconv.ParseFloat(s[:end], 64)
	if err != nil {
		return -1 << 62
	}
	return f
}

// bodyHeight is the number of data rows that fit: height minus header and status line.
func (t *Table) bodyHeight() int { return max(1, t.height-2) }

func (t *Table) clampOffset() {
	h := t.bodyHeight()
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if t.cursor >= t.offset+h {
		t.offset = t.cursor - h + 1
	}
	t.offset = max(0, min(t.offset, len(t.visible)-h))
}

// Update handles the table's keys. It reports whether the key was used, so a view can
// fall through to its own bindings.
func (t *Table) Update(msg tea.Msg) (bool, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		if t.filtering {
			var cmd tea.Cmd
			t.filter, cmd = t.filter.Update(msg)
			return false, cmd
		}
		return false, nil
	}
	k := t.ctx.Keys
	if t.filtering {
		switch km.Type {
		case tea.KeyEsc:
			t.filtering = false
			t.filter.Blur()
			t.filter.SetValue("")
			t.rebuild(t.SelectedKey())
			return true, nil
		case tea.KeyEnter:
			t.filtering = false
			t.filter.Blur()
			return true, nil
		case tea.KeyUp, tea.KeyDown:
			// Let arrows move the cursor while typing a filter.
		default:
			before := t.filter.Value()
			var cmd tea.Cmd
			t.filter, cmd = t.filter.Update(msg)
			if t.filter.Value() != before {
				t.refilter()
			}
			return true, cmd
		}
	}
	n := len(t.visible)
	switch {
	case key.Matches(km, k.Up):
		t.cursor = max(0, t.cursor-1)
	case key.Matches(km, k.Down):
		t.cursor = max(0, min(n-1, t.cursor+1))
	case key.Matches(km, k.Top):
		t.cursor = 0
	case key.Matches(km, k.Bottom):
		t.cursor = max(0, n-1)
	case key.Matches(km, k.PgUp):
		t.cursor = max(0, t.cursor-t.bodyHeight())
	case key.Matches(km, k.PgDn):
		t.cursor = max(0, min(n-1, t.cursor+t.bodyHeight()))
	case key.Matches(km, k.Filter):
		t.filtering = true
		return true, t.filter.Focus()
	case key.Matches(km, k.Sort):
		next := t.nextSortColumn()
		t.SortBy(next, false)
	case key.Matches(km, k.SortReverse):
		c := t.sortCol
		if c < 0 {
			c = t.nextSortColumn()
		}
		t.SortBy(c, !t.sortDesc)
	case key.Matches(km, k.Back) && t.filter.Value() != "":
		t.SetFilter("")
	default:
		return false, nil
	}
	t.clampOffset()
	return true, nil
}

// nextSortColumn cycles through the shown columns, then back to the data order.
func (t *Table) nextSortColumn() int {
	var shown []int
	for _, c := range t.shownColumns() {
		if t.columns[c].Title != "" { // marker columns are not sort keys
			shown = append(shown, c)
		}
	}
	if len(shown) == 0 {
		return -1
	}
	if t.sortCol < 0 {
		return shown[0]
	}
	for i, c := range shown {
		if c == t.sortCol && i+1 < len(shown) {
			return shown[i+1]
		}
	}
	return -1
}

func (t *Table) shownColumns() []int {
	out := make([]int, 0, len(t.columns))
	compact := t.ctx.Compact()
	for i, c := range t.columns {
		if compact && c.Optional {
			continue
		}
		out = append(out, i)
	}
	if len(out) == 0 {
		out = append(out, 0)
	}
	return out
}

// layout returns the shown columns and their widths for the current width.
func (t *Table) layout() ([]int, []int) {
	shown := t.shownColumns()
	widths := make([]int, len(shown))
	const gap = 2
	avail := t.width - 2 // marker column
	total := 0
	for i, ci := range shown {
		c := t.columns[ci]
		m := c.Max
		if m == 0 {
			m = 40
		}
		w := 0
		if ci < len(t.contentMax) {
			w = min(t.contentMax[ci], m)
		}
		w = max(w, c.Width, ansi.StringWidth(c.Title)+2)
		widths[i] = w
		total += w + gap
	}
	total -= gap
	if extra := avail - total; extra > 0 {
		flex := 0
		for _, ci := range shown {
			if t.columns[ci].Flex {
				flex++
			}
		}
		for i, ci := range shown {
			if t.columns[ci].Flex {
				widths[i] += extra / flex
			}
		}
	} else if extra < 0 {
		// Shrink flex columns down to their minimum, then the last columns.
		for i := len(shown) - 1; i >= 0 && extra < 0; i-- {
			c := t.columns[shown[i]]
			floor := max(c.Width, ansi.StringWidth(c.Title), 4)
			cut := min(widths[i]-floor, -extra)
			if cut > 0 {
				widths[i] -= cut
				extra += cut
			}
		}
	}
	return shown, widths
}

// View renders the header, the rows in the window and a status line; never more than
// height lines.
func (t *Table) View() string {
	st := t.ctx.Styles
	h := max(1, t.height)
	lines := make([]string, 0, h)
	shown, widths := t.layout()

	// Header with the sort arrow on the sorted column.
	var hb strings.Builder
	hb.WriteString("  ")
	for i, ci := range shown {
		title := safe.Text(t.columns[ci].Title)
		if t.sorted && ci == t.sortCol {
			if t.sortDesc {
				title += " ↓"
			} else {
				title += " ↑"
			}
		}
		hb.WriteString(pad(title, widths[i], t.columns[ci].Right))
		if i < len(shown)-1 {
			hb.WriteString("  ")
		}
	}
	lines = append(lines, st.TableHeader.Render(ansi.Truncate(hb.String(), t.width, "…")))

	body := t.bodyHeight()
	switch {
	case t.Loading && t.rowCount() == 0:
		lines = append(lines, st.Muted.Render("  Loading…"))
	case t.Err != "" && t.rowCount() == 0:
		lines = append(lines, st.Danger.Render(ansi.Truncate("  ✗ "+safe.Text(t.Err), t.width, "…")))
		lines = append(lines, st.Muted.Render("  Press ctrl+r to retry."))
	case t.rowCount() == 0:
		lines = append(lines, st.Muted.Render(ansi.Truncate("  "+safe.Text(t.Empty), t.width, "…")))
	case len(t.visible) == 0:
		lines = append(lines, st.Muted.Render(ansi.Truncate("  No rows match “"+safe.Text(t.filter.Value())+"”. Press esc to clear the filter.", t.width, "…")))
	default:
		end := min(len(t.visible), t.offset+body)
		for vi := t.offset; vi < end; vi++ {
			lines = append(lines, t.renderRow(t.visible[vi], vi == t.cursor, shown, widths))
		}
	}
	for len(lines) < h-1 {
		lines = append(lines, "")
	}
	if len(lines) > h-1 {
		lines = lines[:max(0, h-1)]
	}
	if h > 1 {
		lines = append(lines, t.statusLine())
	}
	return strings.Join(lines, "\n")
}

func (t *Table) renderRow(ri int, selected bool, shown, widths []int) string {
	var b strings.Builder
	b.Grow(t.width + 16)
	for i, ci := range shown {
		cell := t.cell(ri, ci)
		if selected {
			// Selection is drawn with one style over plain text so colours inside cells
			// cannot cut the highlight.
			cell = t.plainCell(ri, ci)
		}
		b.WriteString(pad(cell, widths[i], t.columns[ci].Right))
		if i < len(shown)-1 {
			b.WriteString("  ")
		}
	}
	line := b.String()
	mark := " "
	if t.Marked != nil && t.Marked(t.keys[ri]) {
		mark = MarkGlyph
	}
	if selected {
		return t.ctx.Styles.Selected.Render(ansi.Truncate("›"+mark+line, t.width, "…"))
	}
	if mark != " " {
		return ansi.Truncate(" "+t.ctx.Styles.Bold.Render(mark)+line, t.width, "…")
	}
	return ansi.Truncate("  "+line, t.width, "…")
}

// statusLine shows position, filter and errors: "12/240 · /prod · sorted by name ↑".
func (t *Table) statusLine() string {
	st := t.ctx.Styles
	if t.filtering {
		return st.FilterPrompt.Render("") + t.filter.View()
	}
	parts := []string{}
	if len(t.visible) > 0 {
		parts = append(parts, strconv.Itoa(t.cursor+1)+"/"+strconv.Itoa(len(t.visible)))
	} else {
		parts = append(parts, "0/"+strconv.Itoa(t.rowCount()))
	}
	if f := t.filter.Value(); f != "" {
		parts = append(parts, "filter “"+safe.Text(f)+"” ("+strconv.Itoa(len(t.visible))+" of "+strconv.Itoa(t.rowCount())+")")
	}
	if t.sorted && t.sortCol < len(t.columns) {
		dir := "↑"
		if t.sortDesc {
			dir = "↓"
		}
		parts = append(parts, "sorted by "+strings.ToLower(t.columns[t.sortCol].Title)+" "+dir)
	}
	s := st.Muted.Render(strings.Join(parts, " · "))
	if t.Err != "" && t.rowCount() > 0 {
		s += "  " + st.Danger.Render("✗ "+safe.Text(t.Err))
	}
	return ansi.Truncate(s, t.width, "…")
}

// pad truncates or pads s to exactly w cells.
func pad(s string, w int, right bool) string {
	sw := ansi.StringWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	if right {
		return strings.Repeat(" ", w-sw) + s
	}
	return s + strings.Repeat(" ", w-sw)
}

// HelpBindings are the table's bindings for help.
func (t *Table) HelpBindings() []key.Binding { return t.ctx.Keys.Table() }
