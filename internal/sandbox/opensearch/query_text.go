package opensearch

import (
	"regexp"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/analysis"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// --- match family ---

type matchQuery struct {
	typ       string // match, match_phrase, match_phrase_prefix, match_bool_prefix
	field     string
	text      any
	operator  string
	msm       any
	fuzziness any
	slop      int
	boost     float64
	zeroAll   bool
	lenient   bool
}

func parseMatch(typ string, body any) (query, *apiError) {
	field, p, err := fieldClause(typ, body, "query")
	if err != nil {
		return nil, err
	}
	q := &matchQuery{typ: typ, field: field, text: p["query"], boost: boostOf(p), msm: p["minimum_should_match"], fuzziness: p["fuzziness"]}
	if q.text == nil {
		return nil, parsingErr("[%s] requires query value", typ)
	}
	if _, isObj := q.text.(map[string]any); isObj {
		return nil, parsingErr("[%s] unknown token [START_OBJECT] after [query]", typ)
	}
	if _, isArr := q.text.([]any); isArr {
		return nil, parsingErr("[%s] unknown token [START_ARRAY] after [query]", typ)
	}
	for k := range p {
		switch k {
		case "query", "boost", "operator", "minimum_should_match", "fuzziness", "slop", "zero_terms_query", "lenient",
			"analyzer", "prefix_length", "max_expansions", "fuzzy_transpositions", "auto_generate_synonyms_phrase_query",
			"fuzzy_rewrite", "cutoff_frequency", "_name":
		default:
			return nil, parsingErr("[%s] query does not support [%s]", typ, k)
		}
	}
	if op, ok := p["operator"].(string); ok {
		q.operator = strings.ToLower(op)
		if q.operator != "and" && q.operator != "or" {
			return nil, badRequest("No enum constant org.opensearch.index.query.Operator.%s", strings.ToUpper(op))
		}
	}
	if s, ok := asInt(p["slop"]); ok {
		q.slop = s
	}
	if z, _ := p["zero_terms_query"].(string); strings.EqualFold(z, "all") {
		q.zeroAll = true
	}
	q.lenient, _ = jsonval.Bool(p["lenient"])
	return q, nil
}

func (q *matchQuery) eval(c *qctx) (*mset, *apiError) {
	fd := c.ix.fields[q.field]
	if fd == nil || fd.kind == kindObject {
		return newMset(c.ix), nil
	}
	if fd.kind != kindText {
		m, err := exactMatch(c, fd, q.text, q.boost, false)
		if err != nil {
			if q.lenient {
				return newMset(c.ix), nil
			}
			return nil, err
		}
		return m, nil
	}
	s, _ := jsonval.String(q.text)
	terms := analysis.Standard(s)
	t := c.ix.texts[q.field]
	if len(terms) == 0 {
		if q.zeroAll {
			return (&matchAllQuery{boost: q.boost}).eval(c)
		}
		return newMset(c.ix), nil
	}
	if t == nil {
		return newMset(c.ix), nil
	}
	switch q.typ {
	case "match_phrase":
		return phraseMatch(c, fd, t, terms, q.slop, false, q.boost), nil
	case "match_phrase_prefix":
		return phraseMatch(c, fd, t, terms, q.slop, true, q.boost), nil
	case "match_bool_prefix":
		return matchTerms(c, t, terms, q.operator == "and", q.msm, q.fuzziness, q.boost, true), nil
	}
	return matchTerms(c, t, terms, q.operator == "and", q.msm, q.fuzziness, q.boost, false), nil
}

// exactMatch is a term-level equality on a keyword, numeric, date or boolean field.
func exactMatch(c *qctx, fd *fieldDef, v any, boost float64, caseInsensitive bool) (*mset, *apiError) {
	m := constSet(c.ix, boost)
	col := c.ix.cols[fd.path]
	if fd.kind == kindKeyword {
		want, _ := jsonval.String(v)
		eachColumnMatch(c, m, col, func(s string, _ float64) bool {
			if caseInsensitive {
				return strings.EqualFold(s, want)
			}
			return s == want
		})
		return m, nil
	}
	f, err := numericValue(c, fd, v, false, "")
	if err != nil {
		return nil, queryShardErr(c, err)
	}
	if fd.kind == kindDate {
		// A date with rounding ("now/d") matches the whole rounded unit, like the engine's term on dates.
		hi, _ := numericValue(c, fd, v, true, "")
		eachColumnMatch(c, m, col, func(_ string, x float64) bool { return x >= f && x <= hi })
		return m, nil
	}
	eachColumnMatch(c, m, col, func(_ string, x float64) bool { return x == f })
	return m, nil
}

// matchTerms scores a bag of terms with BM25 (operator or/and, minimum_should_match, fuzziness).
func matchTerms(c *qctx, t *textIndex, terms []string, requireAll bool, msm any, fuzz any, boost float64, lastPrefix bool) *mset {
	m := newMset(c.ix)
	scores := make([]float32, len(m.bits)*64)
	order := []string{}
	mult := map[string]int{}
	for _, term := range terms {
		if mult[term] == 0 {
			order = append(order, term)
		}
		mult[term]++
	}
	need := 1
	if requireAll {
		need = len(order)
	} else if msm != nil {
		need = max(1, minimumShouldMatch(msm, len(order)))
	}
	var counts []uint16
	if need > 1 {
		counts = make([]uint16, len(m.bits)*64)
	}
	for i, term := range order {
		expansions := []string{term}
		switch {
		case lastPrefix && i == len(order)-1:
			expansions = termsMatching(t, func(x string) bool { return strings.HasPrefix(x, term) })
		case fuzzyEdits(fuzz, term) > 0:
			edits := fuzzyEdits(fuzz, term)
			expansions = termsMatching(t, func(x string) bool { return editDistance(term, x, edits) <= edits })
		}
		w := float64(mult[term]) * boost
		if len(expansions) == 1 {
			wt, ok := t.weights(expansions[0], w)
			if !ok {
				continue
			}
			for _, p := range t.postings[expansions[0]] {
				if !c.ix.isLive(p.slot) {
					continue
				}
				m.set(p.slot)
				scores[p.slot] += float32(wt.score(p.tf, t.dl[p.slot]))
				if counts != nil {
					counts[p.slot]++
				}
			}
			continue
		}
		// Several expansions of one term: a document scores its best expansion, counted once.
		best := map[int32]float64{}
		for _, x := range expansions {
			wt, ok := t.weights(x, w)
			if !ok {
				continue
			}
			for _, p := range t.postings[x] {
				if !c.ix.isLive(p.slot) {
					continue
				}
				if s := wt.score(p.tf, t.dl[p.slot]); s > best[p.slot] {
					best[p.slot] = s
				}
			}
		}
		for slot, s := range best {
			m.set(slot)
			scores[slot] += float32(s)
			if counts != nil {
				counts[slot]++
			}
		}
	}
	if counts != nil {
		forEach(m.bits, func(s int32) {
			if int(counts[s]) < need {
				m.bits[s>>6] &^= 1 << (uint(s) & 63)
			}
		})
	}
	m.score = scores
	return m
}

// phraseMatch finds documents whose field contains the terms in order (within slop).
func phraseMatch(c *qctx, fd *fieldDef, t *textIndex, terms []string, slop int, lastPrefix bool, boost float64) *mset {
	m := newMset(c.ix)
	scores := make([]float32, len(m.bits)*64)
	m.score = scores
	// Candidates: documents holding the rarest required term.
	fixed := terms
	if lastPrefix {
		fixed = terms[:len(terms)-1]
	}
	var idfSum float64
	for _, term := range fixed {
		if t.df[term] == 0 {
			return m
		}
		idfSum += idf(t.docCount, int64(t.df[term]))
	}
	var cands []posting
	if len(fixed) > 0 {
		rare := fixed[0]
		for _, term := range fixed[1:] {
			if t.df[term] < t.df[rare] {
				rare = term
			}
		}
		cands = t.postings[rare]
	} else {
		seen := map[int32]bool{}
		for _, x := range termsMatching(t, func(x string) bool { return strings.HasPrefix(x, terms[0]) }) {
			idfSum = max(idfSum, idf(t.docCount, int64(t.df[x])))
			for _, p := range t.postings[x] {
				if !seen[p.slot] {
					seen[p.slot] = true
					cands = append(cands, p)
				}
			}
		}
	}
	avgdl := float64(t.sumLen) / float64(max(t.docCount, 1))
	path := sourcePath(fd)
	for _, p := range cands {
		if !c.ix.isLive(p.slot) {
			continue
		}
		doc := c.ix.docs[p.slot]
		freq := 0
		for _, v := range jsonval.SourceValues(doc.src, path) {
			s, ok := jsonval.String(v)
			if !ok {
				continue
			}
			freq += countPhrase(analysis.Standard(s), terms, slop, lastPrefix)
		}
		if freq == 0 {
			continue
		}
		m.set(p.slot)
		norm := bm25K1 * (1 - bm25B + bm25B*float64(t.dl[p.slot])/max(avgdl, 1e-9))
		scores[p.slot] = float32(boost * idfSum * float64(freq) / (float64(freq) + norm))
	}
	return m
}

func countPhrase(toks, terms []string, slop int, lastPrefix bool) int {
	return scanPhrase(toks, terms, slop, lastPrefix, nil)
}

// scanPhrase counts the occurrences of a phrase among tokens (within slop), telling onMatch,
// when given, the first and last token position of each.
func scanPhrase(toks, terms []string, slop int, lastPrefix bool, onMatch func(first, last int)) int {
	eq := func(tok string, j int) bool {
		if lastPrefix && j == len(terms)-1 {
			return strings.HasPrefix(tok, terms[j])
		}
		return tok == terms[j]
	}
	n := 0
	for i := range toks {
		if !eq(toks[i], 0) {
			continue
		}
		pos, used, ok := i, 0, true
		for j := 1; j < len(terms); j++ {
			found := false
			for k := pos + 1; k < len(toks) && k-pos-1+used <= slop; k++ {
				if eq(toks[k], j) {
					used += k - pos - 1
					pos = k
					found = true
					break
				}
			}
			if !found {
				ok = false
				break
			}
		}
		if ok {
			n++
			if onMatch != nil {
				onMatch(i, pos)
			}
		}
	}
	return n
}

// --- multi_match ---

type multiMatchQuery struct {
	fields   []string
	text     any
	typ      string
	operator string
	msm      any
	tie      float64
	fuzz     any
	slop     int
	boost    float64
}

func parseMultiMatch(body any) (query, *apiError) {
	bm, ok := asMap(body)
	if !ok {
		return nil, parsingErr("[multi_match] query malformed, no start_object after query name")
	}
	q := &multiMatchQuery{text: bm["query"], typ: "best_fields", boost: boostOf(bm), msm: bm["minimum_should_match"], fuzz: bm["fuzziness"]}
	if q.text == nil {
		return nil, parsingErr("No text specified for multi_match query")
	}
	for _, f := range asList(bm["fields"]) {
		s, ok := f.(string)
		if !ok {
			return nil, parsingErr("[multi_match] query does not support [fields] of this type")
		}
		q.fields = append(q.fields, s)
	}
	if t, ok := bm["type"].(string); ok {
		switch t {
		case "best_fields", "most_fields", "cross_fields", "phrase", "phrase_prefix", "bool_prefix":
			q.typ = t
		default:
			return nil, parsingErr("[multi_match] query type [%s] does not exist", t)
		}
	}
	if op, ok := bm["operator"].(string); ok {
		q.operator = strings.ToLower(op)
	}
	if f, ok := jsonval.Float(bm["tie_breaker"]); ok {
		q.tie = f
	}
	if s, ok := asInt(bm["slop"]); ok {
		q.slop = s
	}
	return q, nil
}

func (q *multiMatchQuery) eval(c *qctx) (*mset, *apiError) {
	specs := q.fields
	if len(specs) == 0 {
		specs = []string{"*"}
	}
	type target struct {
		path  string
		boost float64
	}
	var targets []target
	seen := map[string]bool{}
	for _, spec := range specs {
		name, b := fieldBoost(spec)
		for _, p := range jsonval.SortedKeys(c.ix.fields) {
			fd := c.ix.fields[p]
			if fd.kind == kindObject || seen[p] {
				continue
			}
			if p == name || strings.ContainsAny(name, "*?") && rest.GlobMatch(name, p) {
				seen[p] = true
				targets = append(targets, target{p, b})
			}
		}
	}
	out := newMset(c.ix)
	scores := make([]float32, len(out.bits)*64)
	out.score = scores
	var maxes []float32
	sum := q.typ == "most_fields" || q.typ == "cross_fields"
	if !sum {
		maxes = make([]float32, len(scores))
	}
	mtype := "match"
	switch q.typ {
	case "phrase":
		mtype = "match_phrase"
	case "phrase_prefix":
		mtype = "match_phrase_prefix"
	case "bool_prefix":
		mtype = "match_bool_prefix"
	}
	for _, tg := range targets {
		mq := &matchQuery{typ: mtype, field: tg.path, text: q.text, operator: q.operator, msm: q.msm, fuzziness: q.fuzz,
			slop: q.slop, boost: tg.boost, lenient: true}
		m, err := mq.eval(c)
		if err != nil {
			continue
		}
		forEach(m.bits, func(s int32) {
			out.set(s)
			v := m.scoreOf(s)
			scores[s] += v
			if maxes != nil && v > maxes[s] {
				maxes[s] = v
			}
		})
	}
	forEach(out.bits, func(s int32) {
		if maxes != nil {
			scores[s] = maxes[s] + float32(q.tie)*(scores[s]-maxes[s])
		}
		scores[s] *= float32(q.boost)
	})
	return out, nil
}

// --- term, prefix, wildcard, fuzzy, regexp ---

type termQuery struct {
	typ             string
	field           string
	value           any
	boost           float64
	caseInsensitive bool
	fuzz            any
	re              *regexp.Regexp
}

func parseTermLike(typ string, body any) (query, *apiError) {
	key := "value"
	field, p, err := fieldClause(typ, body, key)
	if err != nil {
		return nil, err
	}
	q := &termQuery{typ: typ, field: field, value: p["value"], boost: boostOf(p), fuzz: p["fuzziness"]}
	if typ == "wildcard" && q.value == nil {
		q.value = p["wildcard"]
	}
	if q.value == nil {
		return nil, parsingErr("[%s] requires a value for field [%s]", typ, field)
	}
	if _, isObj := q.value.(map[string]any); isObj {
		return nil, parsingErr("[%s] query does not support [value] of type object", typ)
	}
	if _, isArr := q.value.([]any); isArr {
		return nil, parsingErr("[%s] query does not support array of values", typ)
	}
	q.caseInsensitive, _ = jsonval.Bool(p["case_insensitive"])
	if typ == "fuzzy" && q.fuzz == nil {
		q.fuzz = "AUTO"
	}
	if typ == "regexp" {
		s, _ := jsonval.String(q.value)
		flags := ""
		if q.caseInsensitive {
			flags = "(?i)"
		}
		re, rerr := regexp.Compile(flags + "^(?:" + s + ")$")
		if rerr != nil {
			return nil, badRequest("invalid regular expression [%s]", s)
		}
		q.re = re
	}
	return q, nil
}

func (q *termQuery) eval(c *qctx) (*mset, *apiError) {
	fd := c.ix.fields[q.field]
	if fd == nil || fd.kind == kindObject {
		if q.field == "_id" {
			s, _ := jsonval.String(q.value)
			return (&idsQuery{ids: []string{s}, boost: q.boost}).eval(c)
		}
		return newMset(c.ix), nil
	}
	val, _ := jsonval.String(q.value)
	if q.caseInsensitive && q.typ != "regexp" {
		val = strings.ToLower(val)
	}
	pred := func(s string) bool {
		if q.caseInsensitive {
			s = strings.ToLower(s)
		}
		switch q.typ {
		case "prefix":
			return strings.HasPrefix(s, val)
		case "wildcard":
			return rest.GlobMatch(val, s)
		case "fuzzy":
			e := fuzzyEdits(q.fuzz, val)
			return editDistance(val, s, e) <= e
		case "regexp":
			return q.re.MatchString(s)
		}
		return s == val
	}
	switch fd.kind {
	case kindText:
		t := c.ix.texts[q.field]
		if t == nil {
			return newMset(c.ix), nil
		}
		if q.typ == "term" && !q.caseInsensitive {
			return matchTerms(c, t, []string{val}, false, nil, nil, q.boost, false), nil
		}
		m := constSet(c.ix, q.boost)
		unionTerms(c, m, t, termsMatching(t, pred))
		return m, nil
	case kindKeyword:
		m := constSet(c.ix, q.boost)
		eachColumnMatch(c, m, c.ix.cols[q.field], func(s string, _ float64) bool { return pred(s) })
		return m, nil
	}
	if q.typ != "term" {
		return nil, queryShardErr(c, badRequest("Can only use %s queries on keyword and text fields - not on [%s] which is of type [%s]", q.typ, q.field, fd.typ))
	}
	return exactMatch(c, fd, q.value, q.boost, false)
}

// --- terms ---

type termsQuery struct {
	field  string
	values []any
	boost  float64
}

func parseTerms(body any) (query, *apiError) {
	bm, ok := asMap(body)
	if !ok {
		return nil, parsingErr("[terms] query malformed, no start_object after query name")
	}
	q := &termsQuery{boost: boostOf(bm)}
	for k, v := range bm {
		if k == "boost" || k == "_name" {
			continue
		}
		if q.field != "" {
			return nil, parsingErr("[terms] query does not support multiple fields")
		}
		l, ok := v.([]any)
		if !ok {
			if _, isObj := v.(map[string]any); isObj {
				return nil, badRequest("terms lookup is not supported by this emulation")
			}
			return nil, parsingErr("[terms] query does not support [%s]", k)
		}
		q.field, q.values = k, l
	}
	if q.field == "" {
		return nil, parsingErr("[terms] query requires a field")
	}
	return q, nil
}

func (q *termsQuery) eval(c *qctx) (*mset, *apiError) {
	m := constSet(c.ix, q.boost)
	fd := c.ix.fields[q.field]
	if fd == nil || fd.kind == kindObject {
		if q.field == "_id" {
			var ids []string
			for _, v := range q.values {
				s, _ := jsonval.String(v)
				ids = append(ids, s)
			}
			return (&idsQuery{ids: ids, boost: q.boost}).eval(c)
		}
		return m, nil
	}
	for _, v := range q.values {
		var sub *mset
		var err *apiError
		if fd.kind == kindText {
			s, _ := jsonval.String(v)
			if t := c.ix.texts[q.field]; t != nil {
				sub = newMset(c.ix)
				unionTerms(c, sub, t, []string{s})
			}
		} else {
			sub, err = exactMatch(c, fd, v, q.boost, false)
			if err != nil {
				return nil, err
			}
		}
		if sub != nil {
			for i := range m.bits {
				m.bits[i] |= sub.bits[i]
			}
		}
	}
	return m, nil
}

// --- range ---

type rangeQuery struct {
	field   string
	gt, gte any
	lt, lte any
	format  string
	boost   float64
}

func parseRange(body any) (query, *apiError) {
	field, p, err := fieldClause("range", body, "")
	if err != nil {
		return nil, err
	}
	if _, ok := p[""]; ok {
		return nil, parsingErr("[range] query malformed, after field missing start object")
	}
	q := &rangeQuery{field: field, boost: boostOf(p)}
	q.format, _ = p["format"].(string)
	incLower, incUpper := true, true
	if b, ok := jsonval.Bool(p["include_lower"]); ok {
		incLower = b
	}
	if b, ok := jsonval.Bool(p["include_upper"]); ok {
		incUpper = b
	}
	for k, v := range p {
		switch k {
		case "gt":
			q.gt = v
		case "gte":
			q.gte = v
		case "lt":
			q.lt = v
		case "lte":
			q.lte = v
		case "from":
			if incLower {
				q.gte = v
			} else {
				q.gt = v
			}
		case "to":
			if incUpper {
				q.lte = v
			} else {
				q.lt = v
			}
		case "format", "boost", "time_zone", "relation", "include_lower", "include_upper", "_name":
		default:
			return nil, parsingErr("[range] query does not support [%s]", k)
		}
	}
	return q, nil
}

func (q *rangeQuery) eval(c *qctx) (*mset, *apiError) {
	m := constSet(c.ix, q.boost)
	fd := c.ix.fields[q.field]
	if fd == nil || fd.kind == kindObject {
		return m, nil
	}
	if fd.kind == kindKeyword || fd.kind == kindText {
		str := func(v any) (string, bool) {
			if v == nil {
				return "", false
			}
			s, _ := jsonval.String(v)
			return s, true
		}
		gt, hasGt := str(q.gt)
		gte, hasGte := str(q.gte)
		lt, hasLt := str(q.lt)
		lte, hasLte := str(q.lte)
		pred := func(s string) bool {
			return (!hasGt || s > gt) && (!hasGte || s >= gte) && (!hasLt || s < lt) && (!hasLte || s <= lte)
		}
		if fd.kind == kindText {
			if t := c.ix.texts[q.field]; t != nil {
				unionTerms(c, m, t, termsMatching(t, pred))
			}
			return m, nil
		}
		eachColumnMatch(c, m, c.ix.cols[q.field], func(s string, _ float64) bool { return pred(s) })
		return m, nil
	}
	bound := func(v any, roundUp bool) (float64, bool, *apiError) {
		if v == nil {
			return 0, false, nil
		}
		f, err := numericValue(c, fd, v, roundUp, q.format)
		if err != nil {
			return 0, false, queryShardErr(c, err)
		}
		return f, true, nil
	}
	gt, hasGt, err := bound(q.gt, true)
	if err != nil {
		return nil, err
	}
	gte, hasGte, err := bound(q.gte, false)
	if err != nil {
		return nil, err
	}
	lt, hasLt, err := bound(q.lt, false)
	if err != nil {
		return nil, err
	}
	lte, hasLte, err := bound(q.lte, true)
	if err != nil {
		return nil, err
	}
	eachColumnMatch(c, m, c.ix.cols[q.field], func(_ string, x float64) bool {
		return (!hasGt || x > gt) && (!hasGte || x >= gte) && (!hasLt || x < lt) && (!hasLte || x <= lte)
	})
	return m, nil
}
