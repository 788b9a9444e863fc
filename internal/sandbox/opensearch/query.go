package opensearch

import (
	"math"
	"sort"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// qctx is what evaluating a query over one index needs.
type qctx struct {
	ix  *index.Index
	now time.Time
}

// query is a parsed query clause, evaluated per index.
type query interface {
	eval(c *qctx) (*mset, *apierr.Error)
}

// parseQuery reads one query clause {"type": {...}}.
func parseQuery(v any) (query, *apierr.Error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, apierr.Parsing("[_na] query malformed, must start with start_object")
	}
	if len(m) == 0 {
		return &matchAllQuery{boost: 1}, nil
	}
	if len(m) > 1 {
		keys := jsonval.SortedKeys(m)
		return nil, apierr.Parsing("[%s] malformed query, expected [END_OBJECT] but found [FIELD_NAME]", keys[0])
	}
	for typ, body := range m {
		return parseClause(typ, body)
	}
	return nil, nil
}

func parseClause(typ string, body any) (query, *apierr.Error) {
	switch typ {
	case "match_all":
		bm, _ := jsonval.Map(body)
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
		bm, ok := jsonval.Map(body)
		f, _ := bm["field"].(string)
		if !ok || f == "" {
			return nil, apierr.Parsing("[exists] must be provided with a [field]")
		}
		return &existsQuery{field: f, boost: boostOf(bm)}, nil
	case "ids":
		bm, ok := jsonval.Map(body)
		if !ok {
			return nil, apierr.Parsing("[ids] query malformed, no start_object after query name")
		}
		var ids []string
		for _, x := range jsonval.List(bm["values"]) {
			s, _ := jsonval.String(x)
			ids = append(ids, s)
		}
		return &idsQuery{ids: ids, boost: boostOf(bm)}, nil
	case "constant_score":
		bm, ok := jsonval.Map(body)
		if !ok || bm["filter"] == nil {
			return nil, apierr.Parsing("[constant_score] requires a 'filter' element")
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
	return nil, apierr.Parsing("unknown query [%s]", typ)
}

func boostOf(m map[string]any) float64 {
	if b, ok := jsonval.Float(m["boost"]); ok {
		return b
	}
	return 1
}

// fieldClause splits {"field": value} or {"field": {...params}}, returning the field and params.
func fieldClause(typ string, body any, valueKey string) (string, map[string]any, *apierr.Error) {
	bm, ok := jsonval.Map(body)
	if !ok {
		return "", nil, apierr.Parsing("[%s] query malformed, no start_object after query name", typ)
	}
	var field string
	var params map[string]any
	for k, v := range bm {
		if k == "boost" || k == "_name" {
			continue
		}
		if field != "" {
			return "", nil, apierr.Parsing("[%s] query doesn't support multiple fields, found [%s] and [%s]", typ, field, k)
		}
		field = k
		if pm, ok := v.(map[string]any); ok {
			params = pm
		} else {
			params = map[string]any{valueKey: v}
		}
	}
	if field == "" {
		return "", nil, apierr.Errf(400, "illegal_argument_exception", "[%s] requires fieldName", typ)
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

func (q *matchAllQuery) eval(c *qctx) (*mset, *apierr.Error) {
	m := constSet(c.ix, q.boost)
	copy(m.bits, c.ix.Live)
	return m, nil
}

type matchNoneQuery struct{}

func (q *matchNoneQuery) eval(c *qctx) (*mset, *apierr.Error) { return newMset(c.ix), nil }

type idsQuery struct {
	ids   []string
	boost float64
}

func (q *idsQuery) eval(c *qctx) (*mset, *apierr.Error) {
	m := constSet(c.ix, q.boost)
	for _, id := range q.ids {
		if s, ok := c.ix.IDs[id]; ok {
			m.set(s)
		}
	}
	return m, nil
}

type existsQuery struct {
	field string
	boost float64
}

func (q *existsQuery) eval(c *qctx) (*mset, *apierr.Error) {
	m := constSet(c.ix, q.boost)
	paths := []string{}
	for p, fd := range c.ix.Fields {
		if fd.Kind == index.KindObject {
			continue
		}
		if rest.GlobMatch(q.field, p) || strings.HasPrefix(p, q.field+".") {
			paths = append(paths, p)
		}
	}
	for _, p := range paths {
		if t := c.ix.Texts[p]; t != nil {
			for s, has := range t.Has {
				if has && c.ix.IsLive(int32(s)) {
					m.set(int32(s))
				}
			}
		}
		if col := c.ix.Columns[p]; col != nil {
			n := max(len(col.Strs), len(col.Nums))
			for s := 0; s < n; s++ {
				if col.Has(int32(s)) && c.ix.IsLive(int32(s)) {
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

func (q *constantScoreQuery) eval(c *qctx) (*mset, *apierr.Error) {
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

func parseBool(body any) (query, *apierr.Error) {
	bm, ok := jsonval.Map(body)
	if !ok {
		return nil, apierr.Parsing("[bool] query malformed, no start_object after query name")
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
			return nil, apierr.Parsing("[bool] query does not support [%s]", k)
		}
		for _, x := range jsonval.List(v) {
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
		v, ok := jsonval.Int(s)
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

func (q *boolQuery) eval(c *qctx) (*mset, *apierr.Error) {
	out := newMset(c.ix)
	copy(out.bits, c.ix.Live)
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
				index.ForEach(andBits(m.bits, out.bits), func(s int32) { counts[s]++ })
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
			index.ForEach(out.bits, func(s int32) {
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
		index.ForEach(out.bits, func(s int32) { scores[s] *= float32(q.boost) })
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
		index.ForEach(andBits(m.bits, mask), func(s int32) { scores[s] += m.konst })
		return
	}
	index.ForEach(andBits(m.bits, mask), func(s int32) { scores[s] += m.score[s] })
}

// --- field value helpers ---

// sourcePath is where a field's values live in _source (multi-fields read their parent).
func sourcePath(fd *index.FieldDef) string {
	if fd.Multi {
		if i := strings.LastIndexByte(fd.Path, '.'); i > 0 {
			return fd.Path[:i]
		}
	}
	return fd.Path
}

// numericValue converts a query value for a numeric, date or boolean field.
func numericValue(c *qctx, fd *index.FieldDef, v any, roundUp bool, format string) (float64, *apierr.Error) {
	switch fd.Kind {
	case index.KindDate:
		s, _ := jsonval.String(v)
		if format == "" {
			format = fd.Mapping.Format
		}
		ms, err := dates.ParseMath(s, c.now, roundUp, format)
		if err != nil {
			return 0, apierr.Errf(400, "parse_exception", "%s", err.Error())
		}
		return float64(ms), nil
	case index.KindBool:
		b, ok := jsonval.Bool(v)
		if !ok {
			s, _ := jsonval.String(v)
			return 0, apierr.BadRequest("Can't parse boolean value [%s], expected [true] or [false]", s)
		}
		if b {
			return 1, nil
		}
		return 0, nil
	}
	f, ok := jsonval.Float(v)
	if !ok {
		s, _ := jsonval.String(v)
		return 0, apierr.Errf(400, "number_format_exception", "For input string: \"%s\"", s)
	}
	if fd.Type == "float" || fd.Type == "half_float" {
		f = float64(float32(f))
	}
	return f, nil
}

func queryShardErr(c *qctx, err *apierr.Error) *apierr.Error {
	e := apierr.Errf(400, "query_shard_exception", "failed to create query: %s", err.Reason)
	e.Index = c.ix.Name
	e.CausedBy = err
	return e
}

// eachColumnMatch sets the slots whose doc values satisfy pred.
func eachColumnMatch(c *qctx, m *mset, col *index.Column, pred func(s string, f float64) bool) {
	if col == nil {
		return
	}
	if col.Kind == index.KindKeyword {
		for s, vals := range col.Strs {
			for _, v := range vals {
				if pred(v, 0) {
					if c.ix.IsLive(int32(s)) {
						m.set(int32(s))
					}
					break
				}
			}
		}
		return
	}
	for s, vals := range col.Nums {
		for _, v := range vals {
			if pred("", v) {
				if c.ix.IsLive(int32(s)) {
					m.set(int32(s))
				}
				break
			}
		}
	}
}

// termsMatching lists the live terms of a text field accepted by pred, sorted.
func termsMatching(t *index.TextIndex, pred func(term string) bool) []string {
	var out []string
	for term := range t.DocFreq {
		if pred(term) {
			out = append(out, term)
		}
	}
	sort.Strings(out)
	return out
}

// unionTerms adds every posting of the given terms with a constant score.
func unionTerms(c *qctx, m *mset, t *index.TextIndex, terms []string) {
	for _, term := range terms {
		for _, p := range t.Postings[term] {
			if c.ix.IsLive(p.Slot) {
				m.set(p.Slot)
			}
		}
	}
}
