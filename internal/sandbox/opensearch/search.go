package opensearch

import (
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/aggs"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/query"
)

// searchReq is a parsed search body.
type searchReq struct {
	query       query.Query
	postFilter  query.Query
	aggs        []*aggs.Spec
	from, size  int
	sort        []sortSpec
	source      sourceFilter
	searchAfter []any
	totalCap    int // -1 exact, 0 omitted, n capped
	trackScores bool
	minScore    *float64
	version     bool
	seqNo       bool
	highlight   *query.HighlightSpec
	// aliasFilter: indices reached only through filtered aliases, and the filter that applies.
	aliasFilter map[string]query.Query

	pit           *pitRef                // "pit" in the body
	pitSeq        map[*index.Index]int64 // a point in time: documents written at or after this seqNo are not seen
	keepAll       bool                   // a scroll: all hits are kept, in order, in all
	all           []hit                  // with keepAll, every hit after the first page's start
	view          *hitView               // how hits were rendered, for the scroll's next pages
	shards        int                    // shards searched
	docvalue      []fieldFormat          // docvalue_fields
	fields        []fieldFormat          // fields
	explicitTotal bool                   // track_total_hits was given

	storedFields bool // stored_fields given: _source only when asked for
	storedNone   bool // stored_fields "_none_": no _id either
	sourceAsked  bool // _source given in the body or the URL

	terminateAfter int  // collect at most this many documents per shard (0: no limit)
	terminated     bool // the limit was reached somewhere
}

// pitRef is the body's "pit": {"id", "keep_alive"}.
type pitRef struct {
	id        string
	keepAlive string
}

type sortKind int

const (
	sortField sortKind = iota
	sortScore
	sortDoc
)

type sortSpec struct {
	kind         sortKind
	field        string
	desc         bool
	missingFirst bool
	mode         string // min, max, avg, sum
	unmappedType string
}

func unknownKeyErr(k string, v any) *apierr.Error {
	tok := "VALUE_STRING"
	switch v.(type) {
	case map[string]any:
		tok = "START_OBJECT"
	case []any:
		tok = "START_ARRAY"
	case bool:
		tok = "VALUE_BOOLEAN"
	case nil:
		tok = "VALUE_NULL"
	default:
		if _, ok := jsonval.Float(v); ok {
			if _, isStr := v.(string); !isStr {
				tok = "VALUE_NUMBER"
			}
		}
	}
	return apierr.Parsing("Unknown key for a %s in [%s].", tok, k)
}

