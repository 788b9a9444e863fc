// Package query is the query DSL: parsing a query clause into its typed form (bool, match,
// term, range, nested, query_string and the rest), evaluating it over one index into the
// matching slots and their BM25 scores, and highlighting what a query matched. It builds on the
// index package and knows nothing of HTTP.
package query

import (
	"math"
	"sort"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// Context is what evaluating a query over one index needs.
type Context struct {
	Index *index.Index
	Now   time.Time
}

// Query is a parsed query clause, evaluated per index.
type Query interface {
	Eval(c *Context) (*Matches, *apierr.Error)
}

// Parse reads one query clause {"type": {...}}.
func Parse(v any) (Query, *apierr.Error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, apierr.Parsing("[_na] query malformed, must start with start_object")
	}
	if len(m) == 0 {
		return &MatchAllQuery{Boost: 1}, nil
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

func parseClause(typ string, body any) (Query, *apierr.Error) {
	switch typ {
	case "match_all":
		bm, _ := jsonval.Map(body)
		return &MatchAllQuery{Boost: boostOf(bm)}, nil
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
		inner, err := Parse(bm["filter"])
		if err != nil {
			return nil, err
		}
		return &constantScoreQuery{inner: inner, boost: boostOf(bm)}, nil
	case "query_string", "simple_query_string":
		return ParseQueryString(typ, body)
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

// MatchAllQuery matches every document with a constant score; searches without a query use it.
type MatchAllQuery struct{ Boost float64 }

func (q *MatchAllQuery) Eval(c *Context) (*Matches, *apierr.Error) {
	m := constSet(c.Index, q.Boost)
	copy(m.Bits, c.Index.Live)
	return m, nil
}

type matchNoneQuery struct{}

func (q *matchNoneQuery) Eval(c *Context) (*Matches, *apierr.Error) { return newMatches(c.Index), nil }

type idsQuery struct {
	ids   []string
	boost float64
}

func (q *idsQuery) Eval(c *Context) (*Matches, *apierr.Error) {
	m := constSet(c.Index, q.boost)
	for _, id := range q.ids {
		if s, ok := c.Index.IDs[id]; ok {
			m.set(s)
		}
	}
	return m, nil
}

type existsQuery struct {
	field string
	boost float64
}

func (q *existsQuery) Eval(c *Context) (*Matches, *apierr.Error) {
	m := constSet(c.Index, q.boost)
	paths := []string{}
	for p, fd := range c.Index.Fields {
		if fd.Kind == index.KindObject {
			continue
		}
		if rest.GlobMatch(q.field, p) || strings.HasPrefix(p, q.field+".") {
			paths = append(paths, p)
		}
	}
	for _, p := range paths {
		if t := c.Index.Texts[p]; t != nil {
			for s, has := range t.Has {
				if has && c.Index.IsLive(int32(s)) {
					m.set(int32(s))
				}
			}
		}
		if col := c.Index.Columns[p]; col != nil {
			n := max(len(col.Strs), len(col.Nums))
			for s := 0; s < n; s++ {
				if col.Has(int32(s)) && c.Index.IsLive(int32(s)) {
					m.set(int32(s))
				}
			}
		}
	}
	return m, nil
}

type constantScoreQuery struct {
	inner Query
	boost float64
}

func (q *constantScoreQuery) Eval(c *Context) (*Matches, *apierr.Error) {
	in, err := q.inner.Eval(c)
	if err != nil {
		return nil, err
	}
	return &Matches{Bits: in.Bits, konst: float32(q.boost)}, nil
}

// --- bool ---

// BoolQuery combines clauses; searching through several filtered aliases ORs their filters in one.
type BoolQuery struct {
	Must, Should, MustNot, Filter []Query
	msm                           any
	Boost                         float64
}

func parseBool(body any) (Query, *apierr.Error) {
	bm, ok := jsonval.Map(body)
	if !ok {
		return nil, apierr.Parsing("[bool] query malformed, no start_object after query name")
	}
	q := &BoolQuery{Boost: boostOf(bm), msm: bm["minimum_should_match"]}
	for k, v := range bm {
		var dst *[]Query
		switch k {
		case "must":
			dst = &q.Must
		case "should":
			dst = &q.Should
		case "must_not", "mustNot":
			dst = &q.MustNot
		case "filter":
			dst = &q.Filter
		case "boost", "minimum_should_match", "_name", "adjust_pure_negative":
			continue
		default:
			return nil, apierr.Parsing("[bool] query does not support [%s]", k)
		}
		for _, x := range jsonval.List(v) {
			sub, err := Parse(x)
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

func (q *BoolQuery) Eval(c *Context) (*Matches, *apierr.Error) {
	out := newMatches(c.Index)
	copy(out.Bits, c.Index.Live)
	scoring := len(q.Must)+len(q.Should) > 0
	var scores []float32
	if scoring {
		scores = make([]float32, len(out.Bits)*64)
	}
	for _, sub := range q.Must {
		m, err := sub.Eval(c)
		if err != nil {
			return nil, err
		}
		for i := range out.Bits {
			out.Bits[i] &= m.Bits[i]
		}
		addScores(scores, m, out.Bits)
	}
	for _, sub := range q.Filter {
		m, err := sub.Eval(c)
		if err != nil {
			return nil, err
		}
		for i := range out.Bits {
			out.Bits[i] &= m.Bits[i]
		}
	}
	for _, sub := range q.MustNot {
		m, err := sub.Eval(c)
		if err != nil {
			return nil, err
		}
		for i := range out.Bits {
			out.Bits[i] &^= m.Bits[i]
		}
	}
	if len(q.Should) > 0 {
		need := 1
		if len(q.Must)+len(q.Filter) > 0 {
			need = 0
		}
		if q.msm != nil {
			need = minimumShouldMatch(q.msm, len(q.Should))
		}
		var counts []uint16
		if need > 1 {
			counts = make([]uint16, len(out.Bits)*64)
		}
		any := make([]uint64, len(out.Bits))
		for _, sub := range q.Should {
			m, err := sub.Eval(c)
			if err != nil {
				return nil, err
			}
			for i := range any {
				any[i] |= m.Bits[i] & out.Bits[i]
			}
			if counts != nil {
				index.ForEach(AndBits(m.Bits, out.Bits), func(s int32) { counts[s]++ })
			}
			addScores(scores, m, out.Bits)
		}
		switch {
		case need == 1:
			copy(out.Bits, any)
		case need > 1:
			for i := range out.Bits {
				out.Bits[i] &= any[i]
			}
			index.ForEach(out.Bits, func(s int32) {
				if int(counts[s]) < need {
					out.Bits[s>>6] &^= 1 << (uint(s) & 63)
				}
			})
		}
	}
	if !scoring {
		out.konst = 0
		return out, nil
	}
	if q.Boost != 1 {
		index.ForEach(out.Bits, func(s int32) { scores[s] *= float32(q.Boost) })
	}
	out.score = scores
	return out, nil
}

func addScores(scores []float32, m *Matches, mask []uint64) {
	if scores == nil {
		return
	}
	if m.score == nil {
		if m.konst == 0 {
			return
		}
		index.ForEach(AndBits(m.Bits, mask), func(s int32) { scores[s] += m.konst })
		return
	}
	index.ForEach(AndBits(m.Bits, mask), func(s int32) { scores[s] += m.score[s] })
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
func numericValue(c *Context, fd *index.FieldDef, v any, roundUp bool, format string) (float64, *apierr.Error) {
	switch fd.Kind {
	case index.KindDate:
		s, _ := jsonval.String(v)
		if format == "" {
			format = fd.Mapping.Format
		}
		ms, err := dates.ParseMath(s, c.Now, roundUp, format)
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

func queryShardErr(c *Context, err *apierr.Error) *apierr.Error {
	e := apierr.Errf(400, "query_shard_exception", "failed to create query: %s", err.Reason)
	e.Index = c.Index.Name
	e.CausedBy = err
	return e
}

// eachColumnMatch sets the slots whose doc values satisfy pred.
func eachColumnMatch(c *Context, m *Matches, col *index.Column, pred func(s string, f float64) bool) {
	if col == nil {
		return
	}
	if col.Kind == index.KindKeyword {
		for s, vals := range col.Strs {
			for _, v := range vals {
				if pred(v, 0) {
					if c.Index.IsLive(int32(s)) {
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
				if c.Index.IsLive(int32(s)) {
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
func unionTerms(c *Context, m *Matches, t *index.TextIndex, terms []string) {
	for _, term := range terms {
		for _, p := range t.Postings[term] {
			if c.Index.IsLive(p.Slot) {
				m.set(p.Slot)
			}
		}
	}
}
