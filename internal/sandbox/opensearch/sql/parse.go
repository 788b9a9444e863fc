package sql

import (
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// sqlExpr is a node of a parsed expression.
type sqlExpr interface{}

type (
	sqlColRef struct {
		name string
		pos  int
	}
	sqlLit   struct{ val any } // string, int64, float64, bool or nil
	sqlArray struct{ items []sqlExpr }
	sqlFunc  struct {
		name     string // upper case
		args     []sqlExpr
		star     bool // COUNT(*)
		distinct bool // COUNT(DISTINCT x)
		pos      int
	}
	sqlBinary struct {
		op   string // AND OR = != < <= > >= LIKE + - * / %
		l, r sqlExpr
	}
	sqlNot    struct{ x sqlExpr }
	sqlNeg    struct{ x sqlExpr }
	sqlInList struct {
		x    sqlExpr
		list []sqlExpr
		not  bool
	}
	sqlBetween struct {
		x, lo, hi sqlExpr
		not       bool
	}
	sqlIsNull struct {
		x   sqlExpr
		not bool
	}
)

type sqlItem struct {
	expr  sqlExpr
	star  bool
	alias string
	text  string // as written: the column name when there is no alias
}

type sqlOrder struct {
	expr       sqlExpr
	desc       bool
	nullsFirst bool
}

// sqlSelect is one parsed SELECT statement.
type sqlSelect struct {
	distinct bool
	items    []sqlItem
	from     string // index expression, comma-separated when several
	alias    string
	where    sqlExpr
	groupBy  []sqlExpr
	having   sqlExpr
	orderBy  []sqlOrder
	limit    int // -1 when absent
	offset   int
}

var sqlReserved = map[string]bool{"SELECT": true, "FROM": true, "WHERE": true, "GROUP": true, "BY": true, "ORDER": true,
	"HAVING": true, "LIMIT": true, "OFFSET": true, "AND": true, "OR": true, "NOT": true, "IN": true, "IS": true, "NULL": true,
	"LIKE": true, "BETWEEN": true, "AS": true, "ASC": true, "DESC": true, "DISTINCT": true, "JOIN": true, "INNER": true,
	"LEFT": true, "RIGHT": true, "CROSS": true, "FULL": true, "OUTER": true, "ON": true, "UNION": true, "NULLS": true,
	"TRUE": true, "FALSE": true, "EXCEPT": true, "INTERSECT": true, "MINUS": true}

type sqlParser struct {
	stmt string
	toks []sqlTok
	i    int
}

func (p *sqlParser) peek() sqlTok { return p.toks[p.i] }

func (p *sqlParser) next() sqlTok {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *sqlParser) fail(expected string) *sqlErr {
	t := p.peek()
	sym := t.text
	if t.kind != tokEOF {
		sym = p.stmt[t.pos:t.end]
	}
	return sqlSyntaxAt(p.stmt, t.pos, sym, expected)
}

func (p *sqlParser) accept(kw string) bool {
	if p.peek().is(kw) {
		p.i++
		return true
	}
	return false
}

func (p *sqlParser) acceptOp(op string) bool {
	if p.peek().isOp(op) {
		p.i++
		return true
	}
	return false
}

func (p *sqlParser) expect(kw string) *sqlErr {
	if !p.accept(kw) {
		return p.fail("expecting " + kw)
	}
	return nil
}

func (p *sqlParser) expectOp(op string) *sqlErr {
	if !p.acceptOp(op) {
		return p.fail("expecting '" + op + "'")
	}
	return nil
}

// parseSQL parses one SELECT statement (a trailing semicolon is allowed).
func parseSQL(stmt string) (*sqlSelect, *sqlErr) {
	toks, err := lexSQL(stmt)
	if err != nil {
		return nil, err
	}
	if n := len(toks); n >= 2 && toks[n-2].isOp(";") {
		toks = append(toks[:n-2], toks[n-1])
	}
	p := &sqlParser{stmt: stmt, toks: toks}
	if !p.peek().is("SELECT") {
		return nil, p.fail("only SELECT statements are supported")
	}
	sel, err := p.selectStmt()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		if t.isOp(";") {
			return nil, p.fail("multiple statements are not supported")
		}
		return nil, p.fail("expecting the end of the statement")
	}
	return sel, nil
}

