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
// a table rebuilt for another mode and tab switches leave them.
type marks[T any] struct {
	items map[string]T
	order []string // marking order, which is the plan's order
}

func (m *marks[T]) has(k string) bool { _, ok := m.items[k]; return ok }

func (m *marks[T]) add(k string, it T) {
	if m.items == nil {
		m.items = map[string]T{}
	}
	if _, ok := m.items[k]; !ok {
		m.order = append(m.order, k)
	}
	m.items[k] = it
}

func (m *marks[T]) drop(k string) {
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

// markKey is the key marks use: the spec's MarkKey, else its Key.
func (l *List[T]) markKey(it T) string {
	if l.Spec.MarkKey != nil {
		return l.Spec.MarkKey(it)
	}
	return l.Spec.Key(it)
}

// rowMarked tells the table which rows to draw marked.
func (l *List[T]) rowMarked(rowKey string) bool {
	if len(l.marks.items) == 0 {
		return false
	}
	i, ok := l.indexOf(rowKey)
	return ok && l.marks.has(l.markKey(l.items[i]))
}

// MarkCount is how many rows are marked.
func (l *List[T]) MarkCount() int { return len(l.marks.order) }

// MarkedSuffix is what a title adds while rows are marked ("· 12 marked").
func (l *List[T]) MarkedSuffix() string {
	if n := l.MarkCount(); n > 0 {
		return fmt.Sprintf(" · %d marked", n)
	}
	return ""
}

// Marked lists the marked items and how many of them the filter hides.
func (l *List[T]) Marked() Marked[T] {
	shown := map[string]bool{}
	for _, k := range l.Table.ShownKeys() {
		if i, ok := l.indexOf(k); ok {
			shown[l.markKey(l.items[i])] = true
		}
	}
	out := Marked[T]{Items: make([]T, 0, len(l.marks.order)), Hidden: make([]bool, 0, len(l.marks.order))}
	for _, k := range l.marks.order {
		out.Items = append(out.Items, l.marks.items[k])
		out.Hidden = append(out.Hidden, !shown[k])
	}
	return out
}

// toggleMark marks or unmarks the row under the cursor and moves on to the next.
func (l *List[T]) toggleMark() tea.Cmd {
	it, ok := l.Selected()
	if !ok {
		return common.Warn("No " + l.noun() + " selected")
	}
	if k := l.markKey(it); l.marks.has(k) {
		l.marks.drop(k)
	} else {
		l.marks.add(k, it)
	}
	l.Table.Next()
	return nil
}

// markShown marks every row the filter shows, in the shown order.
func (l *List[T]) markShown() tea.Cmd {
	keys := l.Table.ShownKeys()
	for _, rk := range keys {
		if i, ok := l.indexOf(rk); ok {
			l.marks.add(l.markKey(l.items[i]), l.items[i])
		}
	}
	return common.Info(fmt.Sprintf("Marked the %d %s shown; %d marked in all", len(keys), plural(len(keys), l.noun()), l.MarkCount()))
}

// unmark clears every mark.
func (l *List[T]) unmark() tea.Cmd {
	n := l.MarkCount()
	l.marks = marks[T]{}
	if n == 0 {
		return common.Info("Nothing is marked")
	}
	return common.Info(fmt.Sprintf("Unmarked %d %s", n, plural(n, l.noun())))
}

// refreshMarks keeps the marked items as last loaded, and drops the marks of items a
// whole load no longer has (within the load's scope: marks of another project stay
// while one project is shown), saying which.
func (l *List[T]) refreshMarks(items []T, whole bool) tea.Cmd {
	if len(l.marks.order) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(l.marks.order))
	for _, it := range items {
		if k := l.markKey(it); l.marks.has(k) {
			l.marks.items[k] = it
			seen[k] = true
		}
	}
	if !whole {
		return nil
	}
	var gone []string
	for _, k := range append([]string(nil), l.marks.order...) {
		if seen[k] || (l.Spec.InScope != nil && !l.Spec.InScope(l.marks.items[k])) {
			continue
		}
		l.marks.drop(k)
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
		plural(len(gone), l.noun()), strings.Join(gone, ", "), what, wasWere(len(gone)), l.MarkCount()))
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

// export writes every row the filter shows, in a command.
func (l *List[T]) export(msg common.Export) tea.Cmd {
	return ExportTable(l.Table, msg, l.noun())
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
func (l *List[T]) handleMarks(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case common.Unmark:
		return l.unmark(), true
	case common.Export:
		return l.export(msg), true
	case tea.KeyMsg:
		k := l.Ctx.Keys
		switch {
		case key.Matches(msg, k.Mark):
			return l.toggleMark(), true
		case key.Matches(msg, k.MarkAll):
			return l.markShown(), true
		}
		if l.MarkCount() == 0 {
			return nil, false
		}
		// A change with rows marked is for the marked rows, never only the one under
		// the cursor (k9s deletes marked rows the filter hides; this asks first).
		if a, _, ok := match(l.Ctx, l.Spec.Actions, msg); ok {
			if a.Many != nil {
				return a.Many(l.Marked()), true
			}
			if mutating(l.Ctx, a) {
				return common.Warn(fmt.Sprintf("“%s” does not apply to marked %ss here; :unmark to use it on the row under the cursor",
					msg.String(), l.noun())), true
			}
		}
	}
	return nil, false
}
