package aggs

import (
	"math"
	"slices"
	"sort"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

var defaultPercents = []float64{1, 5, 25, 50, 75, 95, 99}

// run answers {"values":{"1.0":v,...}} (keyed, the default) or
// {"values":[{"key":1.0,"value":v},...]}, with "_as_string" companions on date fields.
//
// The engine estimates percentiles with a t-digest. Here they are computed exactly from every
// value: sorted values x[0..n-1] sit at ranks (i+0.5)/n and a percentile is linearly interpolated
// between its two neighbours (below the first rank it is the minimum, above the last the maximum).
// That is what a t-digest gives while each value is its own centroid, and it reproduces
// search.aggregation/180_percentiles_tdigest_metric.yml "Filtered test" and "Compression test";
// the "Basic test" (four values, default compression) expects the digest's coarser 51/101 for
// p25/p50 where this gives 26/76. On thousands of values the two agree to a fraction of a percent.
func (pp percentilesParams) run(sp *Spec, segs []index.Segment, _ *Context) (jsonout.Obj, *apierr.Error) {
	percents, keyed := pp.percents, pp.keyed
	format := sp.Common.format
	isDate := false
	missing, hasMissing := sp.Common.missingNum, sp.Common.missingNumOK
	vals := make([]float64, 0, index.CountSlots(segs))
	for _, seg := range segs {
		fd, col, err := aggField(seg.Index, sp, true)
		if err != nil {
			return nil, err
		}
		if fd == nil {
			if hasMissing {
				for range seg.Slots {
					vals = append(vals, missing)
				}
			}
			continue
		}
		if fd.Kind == index.KindDate {
			isDate = true
			if format == "" {
				format = fd.Mapping.Format
			}
		}
		for _, s := range seg.Slots {
			var vs []float64
			if col != nil {
				vs = col.NumAt(s)
			}
			if len(vs) == 0 && hasMissing {
				vals = append(vals, missing)
			}
			vals = append(vals, vs...)
		}
	}
	results := percentilesOf(vals, percents)
	var list []jsonout.Obj
	keyedOut := jsonout.Obj{}
	for i, p := range percents {
		var value any
		ok := len(vals) > 0
		if ok {
			value = jsonout.JavaNumber(results[i])
		}
		key := jsonout.JavaDouble(p)
		if keyed {
			keyedOut = append(keyedOut, jsonout.KV{key, value})
			if ok && isDate {
				keyedOut = append(keyedOut, jsonout.KV{key + "_as_string", dates.Format(int64(results[i]), format)})
			}
			continue
		}
		o := jsonout.Obj{{"key", jsonout.JavaNumber(p)}, {"value", value}}
		if ok && isDate {
			o = append(o, jsonout.KV{"value_as_string", dates.Format(int64(results[i]), format)})
		}
		list = append(list, o)
	}
	if keyed {
		return jsonout.Obj{{"values", keyedOut}}, nil
	}
	return jsonout.Obj{{"values", list}}, nil
}

// percentilesParams are a percentiles aggregation's own parameters.
type percentilesParams struct {
	percents []float64
	keyed    bool
}

func parsePercentiles(sp *Spec, p map[string]any) (percentilesParams, *apierr.Error) {
	pp := percentilesParams{keyed: true}
	if sp.Common.hasKeyed {
		pp.keyed = sp.Common.keyed
	}
	var err *apierr.Error
	if pp.percents, err = parsePercents(sp, p); err != nil {
		return pp, err
	}
	if td, ok := p["tdigest"].(map[string]any); ok {
		if c, ok := jsonval.Float(td["compression"]); ok && c < 0 {
			return pp, apierr.BadRequest("[compression] must be greater than or equal to 0. Found [%s] in [%s]", jsonout.JavaDouble(c), sp.Name)
		}
	}
	return pp, nil
}

func parsePercents(sp *Spec, p map[string]any) ([]float64, *apierr.Error) {
	v, ok := p["percents"]
	if !ok {
		return defaultPercents, nil
	}
	l, isList := v.([]any)
	if !isList {
		return nil, apierr.Parsing("[percentiles] [percents] must be an array of numbers in [%s]", sp.Name)
	}
	if len(l) == 0 {
		return nil, apierr.BadRequest("[percents] must not be empty: [%s]", sp.Name)
	}
	out := make([]float64, 0, len(l))
	for _, x := range l {
		if _, isStr := x.(string); isStr {
			return nil, apierr.Parsing("[percentiles] [percents] must hold numbers, found [%v] in [%s]", x, sp.Name)
		}
		f, ok := jsonval.Float(x)
		if !ok {
			return nil, apierr.Parsing("[percentiles] [percents] must hold numbers in [%s]", sp.Name)
		}
		if f < 0 || f > 100 {
			return nil, apierr.BadRequest("percent must be in [0,100], got [%s]: [%s]", jsonout.JavaDouble(f), sp.Name)
		}
		out = append(out, f)
	}
	return out, nil
}

// percentilesOf interpolates each percent over vals (reordered in place); see percentilesParams.run.
// Only the lower neighbour of each percent is selected (quickselect, splitting the array among
// the ranks); the upper neighbour is then the smallest value between two selected ranks. That
// costs a few linear passes where a sort would cost n log n.
func percentilesOf(vals []float64, percents []float64) []float64 {
	n := len(vals)
	out := make([]float64, len(percents))
	if n == 0 {
		return out
	}
	los := make([]int, len(percents))
	fracs := make([]float64, len(percents))
	for i, p := range percents {
		pos := p/100*float64(n) - 0.5
		switch lo := int(math.Floor(pos)); {
		case pos <= 0:
			los[i] = 0
		case lo >= n-1:
			los[i] = n - 1
		default:
			los[i], fracs[i] = lo, pos-float64(lo)
		}
	}
	ranks := append([]int(nil), los...)
	sort.Ints(ranks)
	ranks = slices.Compact(ranks)
	multiSelect(vals, ranks, 0)
	for i := range percents {
		lo := los[i]
		v := vals[lo]
		if fracs[i] > 0 {
			// vals[lo+1] is the smallest value after lo, found before the next selected rank.
			next := n - 1
			if j := sort.SearchInts(ranks, lo+1); j < len(ranks) {
				next = ranks[j]
			}
			hi := vals[lo+1]
			for _, x := range vals[lo+2 : next+1] {
				hi = min(hi, x)
			}
			v += fracs[i] * (hi - v)
		}
		out[i] = v
	}
	return out
}

// multiSelect puts every rank of ks (sorted, distinct, offset by base within the whole slice)
// in its sorted place, recursing on either side of the middle rank.
func multiSelect(a []float64, ks []int, base int) {
	if len(ks) == 0 {
		return
	}
	mid := len(ks) / 2
	k := ks[mid] - base
	selectKth(a, k)
	multiSelect(a[:k], ks[:mid], base)
	multiSelect(a[k+1:], ks[mid+1:], base+k+1)
}

// selectKth reorders a so that a[k] is the k-th smallest, with nothing larger before it and
// nothing smaller after it (Hoare's quickselect, median-of-three pivots).
func selectKth(a []float64, k int) {
	lo, hi := 0, len(a)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		pivot := a[mid]
		i, j := lo, hi
		for i <= j {
			for a[i] < pivot {
				i++
			}
			for a[j] > pivot {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
