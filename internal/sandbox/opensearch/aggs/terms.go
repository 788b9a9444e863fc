package aggs

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

type termsBucket struct {
	str    string
	num    float64
	isStr  bool
	b      *bucket
	result jsonout.Obj
}

// termsParams are a terms aggregation's own parameters.
type termsParams struct {
	size             int
	minCount         int
	include, exclude map[string]bool
	order            []termsOrder
	// orderErr is what parsing the order refused: it answers after the field's errors, as it
	// did when the order was read once the buckets were counted.
	orderErr *apierr.Error
}

func parseTerms(sp *Spec, p map[string]any) (termsParams, *apierr.Error) {
	tp := termsParams{size: 10, minCount: sp.Common.minCount(1)}
	tp.include, tp.exclude = termFilters(p)
	tp.order, tp.orderErr = parseTermsOrder(sp, p)
	if v, ok := p["size"]; ok {
		n, ok := jsonval.Int(v)
		if !ok || n < 1 {
			return tp, apierr.BadRequest("[size] must be greater than 0. Found [%v] in [%s]", v, sp.Name)
		}
		tp.size = n
	}
	return tp, nil
}

func (tp termsParams) run(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	size, minCount, include, exclude := tp.size, tp.minCount, tp.include, tp.exclude
	keep := len(sp.Subs) > 0
	byStr := map[string]*bucket{}
	byNum := map[float64]*bucket{}
	var keyKind index.Kind
	var keyTyp, format string
	format = sp.Common.format
	hasMissing := sp.Common.hasMissing
	for _, seg := range segs {
		fd, col, err := aggField(seg.Index, sp, false)
		if err != nil {
			return nil, err
		}
		if fd == nil {
			continue
		}
		if keyKind == index.KindNone {
			keyKind, keyTyp = fd.Kind, fd.Type
			if format == "" && fd.Kind == index.KindDate {
				format = fd.Mapping.Format
			}
		}
		if fd.Kind == index.KindKeyword && col != nil && !col.Multi && include == nil && exclude == nil && !hasMissing {
			countByOrdinal(seg, col, keep, byStr)
			continue
		}
		if fd.Kind == index.KindKeyword {
			missS := sp.Common.missingStr
			for _, s := range seg.Slots {
				var vals []string
				if col != nil && int(s) < len(col.Strs) {
					vals = col.Strs[s]
				}
				if len(vals) == 0 && hasMissing {
					vals = []string{missS}
				}
				for i, v := range vals {
					if i > 0 && slices.Contains(vals[:i], v) {
						continue
					}
					if !keepTerm(v, include, exclude) {
						continue
					}
					b := byStr[v]
					if b == nil {
						b = &bucket{}
						byStr[v] = b
					}
					b.add(seg.Index, s, keep)
				}
			}
			continue
		}
		missF, missOK := sp.Common.missingNum, sp.Common.missingNumOK
		for _, s := range seg.Slots {
			var vals []float64
			if col != nil && int(s) < len(col.Nums) {
				vals = col.Nums[s]
			}
			if len(vals) == 0 && hasMissing && missOK {
				vals = []float64{missF}
			}
			for i, v := range vals {
				if i > 0 && containsNum(vals[:i], v) {
					continue
				}
				b := byNum[v]
				if b == nil {
					b = &bucket{}
					byNum[v] = b
				}
				b.add(seg.Index, s, keep)
			}
		}
	}
	list := make([]*termsBucket, 0, len(byStr)+len(byNum))
	for k, b := range byStr {
		if b.count >= minCount {
			list = append(list, &termsBucket{str: k, isStr: true, b: b})
		}
	}
	for k, b := range byNum {
		if b.count >= minCount {
			list = append(list, &termsBucket{num: k, b: b})
		}
	}
	if tp.orderErr != nil {
		return nil, tp.orderErr
	}
	orders := tp.order
	bySub := false
	for _, o := range orders {
		if o.key != "_count" && o.key != "_key" {
			bySub = true
		}
	}
	compute := func(tb *termsBucket) *apierr.Error {
		if tb.result != nil {
			return nil
		}
		var err *apierr.Error
		tb.result, err = bucketBody(jsonout.Obj{}, tb.b.count, sp, tb.b.segs, ctx)
		return err
	}
	if bySub {
		for _, tb := range list {
			if err := compute(tb); err != nil {
				return nil, err
			}
		}
	}
	var sortErr *apierr.Error
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		for _, o := range orders {
			c := 0
			switch o.key {
			case "_count":
				c = cmp.Compare(a.b.count, b.b.count)
			case "_key":
				c = cmpTermKey(a, b)
			default:
				va, e1 := subValue(a.result, o.key)
				vb, e2 := subValue(b.result, o.key)
				if e1 != nil {
					sortErr = e1
				}
				if e2 != nil {
					sortErr = e2
				}
				c = cmpFloat(va, vb)
			}
			if o.desc {
				c = -c
			}
			if c != 0 {
				return c < 0
			}
		}
		return cmpTermKey(a, b) < 0
	})
	if sortErr != nil {
		return nil, sortErr
	}
	other := 0
	if len(list) > size {
		for _, tb := range list[size:] {
			other += tb.b.count
		}
		list = list[:size]
	}
	if err := ctx.addBuckets(len(list)); err != nil {
		return nil, err
	}
	buckets := make([]jsonout.Obj, 0, len(list))
	for _, tb := range list {
		if err := compute(tb); err != nil {
			return nil, err
		}
		var head jsonout.Obj
		switch {
		case tb.isStr:
			head = jsonout.Obj{{"key", tb.str}}
		case keyKind == index.KindDate:
			head = jsonout.Obj{{"key", int64(tb.num)}, {"key_as_string", dates.Format(int64(tb.num), format)}}
		case keyKind == index.KindBool:
			s := "false"
			if tb.num != 0 {
				s = "true"
			}
			head = jsonout.Obj{{"key", int64(tb.num)}, {"key_as_string", s}}
		case keyKind == index.KindLong:
			head = jsonout.Obj{{"key", int64(tb.num)}}
		default:
			_ = keyTyp
			head = jsonout.Obj{{"key", tb.num}}
		}
		buckets = append(buckets, append(head, tb.result...))
	}
	return jsonout.Obj{{"doc_count_error_upper_bound", 0}, {"sum_other_doc_count", other}, {"buckets", buckets}}, nil
}

