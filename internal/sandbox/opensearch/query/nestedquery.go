package query

import (
	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
)

type nestedQuery struct {
	path           string
	inner          Query
	scoreMode      string
	ignoreUnmapped bool
	boost          float64
}

func parseNested(body any) (Query, *apierr.Error) {
	bm, ok := jsonval.Map(body)
	if !ok {
		return nil, apierr.Parsing("[nested] query malformed, no start_object after query name")
	}
	q := &nestedQuery{scoreMode: "avg", boost: boostOf(bm)}
	for k, x := range bm {
		switch k {
		case "path":
			q.path, _ = jsonval.String(x)
		case "query":
			inner, err := Parse(x)
			if err != nil {
				return nil, err
			}
			q.inner = inner
		case "score_mode":
			s, _ := jsonval.String(x)
			switch s {
			case "avg", "sum", "max", "min", "none":
				q.scoreMode = s
			default:
				return nil, apierr.BadRequest("illegal score_mode [%s]", s)
			}
		case "ignore_unmapped":
			q.ignoreUnmapped, _ = jsonval.Bool(x)
		case "boost", "_name", "inner_hits":
		default:
			return nil, apierr.Parsing("[nested] query does not support [%s]", k)
		}
	}
	if q.path == "" {
		return nil, apierr.Parsing("[nested] requires 'path' field")
	}
	if q.inner == nil {
		return nil, apierr.Parsing("[nested] requires 'query' field")
	}
	return q, nil
}

func (q *nestedQuery) Eval(c *Context) (*Matches, *apierr.Error) {
	if !index.IsNestedPath(c.Index, q.path) {
		if q.ignoreUnmapped {
			return newMatches(c.Index), nil
		}
		e := apierr.Errf(400, "query_shard_exception", "[nested] failed to find nested object under path [%s]", q.path)
		e.Index, e.UUID = c.Index.Name, c.Index.UUID
		return nil, e
	}
	nv := c.Index.NestedDocs(q.path)
	m, err := q.inner.Eval(&Context{Index: nv.Sub, Now: c.Now})
	if err != nil {
		return nil, err
	}
	out := newMatches(c.Index)
	out.score = make([]float32, len(c.Index.Docs))
	counts := make(map[int32]int)
	index.ForEach(AndBits(m.Bits, nv.Sub.Live), func(s int32) {
		p := nv.Parent[s]
		sc := m.ScoreOf(s)
		n := counts[p]
		switch {
		case n == 0:
			out.score[p] = sc
		case q.scoreMode == "max" && sc > out.score[p], q.scoreMode == "min" && sc < out.score[p]:
			out.score[p] = sc
		case q.scoreMode == "avg" || q.scoreMode == "sum":
			out.score[p] += sc
		}
		counts[p] = n + 1
		out.set(p)
	})
	for p, n := range counts {
		switch q.scoreMode {
		case "avg":
			out.score[p] /= float32(n)
		case "none":
			out.score[p] = 0
		}
		out.score[p] *= float32(q.boost)
	}
	return out, nil
}