func parseSearch(body map[string]any, r *http.Request) (*searchReq, *apierr.Error) {
	req := &searchReq{size: 10, totalCap: maxResultWindow}
	for k, v := range body {
		var err *apierr.Error
		switch k {
		case "query":
			req.query, err = query.Parse(v)
		case "post_filter":
			req.postFilter, err = query.Parse(v)
		case "aggs", "aggregations":
			req.aggs, err = aggs.Parse(v, parseTopHits)
		case "size", "from":
			n, ok := jsonval.Int(v)
			if !ok {
				return nil, apierr.Parsing("[%s] failed to parse field [%s]", k, k)
			}
			if k == "size" {
				req.size = n
			} else {
				req.from = n
			}
		case "sort":
			req.sort, err = parseSort(v)
		case "_source":
			req.sourceAsked = true
			req.source, err = parseSourceFilter(v)
		case "search_after":
			l, ok := v.([]any)
			if !ok {
				return nil, apierr.Parsing("[search_after] must be an array")
			}
			req.searchAfter = l
		case "pit":
			pm, ok := v.(map[string]any)
			id, _ := jsonval.String(pm["id"])
			if !ok || id == "" {
				return nil, apierr.Parsing("[pit] failed to parse field [id]")
			}
			ka, _ := jsonval.String(pm["keep_alive"])
			req.pit = &pitRef{id: id, keepAlive: ka}
		case "docvalue_fields", "fields":
			ff, ferr := parseFieldFormats(k, v)
			if ferr != nil {
				return nil, ferr
			}
			if k == "fields" {
				req.fields = ff
			} else {
				req.docvalue = ff
			}
		case "track_total_hits":
			req.explicitTotal = true
			switch t := v.(type) {
			case bool:
				if t {
					req.totalCap = -1
				} else {
					req.totalCap = 0
				}
			default:
				n, ok := jsonval.Int(v)
				if !ok || n < -1 {
					return nil, apierr.BadRequest("[track_total_hits] parameter must be positive or equals to -1, got %v", v)
				}
				if n == math.MaxInt32 || n == -1 {
					n = -1
				}
				req.totalCap = n
			}
		case "track_scores":
			req.trackScores, _ = jsonval.Bool(v)
		case "min_score":
			f, ok := jsonval.Float(v)
			if !ok {
				return nil, apierr.Parsing("[min_score] must be a number")
			}
			req.minScore = &f
		case "version":
			req.version, _ = jsonval.Bool(v)
		case "seq_no_primary_term":
			req.seqNo, _ = jsonval.Bool(v)
		case "highlight":
			req.highlight, err = query.ParseHighlight(v)
		case "terminate_after":
			n, ok := jsonval.Int(v)
			if !ok || n < 0 {
				return nil, apierr.BadRequest("terminateAfter must be > 0")
			}
			req.terminateAfter = n
		case "stored_fields":
			// No field is stored apart from _source: naming fields fetches none of them and
			// leaves _source out unless asked for; "_none_" leaves out _id too.
			req.storedFields = true
			for _, f := range jsonval.List(v) {
				if f == "_none_" {
					req.storedNone = true
				}
			}
		case "explain", "profile":
			if b, _ := jsonval.Bool(v); b {
				return nil, apierr.BadRequest("[%s] is not supported by this emulation: it has no Lucene scorer to explain or profile", k)
			}
		case "suggest", "indices_boost":
			return nil, apierr.BadRequest("[%s] is not supported by this emulation", k)
		case "timeout", "stats", "ext", "batched_reduce_size":
		case "script_fields", "runtime_mappings":
			return nil, apierr.BadRequest("[%s] is not supported by this emulation: scripts cannot be run", k)
		default:
			return nil, unknownKeyErr(k, v)
		}
		if err != nil {
			return nil, err
		}
	}
	if r != nil {
		q := r.URL.Query()
		if s := q.Get("size"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				return nil, apierr.BadRequest("Failed to parse int parameter [size] with value [%s]", s)
			}
			req.size = n
		}
		if s := q.Get("from"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				return nil, apierr.BadRequest("Failed to parse int parameter [from] with value [%s]", s)
			}
			req.from = n
		}
		if s := q.Get("sort"); s != "" {
			var specs []any
			for _, p := range strings.Split(s, ",") {
				f, dir, _ := strings.Cut(p, ":")
				if dir == "" {
					specs = append(specs, f)
				} else {
					specs = append(specs, map[string]any{f: dir})
				}
			}
			var err *apierr.Error
			if req.sort, err = parseSort(specs); err != nil {
				return nil, err
			}
		}
		if v := sourceParamFromQuery(r); v != nil {
			req.sourceAsked = true
			var err *apierr.Error
			if req.source, err = parseSourceFilter(v); err != nil {
				return nil, err
			}
		}
		if s := q.Get("terminate_after"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				return nil, apierr.BadRequest("Failed to parse int parameter [terminate_after] with value [%s]", s)
			}
			req.terminateAfter = n
		}
		if s := q.Get("docvalue_fields"); s != "" {
			for _, f := range strings.Split(s, ",") {
				req.docvalue = append(req.docvalue, fieldFormat{field: strings.TrimSpace(f)})
			}
		}
		if s := q.Get("track_total_hits"); s != "" {
			req.explicitTotal = true
			switch s {
			case "true":
				req.totalCap = -1
			case "false":
				req.totalCap = 0
			default:
				n, err := strconv.Atoi(s)
				if err != nil {
					return nil, apierr.BadRequest("Failed to parse int parameter [track_total_hits] with value [%s]", s)
				}
				req.totalCap = n
			}
		}
		if s := q.Get("q"); s != "" {
			qs, err := query.ParseQueryString("query_string", map[string]any{"query": s})
			if err != nil {
				return nil, err
			}
			req.query = qs
		}
	}
	if req.query == nil {
		req.query = &query.MatchAllQuery{Boost: 1}
	}
	if req.size < 0 {
		return nil, apierr.BadRequest("[size] parameter cannot be negative, found [%d]", req.size)
	}
	if req.from < 0 {
		return nil, apierr.BadRequest("[from] parameter cannot be negative, found [%d]", req.from)
	}
	if req.searchAfter != nil {
		if len(req.sort) == 0 {
			return nil, apierr.BadRequest("Sort must contain at least one field when [search_after] is used")
		}
		if req.from > 0 {
			return nil, apierr.BadRequest("`from` parameter must be set to 0 when `search_after` is used.")
		}
		if len(req.searchAfter) != len(req.sort) {
			return nil, apierr.BadRequest("search_after has %d value(s) but sort has %d.", len(req.searchAfter), len(req.sort))
		}
	}
	return req, nil
}

