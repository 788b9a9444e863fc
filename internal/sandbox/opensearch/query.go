package opensearch

import (
	"math"
	"sort"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// qctx is what evaluating a query over one index needs.
type qctx struct {
	ix  *index
	now time.Time
}

// query is a parsed query clause, evaluated per index.
type query interface {
	eval(c *qctx) (*mset, *apiError)
}

// parseQuery reads one query clause {"type": {...}}.
func parseQuery(v any) (query, *apiError) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, parsingErr("[_na] query malformed, must start with start_object")
	}
	if len(m) == 0 {
		return &matchAllQuery{boost: 1}, nil
	}
	if len(m) > 1 {
		keys := jsonval.SortedKeys(m)
		return nil, parsingErr("[%s] malformed query, expected [END_OBJECT] but found [FIELD_NAME]", keys[0])
	}
	for typ, body := range m {
		return parseClause(typ, body)
	}
	return nil, nil
}

func parseClause(typ string, body any) (query, *apiError) {
	switch typ {
	case "match_all":
		bm, _ := asMap(body)
		return &matchAllQuery{boost: boostOf(bm)}, nil
	case "match_none":
		return &matchNoneQuery{}, nil
	case "match", "match_phrase", "match_phrase_prefix", "match_bool_prefix":
		return parseMatch(typ, body)
	case "multi_match":
		return parseMultiMatch(body)
	case "term", "prefix", "wildcard", "fuzzy", "regexp":
		return parseTermLike(typ, body)
	case "terms":
		return parseTerms(body)
	case "range":
		return parseRange(body)
	case "bool":
		return parseBool(body)
	case "exists":
		bm, ok := asMap(body)
		f, _ := bm["field"].(string)
		if !ok || f == "" {
			return nil, parsingErr("[exists] must be provided with a [field]")
		}
		return &existsQuery{field: f, boost: boostOf(bm)}, nil
	case "ids":
		bm, ok := asMap(body)
		if !ok {
			return nil, parsingErr("[ids] query malformed, no start_object after query name")
		}
		var ids []string
		for _, x := range asList(bm["values"]) {
			s, _ := jsonval.String(x)
			ids = append(ids, s)
		}
		return &idsQuery{ids: ids, boost: boostOf(bm)}, nil
	case "constant_score":
		bm, ok := asMap(body)
		if !ok || bm["filter"] == nil {
			return nil, parsingErr("[constant_score] requires a 'filter' element")
		}
		inner, err := parseQuery(bm["filter"])
		if err != nil {
			return nil, err
		}
		return &constantScoreQuery{inner: inner, boost: boostOf(bm)}, nil
	case "query_string", "simple_query_string":
		return parseQueryString(typ, body)
	case "nested":
		return parseNested(body)
	}
	return nil, parsingErr("unknown query [%s]", typ)
}

func boostOf(m map[string]any) float64 {
	if b, ok := jsonval.Float(m["boost"]); ok {
		return b
	}
	return 1
}

// fieldClause splits {"field": value} or {"field": {...params}}, returning the field and params.
func fieldClause(typ string, body any, valueKey string) (string, map[string]any, *apiError) {
	bm, ok := asMap(body)
	if !ok {
		return "", nil, parsingErr("[%s] query malformed, no start_object after query name", typ)
	}
	var field string
	var params map[string]any
	for k, v := range bm {
		if k == "boost" || k == "_name" {
			continue
		}
		if field != "" {
			return "", nil, parsingErr("[%s] query doesn't support multiple fields, found [%s] and [%s]", typ, field, k)
		}
		field = k
		if pm, ok := v.(map[string]any); ok {
			params = pm
		} else {
			params = map[string]any{valueKey: v}
		}
	}
	if field == "" {
		return "", nil, errf(400, "illegal_argument_exception", "[%s] requires fieldName", typ)
	}
	if b, ok := bm["boost"]; ok {
		if _, has := params["boost"]; !has {
			params["boost"] = b
		}
	}
	return field, params, nil
}

// --- match_all / match_none / ids / exists / constant_score ---

type matchAllQuery struct{ boost float64 }

func (q *matchAllQuery) eval(c *qctx) (*mset, *apiError) {
	m := constSet(c.ix, q.boost)
	copy(m.bits, c.ix.live)
	return m, nil
}

type matchNoneQuery struct{}

func (q *matchNoneQuery) eval(c *qctx) (*mset, *apiError) { return newMset(c.ix), nil }

type idsQuery struct {
	ids   []string
	boost float64
}

