package opensearch

import (
	"math"

	"github.com/svcui/svcui/internal/jsonval"
)

// BM25 parameters of the engine's default similarity.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// idf is Lucene's BM25 inverse document frequency.
func idf(docCount, df int64) float64 {
	return math.Log(1 + (float64(docCount)-float64(df)+0.5)/(float64(df)+0.5))
}

// termWeights precomputes what scoring one term over one text field needs.
type termWeights struct {
	idf   float64
	avgdl float64
	boost float64
}

func (t *textIndex) weights(term string, boost float64) (termWeights, bool) {
	df := int64(t.df[term])
	if df == 0 || t.docCount == 0 {
		return termWeights{}, false
	}
	return termWeights{idf: idf(t.docCount, df), avgdl: float64(t.sumLen) / float64(t.docCount), boost: boost}, true
}

// score is BM25 as in Lucene 9: idf * tf / (tf + k1 * (1 - b + b * dl / avgdl)), times boost.
func (w termWeights) score(tf, dl int32) float64 {
	avg := w.avgdl
	if avg == 0 {
		avg = 1
	}
	norm := bm25K1 * (1 - bm25B + bm25B*float64(dl)/avg)
	return w.boost * w.idf * float64(tf) / (float64(tf) + norm)
}

// mset is the result of a query over one index: matching slots and, when scoring, their scores.
type mset struct {
	bits  []uint64
	score []float32 // nil: every match scores `konst`
	konst float32
}

func newMset(ix *index) *mset {
	return &mset{bits: make([]uint64, (len(ix.docs)+63)/64)}
}

func (m *mset) set(slot int32) { m.bits[slot>>6] |= 1 << (uint(slot) & 63) }

func (m *mset) has(slot int32) bool {
	w := int(slot) >> 6
	return w < len(m.bits) && m.bits[w]&(1<<(uint(slot)&63)) != 0
}

func (m *mset) scoreOf(slot int32) float32 {
	if m.score == nil {
		return m.konst
	}
	return m.score[slot]
}

func constSet(ix *index, boost float64) *mset {
	m := newMset(ix)
	m.konst = float32(boost)
	return m
}

// fieldBoost parses "title^3".
func fieldBoost(spec string) (string, float64) {
	for i := len(spec) - 1; i > 0; i-- {
		if spec[i] == '^' {
			if f, ok := jsonval.Float(spec[i+1:]); ok {
				return spec[:i], f
			}
			break
		}
	}
	return spec, 1
}

// editDistance is the optimal-string-alignment distance (Lucene's fuzzy query counts a
// transposition as one edit), returning max+1 as soon as it must exceed max.
func editDistance(a, b string, max int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > max || -d > max {
		return max + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// fuzzyEdits resolves a fuzziness setting for a term.
func fuzzyEdits(fuzz any, term string) int {
	if fuzz == nil {
		return 0
	}
	s, _ := jsonval.String(fuzz)
	n := len([]rune(term))
	switch {
	case s == "AUTO" || s == "auto" || len(s) > 4 && (s[:5] == "AUTO:" || s[:5] == "auto:"):
		lo, hi := 3, 6
		if len(s) > 5 {
			var a, b int
			if _, err := fmtSscanf(s[5:], &a, &b); err == nil {
				lo, hi = a, b
			}
		}
		switch {
		case n < lo:
			return 0
		case n < hi:
			return 1
		}
		return 2
	}
	if v, ok := asInt(s); ok && v >= 0 {
		return min(v, 2)
	}
	return 0
}
