package sql

import (
	"strconv"
	"strings"
)

// The SQL front end is a hand-written lexer and recursive-descent parser for the subset the SQL
// plugin answers (one SELECT over one index expression). The maintained Go SQL parsers parse a
// database's dialect (vitess's sqlparser: MySQL, ~30k lines and its own dependency tree;
// pg_query_go: cgo), not OpenSearch's: they reject index names like logs-2024-* and @timestamp,
// and know nothing of MATCH/QUERY; bending their AST back would cost more than this file.

type sqlTokKind byte

const (
	tokEOF    sqlTokKind = iota
	tokIdent             // unquoted word: keyword, field or index name
	tokQIdent            // "quoted" or `quoted` identifier
	tokString            // 'string literal'
	tokNumber            // 12, 1.5
	tokOp                // punctuation and operators: ( ) , * = != <> < <= > >= + - / % [ ] ;
)

// sqlTok is one token; pos and end are byte offsets into the statement.
type sqlTok struct {
	kind     sqlTokKind
	text     string // identifiers unquoted, strings unescaped
	pos, end int
}

func (t sqlTok) is(kw string) bool { return t.kind == tokIdent && strings.EqualFold(t.text, kw) }

func (t sqlTok) isOp(op string) bool { return t.kind == tokOp && t.text == op }

func lexSQL(s string) ([]sqlTok, *sqlErr) {
	var out []sqlTok
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return nil, sqlSyntaxAt(s, i, "/*", "the comment is not closed with */")
			}
			i += j + 4
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(s) {
					return nil, sqlSyntaxAt(s, i, s[i:], "the string literal is not closed with '")
				}
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			out = append(out, sqlTok{tokString, b.String(), i, j + 1})
			i = j + 1
		case c == '"' || c == '`':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, sqlSyntaxAt(s, i, s[i:], "the quoted identifier is not closed with "+string(c))
			}
			out = append(out, sqlTok{tokQIdent, s[i+1 : i+1+j], i, i + j + 2})
			i += j + 2
		case isSQLWordByte(c):
			j := i
			for j < len(s) && isSQLWordByte(s[j]) {
				j++
			}
			kind := tokIdent
			if c >= '0' && c <= '9' {
				if _, err := strconv.ParseFloat(s[i:j], 64); err == nil {
					kind = tokNumber
				}
			}
			out = append(out, sqlTok{kind, s[i:j], i, j})
			i = j
		default:
			n := 1
			if i+1 < len(s) {
				switch s[i : i+2] {
				case "<=", ">=", "<>", "!=", "==":
					n = 2
				}
			}
			op := s[i : i+n]
			if op == "==" {
				op = "="
			}
			out = append(out, sqlTok{tokOp, op, i, i + n})
			i += n
		}
	}
	return append(out, sqlTok{kind: tokEOF, text: "<EOF>", pos: len(s), end: len(s)}), nil
}

// Field and index names keep dots, @ and $ (user.name, @timestamp) as one word, like the plugin.
func isSQLWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '@' || c == '$' || c == '.' || c >= 0x80
}

// sqlSyntaxAt reports a parse error the way the plugin does: the offending symbol, the statement
// up to it, and what was expected.
func sqlSyntaxAt(stmt string, pos int, symbol, expected string) *sqlErr {
	end := min(len(stmt), pos+len(symbol))
	if symbol == "<EOF>" {
		end = len(stmt)
	}
	return sqlSyntax("Failed to parse query due to offending symbol [" + symbol + "] at: '" + stmt[:end] +
		"' <--- HERE... More details: " + expected)
}