func (q *idsQuery) eval(c *qctx) (*mset, *apiError) {
	m := constSet(c.ix, q.boost)
	for _, id := range q.ids {
		if s, ok := c.ix.ids[id]; ok {
			m.set(s)
		}
	}
	return m, nil
}

type existsQuery struct {
	field string
	boost float64
}

func (q *existsQuery) eval(c *qctx) (*mset, *apiError) {
	m := constSet(c.ix, q.boost)
	paths := []string{}
	for p, fd := range c.ix.fields {
		if fd.kind == kindObject {
			continue
		}
		if rest.GlobMatch(q.field, p) || strings.HasPrefix(p, q.field+".") {
			paths = append(paths, p)
		}
	}
	for _, p := range paths {
		if t := c.ix.texts[p]; t != nil {
			for s, has := range t.has {
				if has && c.ix.isLive(int32(s)) {
					m.set(int32(s))
				}
			}
		}
		if col := c.ix.cols[p]; col != nil {
			n := max(len(col.strs), len(col.nums))
			for s := 0; s < n; s++ {
				if col.has(int32(s)) && c.ix.isLive(int32(s)) {
					m.set(int32(s))
				}
			}
		}
	}
	return m, nil
}

type constantScoreQuery struct {
	inner query
	boost float64
}

func (q *constantScoreQuery) eval(c *qctx) (*mset, *apiError) {
	in, err := q.inner.eval(c)
	if err != nil {
		return nil, err
	}
	return &mset{bits: in.bits, konst: float32(q.boost)}, nil
}

// --- bool ---

type boolQuery struct {
	must, should, mustNot, filter []query
	msm                           any
	boost                         float64
}

func parseBool(body any) (query, *apiError) {
	bm, ok := asMap(body)
	if !ok {
		return nil, parsingErr("[bool] query malformed, no start_object after query name")
	}
	q := &boolQuery{boost: boostOf(bm), msm: bm["minimum_should_match"]}
	for k, v := range bm {
		var dst *[]query
		switch k {
		case "must":
			dst = &q.must
		case "should":
			dst = &q.should
		case "must_not", "mustNot":
			dst = &q.mustNot
		case "filter":
			dst = &q.filter
		case "boost", "minimum_should_match", "_name", "adjust_pure_negative":
			continue
		default:
			return nil, parsingErr("[bool] query does not support [%s]", k)
		}
		for _, x := range asList(v) {
			sub, err := parseQuery(x)
			if err != nil {
				return nil, err
			}
			*dst = append(*dst, sub)
		}
	}
	return q, nil
}

// minimumShouldMatch resolves "2", "-1", "75%", "-25%" against n optional clauses.
func minimumShouldMatch(spec any, n int) int {
	s, ok := jsonval.String(spec)
	if !ok || s == "" {
		return 0
	}
	s = strings.TrimSpace(s)
	var r int
	if strings.HasSuffix(s, "%") {
		p, ok := jsonval.Float(strings.TrimSuffix(s, "%"))
		if !ok {
			return 0
		}
		r = int(math.Floor(float64(n) * math.Abs(p) / 100))
		if p < 0 {
			r = n - r
		}
	} else {
		v, ok := asInt(s)
		if !ok {
			return 0
		}
		r = v
		if v < 0 {
			r = n + v
		}
	}
	return max(0, min(r, n))
}

func (q *boolQuery) eval(c *qctx) (*mset, *apiError) {
	out := newMset(c.ix)
	copy(out.bits, c.ix.live)
	scoring := len(q.must)+len(q.should) > 0
	var scores []float32
	if scoring {
		scores = make([]float32, len(out.bits)*64)
	}
	for _, sub := range q.must {
		m, err := sub.eval(c)
		if err != nil {
			return nil, err
		}
		for i := range out.bits {
			out.bits[i] &= m.bits[i]
		}
		addScores(scores, m, out.bits)
	}
	for _, sub := range q.filter {
		m, err := sub.eval(c)
		if err != nil {
			return nil, err
		}
		for i := range out.bits {
			out.bits[i] &= m.bits[i]
		}
	}
	for _, sub := range q.mustNot {
		m, err := sub.eval(c)
		if err != nil {
			return nil, err
		}
		for i := range out.bits {
			out.bits[i] &^= m.bits[i]
		}
	}
	if len(q.should) > 0 {
		need := 1
		if len(q.must)+len(q.filter) > 0 {
			need = 0
		}
		if q.msm != nil {
			need = minimumShouldMatch(q.msm, len(q.should))
		}
		var counts []uint16
		if need > 1 {
			counts = make([]uint16, len(out.bits)*64)
		}
		any := make([]uint64, len(out.bits))
		for _, sub := range q.should {
			m, err := sub.eval(c)
			if err != nil {
				return nil, err
			}
			for i := range any {
				any[i] |= m.bits[i] & out.bits[i]
			}
			if counts != nil {
				forEach(andBits(m.bits, out.bits), func(s int32) { counts[s]++ })
			}
			addScores(scores, m, out.bits)
		}
		switch {
		case need == 1:
			copy(out.bits, any)
		case need > 1:
			for i := range out.bits {
				out.bits[i] &= any[i]
			}
			forEach(out.bits, func(s int32) {
				if int(counts[s]) < need {
					out.bits[s>>6] &^= 1 << (uint(s) & 63)
				}
			})
		}
	}
	if !scoring {
		out.konst = 0
		return out, nil
	}
	if q.boost != 1 {
		forEach(out.bits, func(s int32) { scores[s] *= float32(q.boost) })
	}
	out.score = scores
	return out, nil
}

