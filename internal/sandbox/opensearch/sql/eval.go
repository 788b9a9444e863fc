package sql

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
)

// evalSQL computes an expression over one result row (fields and aggregates by key), for what
// the engine does not compute itself: projections, HAVING and ORDER BY over aggregates. NULL
// propagates as nil.
func evalSQL(e sqlExpr, row map[string]any) any {
	switch t := e.(type) {
	case *sqlColRef:
		return row[t.name]
	case *sqlLit:
		return t.val
	case *sqlFunc:
		if sqlAggFuncs[t.name] {
			return row[aggKey(t)]
		}
		args := make([]any, len(t.args))
		for i, a := range t.args {
			args[i] = evalSQL(a, row)
		}
		return sqlScalar(t.name, args)
	case *sqlNeg:
		if f, ok := sqlNum(evalSQL(t.x, row)); ok {
			return keepInt(-f, evalSQL(t.x, row))
		}
		return nil
	case *sqlNot:
		v := evalSQL(t.x, row)
		if v == nil {
			return nil
		}
		return !truthy(v)
	case *sqlIsNull:
		return (evalSQL(t.x, row) == nil) != t.not
	case *sqlInList:
		v := evalSQL(t.x, row)
		if v == nil {
			return nil
		}
		for _, x := range t.list {
			if c, ok := compareSQL(v, evalSQL(x, row)); ok && c == 0 {
				return !t.not
			}
		}
		return t.not
	case *sqlBetween:
		v := evalSQL(t.x, row)
		lo, ok1 := compareSQL(v, evalSQL(t.lo, row))
		hi, ok2 := compareSQL(v, evalSQL(t.hi, row))
		if !ok1 || !ok2 {
			return nil
		}
		return (lo >= 0 && hi <= 0) != t.not
	case *sqlBinary:
		return evalBinary(t, row)
	}
	return nil
}