func parseSort(v any) ([]sortSpec, *apierr.Error) {
	var out []sortSpec
	for _, item := range jsonval.List(v) {
		switch t := item.(type) {
		case string:
			out = append(out, newSortSpec(t))
		case map[string]any:
			for _, field := range jsonval.SortedKeys(t) {
				sp := newSortSpec(field)
				switch o := t[field].(type) {
				case string:
					if err := sp.setOrder(o); err != nil {
						return nil, err
					}
				case map[string]any:
					for pk, pv := range o {
						s, _ := jsonval.String(pv)
						switch pk {
						case "order":
							if err := sp.setOrder(s); err != nil {
								return nil, err
							}
						case "missing":
							sp.missingFirst = s == "_first"
						case "mode":
							sp.mode = s
						case "unmapped_type":
							sp.unmappedType = s
						case "format", "numeric_type", "nested":
						default:
							return nil, apierr.Parsing("[field_sort] unknown field [%s]", pk)
						}
					}
				default:
					return nil, apierr.Parsing("[sort] option for [%s] must be a string or an object", field)
				}
				out = append(out, sp)
			}
		default:
			return nil, apierr.Parsing("[sort] entries must be strings or objects")
		}
	}
	return out, nil
}

func newSortSpec(field string) sortSpec {
	switch field {
	case "_score":
		return sortSpec{kind: sortScore, field: field, desc: true}
	case "_doc":
		return sortSpec{kind: sortDoc, field: field}
	}
	return sortSpec{kind: sortField, field: field}
}

func (s *sortSpec) setOrder(o string) *apierr.Error {
	switch strings.ToLower(o) {
	case "asc":
		s.desc = false
	case "desc":
		s.desc = true
	default:
		return apierr.BadRequest("Unknown SortOrder [%s]", o)
	}
	return nil
}

// sortVal is one sort key of a hit.
type sortVal struct {
	missing bool
	isStr   bool
	s       string
	f       float64
}

type hit struct {
	ord   int // index order among targets
	slot  int32
	score float32
	keys  []sortVal
	doc   *index.Document // set when the hit outlives the request (scroll): the version it matched
}

// checkSort rejects sorts the engine refuses: text fields and fields mapped nowhere.
func checkSort(targets []*index.Index, specs []sortSpec) *apierr.Error {
	for _, sp := range specs {
		if sp.kind != sortField {
			continue
		}
		mapped := false
		for _, ix := range targets {
			fd := ix.Fields[sp.field]
			if fd == nil {
				continue
			}
			mapped = true
			if fd.Kind == index.KindText {
				return shardFailure(index.FielddataErr(sp.field), ix.Name)
			}
			if fd.Kind == index.KindObject {
				return shardFailure(apierr.BadRequest("Fielddata is not supported on field [%s] of type [object]", sp.field), ix.Name)
			}
		}
		if !mapped && sp.unmappedType == "" && len(targets) > 0 {
			e := apierr.Errf(400, "query_shard_exception", "No mapping found for [%s] in order to sort on", sp.field)
			e.Index = targets[0].Name
			return shardFailure(e, targets[0].Name)
		}
	}
	return nil
}

