package search

import "encoding/json"

// MergeHits is a's hits followed by b's, the columns united (a's order first, then the
// ones only b has), keeping the last keep rows; neither input is changed. A live tail
// shapes only what arrived and merges it, instead of shaping its whole buffer again.
func MergeHits(a, b *HitsTable, keep int) *HitsTable {
	if a == nil {
		a = &HitsTable{}
	}
	if b == nil {
		b = &HitsTable{}
	}
	cols := append([]string(nil), a.Columns...)
	at := make(map[string]int, len(cols))
	for i, c := range cols {
		at[c] = i
	}
	remap := make([]int, len(b.Columns))
	for i, c := range b.Columns {
		j, ok := at[c]
		if !ok {
			j = len(cols)
			cols = append(cols, c)
			at[c] = j
		}
		remap[i] = j
	}
	n := len(a.Rows) + len(b.Rows)
	drop := max(0, n-keep)
	rows := make([][]string, 0, n-drop)
	hits := make([]json.RawMessage, 0, n-drop)
	for i := drop; i < len(a.Rows); i++ {
		r := a.Rows[i]
		if len(r) < len(cols) {
			wide := make([]string, len(cols))
			copy(wide, r)
			r = wide
		}
		rows = append(rows, r)
		hits = append(hits, a.Hits[i])
	}
	for i, r := range b.Rows {
		if len(a.Rows)+i < drop {
			continue
		}
		out := make([]string, len(cols))
		for j, v := range r {
			out[remap[j]] = v
		}
		rows = append(rows, out)
		hits = append(hits, b.Hits[i])
	}
	total := int64(len(rows))
	last := b.LastSort
	if len(b.Rows) == 0 {
		last = a.LastSort
	}
	return &HitsTable{Columns: cols, Rows: rows, Hits: hits, Total: &total, TotalRelation: "eq", LastSort: last}
}
