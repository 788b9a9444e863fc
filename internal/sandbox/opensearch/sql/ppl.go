package sql

import (
	"strconv"
	"strings"
)

// PPL: the _plugins/_ppl emulation covers the pipelines log searches use most, by rewriting them into
// the SQL this engine already runs (the plugin's two languages share one engine):
//
//	[search] source=<index> [| where <condition>]... [| stats <agg>(<field>) [as <name>], ... [by <field>, ...]]
//	[| sort [-]<field>, ...] [| head [<n>]] [| fields <field>, ...]
//
// with count(), sum, avg, min, max and distinct_count. Any other command is refused with the
// plugin's error shape. Answers use the plugin's SimpleJsonResponseFormatter: schema (PPL type
// names), datarows, total, size.

type pplAgg struct {
	fn, field, name string
}

type pplQuery struct {
	source string
	where  []string
	stats  []pplAgg
	by     []string
	sort   []string
	head   int
	fields []string
}

func pplErr(details string) *sqlErr {
	return &sqlErr{Status: 400, Reason: "Invalid Query", Details: details, Type: "SyntaxCheckException"}
}

// splitPipes cuts a PPL query on '|' outside quotes.
func splitPipes(q string) []string {
	var out []string
	var quote byte
	last := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '|':
			out = append(out, strings.TrimSpace(q[last:i]))
			last = i + 1
		}
	}
	return append(out, strings.TrimSpace(q[last:]))
}

func splitCommaList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parsePPL(q string) (*pplQuery, *sqlErr) {
	cmds := splitPipes(q)
	p := &pplQuery{head: -1}
	first := cmds[0]
	if rest, ok := cutWord(first, "search"); ok {
		first = rest
	}
	src, ok := strings.CutPrefix(strings.TrimSpace(first), "source")
	if !ok {
		return nil, pplErr("[" + cmds[0] + "] is not a valid first command: expected [search] source=<index>")
	}
	src = strings.TrimSpace(src)
	if src, ok = strings.CutPrefix(src, "="); !ok || strings.TrimSpace(src) == "" || strings.ContainsAny(strings.TrimSpace(src), " ") {
		return nil, pplErr("[" + cmds[0] + "] is not a valid first command: expected [search] source=<index>")
	}
	p.source = strings.Trim(strings.TrimSpace(src), "`")
	stage := 0 // where (0) < stats (1) < sort (2) < head (3) < fields (4)
	order := func(want int, name string) *sqlErr {
		if want < stage {
			return pplErr("[" + name + "] after a later command is not supported by this emulation's PPL")
		}
		stage = want
		return nil
	}
	for _, c := range cmds[1:] {
		word, rest, _ := strings.Cut(c, " ")
		rest = strings.TrimSpace(rest)
		switch strings.ToLower(word) {
		case "where":
			if err := order(0, "where"); err != nil {
				return nil, err
			}
			if rest == "" {
				return nil, pplErr("[where] needs a condition")
			}
			p.where = append(p.where, pplCondition(rest))
		case "stats":
			if err := order(1, "stats"); err != nil {
				return nil, err
			}
			if p.stats != nil {
				return nil, pplErr("a second [stats] is not supported by this emulation's PPL")
			}
			aggs, by := rest, ""
			if i := indexWord(rest, "by"); i >= 0 {
				aggs, by = rest[:i], rest[i+2:]
			}
			for _, a := range splitCommaList(aggs) {
				ag, err := parsePPLAgg(a)
				if err != nil {
					return nil, err
				}
				p.stats = append(p.stats, ag)
			}
			if len(p.stats) == 0 {
				return nil, pplErr("[stats] needs an aggregation")
			}
			p.by = splitCommaList(by)
		case "sort":
			if err := order(2, "sort"); err != nil {
				return nil, err
			}
			p.sort = append(p.sort, splitCommaList(rest)...)
		case "head":
			if err := order(3, "head"); err != nil {
				return nil, err
			}
			p.head = 10
			if rest != "" {
				n, err := strconv.Atoi(rest)
				if err != nil || n < 0 {
					return nil, pplErr("[head] takes a number, found [" + rest + "]")
				}
				p.head = n
			}
		case "fields":
			if err := order(4, "fields"); err != nil {
				return nil, err
			}
			if strings.HasPrefix(rest, "-") {
				return nil, pplErr("[fields -] is not supported by this emulation's PPL")
			}
			if p.stats != nil {
				return nil, pplErr("[fields] after [stats] is not supported by this emulation's PPL")
			}
			p.fields = splitCommaList(strings.TrimPrefix(rest, "+"))
		default:
			return nil, pplErr("[" + word + "] is not supported by this emulation's PPL (source, where, stats, sort, head, fields)")
		}
	}
	return p, nil
}