// sortKeyIn is a hit's sort key for one sort spec. It takes the sort field's column
// already looked up (nil: none), so a search ordering 100,000 hits looks it up once, not
// once a hit.
func sortKeyIn(col *index.Column, slot int32, score float32, sp sortSpec) sortVal {
	switch sp.kind {
	case sortScore:
		return sortVal{f: float64(score)}
	case sortDoc:
		return sortVal{f: float64(slot)}
	}
	if col == nil {
		return sortVal{missing: true}
	}
	if col.Kind == index.KindKeyword {
		vals := col.StrAt(slot)
		if len(vals) == 0 {
			return sortVal{missing: true, isStr: true}
		}
		best := vals[0]
		for _, v := range vals[1:] {
			if (sp.desc || sp.mode == "max") && sp.mode != "min" {
				if v > best {
					best = v
				}
			} else if v < best {
				best = v
			}
		}
		return sortVal{isStr: true, s: best}
	}
	vals := col.NumAt(slot)
	if len(vals) == 0 {
		return sortVal{missing: true}
	}
	best := vals[0]
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	for _, v := range vals[1:] {
		if (sp.desc || sp.mode == "max") && sp.mode != "min" {
			best = math.Max(best, v)
		} else {
			best = math.Min(best, v)
		}
	}
	switch sp.mode {
	case "sum":
		best = sum
	case "avg":
		best = sum / float64(len(vals))
	}
	return sortVal{f: best}
}

func cmpVal(a, b sortVal, sp sortSpec) int {
	if a.missing || b.missing {
		switch {
		case a.missing && b.missing:
			return 0
		case a.missing == sp.missingFirst:
			return -1
		default:
			return 1
		}
	}
	c := 0
	if a.isStr || b.isStr {
		c = strings.Compare(a.s, b.s)
	} else if a.f < b.f {
		c = -1
	} else if a.f > b.f {
		c = 1
	}
	if sp.desc {
		c = -c
	}
	return c
}

func cmpKeys(a, b []sortVal, specs []sortSpec) int {
	for i, sp := range specs {
		if c := cmpVal(a[i], b[i], sp); c != 0 {
			return c
		}
	}
	return 0
}

// afterKeys converts search_after values into comparable keys.
func afterKeys(vals []any, specs []sortSpec) []sortVal {
	out := make([]sortVal, len(vals))
	for i, v := range vals {
		if v == nil {
			out[i] = sortVal{missing: true}
			continue
		}
		if s, ok := v.(string); ok && specs[i].kind == sortField {
			if f, err := strconv.ParseFloat(s, 64); err == nil && !looksKeyword(s) {
				out[i] = sortVal{f: f, s: s}
			} else {
				out[i] = sortVal{isStr: true, s: s}
			}
			continue
		}
		f, _ := jsonval.Float(v)
		if f >= math.MaxInt64 || f <= math.MinInt64 {
			out[i] = sortVal{missing: true}
			continue
		}
		out[i] = sortVal{f: f}
	}
	return out
}

func looksKeyword(s string) bool { return strings.TrimSpace(s) != s || s == "" }

// sortOutput renders a key as the engine shows it in "sort".
func sortOutput(ix *index.Index, v sortVal, sp sortSpec) any {
	switch sp.kind {
	case sortScore:
		return float32(v.f)
	case sortDoc:
		return int64(v.f)
	}
	fd := ix.Fields[sp.field]
	k, typ := index.KindNone, ""
	if fd != nil {
		k, typ = fd.Kind, fd.Type
	} else if sp.unmappedType != "" {
		typ = sp.unmappedType
		k = index.TypeKinds[typ]
	}
	if v.missing {
		switch k {
		case index.KindLong, index.KindDate, index.KindBool:
			if sp.desc != sp.missingFirst {
				return int64(math.MinInt64)
			}
			return int64(math.MaxInt64)
		}
		return nil
	}
	switch k {
	case index.KindKeyword:
		return v.s
	case index.KindLong, index.KindDate, index.KindBool:
		return int64(v.f)
	case index.KindFloat:
		if typ == "double" || typ == "scaled_float" {
			return v.f
		}
		return float32(v.f)
	}
	if v.isStr {
		return v.s
	}
	return v.f
}

