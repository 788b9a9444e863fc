package sql

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
)

// defaultSQLRows is the plugin's plugins.query.size_limit: rows returned without a LIMIT.
const defaultSQLRows = 200

// maxSQLGroups bounds GROUP BY: every level nests its terms and its missing (NULL) bucket, so
// the request doubles with each field.
const maxSQLGroups = 8

// groupBucketSize is the number of terms buckets asked for per GROUP BY level.
const groupBucketSize = 10000

// sqlPlan is a statement translated the way the SQL plugin does it: a search request (query,
// sort, _source, aggregations) run by the engine, then projection, HAVING, ORDER BY over
// aggregates and LIMIT applied to the answer in memory.
type sqlPlan struct {
	sel     *sqlSelect
	targets []*Table
	fields  map[string]*Field // every index's fields; the first index to map a path wins

	cols    []sqlOutCol
	grouped bool
	groups  []string  // GROUP BY fields, outermost first
	aggs    []*sqlAgg // aggregate calls, by key
	having  sqlExpr
	order   []sqlOrder // in memory (grouped queries only)
	scored  bool       // WHERE has a full-text function: hits come by score
	body    map[string]any
}

type sqlOutCol struct {
	name, typ string
	expr      sqlExpr // bound: column names resolved
}

// sqlAgg is one aggregate call; key is how rows and aggregation names refer to it.
type sqlAgg struct {
	key, fn  string
	field    string
	fd       *Field
	star     bool
	distinct bool
}

func sqlSemantic(format string, a ...any) *sqlErr {
	return &sqlErr{400, "Invalid SQL query", fmt.Sprintf(format, a...), "SemanticCheckException"}
}

var sqlAggFuncs = map[string]bool{"COUNT": true, "SUM": true, "AVG": true, "MIN": true, "MAX": true}

// sqlScalarFuncs are computed over result rows (sqlScalar).
var sqlScalarFuncs = map[string]bool{"UPPER": true, "LOWER": true, "TRIM": true, "LENGTH": true, "CHAR_LENGTH": true,
	"SUBSTRING": true, "SUBSTR": true, "CONCAT": true, "COALESCE": true, "IFNULL": true, "ABS": true, "FLOOR": true,
	"CEIL": true, "CEILING": true, "ROUND": true, "CAST": true}

func planSQL(sel *sqlSelect, targets []*Table) (*sqlPlan, *sqlErr) {
	p := &sqlPlan{sel: sel, targets: targets, fields: map[string]*Field{}}
	for _, ix := range targets {
		for path, fd := range ix.fields {
			if p.fields[path] == nil {
				p.fields[path] = fd
			}
		}
	}
	for _, it := range sel.items {
		if it.star {
			for _, c := range p.starColumns() {
				p.cols = append(p.cols, sqlOutCol{name: c, typ: sqlTypeOf(p.fields[c]), expr: &sqlColRef{name: c}})
			}
			continue
		}
		e, err := p.bind(it.expr)
		if err != nil {
			return nil, err
		}
		name := it.text
		if it.alias != "" {
			name = it.alias
		}
		p.cols = append(p.cols, sqlOutCol{name: name, typ: p.typeOf(e), expr: e})
	}
	var err *sqlErr
	if sel.having, err = p.bindAlias(sel.having); err != nil {
		return nil, err
	}
	p.having = sel.having
	order := make([]sqlOrder, len(sel.orderBy))
	for i, o := range sel.orderBy {
		if o.expr, err = p.bindItemRef(o.expr); err != nil {
			return nil, err
		}
		order[i] = o
	}
	p.grouped = sel.distinct || len(sel.groupBy) > 0 || p.having != nil
	for _, c := range p.cols {
		p.grouped = p.grouped || hasAgg(c.expr)
	}
	for _, o := range order {
		p.grouped = p.grouped || hasAgg(o.expr)
	}
	body := map[string]any{}
	if sel.where != nil {
		if hasAgg(sel.where) {
			return nil, sqlSemantic("aggregate functions are not allowed in WHERE; filter groups with HAVING")
		}
		where, err := p.bind(sel.where)
		if err != nil {
			return nil, err
		}
		q, scored, err := p.filter(where)
		if err != nil {
			return nil, err
		}
		body["query"] = q
		p.scored = scored
	}
	if p.grouped {
		if err := p.planGroups(order, body); err != nil {
			return nil, err
		}
	} else if err := p.planHits(order, body); err != nil {
		return nil, err
	}
	p.body = body
	return p, nil
}

