// Package sql is the emulation's _plugins/_sql, built like the plugin itself: a statement is
// parsed (lex.go, parse.go), translated into a search request with query DSL and aggregations
// that follow the index mappings (plan.go, where.go), run by the engine's own search through the
// Engine interface, and turned into rows (exec.go, eval.go); explain.go shows the plan.
package sql

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// Kind is how the engine stores a field's values.
type Kind int

// The kinds of mapped fields.
const (
	None Kind = iota
	Text
	Keyword
	Long
	Float
	Date
	Bool
	Object
)

const (
	kindNone    = None
	kindText    = Text
	kindKeyword = Keyword
	kindLong    = Long
	kindFloat   = Float
	kindDate    = Date
	kindBool    = Bool
	kindObject  = Object
)

// Field is what the translation needs of a mapped field.
type Field struct {
	path   string
	typ    string // the mapping type: keyword, long, date, ...
	kind   Kind
	format string // date format
	multi  bool   // a multi-field (title.keyword): its value comes from the parent
}

// NewField describes a mapped field.
func NewField(path, typ string, kind Kind, format string, multi bool) *Field {
	return &Field{path: path, typ: typ, kind: kind, format: format, multi: multi}
}

// Table is one index a statement reads: its name, its fields by path, and the engine's handle.
type Table struct {
	name   string
	fields map[string]*Field
	Handle any
}

// NewTable describes an index.
func NewTable(name string, fields map[string]*Field, handle any) *Table {
	return &Table{name: name, fields: fields, Handle: handle}
}

// EngineError is a failure of the engine: its status and type, and the reason of its root cause.
type EngineError struct {
	Status int
	Type   string
	Reason string
}

// Engine is the search engine statements run on. The caller keeps it consistent for the length
// of a call (the emulation holds its read lock).
type Engine interface {
	// Tables resolves the FROM of a statement; none is an index_not_found failure.
	Tables(from string) ([]*Table, *EngineError)
	// Search runs a search request over tables and returns the engine's JSON answer.
	Search(tables []*Table, body []byte) ([]byte, *EngineError)
}

// Error is the SQL plugin's error: {"error":{"reason","details","type"},"status"}.
type Error struct {
	Status  int
	Reason  string
	Details string
	Type    string
}

type sqlErr = Error

func sqlSyntax(details string) *sqlErr {
	return &sqlErr{400, "Invalid SQL query", details, "SyntaxCheckException"}
}

// maxResultWindow is index.max_result_window: from + size of one search.
const maxResultWindow = 10000

// Delimited renders rows as csv (sep ",", quoted) or raw (sep "|") text with a header line.
func (s *Result) Delimited(sep string, quote bool) string {
	var b strings.Builder
	cell := func(v any) string {
		var str string
		switch t := v.(type) {
		case nil:
			return ""
		case string:
			str = t
		default:
			str = strings.TrimSpace(string(mustJSON(t)))
		}
		if quote && strings.ContainsAny(str, sep+"\"\n\r") {
			str = `"` + strings.ReplaceAll(str, `"`, `""`) + `"`
		}
		return str
	}
	line := func(vals []any) {
		for i, v := range vals {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(cell(v))
		}
		b.WriteByte('\n')
	}
	names := make([]any, len(s.Names))
	for i, n := range s.Names {
		names[i] = n
	}
	line(names)
	for _, row := range s.Rows {
		line(row)
	}
	return b.String()
}

// sourcePath is where a field's value lives in _source (a multi-field reads its parent).
func sourcePath(fd *Field) string {
	if fd.multi {
		if i := strings.LastIndexByte(fd.path, '.'); i > 0 {
			return fd.path[:i]
		}
	}
	return fd.path
}

func sqlTypeOf(fd *Field) string {
	if fd == nil {
		return "keyword"
	}
	switch fd.kind {
	case kindDate:
		return "timestamp"
	case kindText:
		return "text"
	case kindBool:
		return "boolean"
	case kindKeyword:
		if fd.typ == "ip" {
			return "ip"
		}
		return "keyword"
	case kindLong:
		switch fd.typ {
		case "integer", "short", "byte":
			return fd.typ
		}
		return "long"
	case kindFloat:
		switch fd.typ {
		case "double", "scaled_float":
			return "double"
		}
		return "float"
	}
	return "keyword"
}

// --- JSON helpers (values as decoded with json.Number) ---

func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// mustJSON is json.Marshal (HTML characters escaped), as the engine's own helper.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// obj and kv are the plugin's ordered answers, built as {"key", value} literals.
type (
	obj = jsonval.Object
	kv  = jsonval.Member
)