// execSearch runs a parsed search over the targets; the caller holds the read lock.
func (c *Cluster) execSearch(targets []*index.Index, req *searchReq) (jsonout.Obj, *apierr.Error) {
	start := time.Now()
	if req.from+req.size > maxResultWindow {
		name := "_all"
		if len(targets) > 0 {
			name = targets[0].Name
		}
		return nil, shardFailure(apierr.BadRequest("Result window is too large, from + size must be less than or equal to: [%d] but was [%d]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.", maxResultWindow, req.from+req.size), name)
	}
	if err := checkSort(targets, req.sort); err != nil {
		return nil, err
	}
	if err := checkDocvalueFields(targets, req.docvalue); err != nil {
		return nil, err
	}
	order := newHitOrder(req.sort, req.trackScores)
	specs := order.specs
	var after []sortVal
	if req.searchAfter != nil {
		after = afterKeys(req.searchAfter, specs)
	}
	now := c.now()
	var hits []hit
	var segs []index.Segment
	scoreSets := map[*index.Index]*query.Matches{}
	total := 0
	maxScore := float32(math.Inf(-1))
	shards := 0
	for ord, ix := range targets {
		shards += ix.Shards
		ix.QueryTotal.Add(1)
		qc := &query.Context{Index: ix, Now: now}
		m, err := req.query.Eval(qc)
		if err != nil {
			return nil, shardFailure(err, ix.Name)
		}
		for i := range m.Bits {
			if i < len(ix.Live) {
				m.Bits[i] &= ix.Live[i]
			} else {
				m.Bits[i] = 0
			}
		}
		if limit, ok := req.pitSeq[ix]; ok {
			index.ForEach(m.Bits, func(s int32) {
				if ix.Docs[s].SeqNo >= limit {
					m.Bits[s>>6] &^= 1 << (uint(s) & 63)
				}
			})
		}
		if err := applyAliasFilter(qc, m, req.aliasFilter); err != nil {
			return nil, shardFailure(err, ix.Name)
		}
		if req.minScore != nil {
			ms := float32(*req.minScore)
			index.ForEach(m.Bits, func(s int32) {
				if m.ScoreOf(s) < ms {
					m.Bits[s>>6] &^= 1 << (uint(s) & 63)
				}
			})
		}
		if req.terminateAfter > 0 && limitBits(m.Bits, req.terminateAfter) {
			req.terminated = true
		}
		if len(req.aggs) > 0 {
			slots := make([]int32, 0, index.Popcount(m.Bits))
			index.ForEach(m.Bits, func(s int32) { slots = append(slots, s) })
			segs = append(segs, index.Segment{Index: ix, Slots: slots})
			scoreSets[ix] = m
		}
		if req.postFilter != nil {
			pf, err := req.postFilter.Eval(qc)
			if err != nil {
				return nil, shardFailure(err, ix.Name)
			}
			for i := range m.Bits {
				m.Bits[i] &= pf.Bits[i]
			}
		}
		n := index.Popcount(m.Bits)
		total += n
		if req.size == 0 {
			continue
		}
		base := len(hits)
		hits = append(hits, make([]hit, n)...)
		i := base
		index.ForEach(m.Bits, func(s int32) {
			h := &hits[i]
			h.ord, h.slot, h.score = ord, s, m.ScoreOf(s)
			if h.score > maxScore {
				maxScore = h.score
			}
			i++
		})
		order.fillKeys(ix, hits[base:])
	}
	less := order.less
	if after != nil {
		kept := hits[:0]
		for _, h := range hits {
			if cmpKeys(h.keys, after, specs) > 0 {
				kept = append(kept, h)
			}
		}
		hits = kept
	}
	var page []hit
	if req.keepAll {
		sort.Slice(hits, func(i, j int) bool { return less(&hits[i], &hits[j]) })
		if req.from < len(hits) {
			hits = hits[req.from:]
		} else {
			hits = nil
		}
		for i := range hits {
			hits[i].doc = targets[hits[i].ord].Docs[hits[i].slot]
		}
		req.all = hits
		page = hits[:min(req.size, len(hits))]
	} else {
		page = topHits(hits, req.from+req.size, less)
		if req.from < len(page) {
			page = page[req.from:]
		} else {
			page = nil
		}
	}
	view := req.hitView(order)
	req.view = view
	hitList := make([]jsonout.Obj, 0, len(page))
	for i := range page {
		hitList = append(hitList, view.render(targets[page[i].ord], &page[i]))
	}
	hitsObj := jsonout.Obj{}
	switch {
	case req.totalCap < 0:
		hitsObj = append(hitsObj, jsonout.KV{"total", jsonout.Obj{{"value", total}, {"relation", "eq"}}})
	case req.totalCap > 0 || total == 0:
		if total > req.totalCap && req.totalCap > 0 {
			hitsObj = append(hitsObj, jsonout.KV{"total", jsonout.Obj{{"value", req.totalCap}, {"relation", "gte"}}})
		} else if req.totalCap > 0 {
			hitsObj = append(hitsObj, jsonout.KV{"total", jsonout.Obj{{"value", total}, {"relation", "eq"}}})
		}
	}
	var ms any
	if !order.nullScores && !math.IsInf(float64(maxScore), -1) && req.size > 0 {
		ms = maxScore
	}
	hitsObj = append(hitsObj, jsonout.KV{"max_score", ms}, jsonout.KV{"hits", hitList})
	out := jsonout.Obj{{"took", 0}, {"timed_out", false}}
	if req.terminateAfter > 0 {
		out = append(out, jsonout.KV{"terminated_early", req.terminated})
	}
	out = append(out, jsonout.KV{"_shards", jsonout.Obj{{"total", shards}, {"successful", shards}, {"skipped", 0}, {"failed", 0}}},
		jsonout.KV{"hits", hitsObj})
	if len(req.aggs) > 0 {
		ac := &aggs.Context{Now: now, TopHits: func(sp *aggs.Spec, segs []index.Segment) (jsonout.Obj, *apierr.Error) {
			return topHitsAgg(sp, segs, req.query, scoreSets)
		}}
		res, err := aggs.Run(req.aggs, segs, ac)
		if err != nil {
			name := "_all"
			if len(targets) > 0 {
				name = targets[0].Name
			}
			if err.Type == "too_many_buckets_exception" || err.Type == "parsing_exception" {
				return nil, err
			}
			return nil, shardFailure(err, name)
		}
		out = append(out, jsonout.KV{"aggregations", res})
	}
	out[0].V = time.Since(start).Milliseconds()
	req.shards = shards
	return out, nil
}

