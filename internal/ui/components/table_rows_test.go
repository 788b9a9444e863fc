package components

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// A refill keeps the new rows in the previous rows' storage (two sets of rows of a
// large list were the peak of its memory), and a cell set alone is made safe like
// every other outside text.
func TestRefillKeepsRowsInThePreviousRowsPlace(t *testing.T) {
	tb := NewTable(testCtx(), []Column{{Title: "Name"}, {Title: "Note"}})
	tb.SetSize(80, 10)
	names := []string{"a", "b", "c"}
	fill := func(order ...int) {
		tb.Refill(len(order), func(i int) Row {
			n := names[order[i]]
			return Row{Key: n, Cells: []string{n, "note " + n}}
		})
	}
	fill(0, 1, 2)
	before := &tb.cells[0]
	fill(2, 1, 0)
	if &tb.cells[0] != before {
		t.Fatal("the refill's rows were kept in new storage beside the previous ones")
	}
	if got := fmt.Sprint(tb.ShownKeys(), tb.ShownCells()); got != "[c b a] [[c note c] [b note b] [a note a]]" {
		t.Fatalf("rows after the refill: %s", got)
	}
	tb.SetCell(1, 1, "\x1b]52;c;aGk=\x07copied")
	if got := tb.ShownCells()[1][1]; strings.ContainsRune(got, 0x1b) || !strings.HasSuffix(got, "copied") {
		t.Fatalf("a cell set alone was kept as %q", got)
	}
	tb.SetCell(3, 0, "out of range")
	tb.SetCell(0, 2, "out of range")
}

// A row costs the table its key and its cells' headers, nothing per row besides: the
// rows of 80,000 projects were 272 bytes each (a Row, its cells, an index entry), 21 MB
// before their text.
func TestATableRowCostsItsKeyAndCells(t *testing.T) {
	cols := make([]Column, 8)
	for i := range cols {
		cols[i].Title = fmt.Sprint("c", i)
	}
	const n = 50_000
	texts := make([]string, n)
	for i := range texts {
		texts[i] = fmt.Sprintf("project-%06d", i)
	}
	tb := NewTable(testCtx(), cols)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tb.Refill(n, func(i int) Row {
		s := texts[i]
		return Row{Key: s, Cells: []string{s, s, s, s, s, s, s, s}}
	})
	runtime.GC()
	runtime.ReadMemStats(&after)
	perRow := (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / n
	runtime.KeepAlive(tb)
	t.Logf("%.0f bytes a row", perRow)
	// 16 for the key, 8×16 for the cells, 8 for the shown index.
	if perRow > 180 {
		t.Errorf("a row of 8 cells costs the table %.0f bytes", perRow)
	}
}

// A row's cells are copied as it is made, so a list may make every row in one slice (the
// projects list does: a slice per row was 10 MB of garbage at every refresh of 80,000
// projects, at its peak).
func TestRowsMadeInOneSliceStayApart(t *testing.T) {
	tb := NewTable(testCtx(), []Column{{Title: "Name"}, {Title: "Note"}})
	tb.SetSize(80, 10)
	var cells []string
	tb.Refill(3, func(i int) Row {
		n := string(rune('a' + i))
		cells = append(cells[:0], n, "note "+n)
		return Row{Key: n, Cells: cells}
	})
	if got := fmt.Sprint(tb.ShownCells()); got != "[[a note a] [b note b] [c note c]]" {
		t.Fatalf("rows made in one slice: %s", got)
	}
}
