package components

// MarkGlyph is drawn in the marker column of a marked row.
const MarkGlyph = "*"

// ShownKeys are the keys of the rows the filter shows, in the shown order (not only
// those in the window): what ctrl+a marks and what an export writes.
func (t *Table) ShownKeys() []string {
	out := make([]string, len(t.visible))
	for i, ri := range t.visible {
		out[i] = t.keys[ri]
	}
	return out
}

// Titles are every column's title, in order.
func (t *Table) Titles() []string {
	out := make([]string, len(t.columns))
	for i, c := range t.columns {
		out[i] = c.Title
	}
	return out
}

// ShownCells are the plain cells (no styling) of every row the filter shows, in the
// shown order, every column: the table as an export writes it.
func (t *Table) ShownCells() [][]string {
	out := make([][]string, len(t.visible))
	for i, ri := range t.visible {
		row := make([]string, len(t.columns))
		for c := range row {
			row[c] = t.plainCell(ri, c)
		}
		out[i] = row
	}
	return out
}

// Next moves the cursor one row down (space marks a row and goes on to the next).
func (t *Table) Next() {
	t.cursor = max(0, min(len(t.visible)-1, t.cursor+1))
	t.clampOffset()
}