// starColumns lists the fields SELECT * shows: leaves of every index, without multi-fields.
func (p *sqlPlan) starColumns() []string {
	var out []string
	seen := map[string]bool{}
	for _, ix := range p.targets {
		for _, path := range jsonval.SortedKeys(ix.fields) {
			fd := ix.fields[path]
			if fd.kind == kindObject || fd.multi || seen[strings.ToLower(path)] {
				continue
			}
			seen[strings.ToLower(path)] = true
			out = append(out, path)
		}
	}
	return out
}

// field resolves a column name to a mapped field, dropping a table alias or index prefix.
func (p *sqlPlan) field(name string) (string, *sqlErr) {
	try := []string{name}
	for _, pre := range []string{p.sel.alias, p.sel.from} {
		if pre != "" && strings.HasPrefix(name, pre+".") {
			try = append(try, name[len(pre)+1:])
		}
	}
	for _, n := range try {
		if fd := p.fields[n]; fd != nil {
			if fd.kind == kindObject {
				return "", sqlSemantic("Field [%s] is an object; select its fields instead, e.g. [%s.<name>]", n, n)
			}
			return n, nil
		}
	}
	return "", sqlSemantic("can't resolve Symbol(namespace=FIELD_NAME, name=%s) in type env", name)
}

// keywordField is what the plugin uses for exact matching, sorting and aggregating a field: a
// text field's keyword multi-field when it has one.
func (p *sqlPlan) keywordField(name string) string {
	fd := p.fields[name]
	if fd == nil || fd.kind != kindText {
		return name
	}
	if sub := p.fields[name+".keyword"]; sub != nil && sub.kind == kindKeyword {
		return name + ".keyword"
	}
	for _, path := range jsonval.SortedKeys(p.fields) {
		if sub := p.fields[path]; sub.multi && sub.kind == kindKeyword && strings.HasPrefix(path, name+".") {
			return path
		}
	}
	return name
}

