package sql

import (
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// sqlRelevance maps the plugin's full-text functions to the query they become.
var sqlRelevance = map[string]string{
	"MATCH": "match", "MATCH_QUERY": "match", "MATCHQUERY": "match",
	"MATCH_PHRASE": "match_phrase", "MATCHPHRASE": "match_phrase", "MATCHPHRASEQUERY": "match_phrase",
	"MATCH_PHRASE_PREFIX": "match_phrase_prefix", "MATCH_BOOL_PREFIX": "match_bool_prefix",
	"MULTI_MATCH": "multi_match", "MULTIMATCH": "multi_match", "MULTIMATCHQUERY": "multi_match",
	"QUERY": "query_string", "QUERY_STRING": "query_string", "SIMPLE_QUERY_STRING": "simple_query_string",
}

type dsl = map[string]any

func sqlBool(occur string, clauses ...any) dsl {
	return dsl{"bool": dsl{occur: clauses}}
}

// filter translates a bound WHERE condition into a query clause; relevance reports whether it
// scores (full-text functions), which decides between bool must and filter.
func (p *sqlPlan) filter(e sqlExpr) (q any, relevance bool, err *sqlErr) {
	if lit, ok := constLit(e); ok { // WHERE 1 = 1
		if truthy(lit.val) {
			return dsl{"match_all": dsl{}}, false, nil
		}
		return dsl{"match_none": dsl{}}, false, nil
	}
	switch t := e.(type) {
	case *sqlBinary:
		switch t.op {
		case "AND", "OR":
			var parts []sqlExpr
			flattenSQL(t, t.op, &parts)
			var scored, plain []any
			for _, x := range parts {
				c, rel, err := p.filter(x)
				if err != nil {
					return nil, false, err
				}
				relevance = relevance || rel
				if rel {
					scored = append(scored, c)
				} else {
					plain = append(plain, c)
				}
			}
			if t.op == "OR" {
				return sqlBool("should", append(scored, plain...)...), relevance, nil
			}
			b := dsl{}
			if scored != nil {
				b["must"] = scored
			}
			if plain != nil {
				b["filter"] = plain
			}
			return dsl{"bool": b}, relevance, nil
		case "LIKE":
			q, err := p.like(t)
			return q, false, err
		}
		q, err := p.compare(t)
		return q, false, err
	case *sqlNot:
		c, _, err := p.filter(t.x)
		if err != nil {
			return nil, false, err
		}
		return sqlBool("must_not", c), false, nil
	case *sqlInList:
		field, err := p.operandField(t.x, t)
		if err != nil {
			return nil, false, err
		}
		var values []any
		for _, x := range t.list {
			lit, ok := constLit(x)
			if !ok {
				return nil, false, sqlSemantic("IN takes a list of literals; [%s] is not one", sqlText(x))
			}
			if lit.val != nil {
				values = append(values, p.fieldValue(field, lit.val))
			}
		}
		var q any = dsl{"terms": dsl{p.keywordField(field): values}}
		if p.fields[field].kind == kindDate {
			var ranges []any
			for _, v := range values {
				ranges = append(ranges, p.dateRange(field, "gte", v, "lte", v))
			}
			q = sqlBool("should", ranges...)
		}
		if t.not {
			q = presentAndNot(field, q)
		}
		return q, false, nil
	case *sqlBetween:
		field, err := p.operandField(t.x, t)
		if err != nil {
			return nil, false, err
		}
		lo, ok1 := constLit(t.lo)
		hi, ok2 := constLit(t.hi)
		if !ok1 || !ok2 {
			return nil, false, sqlSemantic("BETWEEN takes two literals, e.g. qty BETWEEN 1 AND 5")
		}
		var q any = p.rangeOf(field, "gte", lo.val, "lte", hi.val)
		if t.not {
			q = presentAndNot(field, q)
		}
		return q, false, nil
	case *sqlIsNull:
		field, err := p.operandField(t.x, t)
		if err != nil {
			return nil, false, err
		}
		exists := dsl{"exists": dsl{"field": field}}
		if t.not {
			return exists, false, nil
		}
		return sqlBool("must_not", exists), false, nil
	case *sqlFunc:
		if typ := sqlRelevance[t.name]; typ != "" {
			q, err := p.relevance(t, typ)
			return q, true, err
		}
	case *sqlColRef:
		if p.fields[t.name] != nil && p.fields[t.name].kind == kindBool {
			return dsl{"term": dsl{t.name: dsl{"value": true}}}, false, nil
		}
	}
	return nil, false, sqlSemantic("this emulation translates WHERE conditions of the form field <op> literal, IN, BETWEEN, LIKE, IS NULL, AND/OR/NOT and the full-text functions (MATCH, MATCH_PHRASE, MULTI_MATCH, QUERY); [%s] would need a script", sqlText(e))
}

// constLit folds an expression without fields (2 + 3, UPPER('a'), CAST(...)) into a literal.
func constLit(e sqlExpr) (*sqlLit, bool) {
	if l, ok := e.(*sqlLit); ok {
		return l, true
	}
	constant := e != nil
	walkSQL(e, func(x sqlExpr) {
		switch t := x.(type) {
		case *sqlColRef, *sqlArray:
			constant = false
		case *sqlFunc:
			if sqlAggFuncs[t.name] || sqlRelevance[t.name] != "" {
				constant = false
			}
		}
	})
	if !constant {
		return nil, false
	}
	return &sqlLit{evalSQL(e, nil)}, true
}

// presentAndNot negates q for documents that have the field: in SQL a negated condition is
// never true for a missing value, where must_not alone would keep those documents.
func presentAndNot(field string, q any) dsl {
	return dsl{"bool": dsl{"filter": []any{dsl{"exists": dsl{"field": field}}}, "must_not": []any{q}}}
}

func flattenSQL(e sqlExpr, op string, out *[]sqlExpr) {
	if b, ok := e.(*sqlBinary); ok && b.op == op {
		flattenSQL(b.l, op, out)
		flattenSQL(b.r, op, out)
		return
	}
	*out = append(*out, e)
}

// operandField requires a plain field on the left of IN, BETWEEN and IS NULL.
func (p *sqlPlan) operandField(x sqlExpr, whole sqlExpr) (string, *sqlErr) {
	r, ok := x.(*sqlColRef)
	if !ok || strings.HasPrefix(r.name, "_") {
		return "", sqlSemantic("[%s] needs a field on its left; an expression there would need a script", sqlText(whole))
	}
	return r.name, nil
}

var sqlFlip = map[string]string{"=": "=", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

func (p *sqlPlan) compare(t *sqlBinary) (any, *sqlErr) {
	op, l, r := t.op, t.l, t.r
	if _, ok := constLit(l); ok {
		l, r, op = r, l, sqlFlip[op]
	}
	col, ok1 := l.(*sqlColRef)
	lit, ok2 := constLit(r)
	if !ok1 || !ok2 || op == "" || (strings.HasPrefix(col.name, "_") && col.name != "_id") {
		return nil, sqlSemantic("this emulation compares a field with a literal; [%s] would need a script", sqlText(t))
	}
	if lit.val == nil { // comparing with NULL is never true
		return dsl{"match_none": dsl{}}, nil
	}
	field := col.name
	if field == "_id" {
		s, _ := jsonval.String(lit.val)
		q := dsl{"ids": dsl{"values": []any{s}}}
		if op == "!=" {
			return sqlBool("must_not", q), nil
		}
		if op != "=" {
			return nil, sqlSemantic("_id can only be compared with = or !=")
		}
		return q, nil
	}
	var q any
	switch op {
	case "=", "!=":
		if p.fields[field].kind == kindDate {
			q = p.rangeOf(field, "gte", lit.val, "lte", lit.val)
		} else {
			q = dsl{"term": dsl{p.keywordField(field): dsl{"value": p.fieldValue(field, lit.val)}}}
		}
	default:
		key := map[string]string{"<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}[op]
		q = p.rangeOf(field, key, lit.val, "", nil)
	}
	if op == "!=" {
		return presentAndNot(field, q), nil
	}
	return q, nil
}

// rangeOf is a range query on the field's sortable form with one or two bounds.
func (p *sqlPlan) rangeOf(field, k1 string, v1 any, k2 string, v2 any) dsl {
	if p.fields[field].kind == kindDate {
		return p.dateRange(field, k1, v1, k2, v2)
	}
	b := dsl{k1: p.fieldValue(field, v1)}
	if k2 != "" {
		b[k2] = p.fieldValue(field, v2)
	}
	return dsl{"range": dsl{p.keywordField(field): b}}
}

// dateRange compares a date field with SQL timestamp literals, given as ISO instants with the
// format that reads them, whatever the field's own format is.
func (p *sqlPlan) dateRange(field, k1 string, v1 any, k2 string, v2 any) dsl {
	b := dsl{}
	iso := true
	for _, kv := range [][2]any{{k1, v1}, {k2, v2}} {
		if kv[0] == "" {
			continue
		}
		v, ok := dateBound(kv[1])
		iso = iso && ok
		b[kv[0].(string)] = v
	}
	if iso {
		b["format"] = "strict_date_optional_time||epoch_millis"
	}
	return dsl{"range": dsl{field: b}}
}

// like becomes a case-insensitive wildcard query, as in the plugin (% → *, _ → ?); a pattern
// holding a literal * or ? becomes the equivalent regexp instead, since wildcard cannot escape.
func (p *sqlPlan) like(t *sqlBinary) (any, *sqlErr) {
	col, ok1 := t.l.(*sqlColRef)
	lit, ok2 := constLit(t.r)
	pat, ok3 := "", false
	if ok2 {
		pat, ok3 = lit.val.(string)
	}
	if !ok1 || !ok3 || strings.HasPrefix(col.name, "_") {
		return nil, sqlSemantic("LIKE compares a field with a string pattern, e.g. title LIKE 'fox%%'")
	}
	field := p.keywordField(col.name)
	if !strings.ContainsAny(pat, "*?\\") {
		w := strings.NewReplacer("%", "*", "_", "?").Replace(pat)
		return dsl{"wildcard": dsl{field: dsl{"value": w, "case_insensitive": true}}}, nil
	}
	return dsl{"regexp": dsl{field: dsl{"value": likePattern(pat), "case_insensitive": true}}}, nil
}

// relevance translates MATCH(field, 'text', option='value', ...) and its relatives.
func (p *sqlPlan) relevance(f *sqlFunc, typ string) (any, *sqlErr) {
	usage := map[string]string{
		"match": f.name + "(field, 'text')", "match_phrase": f.name + "(field, 'text')",
		"match_phrase_prefix": f.name + "(field, 'text')", "match_bool_prefix": f.name + "(field, 'text')",
		"multi_match": f.name + "(['field1', 'field2'], 'text')", "query_string": f.name + "('field:text')",
		"simple_query_string": f.name + "(['field'], 'text')",
	}[typ]
	var positional []sqlExpr
	opts := dsl{}
	for _, a := range f.args {
		if b, ok := a.(*sqlBinary); ok && b.op == "=" {
			name, ok1 := b.l.(*sqlColRef)
			val, ok2 := b.r.(*sqlLit)
			if !ok1 || !ok2 {
				return nil, sqlSemantic("%s options are written name='value'", f.name)
			}
			opts[strings.ToLower(name.name)] = val.val
			continue
		}
		positional = append(positional, a)
	}
	text := func(e sqlExpr) (string, bool) {
		if l, ok := e.(*sqlLit); ok {
			s, ok := jsonval.String(l.val)
			return s, ok
		}
		return "", false
	}
	fieldList := func(e sqlExpr) ([]any, *sqlErr) {
		var items []sqlExpr
		if arr, ok := e.(*sqlArray); ok {
			items = arr.items
		} else {
			items = []sqlExpr{e}
		}
		var out []any
		for _, it := range items {
			var name string
			switch v := it.(type) {
			case *sqlColRef:
				name = v.name
			case *sqlLit:
				name, _ = v.val.(string)
			}
			base, _, _ := strings.Cut(name, "^")
			if base == "" {
				return nil, sqlSemantic("%s: [%s] is not a field; usage: %s", f.name, sqlText(it), usage)
			}
			if !strings.ContainsAny(base, "*") {
				if _, err := p.field(base); err != nil {
					return nil, err
				}
			}
			out = append(out, name)
		}
		return out, nil
	}
	body := dsl{}
	switch typ {
	case "query_string", "simple_query_string":
		switch len(positional) {
		case 1:
		case 2:
			fields, err := fieldList(positional[0])
			if err != nil {
				return nil, err
			}
			body["fields"] = fields
			positional = positional[1:]
		default:
			return nil, sqlSemantic("usage: %s", usage)
		}
		q, ok := text(positional[0])
		if !ok {
			return nil, sqlSemantic("usage: %s", usage)
		}
		body["query"] = q
	default:
		if len(positional) != 2 {
			return nil, sqlSemantic("usage: %s", usage)
		}
		q, ok := text(positional[1])
		if !ok {
			return nil, sqlSemantic("usage: %s", usage)
		}
		fields, err := fieldList(positional[0])
		if err != nil {
			return nil, err
		}
		body["query"] = q
		if typ == "multi_match" {
			body["fields"] = fields
		} else {
			if len(fields) != 1 {
				return nil, sqlSemantic("usage: %s", usage)
			}
			for k, v := range opts {
				body[k] = v
			}
			return dsl{typ: dsl{fields[0].(string): body}}, nil
		}
	}
	for k, v := range opts {
		body[k] = v
	}
	return dsl{typ: body}, nil
}
