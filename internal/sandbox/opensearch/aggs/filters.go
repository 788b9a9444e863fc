package aggs

import (
	"strconv"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/query"
)

// filterParams are a filter aggregation's query, parsed where Parse reads it.
type filterParams struct{ q query.Query }

func (fp filterParams) run(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	sub, err := filterSegs(fp.q, segs, ctx)
	if err != nil {
		return nil, err
	}
	return bucketBody(jsonout.Obj{}, index.CountSlots(sub), sp, sub, ctx)
}

// filtersParams are a filters aggregation's named queries, parsed where Parse reads them (their
// errors answer at once).
type filtersParams struct {
	named []namedFilter
	keyed bool // filters given as an object
}

type namedFilter struct {
	name string
	q    query.Query
}

func parseFilters(p map[string]any) (filtersParams, *apierr.Error) {
	var fp filtersParams
	switch f := p["filters"].(type) {
	case map[string]any:
		fp.keyed = true
		for _, n := range jsonval.SortedKeys(f) {
			q, err := query.Parse(f[n])
			if err != nil {
				return fp, err
			}
			fp.named = append(fp.named, namedFilter{n, q})
		}
	case []any:
		for i, x := range f {
			q, err := query.Parse(x)
			if err != nil {
				return fp, err
			}
			fp.named = append(fp.named, namedFilter{strconv.Itoa(i), q})
		}
	default:
		return fp, apierr.Parsing("[filters] requires a [filters] object or array")
	}
	return fp, nil
}

func filterSegs(q query.Query, segs []index.Segment, ctx *Context) ([]index.Segment, *apierr.Error) {
	out := make([]index.Segment, 0, len(segs))
	for _, seg := range segs {
		m, err := q.Eval(&query.Context{Index: seg.Index, Now: ctx.Now})
		if err != nil {
			return nil, err
		}
		var slots []int32
		for _, s := range seg.Slots {
			if m.Has(s) {
				slots = append(slots, s)
			}
		}
		out = append(out, index.Segment{Index: seg.Index, Slots: slots})
	}
	return out, nil
}

func (fp filtersParams) run(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	if err := ctx.addBuckets(len(fp.named)); err != nil {
		return nil, err
	}
	keyedOut := jsonout.Obj{}
	var listOut []jsonout.Obj
	for _, nf := range fp.named {
		sub, err := filterSegs(nf.q, segs, ctx)
		if err != nil {
			return nil, err
		}
		o, err := bucketBody(jsonout.Obj{}, index.CountSlots(sub), sp, sub, ctx)
		if err != nil {
			return nil, err
		}
		if fp.keyed {
			keyedOut = append(keyedOut, jsonout.KV{nf.name, o})
		} else {
			listOut = append(listOut, o)
		}
	}
	if fp.keyed {
		return jsonout.Obj{{"buckets", keyedOut}}, nil
	}
	if listOut == nil {
		listOut = []jsonout.Obj{}
	}
	return jsonout.Obj{{"buckets", listOut}}, nil
}

// missingParams are a missing aggregation's: only the common field.
type missingParams struct{}

func parseMissing(*Spec, map[string]any) (missingParams, *apierr.Error) { return missingParams{}, nil }

func (missingParams) run(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	var out []index.Segment
	for _, seg := range segs {
		field := sp.Common.Field
		if field == "" {
			return nil, apierr.BadRequest("Required one of fields [field, script], but none were specified.")
		}
		var slots []int32
		for _, s := range seg.Slots {
			has := false
			if col := seg.Index.Columns[field]; col != nil && col.Has(s) {
				has = true
			}
			if t := seg.Index.Texts[field]; t != nil && int(s) < len(t.Has) && t.Has[s] {
				has = true
			}
			if !has {
				slots = append(slots, s)
			}
		}
		out = append(out, index.Segment{Index: seg.Index, Slots: slots})
	}
	return bucketBody(jsonout.Obj{}, index.CountSlots(out), sp, out, ctx)
}