func (p *sqlParser) selectStmt() (*sqlSelect, *sqlErr) {
	p.next() // SELECT
	sel := &sqlSelect{limit: -1}
	if p.accept("DISTINCT") {
		sel.distinct = true
	} else {
		p.accept("ALL")
	}
	for {
		it, err := p.selectItem()
		if err != nil {
			return nil, err
		}
		sel.items = append(sel.items, it)
		if !p.acceptOp(",") {
			break
		}
	}
	if err := p.expect("FROM"); err != nil {
		return nil, err
	}
	if err := p.fromClause(sel); err != nil {
		return nil, err
	}
	var err *sqlErr
	if p.accept("WHERE") {
		if sel.where, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if p.accept("GROUP") {
		if err := p.expect("BY"); err != nil {
			return nil, err
		}
		if sel.groupBy, err = p.exprList(); err != nil {
			return nil, err
		}
	}
	if p.accept("HAVING") {
		if sel.having, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if p.accept("ORDER") {
		if err := p.expect("BY"); err != nil {
			return nil, err
		}
		for {
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			o := sqlOrder{expr: e}
			if p.accept("DESC") {
				o.desc = true
			} else {
				p.accept("ASC")
			}
			o.nullsFirst = !o.desc // the plugin's default: NULLS FIRST ascending, NULLS LAST descending
			if p.accept("NULLS") {
				switch {
				case p.accept("FIRST"):
					o.nullsFirst = true
				case p.accept("LAST"):
					o.nullsFirst = false
				default:
					return nil, p.fail("expecting FIRST or LAST")
				}
			}
			sel.orderBy = append(sel.orderBy, o)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if p.accept("LIMIT") {
		n, err := p.count()
		if err != nil {
			return nil, err
		}
		sel.limit = n
		if p.acceptOp(",") { // LIMIT offset, count
			if sel.limit, err = p.count(); err != nil {
				return nil, err
			}
			sel.offset = n
		} else if p.accept("OFFSET") {
			if sel.offset, err = p.count(); err != nil {
				return nil, err
			}
		}
	}
	return sel, nil
}

func (p *sqlParser) count() (int, *sqlErr) {
	t := p.peek()
	n, err := strconv.Atoi(t.text)
	if t.kind != tokNumber || err != nil || n < 0 {
		return 0, p.fail("expecting a whole number")
	}
	p.next()
	return n, nil
}

func (p *sqlParser) selectItem() (sqlItem, *sqlErr) {
	start := p.peek().pos
	if p.acceptOp("*") {
		return sqlItem{star: true, text: "*"}, nil
	}
	e, err := p.expr()
	if err != nil {
		return sqlItem{}, err
	}
	it := sqlItem{expr: e, text: p.stmt[start:p.toks[p.i-1].end]}
	if c, ok := e.(*sqlColRef); ok {
		it.text = c.name
	}
	if p.accept("AS") {
		if t := p.peek(); !isAliasTok(t) && t.kind != tokString {
			return sqlItem{}, p.fail("expecting an alias")
		}
		it.alias = p.next().text
	} else if isAliasTok(p.peek()) {
		it.alias = p.next().text
	}
	return it, nil
}

// isAliasTok: a quoted identifier, or a word that is not a keyword.
func isAliasTok(t sqlTok) bool {
	return t.kind == tokQIdent || t.kind == tokIdent && !sqlReserved[strings.ToUpper(t.text)]
}

// fromClause reads the index expression: adjacent pieces form one name (logs-2024-*), commas
// list several indices, as the plugin accepts; an alias may follow.
func (p *sqlParser) fromClause(sel *sqlSelect) *sqlErr {
	var names []string
	for {
		t := p.peek()
		if t.isOp("(") {
			return p.fail("subqueries are not supported by this emulation")
		}
		var b strings.Builder
		end := -1
		for {
			t := p.peek()
			piece := t.kind == tokIdent || t.kind == tokQIdent || t.kind == tokNumber || t.isOp("-") || t.isOp("*")
			if !piece || (end >= 0 && t.pos != end) || (end < 0 && t.kind == tokIdent && sqlReserved[strings.ToUpper(t.text)]) {
				break
			}
			b.WriteString(t.text)
			end = t.end
			p.next()
		}
		if b.Len() == 0 {
			return p.fail("expecting an index name")
		}
		names = append(names, b.String())
		if !p.acceptOp(",") {
			break
		}
	}
	sel.from = strings.Join(names, ",")
	if p.accept("AS") {
		if !isAliasTok(p.peek()) {
			return p.fail("expecting an alias")
		}
		sel.alias = p.next().text
	} else if isAliasTok(p.peek()) {
		sel.alias = p.next().text
	}
	for _, kw := range []string{"JOIN", "INNER", "LEFT", "RIGHT", "CROSS", "FULL"} {
		if p.peek().is(kw) {
			return p.fail("joins are not supported by the SQL plugin's engine")
		}
	}
	return nil
}

func (p *sqlParser) exprList() ([]sqlExpr, *sqlErr) {
	var out []sqlExpr
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if !p.acceptOp(",") {
			return out, nil
		}
	}
}

func (p *sqlParser) expr() (sqlExpr, *sqlErr) { return p.orExpr() }

func (p *sqlParser) orExpr() (sqlExpr, *sqlErr) {
	l, err := p.andExpr()
	for err == nil && p.accept("OR") {
		var r sqlExpr
		if r, err = p.andExpr(); err == nil {
			l = &sqlBinary{"OR", l, r}
		}
	}
	return l, err
}

func (p *sqlParser) andExpr() (sqlExpr, *sqlErr) {
	l, err := p.notExpr()
	for err == nil && p.accept("AND") {
		var r sqlExpr
		if r, err = p.notExpr(); err == nil {
			l = &sqlBinary{"AND", l, r}
		}
	}
	return l, err
}

func (p *sqlParser) notExpr() (sqlExpr, *sqlErr) {
	if p.accept("NOT") {
		x, err := p.notExpr()
		if err != nil {
			return nil, err
		}
		return &sqlNot{x}, nil
	}
	return p.predicate()
}

func (p *sqlParser) predicate() (sqlExpr, *sqlErr) {
	l, err := p.additive()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	switch {
	case t.kind == tokOp && (t.text == "=" || t.text == "!=" || t.text == "<>" || t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">="):
		p.next()
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		op := t.text
		if op == "<>" {
			op = "!="
		}
		return &sqlBinary{op, l, r}, nil
	case t.is("IS"):
		p.next()
		not := p.accept("NOT")
		if err := p.expect("NULL"); err != nil {
			return nil, err
		}
		return &sqlIsNull{l, not}, nil
	}
	not := p.accept("NOT")
	switch {
	case p.accept("LIKE"):
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		var e sqlExpr = &sqlBinary{"LIKE", l, r}
		if not {
			e = &sqlNot{e}
		}
		return e, nil
	case p.accept("IN"):
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		if p.peek().is("SELECT") {
			return nil, p.fail("subqueries are not supported by this emulation")
		}
		list, err := p.exprList()
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		return &sqlInList{l, list, not}, nil
	case p.accept("BETWEEN"):
		lo, err := p.additive()
		if err != nil {
			return nil, err
		}
		if err := p.expect("AND"); err != nil {
			return nil, err
		}
		hi, err := p.additive()
		if err != nil {
			return nil, err
		}
		return &sqlBetween{l, lo, hi, not}, nil
	}
	if not {
		return nil, p.fail("expecting LIKE, IN or BETWEEN after NOT")
	}
	return l, nil
}

func (p *sqlParser) additive() (sqlExpr, *sqlErr) {
	l, err := p.multiplicative()
	for err == nil && (p.peek().isOp("+") || p.peek().isOp("-")) {
		op := p.next().text
		var r sqlExpr
		if r, err = p.multiplicative(); err == nil {
			l = &sqlBinary{op, l, r}
		}
	}
	return l, err
}

func (p *sqlParser) multiplicative() (sqlExpr, *sqlErr) {
	l, err := p.unary()
	for err == nil && (p.peek().isOp("*") || p.peek().isOp("/") || p.peek().isOp("%")) {
		op := p.next().text
		var r sqlExpr
		if r, err = p.unary(); err == nil {
			l = &sqlBinary{op, l, r}
		}
	}
	return l, err
}

func (p *sqlParser) unary() (sqlExpr, *sqlErr) {
	if p.acceptOp("-") {
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if lit, ok := x.(*sqlLit); ok {
			switch v := lit.val.(type) {
			case int64:
				return &sqlLit{-v}, nil
			case float64:
				return &sqlLit{-v}, nil
			}
		}
		return &sqlNeg{x}, nil
	}
	p.acceptOp("+")
	return p.primary()
}

func (p *sqlParser) primary() (sqlExpr, *sqlErr) {
	t := p.peek()
	switch t.kind {
	case tokNumber:
		p.next()
		if n, err := strconv.ParseInt(t.text, 10, 64); err == nil {
			return &sqlLit{n}, nil
		}
		f, _ := strconv.ParseFloat(t.text, 64)
		return &sqlLit{f}, nil
	case tokString:
		p.next()
		return &sqlLit{t.text}, nil
	case tokQIdent:
		p.next()
		return &sqlColRef{t.text, t.pos}, nil
	case tokOp:
		switch t.text {
		case "(":
			p.next()
			if p.peek().is("SELECT") {
				return nil, p.fail("subqueries are not supported by this emulation")
			}
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			return e, p.expectOp(")")
		case "[":
			p.next()
			arr := &sqlArray{}
			if !p.acceptOp("]") {
				items, err := p.exprList()
				if err != nil {
					return nil, err
				}
				arr.items = items
				if err := p.expectOp("]"); err != nil {
					return nil, err
				}
			}
			return arr, nil
		}
	case tokIdent:
		up := strings.ToUpper(t.text)
		switch up {
		case "TRUE", "FALSE":
			p.next()
			return &sqlLit{up == "TRUE"}, nil
		case "NULL":
			p.next()
			return &sqlLit{nil}, nil
		}
		if p.toks[p.i+1].isOp("(") {
			return p.call()
		}
		if sqlReserved[up] {
			break
		}
		p.next()
		return &sqlColRef{t.text, t.pos}, nil
	}
	return nil, p.fail("expecting a field, a literal or a function")
}

func (p *sqlParser) call() (sqlExpr, *sqlErr) {
	t := p.next()
	p.next() // (
	f := &sqlFunc{name: strings.ToUpper(t.text), pos: t.pos}
	if f.name == "CAST" { // CAST(expr AS type): the type travels as a string argument
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expect("AS"); err != nil {
			return nil, err
		}
		typ := p.peek()
		if _, ok := sqlCastTypes[strings.ToUpper(typ.text)]; typ.kind != tokIdent || !ok {
			return nil, p.fail("expecting a type: " + strings.Join(jsonval.SortedKeys(sqlCastTypes), ", "))
		}
		p.next()
		f.args = []sqlExpr{x, &sqlLit{strings.ToUpper(typ.text)}}
		return f, p.expectOp(")")
	}
	if p.acceptOp(")") {
		return f, nil
	}
	if p.peek().isOp("*") && p.toks[p.i+1].isOp(")") {
		p.i += 2
		f.star = true
		return f, nil
	}
	f.distinct = p.accept("DISTINCT")
	args, err := p.exprList()
	if err != nil {
		return nil, err
	}
	f.args = args
	return f, p.expectOp(")")
}
