package search

import "encoding/json"

// MergeHits is a's hits followed by b's, the columns united (a's order first, then the
// ones only b has), keeping the last keep rows; neither input is changed. A live tail
// shapes only what arrived and merges it, instead of shaping its whole buffer again.
func MergeHits(a, b *HitsTable, keep int) *HitsTable { return InterleaveHits(a, b, nil, keep) }

// InterleaveHits is MergeHits with b's rows placed among a's: fromB[i] says whether row
// i of the result is b's next row (true) or a's (false); nil puts all of b after a. A
// live tail inserts a late document where its time belongs this way. The first rows
// go when there are more than keep.
func InterleaveHits(a, b *HitsTable, fromB []bool, keep int) *HitsTable {
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
	if fromB == nil {
		fromB = make([]bool, n)
		for i := len(a.Rows); i < n; i++ {
			fromB[i] = true
		}
	}
	drop := max(0, n-keep)
	rows := make([][]string, 0, n-drop)
	hits := make([]json.RawMessage, 0, n-drop)
	ia, ib := 0, 0
	for i := 0; i < n && i < len(fromB); i++ {
		if fromB[i] && ib < len(b.Rows) {
			if i >= drop {
				out := make([]string, len(cols))
				for j, v := range b.Rows[ib] {
					out[remap[j]] = v
				}
				rows = append(rows, out)
				hits = append(hits, b.Hits[ib])
			}
			ib++
			continue
		}
		if ia >= len(a.Rows) {
			continue
		}
		if i >= drop {
			r := a.Rows[ia]
			if len(r) < len(cols) {
				wide := make([]string, len(cols))
				copy(wide, r)
				r = wide
			}
			rows = append(rows, r)
			hits = append(hits, a.Hits[ia])
		}
		ia++
	}
	total := int64(len(rows))
	last := b.LastSort
	if len(b.Rows) == 0 {
		last = a.LastSort
	}
	return &HitsTable{Columns: cols, Rows: rows, Hits: hits, Total: &total, TotalRelation: "eq", LastSort: last}
}
