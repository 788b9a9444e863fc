// Package painless runs the subset of Painless that update scripts use most, for the OpenSearch
// emulation's _update, _update_by_query, _reindex and bulk updates.
package painless

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// The subset: statements separated by ';' of the forms
//
//	ctx._source.f = <expr>        ctx._source['f'] = <expr>       ctx._source.a.b = <expr>
//	ctx._source.f += <expr>       ctx._source.f -= <expr>         ctx._source.f++ / --
//	ctx._source.remove('f')       ctx._source.tags.add(<expr>)    ctx.op = 'delete' | 'noop'
//
// where <expr> is a literal, params.x, params['x'], ctx._source.f, or two of them joined by + or -.
// Anything else is refused the way painless refuses what it cannot compile: a 400
// script_exception "compile error" naming the statement.

// Script is a parsed script.
type Script struct {
	source string
	params map[string]any
	stmts  []pStmt
}

type pStmt struct {
	text  string
	op    string   // "=", "+=", "-=", "remove", "add", "ctxop"
	path  []string // under ctx._source
	expr  pExpr
	start int // offset of the statement in source
}

type pOperand struct {
	lit    any
	param  string
	source []string
	kind   int // 0 literal, 1 param, 2 source
}

type pExpr struct {
	a, b  pOperand
	binop byte // 0, '+', '-'
}

// Error is a failure as the engine reports it: Type and Reason, and for a script_exception the
// statement, its position and the cause.
type Error struct {
	Status      int
	Type        string
	Reason      string
	Script      string // script_exception: the whole source
	Stmt        string // script_exception: the statement at fault
	Start, End  int    // its position in Script
	CauseType   string
	CauseReason string
}

func (e *Error) Error() string { return e.Type + ": " + e.Reason }

func errorf(status int, typ, format string, a ...any) *Error {
	return &Error{Status: status, Type: typ, Reason: fmt.Sprintf(format, a...)}
}

func scriptErr(source string, stmt string, start int, reason, causeType, causeReason string) *Error {
	return &Error{Status: 400, Type: "script_exception", Reason: reason, Script: source, Stmt: stmt,
		Start: start, End: start + len(stmt), CauseType: causeType, CauseReason: causeReason}
}

// Parse reads the "script" of an update: a string or {"source","lang","params"}.
func Parse(v any) (*Script, *Error) {
	s := &Script{}
	switch t := v.(type) {
	case string:
		s.source = t
	case map[string]any:
		for k, x := range t {
			switch k {
			case "source", "inline":
				s.source, _ = toString(x)
			case "lang":
				if l, _ := toString(x); l != "painless" {
					return nil, errorf(400, "illegal_argument_exception", "script_lang not supported [%s]", l)
				}
			case "params":
				pm, ok := x.(map[string]any)
				if !ok {
					return nil, errorf(400, "parsing_exception", "[script] params must be an object")
				}
				s.params = pm
			case "id":
				id, _ := toString(x)
				return nil, errorf(404, "resource_not_found_exception", "unable to find script [%s] in cluster state", id)
			case "options":
			default:
				return nil, errorf(400, "parsing_exception", "[script] unknown field [%s]", k)
			}
		}
	default:
		return nil, errorf(400, "parsing_exception", "[script] must be a string or an object")
	}
	if strings.TrimSpace(s.source) == "" {
		return nil, errorf(400, "parsing_exception", "must specify <inline> for an inline script")
	}
	off := 0
	for _, raw := range splitStatements(s.source) {
		text := strings.TrimSpace(raw)
		start := off + strings.Index(raw, text)
		off += len(raw) + 1
		if text == "" {
			continue
		}
		st, ok := parseStmt(text)
		if !ok {
			return nil, scriptErr(s.source, text, start, "compile error", "illegal_argument_exception",
				"statement not supported by the sandbox's painless subset: ["+text+"]")
		}
		st.start = start
		s.stmts = append(s.stmts, st)
	}
	return s, nil
}

// splitStatements cuts on ';' outside quotes.
func splitStatements(src string) []string {
	var out []string
	var quote byte
	last := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';':
			out = append(out, src[last:i])
			last = i + 1
		}
	}
	return append(out, src[last:])
}

func parseStmt(t string) (pStmt, bool) {
	st := pStmt{text: t}
	if rest, ok := strings.CutPrefix(t, "ctx.op"); ok {
		rest = strings.TrimSpace(rest)
		if v, ok := strings.CutPrefix(rest, "="); ok && !strings.HasPrefix(v, "=") {
			o, ok := parseOperand(strings.TrimSpace(v))
			if s, isStr := o.lit.(string); ok && isStr && o.kind == 0 {
				st.op, st.expr = "ctxop", pExpr{a: pOperand{lit: s}}
				return st, true
			}
		}
		return st, false
	}
	path, rest, ok := parseSourcePath(t)
	if !ok {
		return st, false
	}
	st.path = path
	if rest == "\x00remove" {
		st.op = "remove"
		return st, true
	}
	if arg, ok := strings.CutPrefix(rest, "\x00add"); ok {
		o, ok := parseOperand(arg)
		st.op, st.expr = "add", pExpr{a: o}
		return st, ok
	}
	rest = strings.TrimSpace(rest)
	switch {
	case rest == "++" || rest == "--":
		st.op = map[string]string{"++": "+=", "--": "-="}[rest]
		st.expr = pExpr{a: pOperand{lit: json.Number("1")}}
		return st, true
	case strings.HasPrefix(rest, "+=") || strings.HasPrefix(rest, "-="):
		st.op = rest[:2]
		e, ok := parseExpr(strings.TrimSpace(rest[2:]))
		st.expr = e
		return st, ok
	case strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "=="):
		st.op = "="
		e, ok := parseExpr(strings.TrimSpace(rest[1:]))
		st.expr = e
		return st, ok
	}
	return st, false
}

