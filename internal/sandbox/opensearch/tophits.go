package opensearch

import (
	"math"

	"github.com/svcui/svcui/internal/jsonval"
)

// topHitsAgg answers {"hits":{"total":{"value","relation":"eq"},"max_score","hits":[...]}} with
// the best documents of its bucket, rendered like search hits: by _score (from the search query)
// unless a sort is given, size 3 by default.
func topHitsAgg(sp *aggSpec, segs []segment, ctx *aggCtx) (obj, *apiError) {
	size, from := 3, 0
	var sortSpecs []sortSpec
	view := &hitView{}
	trackScores := false
	for k, v := range sp.params {
		var err *apiError
		switch k {
		case "size", "from":
			n, ok := asInt(v)
			if !ok || n < 0 {
				return nil, badRequest("[top_hits] [%s] must be a non-negative number in [%s]", k, sp.name)
			}
			if k == "size" {
				size = n
			} else {
				from = n
			}
		case "sort":
			sortSpecs, err = parseSort(v)
		case "_source":
			view.source, err = parseSourceFilter(v)
		case "version":
			view.version, _ = jsonval.Bool(v)
		case "seq_no_primary_term":
			view.seqNo, _ = jsonval.Bool(v)
		case "track_scores":
			trackScores, _ = jsonval.Bool(v)
		case "highlight":
			var spec *highlightSpec
			if spec, err = parseHighlight(v); err == nil && ctx.query != nil {
				view.hl = newHighlighter(spec, ctx.query)
			}
		case "explain", "stored_fields", "docvalue_fields", "fields":
		default:
			return nil, parsingErr("[top_hits] unknown field [%s]", k)
		}
		if err != nil {
			return nil, err
		}
	}
	targets := make([]*index, len(segs))
	for i, seg := range segs {
		targets[i] = seg.ix
	}
	if err := checkSort(targets, sortSpecs); err != nil {
		return nil, err
	}
	if from+size > 100 {
		return nil, badRequest("Top hits result window is too large, the top hits aggregator [%s]'s from + size must be less than or equal to: [100] but was [%d]. This limit can be set by changing the [index.max_inner_result_window] index level setting.", sp.name, from+size)
	}
	view.order = newHitOrder(sortSpecs, trackScores)
	hits := make([]hit, 0, countSlots(segs))
	maxScore := float32(math.Inf(-1))
	for ord, seg := range segs {
		scores := ctx.scores[seg.ix]
		base := len(hits)
		for _, s := range seg.slots {
			score := float32(1)
			if scores != nil {
				score = scores.scoreOf(s)
			}
			maxScore = max(maxScore, score)
			hits = append(hits, hit{ord: ord, slot: s, score: score})
		}
		view.order.fillKeys(seg.ix, hits[base:])
	}
	total := len(hits)
	page := topHits(hits, from+size, view.order.less)
	if from < len(page) {
		page = page[from:]
	} else {
		page = nil
	}
	list := make([]obj, 0, len(page))
	for i := range page {
		list = append(list, view.render(segs[page[i].ord].ix, &page[i]))
	}
	var ms any
	if !view.order.nullScores && total > 0 {
		ms = maxScore
	}
	return obj{{"hits", obj{{"total", obj{{"value", total}, {"relation", "eq"}}}, {"max_score", ms}, {"hits", list}}}}, nil
}