// topHits returns the first k hits in order, without sorting everything when k is small.
func topHits(hits []hit, k int, less func(a, b *hit) bool) []hit {
	if k <= 0 {
		return nil
	}
	if len(hits) <= k || len(hits) < 4*k {
		sort.Slice(hits, func(i, j int) bool { return less(&hits[i], &hits[j]) })
		if len(hits) > k {
			hits = hits[:k]
		}
		return hits
	}
	// Keep a max-heap (by order) of the best k.
	heap := make([]hit, 0, k)
	worse := func(i, j int) bool { return less(&heap[j], &heap[i]) }
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(heap) {
				return
			}
			big := l
			if r := l + 1; r < len(heap) && worse(r, l) {
				big = r
			}
			if !worse(big, i) {
				return
			}
			heap[i], heap[big] = heap[big], heap[i]
			i = big
		}
	}
	for i := range hits {
		if len(heap) < k {
			heap = append(heap, hits[i])
			for j := len(heap) - 1; j > 0; {
				p := (j - 1) / 2
				if !worse(j, p) {
					break
				}
				heap[j], heap[p] = heap[p], heap[j]
				j = p
			}
			continue
		}
		if less(&hits[i], &heap[0]) {
			heap[0] = hits[i]
			down(0)
		}
	}
	sort.Slice(heap, func(i, j int) bool { return less(&heap[i], &heap[j]) })
	return heap
}