// parseSourcePath reads ctx._source.a.b / ctx._source['a'] and, for .remove('f') and .add(x),
// turns the call into a statement path; it returns the path and what follows it.
func parseSourcePath(t string) ([]string, string, bool) {
	rest, ok := strings.CutPrefix(t, "ctx._source")
	if !ok {
		return nil, "", false
	}
	var path []string
	for {
		switch {
		case strings.HasPrefix(rest, "."):
			rest = rest[1:]
			i := 0
			for i < len(rest) && (rest[i] == '_' || rest[i] >= 'a' && rest[i] <= 'z' || rest[i] >= 'A' && rest[i] <= 'Z' || rest[i] >= '0' && rest[i] <= '9') {
				i++
			}
			if i == 0 {
				return nil, "", false
			}
			name := rest[:i]
			rest = rest[i:]
			if strings.HasPrefix(rest, "(") && (name == "remove" || name == "add") {
				j := strings.LastIndexByte(rest, ')')
				if j < 0 || strings.TrimSpace(rest[j+1:]) != "" {
					return nil, "", false
				}
				arg := strings.TrimSpace(rest[1:j])
				if name == "remove" {
					o, ok := parseOperand(arg)
					s, isStr := o.lit.(string)
					if !ok || !isStr || o.kind != 0 {
						return nil, "", false
					}
					return append(path, s), "\x00remove", true
				}
				return path, "\x00add" + arg, true
			}
			path = append(path, name)
		case strings.HasPrefix(rest, "["):
			j := strings.IndexByte(rest, ']')
			if j < 0 {
				return nil, "", false
			}
			o, ok := parseOperand(strings.TrimSpace(rest[1:j]))
			s, isStr := o.lit.(string)
			if !ok || !isStr || o.kind != 0 {
				return nil, "", false
			}
			path = append(path, s)
			rest = rest[j+1:]
		default:
			return path, rest, len(path) > 0
		}
	}
}

func parseExpr(t string) (pExpr, bool) {
	// One binary + or - outside quotes, not a sign.
	var quote byte
	for i := 1; i < len(t); i++ {
		c := t[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case (c == '+' || c == '-') && t[i-1] == ' ':
			a, okA := parseOperand(strings.TrimSpace(t[:i]))
			b, okB := parseOperand(strings.TrimSpace(t[i+1:]))
			return pExpr{a: a, b: b, binop: c}, okA && okB
		}
	}
	a, ok := parseOperand(t)
	return pExpr{a: a}, ok
}

func parseOperand(t string) (pOperand, bool) {
	switch {
	case t == "":
		return pOperand{}, false
	case t == "true" || t == "false":
		return pOperand{lit: t == "true"}, true
	case t == "null":
		return pOperand{}, true
	case len(t) >= 2 && (t[0] == '\'' && t[len(t)-1] == '\'' || t[0] == '"' && t[len(t)-1] == '"'):
		return pOperand{lit: strings.ReplaceAll(t[1:len(t)-1], "\\"+t[:1], t[:1])}, true
	case strings.HasPrefix(t, "params."):
		name := t[len("params."):]
		return pOperand{kind: 1, param: name}, name != "" && !strings.ContainsAny(name, " ()[]+-")
	case strings.HasPrefix(t, "params["):
		inner, ok := strings.CutSuffix(t[len("params["):], "]")
		o, ok2 := parseOperand(strings.TrimSpace(inner))
		s, isStr := o.lit.(string)
		return pOperand{kind: 1, param: s}, ok && ok2 && isStr
	case strings.HasPrefix(t, "ctx._source"):
		path, rest, ok := parseSourcePath(t)
		return pOperand{kind: 2, source: path}, ok && strings.TrimSpace(rest) == ""
	}
	if _, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(t, "L"), "d"), 64); err == nil {
		return pOperand{lit: json.Number(strings.TrimSuffix(strings.TrimSuffix(t, "L"), "d"))}, true
	}
	return pOperand{}, false
}

