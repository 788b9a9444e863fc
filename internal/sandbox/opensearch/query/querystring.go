package query

import (
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// ParseQueryString supports the common subset of the Lucene syntax: terms, "phrases",
// field:value, field:"phrase", wildcards (* ?), AND / OR / NOT, + and -, and field:[a TO b].
// simple_query_string never fails; query_string reports unbalanced quotes.
func ParseQueryString(typ string, body any) (Query, *apierr.Error) {
	bm, ok := jsonval.Map(body)
	if !ok {
		return nil, apierr.Parsing("[%s] query malformed, no start_object after query name", typ)
	}
	text, ok := bm["query"].(string)
	if !ok {
		return nil, apierr.Parsing("[%s] requires 'query' field", typ)
	}
	var fields []string
	if df, ok := bm["default_field"].(string); ok {
		fields = []string{df}
	}
	for _, f := range jsonval.List(bm["fields"]) {
		if s, ok := f.(string); ok {
			fields = append(fields, s)
		}
	}
	andDefault := false
	for _, k := range []string{"default_operator"} {
		if s, ok := bm[k].(string); ok && strings.EqualFold(s, "and") {
			andDefault = true
		}
	}
	toks, err := lexQueryString(text)
	if err == nil && len(toks) > 0 {
		for _, t := range []qsToken{toks[0], toks[len(toks)-1]} {
			if !t.quoted && t.field == "" && (t.text == "AND" || t.text == "OR") {
				err = qsError("Encountered \" <" + t.text + "> \"" + t.text + " \"\"")
			}
		}
	}
	if err != nil && typ == "query_string" {
		// The engine parses query_string on each shard, so the failure comes back as a
		// search_phase_execution_exception around a query_shard_exception.
		e := apierr.Errf(400, "query_shard_exception", "Failed to parse query [%s]", text)
		e.CausedBy = apierr.Errf(400, "parse_exception", "Cannot parse '%s': %s", text, err.Error())
		return &failedQuery{err: e}, nil
	}
	b := &BoolQuery{Boost: boostOf(bm)}
	nextMust := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.text {
		case "AND", "&&":
			if !t.quoted {
				nextMust = true
				if n := len(b.Should); n > 0 {
					b.Must = append(b.Must, b.Should[n-1])
					b.Should = b.Should[:n-1]
				}
				continue
			}
		case "OR", "||":
			if !t.quoted {
				continue
			}
		case "NOT", "!":
			if !t.quoted && i+1 < len(toks) {
				toks[i+1].prefix = '-'
				continue
			}
		}
		q := t.toQuery(fields)
		switch {
		case t.prefix == '-':
			b.MustNot = append(b.MustNot, q)
		case t.prefix == '+' || nextMust || andDefault:
			b.Must = append(b.Must, q)
		default:
			b.Should = append(b.Should, q)
		}
		nextMust = false
	}
	if len(b.Must)+len(b.Should) == 0 {
		b.Must = append(b.Must, &MatchAllQuery{Boost: 1})
		if len(b.MustNot) == 0 {
			return &matchNoneQuery{}, nil
		}
	}
	if len(b.Must) > 0 && len(b.Should) > 0 {
		b.msm = "0"
	}
	return b, nil
}

type qsToken struct {
	field        string
	text         string
	quoted       bool
	prefix       byte
	lo, hi       string
	isRange      bool
	incLo, incHi bool
}