// bind resolves the column references of an expression.
func (p *sqlPlan) bind(e sqlExpr) (sqlExpr, *sqlErr) {
	var err *sqlErr
	switch t := e.(type) {
	case nil, *sqlLit:
		return e, nil
	case *sqlColRef:
		if t.name == "_score" || t.name == "_id" || t.name == "_index" {
			return &sqlColRef{name: t.name}, nil
		}
		n, err := p.field(t.name)
		if err != nil {
			return nil, err
		}
		return &sqlColRef{name: n, pos: t.pos}, nil
	case *sqlArray:
		out := &sqlArray{items: make([]sqlExpr, len(t.items))}
		for i, x := range t.items {
			if out.items[i], err = p.bind(x); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *sqlFunc:
		if !sqlAggFuncs[t.name] && sqlRelevance[t.name] == "" && !sqlScalarFuncs[t.name] {
			return nil, sqlSemantic("Unsupported function [%s]: this emulation knows the aggregates COUNT, SUM, AVG, MIN, MAX, the full-text functions (MATCH, MATCH_PHRASE, MULTI_MATCH, QUERY, QUERY_STRING) and %s", t.name, strings.Join(jsonval.SortedKeys(sqlScalarFuncs), ", "))
		}
		out := *t
		out.args = make([]sqlExpr, len(t.args))
		relevance := sqlRelevance[t.name] != ""
		for i, x := range t.args {
			if relevance {
				// Field lists and options (operator='AND') are checked by the translation.
				out.args[i] = x
				continue
			}
			if out.args[i], err = p.bind(x); err != nil {
				return nil, err
			}
		}
		return &out, nil
	case *sqlBinary:
		out := &sqlBinary{op: t.op}
		if out.l, err = p.bind(t.l); err != nil {
			return nil, err
		}
		out.r, err = p.bind(t.r)
		return out, err
	case *sqlNot:
		x, err := p.bind(t.x)
		return &sqlNot{x}, err
	case *sqlNeg:
		x, err := p.bind(t.x)
		return &sqlNeg{x}, err
	case *sqlInList:
		out := &sqlInList{not: t.not, list: make([]sqlExpr, len(t.list))}
		if out.x, err = p.bind(t.x); err != nil {
			return nil, err
		}
		for i, x := range t.list {
			if out.list[i], err = p.bind(x); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *sqlBetween:
		out := &sqlBetween{not: t.not}
		if out.x, err = p.bind(t.x); err != nil {
			return nil, err
		}
		if out.lo, err = p.bind(t.lo); err != nil {
			return nil, err
		}
		out.hi, err = p.bind(t.hi)
		return out, err
	case *sqlIsNull:
		x, err := p.bind(t.x)
		return &sqlIsNull{x, t.not}, err
	}
	return nil, sqlSemantic("unsupported expression")
}

// bindItemRef binds an ORDER BY or GROUP BY item, where a position (ORDER BY 2) or a select
// alias stands for that select item.
func (p *sqlPlan) bindItemRef(e sqlExpr) (sqlExpr, *sqlErr) {
	if t, ok := e.(*sqlLit); ok {
		if n, ok := t.val.(int64); ok {
			if n < 1 || int(n) > len(p.cols) {
				return nil, sqlSemantic("position %d is not in the select list (1 to %d)", n, len(p.cols))
			}
			return p.cols[n-1].expr, nil
		}
	}
	return p.bindAlias(e)
}

// bindAlias binds an expression in which select aliases stand for their items (HAVING n > 1).
func (p *sqlPlan) bindAlias(e sqlExpr) (sqlExpr, *sqlErr) {
	switch t := e.(type) {
	case *sqlColRef:
		for i, it := range p.sel.items {
			if it.alias != "" && strings.EqualFold(it.alias, t.name) {
				return p.cols[i].expr, nil
			}
		}
	case *sqlBinary:
		l, err := p.bindAlias(t.l)
		if err != nil {
			return nil, err
		}
		r, err := p.bindAlias(t.r)
		return &sqlBinary{t.op, l, r}, err
	case *sqlNot:
		x, err := p.bindAlias(t.x)
		return &sqlNot{x}, err
	}
	return p.bind(e)
}

func hasAgg(e sqlExpr) bool {
	found := false
	walkSQL(e, func(x sqlExpr) {
		if f, ok := x.(*sqlFunc); ok && sqlAggFuncs[f.name] {
			found = true
		}
	})
	return found
}

// walkSQL calls fn on e and every expression below it.
func walkSQL(e sqlExpr, fn func(sqlExpr)) {
	if e == nil {
		return
	}
	fn(e)
	switch t := e.(type) {
	case *sqlArray:
		for _, x := range t.items {
			walkSQL(x, fn)
		}
	case *sqlFunc:
		for _, x := range t.args {
			walkSQL(x, fn)
		}
	case *sqlBinary:
		walkSQL(t.l, fn)
		walkSQL(t.r, fn)
	case *sqlNot:
		walkSQL(t.x, fn)
	case *sqlNeg:
		walkSQL(t.x, fn)
	case *sqlInList:
		walkSQL(t.x, fn)
		for _, x := range t.list {
			walkSQL(x, fn)
		}
	case *sqlBetween:
		walkSQL(t.x, fn)
		walkSQL(t.lo, fn)
		walkSQL(t.hi, fn)
	case *sqlIsNull:
		walkSQL(t.x, fn)
	}
}

// aggKey names an aggregate call: COUNT(*), AVG(price), COUNT(DISTINCT tags).
func aggKey(f *sqlFunc) string {
	if f.star {
		return f.name + "(*)"
	}
	arg := ""
	if len(f.args) == 1 {
		if c, ok := f.args[0].(*sqlColRef); ok {
			arg = c.name
		}
	}
	if f.distinct {
		arg = "DISTINCT " + arg
	}
	return f.name + "(" + arg + ")"
}

func (p *sqlPlan) typeOf(e sqlExpr) string {
	switch t := e.(type) {
	case *sqlColRef:
		switch t.name {
		case "_score":
			return "float"
		case "_id", "_index":
			return "keyword"
		}
		return sqlTypeOf(p.fields[t.name])
	case *sqlLit:
		switch t.val.(type) {
		case int64:
			return "integer"
		case float64:
			return "double"
		case bool:
			return "boolean"
		}
		return "keyword"
	case *sqlFunc:
		switch t.name {
		case "COUNT":
			return "long"
		case "AVG":
			return "double"
		case "SUM":
			if len(t.args) == 1 && isIntSQLType(p.typeOf(t.args[0])) {
				return "long"
			}
			return "double"
		case "MIN", "MAX", "ABS":
			if len(t.args) == 1 {
				return p.typeOf(t.args[0])
			}
		case "LENGTH", "CHAR_LENGTH":
			return "integer"
		case "CAST":
			if l, ok := t.args[1].(*sqlLit); ok {
				typ, _ := l.val.(string)
				return sqlCastTypes[typ]
			}
		case "FLOOR", "CEIL", "CEILING":
			return "long"
		case "ROUND":
			if len(t.args) == 1 && isIntSQLType(p.typeOf(t.args[0])) {
				return "long"
			}
			return "double"
		}
		return "keyword"
	case *sqlBinary:
		switch t.op {
		case "+", "-", "*", "%":
			if isIntSQLType(p.typeOf(t.l)) && isIntSQLType(p.typeOf(t.r)) {
				return "long"
			}
			return "double"
		case "/":
			return "double"
		}
		return "boolean"
	case *sqlNeg:
		return p.typeOf(t.x)
	}
	return "boolean"
}

// planHits fills a plain search: _source, sort, from and size.
func (p *sqlPlan) planHits(order []sqlOrder, body map[string]any) *sqlErr {
	var includes []any
	seen := map[string]bool{}
	for _, c := range p.cols {
		walkSQL(c.expr, func(x sqlExpr) {
			if r, ok := x.(*sqlColRef); ok && !strings.HasPrefix(r.name, "_") {
				if path := sourcePath(p.fields[r.name]); !seen[path] {
					seen[path] = true
					includes = append(includes, path)
				}
			}
		})
	}
	body["_source"] = map[string]any{"includes": includes, "excludes": []any{}}
	var sorts []any
	for _, o := range order {
		r, ok := o.expr.(*sqlColRef)
		if !ok {
			return sqlSemantic("ORDER BY accepts fields, select aliases and positions here; sort on [%s] would need a script", sqlText(o.expr))
		}
		dir := "asc"
		if o.desc {
			dir = "desc"
		}
		if r.name == "_score" {
			sorts = append(sorts, map[string]any{"_score": map[string]any{"order": dir}})
			continue
		}
		missing := "_last"
		if o.nullsFirst {
			missing = "_first"
		}
		sorts = append(sorts, map[string]any{p.keywordField(r.name): map[string]any{"order": dir, "missing": missing}})
	}
	if sorts == nil && !p.scored {
		// The plugin reads plain scans in index order.
		sorts = []any{map[string]any{"_doc": map[string]any{"order": "asc"}}}
	}
	if sorts != nil {
		body["sort"] = sorts
	}
	body["timeout"] = "1m"
	size := defaultSQLRows
	if p.sel.limit >= 0 {
		size = p.sel.limit
	}
	// The engine pages no further than max_result_window.
	size = max(0, min(size, maxResultWindow-p.sel.offset))
	body["from"] = min(p.sel.offset, maxResultWindow)
	body["size"] = size
	return nil
}

// planGroups builds the aggregations: nested terms per GROUP BY field (each with a missing
// sibling for the NULL group), metrics at the innermost level.
func (p *sqlPlan) planGroups(order []sqlOrder, body map[string]any) *sqlErr {
	groupExprs := p.sel.groupBy
	if len(groupExprs) == 0 && p.sel.distinct {
		for _, c := range p.cols {
			groupExprs = append(groupExprs, c.expr)
		}
	}
	for _, g := range groupExprs {
		b, err := p.bindItemRef(g)
		if err != nil {
			return err
		}
		r, ok := b.(*sqlColRef)
		if !ok || strings.HasPrefix(r.name, "_") {
			return sqlSemantic("GROUP BY accepts fields, select aliases and positions; [%s] is not one", sqlText(g))
		}
		if !slices.Contains(p.groups, r.name) {
			p.groups = append(p.groups, r.name)
		}
	}
	if len(p.groups) > maxSQLGroups {
		return sqlSemantic("this emulation groups by at most %d fields; the statement groups by %d", maxSQLGroups, len(p.groups))
	}
	seen := map[string]bool{}
	collect := func(e sqlExpr) *sqlErr {
		var err *sqlErr
		walkSQL(e, func(x sqlExpr) {
			f, ok := x.(*sqlFunc)
			if !ok || !sqlAggFuncs[f.name] || err != nil {
				return
			}
			a := &sqlAgg{key: aggKey(f), fn: f.name, star: f.star, distinct: f.distinct}
			if !f.star {
				// COUNT() has no argument at all: check the count before looking at it.
				var c *sqlColRef
				if len(f.args) == 1 {
					c, ok = f.args[0].(*sqlColRef)
				}
				if len(f.args) != 1 || !ok || strings.HasPrefix(c.name, "_") {
					err = sqlSemantic("%s takes one field here, e.g. %s(price); [%s] would need a script", f.name, f.name, sqlText(f))
					return
				}
				a.field, a.fd = c.name, p.fields[c.name]
			} else if f.name != "COUNT" {
				err = sqlSemantic("%s(*) is not a valid aggregate; only COUNT takes *", f.name)
				return
			}
			if !seen[a.key] {
				seen[a.key] = true
				p.aggs = append(p.aggs, a)
			}
		})
		return err
	}
	for _, c := range p.cols {
		if err := collect(c.expr); err != nil {
			return err
		}
		if err := p.checkGrouped(c.expr); err != nil {
			return err
		}
	}
	rest := []sqlExpr{p.having}
	for _, o := range order {
		rest = append(rest, o.expr)
	}
	for _, e := range rest {
		if err := collect(e); err != nil {
			return err
		}
		if err := p.checkGrouped(e); err != nil {
			return err
		}
	}
	p.order = order
	metrics := map[string]any{}
	for _, a := range p.aggs {
		if a.star {
			continue // COUNT(*) is each bucket's doc_count
		}
		typ := map[string]string{"SUM": "sum", "AVG": "avg", "MIN": "min", "MAX": "max", "COUNT": "value_count"}[a.fn]
		if a.distinct {
			typ = "cardinality"
		}
		metrics[a.key] = map[string]any{typ: map[string]any{"field": p.keywordField(a.field)}}
	}
	aggs := metrics
	for i := len(p.groups) - 1; i >= 0; i-- {
		g := p.groups[i]
		terms := map[string]any{"terms": map[string]any{"field": p.keywordField(g), "size": groupBucketSize, "order": map[string]any{"_key": "asc"}}}
		missing := map[string]any{"missing": map[string]any{"field": p.keywordField(g)}}
		if len(aggs) > 0 {
			terms["aggregations"] = aggs
			missing["aggregations"] = aggs
		}
		aggs = map[string]any{g: terms, g + "#missing": missing}
	}
	body["size"] = 0
	body["track_total_hits"] = true
	if len(aggs) > 0 {
		body["aggregations"] = aggs
	}
	return nil
}

// checkGrouped rejects a selected field that is neither grouped nor inside an aggregate.
func (p *sqlPlan) checkGrouped(e sqlExpr) *sqlErr {
	switch t := e.(type) {
	case *sqlFunc:
		if sqlAggFuncs[t.name] {
			return nil
		}
		for _, a := range t.args {
			if err := p.checkGrouped(a); err != nil {
				return err
			}
		}
	case *sqlColRef:
		if !slices.Contains(p.groups, t.name) {
			return sqlSemantic("Explicit GROUP BY clause is required because expression [%s] contains non-aggregated column", t.name)
		}
	case *sqlBinary:
		if err := p.checkGrouped(t.l); err != nil {
			return err
		}
		return p.checkGrouped(t.r)
	case *sqlNeg:
		return p.checkGrouped(t.x)
	case *sqlNot:
		return p.checkGrouped(t.x)
	case *sqlIsNull:
		return p.checkGrouped(t.x)
	case *sqlInList:
		return p.checkGrouped(t.x)
	case *sqlBetween:
		return p.checkGrouped(t.x)
	}
	return nil
}

// sqlText renders an expression back as SQL, for messages.
func sqlText(e sqlExpr) string {
	switch t := e.(type) {
	case *sqlColRef:
		return t.name
	case *sqlLit:
		if s, ok := t.val.(string); ok {
			return "'" + strings.ReplaceAll(s, "'", "''") + "'"
		}
		if t.val == nil {
			return "NULL"
		}
		return fmt.Sprint(t.val)
	case *sqlFunc:
		if sqlAggFuncs[t.name] {
			return aggKey(t)
		}
		args := make([]string, len(t.args))
		for i, a := range t.args {
			args[i] = sqlText(a)
		}
		return t.name + "(" + strings.Join(args, ", ") + ")"
	case *sqlBinary:
		return sqlText(t.l) + " " + t.op + " " + sqlText(t.r)
	case *sqlNot:
		return "NOT " + sqlText(t.x)
	case *sqlNeg:
		return "-" + sqlText(t.x)
	case *sqlArray:
		items := make([]string, len(t.items))
		for i, a := range t.items {
			items[i] = sqlText(a)
		}
		return "[" + strings.Join(items, ", ") + "]"
	case *sqlInList:
		return sqlText(t.x) + " IN (...)"
	case *sqlBetween:
		return sqlText(t.x) + " BETWEEN " + sqlText(t.lo) + " AND " + sqlText(t.hi)
	case *sqlIsNull:
		return sqlText(t.x) + " IS NULL"
	}
	return "?"
}

// sqlTimestampLayouts are the literal forms a timestamp comparison accepts.
var sqlTimestampLayouts = []string{"2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05", "2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04:05", "2006-01-02"}

// dateBound turns a literal compared with a date field into a range bound: SQL timestamps
// become ISO instants; anything else (date math like now-1d) goes to the engine unchanged.
func dateBound(v any) (any, bool) {
	s, ok := v.(string)
	if !ok {
		if n, ok := v.(int64); ok {
			return time.UnixMilli(n).UTC().Format("2006-01-02T15:04:05.000Z"), true
		}
		return v, false
	}
	for _, layout := range sqlTimestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Format("2006-01-02T15:04:05.000Z"), true
		}
	}
	return s, false
}

// fieldValue converts a literal to what a query on the field expects.
func (p *sqlPlan) fieldValue(field string, v any) any {
	fd := p.fields[field]
	if fd == nil {
		return v
	}
	switch fd.kind {
	case kindText, kindKeyword:
		if s, ok := jsonval.String(v); ok {
			return s
		}
		if v != nil {
			return fmt.Sprint(v)
		}
	case kindLong, kindFloat:
		if s, ok := v.(string); ok {
			if _, ok := jsonval.Float(s); ok {
				return json.Number(strings.TrimSpace(s))
			}
		}
	case kindBool:
		if s, ok := v.(string); ok {
			if b, ok := jsonval.Bool(strings.ToLower(s)); ok {
				return b
			}
		}
	}
	return v
}

func isIntSQLType(t string) bool { return t == "long" || t == "integer" || t == "short" || t == "byte" }
