package components

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	btable "github.com/evertras/bubble-table/table"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

func testCtx() *common.Context {
	c := uitest.NewContext()
	c.Styles = theme.New(theme.Dark, true)
	c.ScreenWidth, c.ScreenHeight = 160, 50
	return c
}

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func typeText(t *Table, s string) {
	for _, r := range s {
		t.Update(keyMsg(string(r)))
	}
}

func rows(n int) []Row {
	out := make([]Row, n)
	for i := range out {
		name := fmt.Sprintf("svc-%06d", i)
		out[i] = Row{Key: name, Cells: []string{name, []string{"pg", "kafka", "mysql"}[i%3], fmt.Sprintf("%d.50 USD", (n-i)*3), "RUNNING"}}
	}
	return out
}

func newTestTable(n, w, h int) *Table {
	t := NewTable(testCtx(), []Column{{Title: "Name", Flex: true}, {Title: "Type"}, {Title: "Cost", Right: true, Numeric: true}, {Title: "State", Optional: true}})
	t.SetSize(w, h)
	t.SetRows(rows(n))
	return t
}

func TestTableNeverExceedsHeightAndRendersOnlyWindow(t *testing.T) {
	for _, h := range []int{1, 2, 3, 10, 40} {
		tb := newTestTable(1000, 100, h)
		out := tb.View()
		if n := strings.Count(out, "\n") + 1; n > h {
			t.Errorf("height %d: %d lines", h, n)
		}
		for _, l := range strings.Split(out, "\n") {
			if ansi.StringWidth(l) > 100 {
				t.Errorf("line wider than 100: %q", l)
			}
		}
	}
	tb := newTestTable(1000, 100, 10)
	out := tb.View()
	if !strings.Contains(out, "svc-000000") || strings.Contains(out, "svc-000008") {
		t.Errorf("window should hold rows 0..7 only:\n%s", out)
	}
	tb.Update(keyMsg("G"))
	out = tb.View()
	if !strings.Contains(out, "› svc-000999") || strings.Contains(out, "svc-000000") {
		t.Errorf("after G:\n%s", out)
	}
	if !strings.Contains(out, "1000/1000") {
		t.Errorf("status line should show position:\n%s", out)
	}
}

func TestTableFilterSortAndCursorByKey(t *testing.T) {
	tb := newTestTable(30, 120, 20)
	tb.Update(keyMsg("j"))
	tb.Update(keyMsg("j"))
	if tb.SelectedKey() != "svc-000002" {
		t.Fatalf("cursor at %q", tb.SelectedKey())
	}
	// Sort by name descending keeps the cursor on the same row.
	tb.Update(keyMsg("s"))
	tb.Update(keyMsg("S"))
	if c, desc := tb.SortState(); c != 0 || !desc {
		t.Fatalf("sort state %d %v", c, desc)
	}
	if tb.SelectedKey() != "svc-000002" || tb.Cursor() != 27 {
		t.Fatalf("after sort: %q at %d", tb.SelectedKey(), tb.Cursor())
	}
	// Numeric sort on the cost column: 90.50 < 87.50 reversed properly, not as text.
	tb.SortBy(2, false)
	if tb.keys[tb.visible[0]] != "svc-000029" {
		t.Errorf("numeric sort first = %q", tb.keys[tb.visible[0]])
	}
	// Filter: / captures, typed text filters, the cursor goes to the first match.
	tb.Update(keyMsg("/"))
	if !tb.Filtering() {
		t.Fatal("/ should focus the filter")
	}
	typeText(tb, "00000")
	if tb.Len() != 10 || tb.Cursor() != 0 || tb.SelectedKey() != tb.keys[tb.visible[0]] {
		t.Fatalf("filter: %d rows, cursor %d on %q", tb.Len(), tb.Cursor(), tb.SelectedKey())
	}
	tb.Select("svc-000002")
	tb.Update(keyMsg("enter"))
	if tb.Filtering() || tb.FilterText() != "00000" {
		t.Fatal("enter should keep the filter and leave the input")
	}
	// A refresh with a row removed and rows reordered keeps the cursor on the key.
	rs := rows(30)
	rs = append(rs[:1], rs[3:]...)
	rs = append([]Row{rs[len(rs)-1]}, rs...)
	tb.SetRows(append(rs, rows(30)[2]))
	if tb.SelectedKey() != "svc-000002" {
		t.Fatalf("after refresh: %q", tb.SelectedKey())
	}
	// esc clears the applied filter.
	tb.Update(keyMsg("esc"))
	if tb.FilterText() != "" || tb.Len() != 30 {
		t.Fatalf("esc: filter %q, %d rows", tb.FilterText(), tb.Len())
	}
	// No match shows a sentence, not an empty screen.
	tb.SetFilter("zzz")
	if !strings.Contains(tb.View(), "No rows match") {
		t.Error("no-match sentence missing")
	}
}

