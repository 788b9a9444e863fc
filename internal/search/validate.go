package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ValidationError locates a mistake in a request body, in buffer coordinates (1-based).
type ValidationError struct {
	Line, Col int
	Msg       string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// Content types of prepared bodies.
const (
	ContentTypeJSON   = "application/json"
	ContentTypeNDJSON = "application/x-ndjson"
)

// PreparedBody is a validated body ready to send.
type PreparedBody struct {
	Body        []byte // nil when the request has no body
	ContentType string // "" when there is no body
	Docs        int    // JSON documents in the body
}

// Prepare validates r's body. For _bulk and _msearch every JSON document (one per
// line, or pretty-printed over several lines) becomes one NDJSON line, and the body
// ends with a newline. Other endpoints take exactly one JSON document, sent as written.
func Prepare(r ParsedRequest) (PreparedBody, error) {
	if strings.TrimSpace(r.Body) == "" {
		return PreparedBody{}, nil
	}
	base := r.BodyLine
	if base < 1 {
		base = 1
	}
	docs, err := scanDocuments(r.Body, base)
	if err != nil {
		return PreparedBody{}, err
	}
	if r.WantsNDJSON() {
		var b bytes.Buffer
		b.Grow(len(r.Body) + 1)
		for _, d := range docs {
			if err := json.Compact(&b, []byte(r.Body[d.start:d.end])); err != nil {
				line, col := position(r.Body, d.start, base)
				return PreparedBody{}, &ValidationError{Line: line, Col: col, Msg: err.Error()}
			}
			b.WriteByte('\n')
		}
		return PreparedBody{Body: b.Bytes(), ContentType: ContentTypeNDJSON, Docs: len(docs)}, nil
	}
	if len(docs) > 1 {
		line, col := position(r.Body, docs[1].start, base)
		return PreparedBody{}, &ValidationError{Line: line, Col: col,
			Msg: "only one JSON document is allowed here (several documents are NDJSON, for _bulk or _msearch)"}
	}
	return PreparedBody{Body: []byte(strings.TrimSpace(r.Body)), ContentType: ContentTypeJSON, Docs: 1}, nil
}

// HTTPRequest validates r and turns it into a client Request.
func (r ParsedRequest) HTTPRequest() (Request, error) {
	p, err := Prepare(r)
	if err != nil {
		return Request{}, err
	}
	return Request{Method: r.Method, Path: typedPath(r.Path), Body: p.Body, ContentType: p.ContentType}, nil
}

type span struct{ start, end int }

// scanDocuments finds the whitespace-separated JSON values of s.
func scanDocuments(s string, baseLine int) ([]span, error) {
	sc := &jsonScanner{s: s, base: baseLine}
	var docs []span
	for {
		sc.skipWS()
		if sc.i >= len(s) {
			return docs, nil
		}
		start := sc.i
		if err := sc.value(0); err != nil {
			line, col := position(s, err.at, baseLine)
			return nil, &ValidationError{Line: line, Col: col, Msg: err.msg}
		}
		docs = append(docs, span{start, sc.i})
	}
}

// position converts a byte offset of s to a line (from baseLine) and a 1-based rune column.
func position(s string, at, baseLine int) (line, col int) {
	if at > len(s) {
		at = len(s)
	}
	before := s[:at]
	line = baseLine + strings.Count(before, "\n")
	lineStart := strings.LastIndexByte(before, '\n') + 1
	col = utf8.RuneCountInString(before[lineStart:]) + 1
	return line, col
}

type scanError struct {
	at  int
	msg string
}

// maxJSONDepth matches encoding/json's nesting limit.
const maxJSONDepth = 10000

// jsonScanner is a strict JSON validator that explains mistakes in words.
type jsonScanner struct {
	s    string
	i    int
	base int // buffer line of s's first line
}

func (sc *jsonScanner) fail(at int, format string, args ...any) *scanError {
	return &scanError{at: at, msg: fmt.Sprintf(format, args...)}
}

func (sc *jsonScanner) skipWS() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// describe names the character at i for messages.
func (sc *jsonScanner) describe(i int) string {
	if i >= len(sc.s) {
		return "end of body"
	}
	r, _ := utf8.DecodeRuneInString(sc.s[i:])
	return fmt.Sprintf("%q", r)
}

func (sc *jsonScanner) value(depth int) *scanError {
	sc.skipWS()
	if sc.i >= len(sc.s) {
		return sc.fail(sc.i, "unexpected end of body, expected a value")
	}
	switch c := sc.s[sc.i]; {
	case c == '{':
		if depth >= maxJSONDepth {
			return sc.fail(sc.i, "nesting is too deep")
		}
		return sc.object(depth + 1)
	case c == '[':
		if depth >= maxJSONDepth {
			return sc.fail(sc.i, "nesting is too deep")
		}
		return sc.array(depth + 1)
	case c == '"':
		return sc.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return sc.number()
	case c == '\'':
		return sc.fail(sc.i, "strings must use double quotes, not single quotes")
	case isLetter(c):
		return sc.literal()
	default:
		return sc.fail(sc.i, "unexpected %s, expected a value", sc.describe(sc.i))
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

func (sc *jsonScanner) literal() *scanError {
	start := sc.i
	for sc.i < len(sc.s) && (isLetter(sc.s[sc.i]) || sc.s[sc.i] >= '0' && sc.s[sc.i] <= '9') {
		sc.i++
	}
	switch w := sc.s[start:sc.i]; w {
	case "true", "false", "null":
		return nil
	default:
		return sc.fail(start, "unexpected word %q, expected a value (strings need double quotes; literals are true, false and null)", truncate(w, 40))
	}
}

func (sc *jsonScanner) object(depth int) *scanError {
	open := sc.i
	sc.i++ // '{'
	sc.skipWS()
	if sc.i < len(sc.s) && sc.s[sc.i] == '}' {
		sc.i++
		return nil
	}
	for {
		sc.skipWS()
		if err := sc.key(open); err != nil {
			return err
		}
		sc.skipWS()
		if sc.i >= len(sc.s) || sc.s[sc.i] != ':' {
			if sc.i >= len(sc.s) {
				return sc.unclosed("object", open)
			}
			return sc.fail(sc.i, "expected ':' after object key, found %s", sc.describe(sc.i))
		}
		sc.i++
		if err := sc.value(depth); err != nil {
			return err
		}
		sc.skipWS()
		if sc.i >= len(sc.s) {
			return sc.unclosed("object", open)
		}
		switch sc.s[sc.i] {
		case ',':
			comma := sc.i
			sc.i++
			sc.skipWS()
			if sc.i < len(sc.s) && sc.s[sc.i] == '}' {
				return sc.fail(comma, "trailing comma before '}' is not allowed")
			}
		case '}':
			sc.i++
			return nil
		default:
			return sc.fail(sc.i, "expected ',' or '}' after object value, found %s", sc.describe(sc.i))
		}
	}
}

func (sc *jsonScanner) key(open int) *scanError {
	if sc.i >= len(sc.s) {
		return sc.unclosed("object", open)
	}
	if sc.s[sc.i] == '"' {
		return sc.str()
	}
	if sc.s[sc.i] == '\'' {
		return sc.fail(sc.i, "object keys must use double quotes, not single quotes")
	}
	return sc.fail(sc.i, "expected a double-quoted object key, found %s", sc.describe(sc.i))
}

func (sc *jsonScanner) array(depth int) *scanError {
	open := sc.i
	sc.i++ // '['
	sc.skipWS()
	if sc.i < len(sc.s) && sc.s[sc.i] == ']' {
		sc.i++
		return nil
	}
	for {
		sc.skipWS()
		if sc.i >= len(sc.s) {
			return sc.unclosed("array", open)
		}
		if err := sc.value(depth); err != nil {
			return err
		}
		sc.skipWS()
		if sc.i >= len(sc.s) {
			return sc.unclosed("array", open)
		}
		switch sc.s[sc.i] {
		case ',':
			comma := sc.i
			sc.i++
			sc.skipWS()
			if sc.i < len(sc.s) && sc.s[sc.i] == ']' {
				return sc.fail(comma, "trailing comma before ']' is not allowed")
			}
		case ']':
			sc.i++
			return nil
		default:
			return sc.fail(sc.i, "expected ',' or ']' after array element, found %s", sc.describe(sc.i))
		}
	}
}

func (sc *jsonScanner) unclosed(what string, open int) *scanError {
	line, col := position(sc.s, open, sc.base)
	closer := "}"
	if what == "array" {
		closer = "]"
	}
	return sc.fail(sc.i, "unexpected end of body: %s opened at line %d, column %d is missing its '%s'", what, line, col, closer)
}

func (sc *jsonScanner) str() *scanError {
	open := sc.i
	sc.i++ // opening quote
	for sc.i < len(sc.s) {
		c := sc.s[sc.i]
		switch {
		case c == '"':
			sc.i++
			return nil
		case c == '\\':
			if sc.i+1 >= len(sc.s) {
				return sc.fail(open, "string is not closed")
			}
			switch e := sc.s[sc.i+1]; e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				sc.i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if sc.i+k >= len(sc.s) || !isHex(sc.s[sc.i+k]) {
						return sc.fail(sc.i, "invalid \\u escape: four hex digits expected")
					}
				}
				sc.i += 6
			default:
				return sc.fail(sc.i, "invalid escape '\\%c' in string", e)
			}
		case c == '\n':
			return sc.fail(sc.i, "string is not closed before the end of the line (strings cannot span lines)")
		case c < 0x20:
			return sc.fail(sc.i, "control character in string must be escaped")
		default:
			sc.i++
		}
	}
	return sc.fail(open, "string is not closed")
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func (sc *jsonScanner) number() *scanError {
	start := sc.i
	digits := func() int {
		n := 0
		for sc.i < len(sc.s) && sc.s[sc.i] >= '0' && sc.s[sc.i] <= '9' {
			sc.i++
			n++
		}
		return n
	}
	if sc.s[sc.i] == '-' {
		sc.i++
	}
	if sc.i < len(sc.s) && sc.s[sc.i] == '0' {
		sc.i++
		if sc.i < len(sc.s) && sc.s[sc.i] >= '0' && sc.s[sc.i] <= '9' {
			return sc.fail(start, "invalid number: leading zeros are not allowed")
		}
	} else if digits() == 0 {
		return sc.fail(start, "invalid number: digits expected")
	}
	if sc.i < len(sc.s) && sc.s[sc.i] == '.' {
		sc.i++
		if digits() == 0 {
			return sc.fail(start, "invalid number: digits expected after the decimal point")
		}
	}
	if sc.i < len(sc.s) && (sc.s[sc.i] == 'e' || sc.s[sc.i] == 'E') {
		sc.i++
		if sc.i < len(sc.s) && (sc.s[sc.i] == '+' || sc.s[sc.i] == '-') {
			sc.i++
		}
		if digits() == 0 {
			return sc.fail(start, "invalid number: digits expected in the exponent")
		}
	}
	if sc.i < len(sc.s) && (isLetter(sc.s[sc.i]) || sc.s[sc.i] == '.') {
		return sc.fail(start, "invalid number")
	}
	return nil
}