func lexQueryString(s string) ([]qsToken, error) {
	var out []qsToken
	i := 0
	var bad error
	depth := 0
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '(' || s[i] == ')') {
			switch s[i] {
			case '(':
				depth++
			case ')':
				if depth--; depth < 0 {
					bad = qsError("Encountered \" \")\" \") \"\"")
				}
			}
			i++
		}
		if i >= len(s) {
			break
		}
		var t qsToken
		if s[i] == '+' || s[i] == '-' {
			t.prefix = s[i]
			i++
		}
		start := i
		for i < len(s) && s[i] != ' ' && s[i] != ':' && s[i] != '"' && s[i] != '(' && s[i] != ')' {
			i++
		}
		if i < len(s) && s[i] == ':' && i > start {
			t.field = s[start:i]
			i++
		} else {
			i = start
		}
		switch {
		case i < len(s) && s[i] == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				bad = errUnbalanced
				t.text = s[i+1:]
				i = len(s)
			} else {
				t.text = s[i+1 : i+1+j]
				i += j + 2
			}
			t.quoted = true
		case i < len(s) && (s[i] == '[' || s[i] == '{'):
			j := strings.IndexAny(s[i:], "]}")
			if j < 0 {
				bad = errUnbalanced
				i = len(s)
				continue
			}
			inner := s[i+1 : i+j]
			lo, hi, ok := strings.Cut(inner, " TO ")
			if !ok {
				bad = errUnbalanced
			}
			t.isRange = true
			t.lo, t.hi = strings.TrimSpace(lo), strings.TrimSpace(hi)
			t.incLo, t.incHi = s[i] == '[', s[i+j] == ']'
			i += j + 1
		default:
			start := i
			for i < len(s) && s[i] != ' ' && s[i] != '(' && s[i] != ')' {
				i++
			}
			t.text = s[start:i]
		}
		if t.text == "" && !t.isRange && !t.quoted {
			continue
		}
		out = append(out, t)
	}
	if depth > 0 && bad == nil {
		bad = qsError("Encountered \"<EOF>\" at line 1, column " + strconv.Itoa(len(s)) + ".")
	}
	return out, bad
}

// failedQuery is a query whose text failed to parse; it fails when a shard runs it.
type failedQuery struct{ err *apierr.Error }

func (q *failedQuery) Eval(c *Context) (*Matches, *apierr.Error) {
	e := *q.err
	e.Index, e.UUID = c.Index.Name, c.Index.UUID
	return nil, &e
}

type qsError string

func (e qsError) Error() string { return string(e) }

const errUnbalanced = qsError("unbalanced quotes or brackets")

func (t qsToken) toQuery(defaults []string) Query {
	fields := defaults
	if t.field != "" {
		fields = []string{t.field}
	}
	if len(fields) == 0 {
		fields = []string{"*"}
	}
	if t.isRange {
		var qs []Query
		for _, f := range fields {
			rq := &rangeQuery{field: f, boost: 1}
			if t.lo != "*" && t.lo != "" {
				if t.incLo {
					rq.gte = t.lo
				} else {
					rq.gt = t.lo
				}
			}
			if t.hi != "*" && t.hi != "" {
				if t.incHi {
					rq.lte = t.hi
				} else {
					rq.lt = t.hi
				}
			}
			qs = append(qs, rq)
		}
		return &BoolQuery{Should: qs, Boost: 1}
	}
	if !t.quoted && strings.ContainsAny(t.text, "*?") {
		if t.text == "*" && t.field == "" {
			return &MatchAllQuery{Boost: 1}
		}
		var qs []Query
		for _, f := range fields {
			name, _ := fieldBoost(f)
			if strings.ContainsAny(name, "*?") {
				qs = append(qs, &wildcardAnyField{pattern: name, value: strings.ToLower(t.text)})
				continue
			}
			qs = append(qs, &termQuery{typ: "wildcard", field: name, value: t.text, boost: 1, caseInsensitive: true})
		}
		return &BoolQuery{Should: qs, Boost: 1}
	}
	typ := "best_fields"
	if t.quoted {
		typ = "phrase"
	}
	return &multiMatchQuery{fields: fields, text: t.text, typ: typ, boost: 1}
}

// wildcardAnyField applies a wildcard value to every field matching a name pattern.
type wildcardAnyField struct {
	pattern, value string
}

func (q *wildcardAnyField) Eval(c *Context) (*Matches, *apierr.Error) {
	out := constSet(c.Index, 1)
	for p, fd := range c.Index.Fields {
		if fd.Kind != index.KindText && fd.Kind != index.KindKeyword || !rest.GlobMatch(q.pattern, p) {
			continue
		}
		m, err := (&termQuery{typ: "wildcard", field: p, value: q.value, boost: 1, caseInsensitive: true}).Eval(c)
		if err != nil {
			continue
		}
		for i := range out.Bits {
			out.Bits[i] |= m.Bits[i]
		}
	}
	return out, nil
}
