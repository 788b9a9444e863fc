package query

import (
	"math"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
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

func weights(t *index.TextIndex, term string, boost float64) (termWeights, bool) {
	df := int64(t.DocFreq[term])
	if df == 0 || t.DocCount == 0 {
		return termWeights{}, false
	}
	return termWeights{idf: idf(t.DocCount, df), avgdl: float64(t.SumLen) / float64(t.DocCount), boost: boost}, true
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
