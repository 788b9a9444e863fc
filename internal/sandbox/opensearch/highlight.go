package opensearch

import (
	"math"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/analysis"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// Highlighting follows the engine's default (unified) highlighter: every matched term is wrapped
// on its own ("<em>quick</em> <em>brown</em>", also inside a phrase); a fragment is the sentence
// holding a match, extended by following sentences up to fragment_size characters, and a sentence
// longer than that is cut at word boundaries around the match; the best number_of_fragments
// fragments are kept and shown in document order (order:"score" sorts them by score);
// number_of_fragments:0 returns each matching value whole; fields without a match are left out
// unless no_match_size asks for the start of the field. Passage scores are simpler than Lucene's
// BM25 passage scorer (distinct terms, then matches, then position), so when a field has more
// matching passages than number_of_fragments the pick may differ from the engine's.

type hlOptions struct {
	pre, post         string
	fragSize          int
	numFrags          int
	noMatch           int
	requireFieldMatch bool
	scoreOrder        bool
	html              bool
	query             query // highlight_query; nil: the search query
}

type hlField struct {
	pattern string
	opts    hlOptions
}

// highlightSpec is a parsed "highlight" section of a search.
type highlightSpec struct {
	fields []hlField
}

func parseHighlight(v any) (*highlightSpec, *apiError) {
	m, ok := asMap(v)
	if !ok {
		return nil, parsingErr("[highlight] must be an object")
	}
	base := hlOptions{pre: "<em>", post: "</em>", fragSize: 100, numFrags: 5, requireFieldMatch: true}
	if err := base.read(m, true); err != nil {
		return nil, err
	}
	spec := &highlightSpec{}
	add := func(name string, body any) *apiError {
		opts := base
		if bm, ok := asMap(body); ok {
			if err := opts.read(bm, false); err != nil {
				return err
			}
		} else if body != nil {
			return parsingErr("[highlight] field [%s] options must be an object", name)
		}
		spec.fields = append(spec.fields, hlField{pattern: name, opts: opts})
		return nil
	}
	switch f := m["fields"].(type) {
	case nil:
	case map[string]any:
		for _, name := range jsonval.SortedKeys(f) {
			if err := add(name, f[name]); err != nil {
				return nil, err
			}
		}
	case []any:
		// The array form keeps the request's order: [{"a":{}},{"b":{}}].
		for _, x := range f {
			xm, ok := asMap(x)
			if !ok || len(xm) != 1 {
				return nil, parsingErr("[highlight] fields given as an array must hold objects of one field each")
			}
			for name, body := range xm {
				if err := add(name, body); err != nil {
					return nil, err
				}
			}
		}
	default:
		return nil, parsingErr("[highlight] [fields] must be an object or an array")
	}
	return spec, nil
}

// read applies the options of a highlight section (top, or one field's) over o.
func (o *hlOptions) read(m map[string]any, top bool) *apiError {
	for k, v := range m {
		switch k {
		case "pre_tags", "post_tags":
			l := asList(v)
			if len(l) == 0 {
				return badRequest("[highlight] [%s] must not be empty", k)
			}
			// The unified highlighter uses the first tag; several tags only matter to the fvh.
			s, ok := l[0].(string)
			if !ok {
				return parsingErr("[highlight] [%s] must hold strings", k)
			}
			if k == "pre_tags" {
				o.pre = s
			} else {
				o.post = s
			}
		case "tags_schema":
			if s, _ := v.(string); s == "styled" {
				o.pre, o.post = `<em class="hlt">`, "</em>"
			} else {
				return badRequest("Unknown tag schema [%v]", v)
			}
		case "fragment_size", "number_of_fragments", "no_match_size":
			n, ok := asInt(v)
			if !ok || n < 0 {
				return badRequest("[highlight] [%s] must be a non-negative number", k)
			}
			switch k {
			case "fragment_size":
				o.fragSize = n
			case "number_of_fragments":
				o.numFrags = n
			default:
				o.noMatch = n
			}
		case "require_field_match":
			o.requireFieldMatch, _ = jsonval.Bool(v)
		case "order":
			o.scoreOrder = v == "score"
		case "encoder":
			o.html = v == "html"
		case "highlight_query":
			q, err := parseQuery(v)
			if err != nil {
				return err
			}
			o.query = q
		case "fields":
			if !top {
				return parsingErr("[highlight_field] unknown field [fields]")
			}
		case "type", "boundary_scanner", "boundary_chars", "boundary_max_scan", "boundary_scanner_locale",
			"fragmenter", "fragment_offset", "phrase_limit", "matched_fields", "max_analyzed_offset",
			"force_source", "highlight_filter", "options", "max_fragment_length":
		default:
			if top {
				return parsingErr("[highlight] unknown field [%s]", k)
			}
			return parsingErr("[highlight_field] unknown field [%s]", k)
		}
	}
	return nil
}

// hlClause is what one query clause asks to highlight in the fields it targets.
type hlClause struct {
	field      string // field name or pattern
	terms      []string
	phrase     bool
	slop       int
	lastPrefix bool
	value      string                // exact value, for keyword fields
	match      func(tok string) bool // term-level patterns (prefix, wildcard, fuzzy, regexp, terms)
}

func (cl *hlClause) appliesTo(field string) bool {
	return cl.field == field || rest.GlobMatch(cl.field, field)
}

// hlClauses collects the highlightable clauses of a query: everything but must_not.
func hlClauses(q query, out []hlClause) []hlClause {
	switch t := q.(type) {
	case *boolQuery:
		for _, group := range [][]query{t.must, t.should, t.filter} {
			for _, sub := range group {
				out = hlClauses(sub, out)
			}
		}
	case *constantScoreQuery:
		out = hlClauses(t.inner, out)
	case *matchQuery:
		out = append(out, matchClause(t.field, t.typ, t.text, t.slop, t.fuzziness))
	case *multiMatchQuery:
		typ := map[string]string{"phrase": "match_phrase", "phrase_prefix": "match_phrase_prefix", "bool_prefix": "match_bool_prefix"}[t.typ]
		fields := t.fields
		if len(fields) == 0 {
			fields = []string{"*"}
		}
		for _, f := range fields {
			name, _ := fieldBoost(f)
			out = append(out, matchClause(name, typ, t.text, t.slop, t.fuzz))
		}
	case *termQuery:
		out = append(out, termClause(t))
	case *termsQuery:
		set := map[string]bool{}
		for _, v := range t.values {
			s, _ := jsonval.String(v)
			set[s] = true
		}
		out = append(out, hlClause{field: t.field, match: func(tok string) bool { return set[tok] }})
	case *wildcardAnyField:
		pattern := t.value
		out = append(out, hlClause{field: t.pattern, match: func(tok string) bool { return rest.GlobMatch(pattern, strings.ToLower(tok)) }})
	}
	return out
}

func matchClause(field, typ string, text any, slop int, fuzz any) hlClause {
	s, _ := jsonval.String(text)
	cl := hlClause{field: field, terms: analysis.Standard(s), value: s, slop: slop}
	switch typ {
	case "match_phrase":
		cl.phrase = true
	case "match_phrase_prefix":
		cl.phrase, cl.lastPrefix = true, true
	case "match_bool_prefix":
		cl.lastPrefix = true
	}
	if fuzz != nil {
		terms := cl.terms
		cl.match = func(tok string) bool {
			for _, t := range terms {
				e := fuzzyEdits(fuzz, t)
				if editDistance(t, tok, e) <= e {
					return true
				}
			}
			return false
		}
	}
	return cl
}

func termClause(t *termQuery) hlClause {
	val, _ := jsonval.String(t.value)
	cl := hlClause{field: t.field, value: val}
	fold := func(s string) string {
		if t.caseInsensitive {
			return strings.ToLower(s)
		}
		return s
	}
	want := fold(val)
	switch t.typ {
	case "term":
		cl.match = func(tok string) bool { return fold(tok) == want }
	case "prefix":
		cl.match = func(tok string) bool { return strings.HasPrefix(fold(tok), want) }
	case "wildcard":
		cl.match = func(tok string) bool { return rest.GlobMatch(want, fold(tok)) }
	case "fuzzy":
		e := fuzzyEdits(t.fuzz, want)
		cl.match = func(tok string) bool { return editDistance(want, fold(tok), e) <= e }
	case "regexp":
		cl.match = t.re.MatchString
	}
	return cl
}

// highlighter renders the highlight of the hits of one search.
type highlighter struct {
	spec    *highlightSpec
	clauses []hlClause            // from the search query
	custom  map[query][]hlClause  // from highlight_query options
	fields  map[*index][]hlTarget // expanded per index
}

type hlTarget struct {
	fd   *fieldDef
	opts *hlOptions
}

func newHighlighter(spec *highlightSpec, q query) *highlighter {
	h := &highlighter{spec: spec, clauses: hlClauses(q, nil), custom: map[query][]hlClause{}, fields: map[*index][]hlTarget{}}
	for _, f := range spec.fields {
		if f.opts.query != nil {
			h.custom[f.opts.query] = hlClauses(f.opts.query, nil)
		}
	}
	return h
}

// targets lists the text and keyword fields of an index the highlight fields name, each once.
func (h *highlighter) targets(ix *index) []hlTarget {
	if t, ok := h.fields[ix]; ok {
		return t
	}
	var out []hlTarget
	seen := map[string]bool{}
	for i := range h.spec.fields {
		f := &h.spec.fields[i]
		names := []string{f.pattern}
		if strings.ContainsAny(f.pattern, "*?") {
			names = nil
			for p, fd := range ix.fields {
				if (fd.kind == kindText || fd.kind == kindKeyword) && rest.GlobMatch(f.pattern, p) {
					names = append(names, p)
				}
			}
			sort.Strings(names)
		}
		for _, n := range names {
			fd := ix.fields[n]
			if fd == nil || seen[n] || (fd.kind != kindText && fd.kind != kindKeyword) {
				continue
			}
			seen[n] = true
			out = append(out, hlTarget{fd: fd, opts: &f.opts})
		}
	}
	h.fields[ix] = out
	return out
}

// render is the "highlight" member of one hit, or nil when nothing matched.
func (h *highlighter) render(ix *index, d *document) obj {
	var out obj
	for _, t := range h.targets(ix) {
		clauses := h.clauses
		if t.opts.query != nil {
			clauses = h.custom[t.opts.query]
		}
		var apply []*hlClause
		for i := range clauses {
			if !t.opts.requireFieldMatch || clauses[i].appliesTo(t.fd.path) {
				apply = append(apply, &clauses[i])
			}
		}
		var values []string
		for _, v := range jsonval.SourceValues(d.src, sourcePath(t.fd)) {
			if s, ok := v.(string); ok {
				values = append(values, s)
			}
		}
		frags := highlightValues(values, t.fd.kind == kindKeyword, apply, t.opts)
		if len(frags) > 0 {
			out = append(out, kv{t.fd.path, frags})
		}
	}
	return out
}

type hlSpan struct{ start, end int }

type passage struct {
	value      int // which value of the field
	start, end int
	matches    []hlSpan
	terms      map[string]bool
	score      float64
}

// highlightValues highlights the values of one field and returns its fragments.
func highlightValues(values []string, keyword bool, clauses []*hlClause, o *hlOptions) []string {
	var passages []*passage
	for vi, v := range values {
		spans, toks := matchSpans(v, keyword, clauses)
		if len(spans) == 0 {
			continue
		}
		if o.numFrags == 0 || keyword {
			passages = append(passages, newPassage(vi, 0, len(v), spans, toks))
			continue
		}
		bounds := sentenceStarts(v)
		var cur *passage
		for i, sp := range spans {
			if cur != nil && sp.start < cur.end {
				cur.matches = append(cur.matches, sp)
				cur.terms[toks[i]] = true
				cur.end = max(cur.end, sp.end)
				continue
			}
			start, end := fragmentAround(v, bounds, sp.start, o.fragSize)
			if cur != nil {
				start = max(start, cur.end)
			}
			cur = newPassage(vi, start, max(end, sp.end), []hlSpan{sp}, toks[i:i+1])
			passages = append(passages, cur)
		}
	}
	if len(passages) == 0 {
		if o.noMatch > 0 && len(values) > 0 {
			return []string{strings.TrimSpace(encodeHL(values[0][:wordCut(values[0], o.noMatch)], o.html))}
		}
		return nil
	}
	for _, p := range passages {
		// More distinct terms first, then more matches, and earlier text slightly first.
		p.score = float64(len(p.terms))*10 + math.Log1p(float64(len(p.matches))) + 1/math.Log(87+float64(p.start))
	}
	if o.numFrags > 0 && len(passages) > o.numFrags {
		sort.SliceStable(passages, func(i, j int) bool { return passages[i].score > passages[j].score })
		passages = passages[:o.numFrags]
	}
	if o.scoreOrder {
		sort.SliceStable(passages, func(i, j int) bool { return passages[i].score > passages[j].score })
	} else {
		sort.SliceStable(passages, func(i, j int) bool {
			a, b := passages[i], passages[j]
			if a.value != b.value {
				return a.value < b.value
			}
			return a.start < b.start
		})
	}
	out := make([]string, 0, len(passages))
	for _, p := range passages {
		out = append(out, formatPassage(values[p.value], p, o))
	}
	return out
}

func newPassage(value, start, end int, spans []hlSpan, toks []string) *passage {
	p := &passage{value: value, start: start, end: end, matches: spans, terms: map[string]bool{}}
	for _, t := range toks {
		p.terms[t] = true
	}
	return p
}

// matchSpans finds what the clauses match in one value: a keyword value whole, or the words of
// a text value; it returns the spans in order and the (lowercased) word of each.
func matchSpans(v string, keyword bool, clauses []*hlClause) ([]hlSpan, []string) {
	if keyword {
		for _, cl := range clauses {
			if cl.value == v || (cl.match != nil && cl.match(v)) {
				return []hlSpan{{0, len(v)}}, []string{v}
			}
		}
		return nil, nil
	}
	var spans []hlSpan
	var toks []string
	analysis.Words(v, func(start, end int, ascii bool) {
		w := v[start:end]
		if ascii {
			w = analysis.LowerASCII(w)
		} else {
			w = strings.ToLower(w)
		}
		spans = append(spans, hlSpan{start, end})
		toks = append(toks, w)
	})
	marked := make([]bool, len(toks))
	for _, cl := range clauses {
		if cl.phrase && len(cl.terms) > 0 {
			inPhrase := map[string]bool{}
			for _, t := range cl.terms {
				inPhrase[t] = true
			}
			last := cl.terms[len(cl.terms)-1]
			scanPhrase(toks, cl.terms, cl.slop, cl.lastPrefix, func(first, lastPos int) {
				for i := first; i <= lastPos; i++ {
					if inPhrase[toks[i]] || (cl.lastPrefix && i == lastPos && strings.HasPrefix(toks[i], last)) {
						marked[i] = true
					}
				}
			})
			continue
		}
		set := map[string]bool{}
		for _, t := range cl.terms {
			set[t] = true
		}
		for i, tok := range toks {
			switch {
			case set[tok], cl.match != nil && cl.match(tok):
				marked[i] = true
			case cl.lastPrefix && len(cl.terms) > 0 && strings.HasPrefix(tok, cl.terms[len(cl.terms)-1]):
				marked[i] = true
			}
		}
	}
	var outSpans []hlSpan
	var outToks []string
	for i, m := range marked {
		if m {
			outSpans = append(outSpans, spans[i])
			outToks = append(outToks, toks[i])
		}
	}
	return outSpans, outToks
}

// sentenceStarts lists where sentences begin: after . ! or ? followed by space, after a line
// break, and at the end of the value.
func sentenceStarts(s string) []int {
	out := []int{0}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' || ((c == '.' || c == '!' || c == '?') && i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t' || s[i+1] == '\n')) {
			j := i + 1
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
				j++
			}
			if j < len(s) && j > out[len(out)-1] {
				out = append(out, j)
			}
			i = j - 1
		}
	}
	return append(out, len(s))
}