// Run applies the script to a source; it returns ctx.op ("index", "noop" or "delete").
func (s *Script) Run(src map[string]any) (string, *Error) {
	op := "index"
	for _, st := range s.stmts {
		switch st.op {
		case "ctxop":
			v, _ := st.expr.a.lit.(string)
			switch v {
			case "noop", "none":
				op = "noop"
			case "delete":
				op = "delete"
			case "index", "create":
				op = "index"
			default:
				return "", s.runtimeErr(st, "illegal_argument_exception", "Operation type ["+v+"] not allowed, only [noop, index, delete] are allowed")
			}
			continue
		case "remove":
			parent := walkSource(src, st.path[:len(st.path)-1], false)
			if parent != nil {
				delete(parent, st.path[len(st.path)-1])
			}
			continue
		case "add":
			v, err := s.value(st, st.expr.a, src)
			if err != nil {
				return "", err
			}
			parent := walkSource(src, st.path[:len(st.path)-1], false)
			last := st.path[len(st.path)-1]
			list, ok := parent[last].([]any)
			if parent == nil || !ok {
				return "", s.runtimeErr(st, "illegal_argument_exception", "dynamic method [add/1] not found for ["+strings.Join(st.path, ".")+"]")
			}
			parent[last] = append(list, v)
			continue
		}
		v, err := s.eval(st, st.expr, src)
		if err != nil {
			return "", err
		}
		parent := walkSource(src, st.path[:len(st.path)-1], true)
		if parent == nil {
			return "", s.runtimeErr(st, "null_pointer_exception", "cannot access a field of null")
		}
		last := st.path[len(st.path)-1]
		switch st.op {
		case "=":
			parent[last] = v
		case "+=", "-=":
			cur, ok := parent[last]
			if !ok || cur == nil {
				return "", s.runtimeErr(st, "null_pointer_exception", "Cannot invoke \"Object.getClass()\" because \"<parameter1>\" is null")
			}
			r, err := arith(cur, v, st.op[0])
			if err != "" {
				return "", s.runtimeErr(st, "class_cast_exception", err)
			}
			parent[last] = r
		}
	}
	return op, nil
}

func (s *Script) runtimeErr(st pStmt, typ, reason string) *Error {
	return scriptErr(s.source, st.text, st.start, "runtime error", typ, reason)
}

func (s *Script) eval(st pStmt, e pExpr, src map[string]any) (any, *Error) {
	a, err := s.value(st, e.a, src)
	if err != nil || e.binop == 0 {
		return a, err
	}
	b, err := s.value(st, e.b, src)
	if err != nil {
		return nil, err
	}
	if a == nil || b == nil {
		return nil, s.runtimeErr(st, "null_pointer_exception", "Cannot invoke \"Object.getClass()\" because \"<parameter1>\" is null")
	}
	r, msg := arith(a, b, e.binop)
	if msg != "" {
		return nil, s.runtimeErr(st, "class_cast_exception", msg)
	}
	return r, nil
}

func (s *Script) value(st pStmt, o pOperand, src map[string]any) (any, *Error) {
	switch o.kind {
	case 1:
		v, ok := s.params[o.param]
		if !ok {
			return nil, nil
		}
		return v, nil
	case 2:
		parent := walkSource(src, o.source[:len(o.source)-1], false)
		if parent == nil {
			return nil, s.runtimeErr(st, "null_pointer_exception", "cannot access a field of null")
		}
		return parent[o.source[len(o.source)-1]], nil
	}
	return o.lit, nil
}

// walkSource returns the object holding the last element of path, creating objects if asked.
func walkSource(src map[string]any, path []string, create bool) map[string]any {
	m := src
	for _, p := range path {
		next, ok := m[p].(map[string]any)
		if !ok {
			if !create || m[p] != nil {
				return nil
			}
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	return m
}

// arith is painless + and - on numbers (integers stay integers) and + on strings.
func arith(a, b any, op byte) (any, string) {
	as, aStr := a.(string)
	bs, bStr := b.(string)
	if op == '+' && (aStr || bStr) {
		return plainString(a, as, aStr) + plainString(b, bs, bStr), ""
	}
	af, okA := jsonval.Number(a)
	bf, okB := jsonval.Number(b)
	if aStr || bStr || !okA || !okB {
		return nil, "Cannot apply [" + string(op) + "] operation to types [" + javaType(a) + "] and [" + javaType(b) + "]."
	}
	r := af + bf
	if op == '-' {
		r = af - bf
	}
	if isIntegral(a) && isIntegral(b) && math.Abs(r) < 1<<53 {
		return json.Number(strconv.FormatInt(int64(r), 10)), ""
	}
	return json.Number(strconv.FormatFloat(r, 'g', -1, 64)), ""
}

func plainString(v any, s string, isStr bool) string {
	if isStr {
		return s
	}
	if v == nil {
		return "null"
	}
	return string(toJSON(v))
}

func isIntegral(v any) bool {
	switch t := v.(type) {
	case json.Number:
		return !strings.ContainsAny(string(t), ".eE")
	case int, int64:
		return true
	case float64:
		return t == math.Trunc(t)
	}
	return false
}

func javaType(v any) string {
	switch v.(type) {
	case string:
		return "java.lang.String"
	case bool:
		return "java.lang.Boolean"
	case map[string]any:
		return "java.util.HashMap"
	case []any:
		return "java.util.ArrayList"
	case nil:
		return "null"
	}
	if isIntegral(v) {
		return "java.lang.Integer"
	}
	return "java.lang.Double"
}

func toString(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok
}

func toJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}