func (c *Cluster) searchTargets(expr string, r *http.Request) ([]*index.Index, *apierr.Error) {
	return c.resolveReq(r, expr, searchOpts)
}

// searchOpts are a search's IndicesOptions (strictExpandOpenAndForbidClosed): wildcards expand to
// open indices, and a closed index named is index_closed_exception.
var searchOpts = resolveOpts{wildcards: expandOpen, forbidClosed: true}

// searchIndices resolves the indices of a search or of one _msearch entry.
func (c *Cluster) searchIndices(expr string, ignoreUnavailable bool, wildcards string) ([]*index.Index, *apierr.Error) {
	o := searchOpts
	o.ignoreUnavailable = ignoreUnavailable
	var err *apierr.Error
	if o.wildcards, err = parseExpand(wildcards, o.wildcards); err != nil {
		return nil, err
	}
	return c.resolveWith(expr, o)
}

func (c *Cluster) handleSearch(w http.ResponseWriter, r *http.Request, expr string, body []byte) {
	v, err := parseBody(body, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	out, err := c.search(r, expr, m, body, searchParamsOf(r.URL.Query()))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, 200, out)
}

func (c *Cluster) handleCount(w http.ResponseWriter, r *http.Request, expr string, body []byte) {
	v, err := parseBody(body, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	var q query.Query = &query.MatchAllQuery{Boost: 1}
	for k, x := range m {
		if k != "query" {
			c.fail(w, r, apierr.WithLocation(unknownKeyErr(k, x), body))
			return
		}
		if q, err = query.Parse(x); err != nil {
			c.fail(w, r, apierr.WithLocation(err, body))
			return
		}
	}
	if s := r.URL.Query().Get("q"); s != "" {
		if q, err = query.ParseQueryString("query_string", map[string]any{"query": s}); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	terminateAfter, terminated := 0, false
	if s := r.URL.Query().Get("terminate_after"); s != "" {
		n, perr := strconv.Atoi(s)
		if perr != nil || n < 0 {
			c.fail(w, r, apierr.BadRequest("Failed to parse int parameter [terminate_after] with value [%s]", s))
			return
		}
		terminateAfter = n
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	targets, err := c.searchTargets(expr, r)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	n, shards := 0, 0
	now := c.now()
	filters := c.aliasFilters(expr)
	for _, ix := range targets {
		shards += ix.Shards
		qc := &query.Context{Index: ix, Now: now}
		ms, err := q.Eval(qc)
		if err == nil {
			err = applyAliasFilter(qc, ms, filters)
		}
		if err != nil {
			c.fail(w, r, shardFailure(err, ix.Name))
			return
		}
		k := index.Popcount(query.AndBits(ms.Bits, ix.Live))
		if terminateAfter > 0 && k > terminateAfter {
			k, terminated = terminateAfter, true
		}
		n += k
	}
	out := jsonout.Obj{{"count", n}}
	if terminateAfter > 0 {
		out = append(out, jsonout.KV{"terminated_early", terminated})
	}
	c.reply(w, r, 200, append(out, jsonout.KV{"_shards", jsonout.Obj{{"total", shards}, {"successful", shards}, {"skipped", 0}, {"failed", 0}}}))
}

// limitBits keeps the first n set bits (the documents a shard collects first, in index order) and
// tells whether any were dropped (terminate_after).
func limitBits(bits []uint64, n int) bool {
	seen := 0
	for i := range bits {
		if seen >= n {
			if bits[i] != 0 {
				clear(bits[i:])
				return true
			}
			continue
		}
		for w := bits[i]; w != 0; w &= w - 1 {
			seen++
			if seen == n {
				rest := w & (w - 1) // the bits after this one
				if rest != 0 {
					bits[i] &^= rest
					clear(bits[i+1:])
					return true
				}
				for _, x := range bits[i+1:] {
					if x != 0 {
						clear(bits[i+1:])
						return true
					}
				}
				return false
			}
		}
	}
	return false
}