// fragmentAround is the passage for a match at offset: its sentence plus following sentences
// within size; a longer sentence is cut at word boundaries around the match (as the engine's
// bounded sentence scanner does).
func fragmentAround(s string, bounds []int, offset, size int) (int, int) {
	k := sort.SearchInts(bounds, offset+1) - 1
	start, end := bounds[k], bounds[k+1]
	for j := k + 2; j < len(bounds) && bounds[j]-start <= size; j++ {
		end = bounds[j]
	}
	if end-start <= size {
		return start, end
	}
	if offset-size > start {
		start = max(start, wordBoundaryBefore(s, offset-size))
	}
	remaining := max(0, size-(offset-start))
	if offset+remaining < end {
		end = min(end, wordBoundaryAfter(s, offset+remaining))
	}
	return start, end
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func wordBoundaryBefore(s string, i int) int {
	for i > 0 && i < len(s) && isWordByte(s[i-1]) == isWordByte(s[i]) {
		i--
	}
	return max(i, 0)
}

func wordBoundaryAfter(s string, i int) int {
	i++
	for i < len(s) && isWordByte(s[i-1]) == isWordByte(s[i]) {
		i++
	}
	return min(i, len(s))
}

// wordCut is where no_match_size cuts a value: at most n bytes, not inside a word when avoidable.
func wordCut(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	if b := wordBoundaryBefore(s, n); b > 0 {
		return b
	}
	return n
}

func formatPassage(v string, p *passage, o *hlOptions) string {
	var b strings.Builder
	pos := p.start
	for _, m := range p.matches {
		if m.start < pos {
			continue
		}
		b.WriteString(encodeHL(v[pos:m.start], o.html))
		b.WriteString(o.pre)
		b.WriteString(encodeHL(v[m.start:m.end], o.html))
		b.WriteString(o.post)
		pos = m.end
	}
	if pos < p.end {
		b.WriteString(encodeHL(v[pos:p.end], o.html))
	}
	return strings.TrimSpace(b.String())
}

var hlHTML = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;", "/", "&#x2F;")

// encodeHL applies encoder:"html" (the text is escaped, the tags are not).
func encodeHL(s string, html bool) string {
	if html {
		return hlHTML.Replace(s)
	}
	return s
}
