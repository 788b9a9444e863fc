package query

import "github.com/svcui/svcui/internal/sandbox/opensearch/index"

// Matches is the result of a query over one index: matching slots and, when scoring, their scores.
type Matches struct {
	Bits  []uint64
	score []float32 // nil: every match scores `konst`
	konst float32
}

func newMatches(ix *index.Index) *Matches {
	return &Matches{Bits: make([]uint64, (len(ix.Docs)+63)/64)}
}

func (m *Matches) set(slot int32) { m.Bits[slot>>6] |= 1 << (uint(slot) & 63) }

// Has tells whether a slot matched.
func (m *Matches) Has(slot int32) bool {
	w := int(slot) >> 6
	return w < len(m.Bits) && m.Bits[w]&(1<<(uint(slot)&63)) != 0
}

// ScoreOf is a matching slot's score.
func (m *Matches) ScoreOf(slot int32) float32 {
	if m.score == nil {
		return m.konst
	}
	return m.score[slot]
}

func constSet(ix *index.Index, boost float64) *Matches {
	m := newMatches(ix)
	m.konst = float32(boost)
	return m
}

// AndBits is the intersection of two slot sets (a query's matches and an index's live slots).
func AndBits(a, b []uint64) []uint64 {
	out := make([]uint64, len(a))
	for i := range a {
		out[i] = a[i] & b[i]
	}
	return out
}
