package opensearch

import (
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/query"
)

// hitOrder is how a search (or a top_hits aggregation) orders its hits.
type hitOrder struct {
	specs      []sortSpec // the sort, or _score desc when none was given
	keyed      bool       // a sort was given: hits carry sort keys and show "sort"
	nullScores bool       // sorted by fields without track_scores: _score and max_score are null
}

func newHitOrder(sort []sortSpec, trackScores bool) hitOrder {
	o := hitOrder{specs: sort, keyed: len(sort) > 0}
	fieldSorted, wantScores := false, len(sort) == 0 || trackScores
	for _, sp := range sort {
		if sp.kind == sortField || sp.kind == sortDoc {
			fieldSorted = true
		}
		if sp.kind == sortScore {
			wantScores = true
		}
	}
	o.nullScores = fieldSorted && !wantScores
	if len(o.specs) == 0 {
		o.specs = []sortSpec{{kind: sortScore, field: "_score", desc: true}}
	}
	return o
}

// fillKeys computes the sort keys of hits of one index, when the order needs them.
func (o hitOrder) fillKeys(ix *index.Index, hits []hit) {
	if !o.keyed {
		return
	}
	keys := make([]sortVal, len(hits)*len(o.specs))
	cols := make([]*index.Column, len(o.specs))
	for k, sp := range o.specs {
		cols[k] = ix.Columns[sp.field]
	}
	for j := range hits {
		h := &hits[j]
		h.keys = keys[j*len(o.specs) : (j+1)*len(o.specs)]
		for k, sp := range o.specs {
			h.keys[k] = sortKeyIn(cols[k], h.slot, h.score, sp)
		}
	}
}

func (o hitOrder) less(a, b *hit) bool {
	if o.keyed {
		if c := cmpKeys(a.keys, b.keys, o.specs); c != 0 {
			return c < 0
		}
	} else if a.score != b.score {
		return a.score > b.score
	}
	if a.ord != b.ord {
		return a.ord < b.ord
	}
	return a.slot < b.slot
}

// hitView is what a rendered hit shows besides _index and _id.
type hitView struct {
	order    hitOrder
	source   sourceFilter
	version  bool
	seqNo    bool
	hl       *query.Highlighter
	fields   []fieldFormat
	docvalue []fieldFormat
	noSource bool // stored_fields without _source
	noID     bool // stored_fields "_none_"
}

func (req *searchReq) hitView(order hitOrder) *hitView {
	v := &hitView{order: order, source: req.source, version: req.version, seqNo: req.seqNo,
		fields: req.fields, docvalue: req.docvalue, noSource: req.storedFields && !req.sourceAsked, noID: req.storedNone}
	if req.highlight != nil {
		v.hl = query.NewHighlighter(req.highlight, req.query)
	}
	return v
}

// render is one hit as the engine writes it: _index, _id, [_version], [_seq_no, _primary_term],
// _score, _source, highlight, sort.
func (v *hitView) render(ix *index.Index, h *hit) jsonout.Obj {
	d := h.doc
	if d == nil {
		d = ix.Docs[h.slot]
	}
	o := jsonout.Obj{{"_index", ix.Name}}
	if !v.noID {
		o = append(o, jsonout.KV{"_id", d.ID})
	}
	if v.version {
		o = append(o, jsonout.KV{"_version", d.Version})
	}
	if v.seqNo {
		o = append(o, jsonout.KV{"_seq_no", d.SeqNo}, jsonout.KV{"_primary_term", 1})
	}
	if v.order.nullScores {
		o = append(o, jsonout.KV{"_score", nil})
	} else {
		o = append(o, jsonout.KV{"_score", h.score})
	}
	if src, ok := v.source.apply(d); ok && !v.noSource {
		o = append(o, jsonout.KV{"_source", src})
	}
	if f := v.renderFields(ix, h.slot, d); f != nil {
		o = append(o, jsonout.KV{"fields", f})
	}
	if v.hl != nil {
		if hl := v.hl.Render(ix, d); hl != nil {
			o = append(o, jsonout.KV{"highlight", hl})
		}
	}
	if v.order.keyed {
		vals := make([]any, len(v.order.specs))
		for k, sp := range v.order.specs {
			vals[k] = sortOutput(ix, h.keys[k], sp)
		}
		o = append(o, jsonout.KV{"sort", vals})
	}
	return o
}
