package opensearch

import (
	"strings"
	"sync"

	"github.com/svcui/svcui/internal/jsonval"
)

// Nested documents: each object under a "nested" field is its own hidden document, so a nested
// query matches fields of one object together. The emulation keeps, per index and nested path,
// a side index of those objects (built on first use and rebuilt after writes) and the parent of
// each.

type nestedView struct {
	gen    uint64
	sub    *index
	parent []int32 // side slot → parent slot
}

type nestedCache struct {
	mu    sync.Mutex
	views map[string]*nestedView
}

// nestedDocs returns the side index of the objects under a nested path; the caller holds the
// cluster lock (read or write), so the index does not change meanwhile.
func (ix *index) nestedDocs(path string) *nestedView {
	ix.nested.mu.Lock()
	defer ix.nested.mu.Unlock()
	if v := ix.nested.views[path]; v != nil && v.gen == ix.gen {
		return v
	}
	sub := newIndex(ix.name, ix.uuid, ix.created)
	sub.nestedSide = true
	sub.mapping = ix.mapping.clone()
	sub.fields = sub.mapping.flatten()
	v := &nestedView{gen: ix.gen, sub: sub}
	parts := strings.Split(path, ".")
	for slot, d := range ix.docs {
		if d == nil || !ix.isLive(int32(slot)) {
			continue
		}
		for _, x := range jsonval.SourceValues(d.src, path) {
			o, ok := x.(map[string]any)
			if !ok {
				continue
			}
			var wrapped any = o
			for i := len(parts) - 1; i >= 0; i-- {
				wrapped = map[string]any{parts[i]: wrapped}
			}
			src := wrapped.(map[string]any)
			leaves, err := sub.parse(d.id, src, true)
			if err != nil {
				continue
			}
			sub.add(&document{id: d.id, version: d.version, seqNo: d.seqNo, raw: d.raw, src: src}, leaves)
			v.parent = append(v.parent, int32(slot))
		}
	}
	if ix.nested.views == nil {
		ix.nested.views = map[string]*nestedView{}
	}
	ix.nested.views[path] = v
	return v
}

// dropNested leaves out the fields under nested paths: they belong to the nested documents, not
// to their parent (unless the mapping sets include_in_parent or include_in_root).
func dropNested(fields map[string]*fieldDef, leaves []leaf) []leaf {
	var nested []string
	for path, fd := range fields {
		if fd.typ != "nested" || fd.fm == nil {
			continue
		}
		if b, _ := jsonval.Bool(fd.fm.params["include_in_parent"]); b {
			continue
		}
		if b, _ := jsonval.Bool(fd.fm.params["include_in_root"]); b {
			continue
		}
		nested = append(nested, path+".")
	}
	if len(nested) == 0 {
		return leaves
	}
	kept := leaves[:0]
	for _, lf := range leaves {
		under := false
		for _, n := range nested {
			under = under || strings.HasPrefix(lf.path, n)
		}
		if !under {
			kept = append(kept, lf)
		}
	}
	return kept
}

func isNestedPath(ix *index, path string) bool {
	fd := ix.fields[path]
	return fd != nil && fd.typ == "nested"
}

type nestedQuery struct {
	path           string
	inner          query
	scoreMode      string
	ignoreUnmapped bool
	boost          float64
}

func parseNested(body any) (query, *apiError) {
	bm, ok := asMap(body)
	if !ok {
		return nil, parsingErr("[nested] query malformed, no start_object after query name")
	}
	q := &nestedQuery{scoreMode: "avg", boost: boostOf(bm)}
	for k, x := range bm {
		switch k {
		case "path":
			q.path, _ = jsonval.String(x)
		case "query":
			inner, err := parseQuery(x)
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
				return nil, badRequest("illegal score_mode [%s]", s)
			}
		case "ignore_unmapped":
			q.ignoreUnmapped, _ = jsonval.Bool(x)
		case "boost", "_name", "inner_hits":
		default:
			return nil, parsingErr("[nested] query does not support [%s]", k)
		}
	}
	if q.path == "" {
		return nil, parsingErr("[nested] requires 'path' field")
	}
	if q.inner == nil {
		return nil, parsingErr("[nested] requires 'query' field")
	}
	return q, nil
}

func (q *nestedQuery) eval(c *qctx) (*mset, *apiError) {
	if !isNestedPath(c.ix, q.path) {
		if q.ignoreUnmapped {
			return newMset(c.ix), nil
		}
		e := errf(400, "query_shard_exception", "[nested] failed to find nested object under path [%s]", q.path)
		e.index, e.uuid = c.ix.name, c.ix.uuid
		return nil, e
	}
	nv := c.ix.nestedDocs(q.path)
	m, err := q.inner.eval(&qctx{ix: nv.sub, now: c.now})
	if err != nil {
		return nil, err
	}
	out := newMset(c.ix)
	out.score = make([]float32, len(c.ix.docs))
	counts := make(map[int32]int)
	forEach(andBits(m.bits, nv.sub.live), func(s int32) {
		p := nv.parent[s]
		sc := m.scoreOf(s)
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

// nestedAgg runs sub-aggregations over the nested objects of the matching documents.
func nestedAgg(sp *aggSpec, segs []segment, ctx *aggCtx) (obj, *apiError) {
	path, _ := jsonval.String(sp.params["path"])
	if path == "" {
		return nil, parsingErr("Missing [path] field for nested aggregation [%s]", sp.name)
	}
	var subSegs []segment
	for _, seg := range segs {
		if !isNestedPath(seg.ix, path) {
			continue
		}
		nv := seg.ix.nestedDocs(path)
		in := make(map[int32]bool, len(seg.slots))
		for _, s := range seg.slots {
			in[s] = true
		}
		var slots []int32
		for s, p := range nv.parent {
			if in[p] && nv.sub.isLive(int32(s)) {
				slots = append(slots, int32(s))
			}
		}
		subSegs = append(subSegs, segment{ix: nv.sub, slots: slots})
	}
	if len(subSegs) == 0 && len(segs) > 0 {
		return nil, errf(400, "aggregation_execution_exception", "[nested] nested path [%s] is not nested", path)
	}
	return bucketBody(obj{}, countSlots(subSegs), sp, subSegs, ctx)
}