// Filtering lands on the first match whichever row was selected (the last row in
// :log and Services): enter then opens what the filter found first.
func TestTableFilterPutsCursorOnFirstMatch(t *testing.T) {
	tb := newTestTable(120, 120, 20)
	tb.Update(keyMsg("G"))
	if tb.Cursor() != 119 {
		t.Fatalf("G: cursor %d", tb.Cursor())
	}
	tb.Update(keyMsg("/"))
	typeText(tb, "kafka")
	if tb.Cursor() != 0 || tb.SelectedKey() != "svc-000001" {
		t.Fatalf("typed filter: cursor %d on %q, want the first match svc-000001", tb.Cursor(), tb.SelectedKey())
	}
	tb.Update(keyMsg("enter"))
	tb.Update(keyMsg("G"))
	tb.SetFilter("mysql")
	if tb.SelectedKey() != "svc-000002" {
		t.Fatalf("SetFilter: cursor on %q, want svc-000002", tb.SelectedKey())
	}
	// Clearing the filter keeps the row the filter found.
	tb.SetFilter("")
	if tb.SelectedKey() != "svc-000002" {
		t.Fatalf("cleared: cursor on %q", tb.SelectedKey())
	}
}

func TestTableStates(t *testing.T) {
	tb := NewTable(testCtx(), []Column{{Title: "Name"}})
	tb.SetSize(80, 10)
	if !strings.Contains(tb.View(), "Loading") {
		t.Error("loading state")
	}
	tb.SetError("connection refused")
	if !strings.Contains(tb.View(), "connection refused") {
		t.Error("error state")
	}
	tb.Empty = "No services in acme-prod. Press c to create one."
	tb.SetRows(nil)
	if !strings.Contains(tb.View(), "No services in acme-prod") {
		t.Error("empty state")
	}
	if tb.SelectedKey() != "" {
		t.Error("empty table has no selection")
	}
	// Keys on an empty table do not panic.
	for _, k := range []string{"j", "k", "G", "g", "s", "S", "enter"} {
		tb.Update(keyMsg(k))
	}
}

func TestTableCompactHidesOptionalColumns(t *testing.T) {
	tb := newTestTable(5, 100, 10)
	tb.ctx.ScreenWidth = 100
	if strings.Contains(tb.View(), "State") {
		t.Error("optional column shown in compact layout")
	}
	tb.ctx.ScreenWidth = 160
	tb.SetSize(160, 10)
	if !strings.Contains(tb.View(), "State") {
		t.Error("optional column hidden in wide layout")
	}
}

func benchView(b *testing.B, n int) {
	tb := newTestTable(n, 160, 40)
	tb.Update(keyMsg("j"))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = tb.View()
	}
}

func BenchmarkTableView100(b *testing.B)    { benchView(b, 100) }
func BenchmarkTableView10000(b *testing.B)  { benchView(b, 10000) }
func BenchmarkTableView100000(b *testing.B) { benchView(b, 100000) }

func BenchmarkTableKeyPress10000(b *testing.B) {
	tb := newTestTable(10000, 160, 40)
	down, up := keyMsg("j"), keyMsg("k")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			tb.Update(down)
		} else {
			tb.Update(up)
		}
	}
}

// bubbleTable10000 builds evertras/bubble-table v0.19.2 over the same 10,000 rows.
func bubbleTable10000() btable.Model {
	cols := []btable.Column{btable.NewFlexColumn("name", "Name", 1), btable.NewColumn("type", "Type", 8),
		btable.NewColumn("cost", "Cost", 14), btable.NewColumn("state", "State", 10)}
	rs := rows(10000)
	brows := make([]btable.Row, len(rs))
	for i, r := range rs {
		brows[i] = btable.NewRow(btable.RowData{"name": r.Cells[0], "type": r.Cells[1], "cost": r.Cells[2], "state": r.Cells[3]})
	}
	return btable.New(cols).WithRows(brows).WithPageSize(38).WithTargetWidth(160).Filtered(true).SortByAsc("name").Focused(true)
}

// BenchmarkBubbleTableView10000 measures bubble-table's View with its visible-row cache
// empty, as right after rows, filter or sort change: it filters and sorts every row.
func BenchmarkBubbleTableView10000(b *testing.B) {
	m := bubbleTable10000()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.View()
	}
}

// BenchmarkBubbleTableView10000CacheFilled measures the steady state: v0.19.2 caches the
// filtered, sorted rows (GetVisibleRows fills the cache; Update keeps it), and View then
// only renders the page. See table.go for what this means for the choice.
func BenchmarkBubbleTableView10000CacheFilled(b *testing.B) {
	m := bubbleTable10000()
	m.GetVisibleRows()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.View()
	}
}

func TestNoColorHuhThemeHasNoColour(t *testing.T) {
	th := HuhTheme(theme.New(theme.Dark, true))
	for _, fs := range []huh.FieldStyles{th.Focused, th.Blurred} {
		for _, st := range []lipgloss.Style{fs.FocusedButton, fs.BlurredButton, fs.TextInput.Placeholder} {
			if _, ok := st.GetForeground().(lipgloss.NoColor); !ok {
				t.Errorf("foreground colour left: %v", st.GetForeground())
			}
			if _, ok := st.GetBackground().(lipgloss.NoColor); !ok {
				t.Errorf("background colour left: %v", st.GetBackground())
			}
		}
	}
}
