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

// topHitsParams are a top_hits aggregation's parameters: how its hits are rendered, as the
// search renders its own. aggs.Parse has parseTopHits read them with the request.
type topHitsParams struct {
	size, from   int
	sort         []sortSpec
	source       sourceFilter
	version      bool
	seqNo        bool
	trackScores  bool
	highlight    *query.HighlightSpec
	hasHighlight bool
}

// parseTopHits reads a top_hits aggregation's parameters; what it refuses answers when the
// aggregation runs (see aggs.Parse). The keys are read in map order, as they always were: of two
// bad keys, either may answer.
func parseTopHits(name string, p map[string]any) (any, *apierr.Error) {
	tp := &topHitsParams{size: 3}
	for k, v := range p {
		var err *apierr.Error
		switch k {
		case "size", "from":
			n, ok := jsonval.Int(v)
			if !ok || n < 0 {
				return nil, apierr.BadRequest("[top_hits] [%s] must be a non-negative number in [%s]", k, name)
			}
			if k == "size" {
				tp.size = n
			} else {
				tp.from = n
			}
		case "sort":
			tp.sort, err = parseSort(v)
		case "_source":
			tp.source, err = parseSourceFilter(v)
		case "version":
			tp.version, _ = jsonval.Bool(v)
		case "seq_no_primary_term":
			tp.seqNo, _ = jsonval.Bool(v)
		case "track_scores":
			tp.trackScores, _ = jsonval.Bool(v)
		case "highlight":
			if tp.highlight, err = query.ParseHighlight(v); err == nil {
				tp.hasHighlight = true
			}
		case "explain", "stored_fields", "docvalue_fields", "fields":
		default:
			return nil, apierr.Parsing("[top_hits] unknown field [%s]", k)
		}
		if err != nil {
			return nil, err
		}
	}
	return tp, nil
}

// topHitsAgg answers {"hits":{"total":{"value","relation":"eq"},"max_score","hits":[...]}} with
// the best documents of its bucket, rendered like search hits: by _score (from the search query)
// unless a sort is given, size 3 by default. q is the search query, scoreSets its matches by index.
func topHitsAgg(sp *aggs.Spec, segs []index.Segment, q query.Query, scoreSets map[*index.Index]*query.Matches) (jsonout.Obj, *apierr.Error) {
	tp := sp.TopHits.(*topHitsParams)
	size, from, sortSpecs := tp.size, tp.from, tp.sort
	view := &hitView{source: tp.source, version: tp.version, seqNo: tp.seqNo}
	if tp.hasHighlight && q != nil {
		view.hl = query.NewHighlighter(tp.highlight, q)
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
	view.order = newHitOrder(sortSpecs, tp.trackScores)
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