func evalBinary(t *sqlBinary, row map[string]any) any {
	l := evalSQL(t.l, row)
	switch t.op {
	case "AND":
		if l != nil && !truthy(l) {
			return false
		}
		r := evalSQL(t.r, row)
		if r != nil && !truthy(r) {
			return false
		}
		if l == nil || r == nil {
			return nil
		}
		return true
	case "OR":
		if truthy(l) {
			return true
		}
		r := evalSQL(t.r, row)
		if truthy(r) {
			return true
		}
		if l == nil || r == nil {
			return nil
		}
		return false
	}
	r := evalSQL(t.r, row)
	if l == nil || r == nil {
		return nil
	}
	switch t.op {
	case "LIKE":
		pat, _ := jsonval.String(r)
		s, _ := jsonval.String(l)
		return likeRegexp(pat).MatchString(s)
	case "+", "-", "*", "/", "%":
		a, ok1 := sqlNum(l)
		b, ok2 := sqlNum(r)
		if !ok1 || !ok2 {
			return nil
		}
		var f float64
		switch t.op {
		case "+":
			f = a + b
		case "-":
			f = a - b
		case "*":
			f = a * b
		case "/":
			if b == 0 {
				return nil
			}
			return a / b
		case "%":
			if b == 0 {
				return nil
			}
			f = math.Mod(a, b)
		}
		if isInt(l) && isInt(r) {
			return int64(f)
		}
		return f
	}
	c, ok := compareSQL(l, r)
	if !ok {
		return nil
	}
	switch t.op {
	case "=":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return nil
}

func likeRegexp(pat string) *regexp.Regexp {
	return regexp.MustCompile("(?is)^" + likePattern(pat) + "$")
}

// likePattern turns a LIKE pattern into a regular expression: % any run, _ one character,
// backslash escapes.
func likePattern(pat string) string {
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; {
		case c == '\\' && i+1 < len(pat):
			i++
			b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
		case c == '%':
			b.WriteString(".*")
		case c == '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

func truthy(v any) bool {
	switch t := v.(type) {
	case bool:
		return t
	case nil:
		return false
	}
	f, ok := sqlNum(v)
	return ok && f != 0
}

func isInt(v any) bool {
	_, ok := v.(int64)
	return ok
}

func keepInt(f float64, like any) any {
	if isInt(like) {
		return int64(f)
	}
	return f
}

func sqlNum(v any) (float64, bool) {
	switch t := v.(type) {
	case int64:
		return float64(t), true
	case float64:
		return t, true
	case float32:
		return float64(t), true
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	}
	return 0, false
}

// compareSQL orders two non-NULL values: numbers numerically, everything else as text
// (timestamps are "yyyy-MM-dd HH:mm:ss", so text order is time order).
func compareSQL(a, b any) (int, bool) {
	if a == nil || b == nil {
		return 0, false
	}
	if x, ok := a.(bool); ok {
		if y, ok := b.(bool); ok {
			return cmp.Compare(boolInt(x), boolInt(y)), true
		}
	}
	x, okA := sqlNum(a)
	y, okB := sqlNum(b)
	if okA && !okB {
		y, okB = jsonval.Float(b)
	} else if okB && !okA {
		x, okA = jsonval.Float(a)
	}
	if okA && okB {
		return cmpFloat(x, y), true
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)), true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sortSQLRows(rows []map[string]any, order []sqlOrder) {
	sort.SliceStable(rows, func(i, j int) bool {
		for _, o := range order {
			a, b := evalSQL(o.expr, rows[i]), evalSQL(o.expr, rows[j])
			switch {
			case a == nil && b == nil:
				continue
			case a == nil:
				return o.nullsFirst
			case b == nil:
				return !o.nullsFirst
			}
			c, _ := compareSQL(a, b)
			if o.desc {
				c = -c
			}
			if c != 0 {
				return c < 0
			}
		}
		return false
	})
}

// sqlScalar runs the plugin's common scalar functions; unknown ones and NULL arguments give NULL.
func sqlScalar(name string, args []any) any {
	str := func(i int) (string, bool) {
		if i >= len(args) || args[i] == nil {
			return "", false
		}
		s, ok := jsonval.String(args[i])
		if !ok {
			s = fmt.Sprint(args[i])
		}
		return s, true
	}
	switch name {
	case "COALESCE", "IFNULL":
		for _, a := range args {
			if a != nil {
				return a
			}
		}
		return nil
	case "CAST":
		typ, _ := at(args, 1).(string)
		return sqlCast(args[0], sqlCastTypes[typ])
	case "CONCAT":
		var b strings.Builder
		for i := range args {
			s, ok := str(i)
			if !ok {
				return nil
			}
			b.WriteString(s)
		}
		return b.String()
	}
	if len(args) == 0 || args[0] == nil {
		return nil
	}
	s, _ := str(0)
	f, isNum := sqlNum(args[0])
	switch name {
	case "UPPER":
		return strings.ToUpper(s)
	case "LOWER":
		return strings.ToLower(s)
	case "TRIM":
		return strings.TrimSpace(s)
	case "LENGTH", "CHAR_LENGTH":
		return int64(utf8.RuneCountInString(s))
	case "SUBSTRING", "SUBSTR":
		r := []rune(s)
		start, _ := sqlNum(at(args, 1))
		from := max(0, min(len(r), int(start)-1))
		to := len(r)
		if n, ok := sqlNum(at(args, 2)); ok {
			to = max(from, min(len(r), from+int(n)))
		}
		return string(r[from:to])
	}
	if !isNum {
		return nil
	}
	switch name {
	case "ABS":
		return keepInt(math.Abs(f), args[0])
	case "FLOOR":
		return int64(math.Floor(f))
	case "CEIL", "CEILING":
		return int64(math.Ceil(f))
	case "ROUND":
		d, _ := sqlNum(at(args, 1))
		p := math.Pow(10, d)
		return keepInt(math.Round(f*p)/p, args[0])
	}
	return nil
}

func at(args []any, i int) any {
	if i < len(args) {
		return args[i]
	}
	return nil
}

// sqlCastTypes maps CAST's type names to the column types they give.
var sqlCastTypes = map[string]string{"INT": "integer", "INTEGER": "integer", "LONG": "long", "BIGINT": "long",
	"FLOAT": "float", "REAL": "float", "DOUBLE": "double", "STRING": "keyword", "VARCHAR": "keyword", "TEXT": "keyword",
	"BOOLEAN": "boolean", "TIMESTAMP": "timestamp"}

// sqlCast converts a value to a column type; what does not convert is NULL.
func sqlCast(v any, typ string) any {
	if v == nil {
		return nil
	}
	switch typ {
	case "keyword":
		if s, ok := jsonval.String(v); ok {
			return s
		}
		return strings.TrimSpace(string(mustJSON(v)))
	case "boolean":
		if b, ok := v.(bool); ok {
			return b
		}
		if f, ok := jsonval.Float(v); ok {
			return f != 0
		}
		s, _ := jsonval.String(v)
		b, ok := jsonval.Bool(strings.ToLower(s))
		if !ok {
			return nil
		}
		return b
	case "timestamp":
		s, _ := jsonval.String(v)
		if t, ok := dateBound(s); ok {
			ms, _ := dates.ParseFormat(t.(string), "strict_date_optional_time")
			return sqlTimestamp(ms)
		}
		return nil
	}
	f, ok := jsonval.Float(v)
	if b, isBool := v.(bool); isBool {
		f, ok = float64(boolInt(b)), true
	}
	if !ok {
		return nil
	}
	switch typ {
	case "integer", "long":
		return int64(f)
	}
	return f
}
