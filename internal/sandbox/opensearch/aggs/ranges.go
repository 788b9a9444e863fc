package aggs

import (
	"math"
	"sort"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

type rangeDef struct {
	key      string
	from, to float64
	hasFrom  bool
	hasTo    bool
	b        bucket
}

// rangeParams are a range or date_range aggregation's own parameters.
type rangeParams struct {
	ranges []rangeParam
	// entryErr refuses the entry after the last of ranges, which is no object: it answers
	// after the bounds before it are read, as those are read when the aggregation runs.
	entryErr *apierr.Error
}

// rangeParam is one entry of ranges. Its bounds stay as sent: whether a string bound is date
// math or a number depends on the field's mapping, known when the aggregation runs.
type rangeParam struct {
	key      string
	from, to rangeBound
}

type rangeBound struct {
	set   bool // given, and not null
	str   string
	isStr bool
	num   float64 // the bound as a number, when numOK
	numOK bool
}

func readRangeBound(m map[string]any, k string) rangeBound {
	v, ok := m[k]
	if !ok || v == nil {
		return rangeBound{}
	}
	b := rangeBound{set: true}
	b.str, b.isStr = v.(string)
	b.num, b.numOK = jsonval.Float(v)
	return b
}

func parseRange(sp *Spec, p map[string]any) (rangeParams, *apierr.Error) {
	var rp rangeParams
	raw, ok := p["ranges"].([]any)
	if !ok || len(raw) == 0 {
		return rp, apierr.BadRequest("No [ranges] specified for the [%s] aggregation", sp.Name)
	}
	for _, x := range raw {
		m, ok := x.(map[string]any)
		if !ok {
			rp.entryErr = apierr.Parsing("[ranges] entries must be objects in [%s]", sp.Name)
			break
		}
		r := rangeParam{from: readRangeBound(m, "from"), to: readRangeBound(m, "to")}
		r.key, _ = m["key"].(string)
		rp.ranges = append(rp.ranges, r)
	}
	return rp, nil
}

func (rp rangeParams) run(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	format := sp.Common.format
	isDate := sp.Type == "date_range"
	for _, seg := range segs {
		if fd := seg.Index.Fields[sp.Common.Field]; fd != nil && fd.Kind == index.KindDate {
			isDate = true
			if format == "" {
				format = fd.Mapping.Format
			}
		}
	}
	ranges := make([]*rangeDef, 0, len(rp.ranges))
	for _, r := range rp.ranges {
		rd := &rangeDef{key: r.key}
		bound := func(k string, b rangeBound) (float64, bool, *apierr.Error) {
			if !b.set {
				return 0, false, nil
			}
			if isDate && b.isStr {
				ms, err := dates.ParseMath(b.str, ctx.Now, false, format)
				if err != nil {
					return 0, false, apierr.Errf(400, "parse_exception", "%s", err.Error())
				}
				return float64(ms), true, nil
			}
			if !b.numOK {
				return 0, false, apierr.Parsing("[%s] must be a number in range aggregation [%s]", k, sp.Name)
			}
			return b.num, true, nil
		}
		var err *apierr.Error
		if rd.from, rd.hasFrom, err = bound("from", r.from); err != nil {
			return nil, err
		}
		if rd.to, rd.hasTo, err = bound("to", r.to); err != nil {
			return nil, err
		}
		ranges = append(ranges, rd)
	}
	if rp.entryErr != nil {
		return nil, rp.entryErr
	}
	sort.SliceStable(ranges, func(i, j int) bool {
		a, b := ranges[i], ranges[j]
		af, bf := math.Inf(-1), math.Inf(-1)
		if a.hasFrom {
			af = a.from
		}
		if b.hasFrom {
			bf = b.from
		}
		if af != bf {
			return af < bf
		}
		at, bt := math.Inf(1), math.Inf(1)
		if a.hasTo {
			at = a.to
		}
		if b.hasTo {
			bt = b.to
		}
		return at < bt
	})
	keep := len(sp.Subs) > 0
	err := fieldSegments(segs, sp, true, func(seg index.Segment, _ *index.FieldDef, col *index.Column) *apierr.Error {
		for _, s := range seg.Slots {
			vals := col.NumAt(s)
			for _, rd := range ranges {
				for _, v := range vals {
					if (!rd.hasFrom || v >= rd.from) && (!rd.hasTo || v < rd.to) {
						rd.b.add(seg.Index, s, keep)
						break
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := ctx.addBuckets(len(ranges)); err != nil {
		return nil, err
	}
	render := func(f float64) string {
		if isDate {
			return dates.Format(int64(f), format)
		}
		return jsonout.JavaDouble(f)
	}
	keyed := sp.Common.keyed
	buckets := make([]jsonout.Obj, 0, len(ranges))
	keyedObj := jsonout.Obj{}
	for _, rd := range ranges {
		key := rd.key
		if key == "" {
			lo, hi := "*", "*"
			if rd.hasFrom {
				lo = render(rd.from)
			}
			if rd.hasTo {
				hi = render(rd.to)
			}
			key = lo + "-" + hi
		}
		o := jsonout.Obj{}
		if !keyed {
			o = append(o, jsonout.KV{"key", key})
		}
		if rd.hasFrom {
			if isDate {
				o = append(o, jsonout.KV{"from", jsonout.JavaNumber(rd.from)}, jsonout.KV{"from_as_string", render(rd.from)})
			} else {
				o = append(o, jsonout.KV{"from", jsonout.JavaNumber(rd.from)})
			}
		}
		if rd.hasTo {
			if isDate {
				o = append(o, jsonout.KV{"to", jsonout.JavaNumber(rd.to)}, jsonout.KV{"to_as_string", render(rd.to)})
			} else {
				o = append(o, jsonout.KV{"to", jsonout.JavaNumber(rd.to)})
			}
		}
		o, err := bucketBody(o, rd.b.count, sp, rd.b.segs, ctx)
		if err != nil {
			return nil, err
		}
		if keyed {
			keyedObj = append(keyedObj, jsonout.KV{key, o})
		} else {
			buckets = append(buckets, o)
		}
	}
	if keyed {
		return jsonout.Obj{{"buckets", keyedObj}}, nil
	}
	return jsonout.Obj{{"buckets", buckets}}, nil
}