func andBits(a, b []uint64) []uint64 {
	out := make([]uint64, len(a))
	for i := range a {
		out[i] = a[i] & b[i]
	}
	return out
}

func addScores(scores []float32, m *mset, mask []uint64) {
	if scores == nil {
		return
	}
	if m.score == nil {
		if m.konst == 0 {
			return
		}
		forEach(andBits(m.bits, mask), func(s int32) { scores[s] += m.konst })
		return
	}
	forEach(andBits(m.bits, mask), func(s int32) { scores[s] += m.score[s] })
}

// --- field value helpers ---

// sourcePath is where a field's values live in _source (multi-fields read their parent).
func sourcePath(fd *fieldDef) string {
	if fd.multi {
		if i := strings.LastIndexByte(fd.path, '.'); i > 0 {
			return fd.path[:i]
		}
	}
	return fd.path
}

// numericValue converts a query value for a numeric, date or boolean field.
func numericValue(c *qctx, fd *fieldDef, v any, roundUp bool, format string) (float64, *apiError) {
	switch fd.kind {
	case kindDate:
		s, _ := jsonval.String(v)
		if format == "" {
			format = fd.fm.format
		}
		ms, err := dates.ParseMath(s, c.now, roundUp, format)
		if err != nil {
			return 0, errf(400, "parse_exception", "%s", err.Error())
		}
		return float64(ms), nil
	case kindBool:
		b, ok := jsonval.Bool(v)
		if !ok {
			s, _ := jsonval.String(v)
			return 0, badRequest("Can't parse boolean value [%s], expected [true] or [false]", s)
		}
		if b {
			return 1, nil
		}
		return 0, nil
	}
	f, ok := jsonval.Float(v)
	if !ok {
		s, _ := jsonval.String(v)
		return 0, errf(400, "number_format_exception", "For input string: \"%s\"", s)
	}
	if fd.typ == "float" || fd.typ == "half_float" {
		f = float64(float32(f))
	}
	return f, nil
}

func queryShardErr(c *qctx, err *apiError) *apiError {
	e := errf(400, "query_shard_exception", "failed to create query: %s", err.reason)
	e.index = c.ix.name
	e.causedBy = err
	return e
}

// eachColumnMatch sets the slots whose doc values satisfy pred.
func eachColumnMatch(c *qctx, m *mset, col *column, pred func(s string, f float64) bool) {
	if col == nil {
		return
	}
	if col.kind == kindKeyword {
		for s, vals := range col.strs {
			for _, v := range vals {
				if pred(v, 0) {
					if c.ix.isLive(int32(s)) {
						m.set(int32(s))
					}
					break
				}
			}
		}
		return
	}
	for s, vals := range col.nums {
		for _, v := range vals {
			if pred("", v) {
				if c.ix.isLive(int32(s)) {
					m.set(int32(s))
				}
				break
			}
		}
	}
}

// termsMatching lists the live terms of a text field accepted by pred, sorted.
func termsMatching(t *textIndex, pred func(term string) bool) []string {
	var out []string
	for term := range t.df {
		if pred(term) {
			out = append(out, term)
		}
	}
	sort.Strings(out)
	return out
}

// unionTerms adds every posting of the given terms with a constant score.
func unionTerms(c *qctx, m *mset, t *textIndex, terms []string) {
	for _, term := range terms {
		for _, p := range t.postings[term] {
			if c.ix.isLive(p.slot) {
				m.set(p.slot)
			}
		}
	}
}
