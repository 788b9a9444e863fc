package base

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/fleet"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/theme"
)

// marks are the rows a person marked (space, ctrl+a), by mark key, each with the item
// as last loaded. They belong to the view, not to the table: filters, sorts, refreshes,
// a table rebuilt for another mode and tab switches leave them. The items are kept
// untyped so this code is compiled once; Marked gives them back typed.
type marks struct {
	items map[string]any
	order []string // marking order, which is the plan's order
}

func (m *marks) has(k string) bool { _, ok := m.items[k]; return ok }

func (m *marks) add(k string, it any) {
	if m.items == nil {
		m.items = map[string]any{}
	}
	if _, ok := m.items[k]; !ok {
		m.order = append(m.order, k)
	}
	m.items[k] = it
}

func (m *marks) drop(k string) {
	if _, ok := m.items[k]; !ok {
		return
	}
	delete(m.items, k)
	for i, o := range m.order {
		if o == k {
			m.order = append(m.order[:i], m.order[i+1:]...)
			break
		}
	}
}

// Marked is what a bulk action gets: the marked items in marking order, and for each
// whether the current filter (or mode) does not show it.
type Marked[T any] struct {
	Items  []T
	Hidden []bool
}

// HiddenCount is how many marked items the filter does not show.
func (m Marked[T]) HiddenCount() int {
	n := 0
	for _, h := range m.Hidden {
		if h {
			n++
		}
	}
	return n
}

// rowMarked tells the table which rows to draw marked.
func (c *listCore) rowMarked(rowKey string) bool {
	if len(c.marks.items) == 0 {
		return false
	}
	i, ok := c.indexOf(rowKey)
	return ok && c.marks.has(c.typed.keyAt(i, true))
}

// MarkCount is how many rows are marked.
func (c *listCore) MarkCount() int { return len(c.marks.order) }

// MarkedSuffix is what a title adds while rows are marked ("· 12 marked").
func (c *listCore) MarkedSuffix() string {
	if n := c.MarkCount(); n > 0 {
		return fmt.Sprintf(" · %d marked", n)
	}
	return ""
}

// Marked lists the marked items and how many of them the filter hides.
func (l *List[T]) Marked() Marked[T] {
	items, hidden := l.marked()
	out := Marked[T]{Items: make([]T, len(items)), Hidden: hidden}
	for i, it := range items {
		out.Items[i] = it.(T)
	}
	return out
}

// marked is the marked items in marking order and whether the filter hides each.
func (c *listCore) marked() ([]any, []bool) {
	shown := map[string]bool{}
	for _, k := range c.Table.ShownKeys() {
		if i, ok := c.indexOf(k); ok {
			shown[c.typed.keyAt(i, true)] = true
		}
	}
	items, hidden := make([]any, 0, len(c.marks.order)), make([]bool, 0, len(c.marks.order))
	for _, k := range c.marks.order {
		items = append(items, c.marks.items[k])
		hidden = append(hidden, !shown[k])
	}
	return items, hidden
}

// toggleMark marks or unmarks the row under the cursor and moves on to the next.
func (c *listCore) toggleMark() tea.Cmd {
	i, ok := c.selected()
	if !ok {
		return common.Warn("No " + c.noun() + " selected")
	}
	if k := c.typed.keyAt(i, true); c.marks.has(k) {
		c.marks.drop(k)
	} else {
		c.marks.add(k, c.typed.itemAt(i))
	}
	c.Table.Next()
	return nil
}

// markShown marks every row the filter shows, in the shown order.
func (c *listCore) markShown() tea.Cmd {
	keys := c.Table.ShownKeys()
	for _, rk := range keys {
		if i, ok := c.indexOf(rk); ok {
			c.marks.add(c.typed.keyAt(i, true), c.typed.itemAt(i))
		}
	}
	return common.Info(fmt.Sprintf("Marked the %d %s shown; %d marked in all", len(keys), plural(len(keys), c.noun()), c.MarkCount()))
}