func cutWord(s, word string) (string, bool) {
	t := strings.TrimSpace(s)
	if len(t) > len(word) && strings.EqualFold(t[:len(word)], word) && t[len(word)] == ' ' {
		return t[len(word)+1:], true
	}
	return s, false
}

// indexWord finds a whole word (case-insensitive) outside parentheses.
func indexWord(s, word string) int {
	depth := 0
	for i := 0; i+len(word) <= len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth == 0 && strings.EqualFold(s[i:i+len(word)], word) &&
			(i == 0 || s[i-1] == ' ') && (i+len(word) == len(s) || s[i+len(word)] == ' ') {
			return i
		}
	}
	return -1
}

// pplCondition makes a PPL condition SQL: "..." strings become '...'.
func pplCondition(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			j := strings.IndexByte(s[i+1:], '"')
			if j >= 0 {
				b.WriteByte('\'')
				b.WriteString(strings.ReplaceAll(s[i+1:i+1+j], "'", "''"))
				b.WriteByte('\'')
				i += j + 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

func parsePPLAgg(a string) (pplAgg, *sqlErr) {
	expr, name := a, ""
	if i := indexWord(a, "as"); i >= 0 {
		expr, name = strings.TrimSpace(a[:i]), strings.Trim(strings.TrimSpace(a[i+2:]), "`")
	}
	open := strings.IndexByte(expr, '(')
	if open < 0 || !strings.HasSuffix(expr, ")") {
		return pplAgg{}, pplErr("[" + a + "] is not an aggregation")
	}
	ag := pplAgg{fn: strings.ToLower(strings.TrimSpace(expr[:open])), field: strings.TrimSpace(expr[open+1 : len(expr)-1]), name: name}
	switch ag.fn {
	case "count":
	case "sum", "avg", "min", "max", "distinct_count", "dc":
		if ag.field == "" {
			return pplAgg{}, pplErr("[" + ag.fn + "] needs a field")
		}
	default:
		return pplAgg{}, pplErr("aggregation [" + ag.fn + "] is not supported by this emulation's PPL")
	}
	if ag.name == "" {
		ag.name = ag.fn + "(" + ag.field + ")"
	}
	return ag, nil
}

func quoteIdent(s string) string { return "`" + strings.Trim(s, "`") + "`" }

// statement is the SQL the pipeline runs as.
func (p *pplQuery) statement() string {
	var cols []string
	for _, a := range p.stats {
		var e string
		switch a.fn {
		case "count":
			e = "COUNT(*)"
			if a.field != "" {
				e = "COUNT(" + a.field + ")"
			}
		case "distinct_count", "dc":
			e = "COUNT(DISTINCT " + a.field + ")"
		default:
			e = strings.ToUpper(a.fn) + "(" + a.field + ")"
		}
		cols = append(cols, e+" AS "+quoteIdent(a.name))
	}
	cols = append(cols, p.by...)
	if p.stats == nil {
		cols = p.fields
	}
	if len(cols) == 0 {
		cols = []string{"*"}
	}
	q := "SELECT " + strings.Join(cols, ", ") + " FROM " + quoteIdent(p.source)
	if len(p.where) > 0 {
		q += " WHERE (" + strings.Join(p.where, ") AND (") + ")"
	}
	if len(p.by) > 0 {
		q += " GROUP BY " + strings.Join(p.by, ", ")
	}
	if len(p.sort) > 0 {
		var keys []string
		for _, s := range p.sort {
			dir := ""
			if strings.HasPrefix(s, "-") {
				s, dir = strings.TrimSpace(s[1:]), " DESC"
			} else {
				s = strings.TrimSpace(strings.TrimPrefix(s, "+"))
			}
			for _, a := range p.stats {
				if a.name == s {
					s = quoteIdent(s)
				}
			}
			keys = append(keys, s+dir)
		}
		q += " ORDER BY " + strings.Join(keys, ", ")
	}
	if p.head >= 0 {
		q += " LIMIT " + strconv.Itoa(p.head)
	}
	return q
}

// PPLType is the PPL name of a column type (ExprCoreType, lower-cased).
func PPLType(sqlType string) string {
	switch sqlType {
	case "keyword", "text":
		return "string"
	}
	return sqlType
}

// RunPPL runs a PPL pipeline as the SQL statement it translates to.
func RunPPL(e Engine, query string) (*Result, *Error) {
	p, err := parsePPL(query)
	if err != nil {
		return nil, err
	}
	return Run(e, p.statement())
}
