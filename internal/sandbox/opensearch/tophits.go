package opensearch

import (
	"math"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/aggs"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/query"
)

// topHitsAgg answers {"hits":{"total":{"value","relation":"eq"},"max_score","hits":[...]}} with
// the best documents of its bucket, rendered like search hits: by _score (from the search query)
// unless a sort is given, size 3 by default. q is the search query, scoreSets its matches by index.
func topHitsAgg(sp *aggs.Spec, segs []index.Segment, q query.Query, scoreSets map[*index.Index]*query.Matches) (jsonout.Obj, *apierr.Error) {
	size, from := 3, 0
	var sortSpecs []sortSpec
	view := &hitView{}
	trackScores := false
	for k, v := range sp.TopHitsParams {
		var err *apierr.Error
		switch k {
		case "size", "from":
			n, ok := jsonval.Int(v)
			if !ok || n < 0 {
				return nil, apierr.BadRequest("[top_hits] [%s] must be a non-negative number in [%s]", k, sp.Name)
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
			var spec *query.HighlightSpec
			if spec, err = query.ParseHighlight(v); err == nil && q != nil {
				view.hl = query.NewHighlighter(spec, q)
			}
		case "explain", "stored_fields", "docvalue_fields", "fields":
		default:
			return nil, apierr.Parsing("[top_hits] unknown field [%s]", k)
		}
		if err != nil {
			return nil, err
		}
	}
	targets := make([]*index.Index, len(segs))
	for i, seg := range segs {
		targets[i] = seg.Index
	}
	if err := checkSort(targets, sortSpecs); err != nil {
		return nil, err
	}
	if from+size > 100 {
		return nil, apierr.BadRequest("Top hits result window is too large, the top hits aggregator [%s]'s from + size must be less than or equal to: [100] but was [%d]. This limit can be set by changing the [index.max_inner_result_window] index level setting.", sp.Name, from+size)
	}
	view.order = newHitOrder(sortSpecs, trackScores)
	hits := make([]hit, 0, index.CountSlots(segs))
	maxScore := float32(math.Inf(-1))
	for ord, seg := range segs {
		scores := scoreSets[seg.Index]
		base := len(hits)
		for _, s := range seg.Slots {
			score := float32(1)
			if scores != nil {
				score = scores.ScoreOf(s)
			}
			maxScore = max(maxScore, score)
			hits = append(hits, hit{ord: ord, slot: s, score: score})
		}
		view.order.fillKeys(seg.Index, hits[base:])
	}
	total := len(hits)
	page := topHits(hits, from+size, view.order.less)
	if from < len(page) {
		page = page[from:]
	} else {
		page = nil
	}
	list := make([]jsonout.Obj, 0, len(page))
	for i := range page {
		list = append(list, view.render(segs[page[i].ord].Index, &page[i]))
	}
	var ms any
	if !view.order.nullScores && total > 0 {
		ms = maxScore
	}
	return jsonout.Obj{{"hits", jsonout.Obj{{"total", jsonout.Obj{{"value", total}, {"relation", "eq"}}}, {"max_score", ms}, {"hits", list}}}}, nil
}
