package aggs

import (
	"maps"
	"math"
	"slices"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// histogramParams are a histogram aggregation's own parameters.
type histogramParams struct {
	interval, offset float64
	minCount         int
	// extended_bounds, when given as numbers
	extMin, extMax       float64
	hasExtMin, hasExtMax bool
}

func parseHistogram(sp *Spec, p map[string]any) (histogramParams, *apierr.Error) {
	hp := histogramParams{minCount: sp.Common.minCount(0)}
	interval, ok := jsonval.Float(p["interval"])
	if !ok {
		return hp, apierr.BadRequest("[interval] must be specified for histogram aggregation [%s]", sp.Name)
	}
	if interval <= 0 || math.IsNaN(interval) || math.IsInf(interval, 0) {
		return hp, apierr.BadRequest("[interval] must be >0 for histogram aggregation [%s]", sp.Name)
	}
	hp.interval = interval
	hp.offset, _ = jsonval.Float(p["offset"])
	if eb, ok := p["extended_bounds"].(map[string]any); ok {
		hp.extMin, hp.hasExtMin = jsonval.Float(eb["min"])
		hp.extMax, hp.hasExtMax = jsonval.Float(eb["max"])
	}
	return hp, nil
}

func (hp histogramParams) run(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	interval, offset, minCount := hp.interval, hp.offset, hp.minCount
	keyOf := func(v float64) float64 { return math.Floor((v-offset)/interval)*interval + offset }
	keep := len(sp.Subs) > 0
	buckets := map[float64]*bucket{}
	err := fieldSegments(segs, sp, true, func(seg index.Segment, _ *index.FieldDef, col *index.Column) *apierr.Error {
		for _, s := range seg.Slots {
			addPerDistinctKey(buckets, col.NumAt(s), keyOf, seg.Index, s, keep)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys := slices.Sorted(maps.Keys(buckets))
	if minCount == 0 {
		lo, hi := math.Inf(1), math.Inf(-1)
		if len(keys) > 0 {
			lo, hi = keys[0], keys[len(keys)-1]
		}
		if hp.hasExtMin {
			lo = math.Min(lo, keyOf(hp.extMin))
		}
		if hp.hasExtMax {
			hi = math.Max(hi, keyOf(hp.extMax))
		}
		if !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
			n := (hi-lo)/interval + 1
			if n > MaxBuckets {
				return nil, ctx.addBuckets(int(math.Min(n, 1e9)))
			}
			keys = keys[:0]
			for i := 0; float64(i) < n; i++ {
				keys = append(keys, lo+float64(i)*interval)
			}
		}
	}
	if err := ctx.addBuckets(len(keys)); err != nil {
		return nil, err
	}
	out := make([]jsonout.Obj, 0, len(keys))
	for _, k := range keys {
		b := buckets[k]
		if b == nil {
			// Fill keys are recomputed, so match existing buckets tolerantly.
			for bk, bb := range buckets {
				if math.Abs(bk-k) < interval*1e-9 {
					b = bb
				}
			}
		}
		if b == nil {
			b = &bucket{}
		}
		if b.count < minCount {
			continue
		}
		o, err := bucketBody(jsonout.Obj{{"key", jsonout.JavaNumber(k)}}, b.count, sp, b.segs, ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return jsonout.Obj{{"buckets", out}}, nil
}