// unmark clears every mark.
func (c *listCore) unmark() tea.Cmd {
	n := c.MarkCount()
	c.marks = marks{}
	if n == 0 {
		return common.Info("Nothing is marked")
	}
	return common.Info(fmt.Sprintf("Unmarked %d %s", n, plural(n, c.noun())))
}

// refreshMarks keeps the marked items as last loaded, and drops the marks of items a
// whole load no longer has (within the load's scope: marks of another project stay
// while one project is shown), saying which.
func (c *listCore) refreshMarks(whole bool) tea.Cmd {
	if len(c.marks.order) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(c.marks.order))
	for i, n := 0, c.n; i < n; i++ {
		if k := c.typed.keyAt(i, true); c.marks.has(k) {
			c.marks.items[k] = c.typed.itemAt(i)
			seen[k] = true
		}
	}
	if !whole {
		return nil
	}
	var gone []string
	for _, k := range append([]string(nil), c.marks.order...) {
		if seen[k] || c.typed.outOfScope(c.marks.items[k]) {
			continue
		}
		c.marks.drop(k)
		gone = append(gone, k)
	}
	if len(gone) == 0 {
		return nil
	}
	what := "no longer exists"
	if len(gone) > 1 {
		what = "no longer exist"
	}
	return common.Warn(fmt.Sprintf("Marked %s %s %s and %s unmarked; %d marked now",
		plural(len(gone), c.noun()), strings.Join(gone, ", "), what, wasWere(len(gone)), c.MarkCount()))
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// HoldsTable makes every list common.Tabular: :export and :unmark are its.
func (*listCore) HoldsTable() {}

// export writes every row the filter shows, in a command.
func (c *listCore) export(msg common.Export) tea.Cmd {
	return ExportTable(c.Table, msg, c.noun())
}

// ExportTable writes every row t's filter shows (every column, plain text) as msg asks,
// in a command: the cells are copied here, the file (mode 0600) is written there, and
// the count is said. Any view that shows a components.Table exports through it.
func ExportTable(t *components.Table, msg common.Export, noun string) tea.Cmd {
	ft := fleet.Table{Titles: t.Titles(), Rows: t.ShownCells()}
	enc := fleet.EncodeCSV
	if msg.Format == common.ExportJSON {
		enc = fleet.EncodeJSON
	}
	file, n, noun := msg.File, len(ft.Rows), plural(len(ft.Rows), noun)
	return func() tea.Msg {
		data, err := enc(ft)
		if err == nil {
			err = fleet.WritePrivate(file, data)
		}
		if err != nil {
			return common.Notify{Level: theme.LevelError, Text: "Could not export to " + file + ": " + err.Error()}
		}
		return common.Notify{Level: theme.LevelSuccess, Text: fmt.Sprintf("Exported %d %s to %s (%s, mode 0600)", n, noun, file, msg.Format)}
	}
}

// handleMarks takes the marking keys and the marks' and export's commands; handled
// reports that msg was one.
func (c *listCore) handleMarks(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case common.Unmark:
		return c.unmark(), true
	case common.Export:
		return c.export(msg), true
	case tea.KeyMsg:
		k := c.Ctx.Keys
		switch {
		case key.Matches(msg, k.Mark):
			return c.toggleMark(), true
		case key.Matches(msg, k.MarkAll):
			return c.markShown(), true
		}
		if c.MarkCount() == 0 {
			return nil, false
		}
		// A change with rows marked is for the marked rows, never only the one under
		// the cursor (k9s deletes marked rows the filter hides; this asks first).
		as := c.typed.actions()
		if i, _, ok := match(c.Ctx, as, msg); ok {
			if as[i].many {
				return c.typed.run(i, true), true
			}
			if as[i].Mutating {
				return common.Warn(fmt.Sprintf("“%s” does not apply to marked %ss here; :unmark to use it on the row under the cursor",
					msg.String(), c.noun())), true
			}
		}
	}
	return nil, false
}