func containsNum(l []float64, f float64) bool {
	for _, x := range l {
		if x == f {
			return true
		}
	}
	return false
}

func termFilters(p map[string]any) (map[string]bool, map[string]bool) {
	set := func(v any) map[string]bool {
		l, ok := v.([]any)
		if !ok {
			return nil
		}
		m := map[string]bool{}
		for _, x := range l {
			s, _ := jsonval.String(x)
			m[s] = true
		}
		return m
	}
	return set(p["include"]), set(p["exclude"])
}

func keepTerm(v string, include, exclude map[string]bool) bool {
	if include != nil && !include[v] {
		return false
	}
	return exclude == nil || !exclude[v]
}

type termsOrder struct {
	key  string
	desc bool
}

func parseTermsOrder(sp *Spec, p map[string]any) ([]termsOrder, *apierr.Error) {
	v, ok := p["order"]
	if !ok {
		return []termsOrder{{"_count", true}, {"_key", false}}, nil
	}
	var out []termsOrder
	for _, item := range jsonval.List(v) {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, apierr.Parsing("[order] must be an object or an array of objects in [%s]", sp.Name)
		}
		for _, k := range jsonval.SortedKeys(m) {
			dir, _ := m[k].(string)
			if dir != "asc" && dir != "desc" {
				return nil, apierr.Parsing("Unknown terms order direction [%s] in terms aggregation [%s]", dir, sp.Name)
			}
			key := k
			if key == "_term" {
				key = "_key"
			}
			if key != "_count" && key != "_key" {
				name, _, _ := strings.Cut(key, ".")
				found := false
				for _, sub := range sp.Subs {
					if sub.Name == name && kinds[sub.Type].metric {
						found = true
					}
				}
				if !found {
					return nil, apierr.Errf(400, "aggregation_execution_exception",
						"Invalid aggregator order path [%s]. The provided aggregation [%s] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.", key, name)
				}
			}
			out = append(out, termsOrder{key, dir == "desc"})
		}
	}
	return out, nil
}

func subValue(res jsonout.Obj, path string) (float64, *apierr.Error) {
	name, metric, _ := strings.Cut(path, ".")
	if metric == "" {
		metric = "value"
	}
	for _, m := range res {
		if m.K != name {
			continue
		}
		sub, _ := m.V.(jsonout.Obj)
		for _, x := range sub {
			if x.K == metric {
				if f, ok := jsonval.Float(x.V); ok {
					return f, nil
				}
				if n, ok := x.V.(int); ok {
					return float64(n), nil
				}
				return math.Inf(-1), nil
			}
		}
		return 0, apierr.BadRequest("Invalid aggregation order path [%s]: unknown value [%s]", path, metric)
	}
	return 0, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpTermKey(a, b *termsBucket) int {
	if a.isStr && b.isStr {
		return strings.Compare(a.str, b.str)
	}
	if a.isStr != b.isStr {
		if a.isStr {
			return 1
		}
		return -1
	}
	return cmpFloat(a.num, b.num)
}

// countByOrdinal is the terms aggregation's fast path for a single-valued keyword column: counts
// (and, for sub-aggregations, slots) gathered by ordinal, then merged into the buckets by value.
func countByOrdinal(seg index.Segment, col *index.Column, keep bool, byStr map[string]*bucket) {
	counts := make([]int32, len(col.Terms))
	var lists [][]int32
	if keep {
		lists = make([][]int32, len(col.Terms))
	}
	for _, s := range seg.Slots {
		if int(s) >= len(col.Ords) {
			continue
		}
		if o := col.Ords[s]; o >= 0 {
			counts[o]++
			if keep {
				lists[o] = append(lists[o], s)
			}
		}
	}
	for o, n := range counts {
		if n == 0 {
			continue
		}
		b := byStr[col.Terms[o]]
		if b == nil {
			b = &bucket{}
			byStr[col.Terms[o]] = b
		}
		b.count += int(n)
		if keep {
			b.segs = append(b.segs, index.Segment{Index: seg.Index, Slots: lists[o]})
		}
	}
}
