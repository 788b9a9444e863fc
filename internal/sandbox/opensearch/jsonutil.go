package opensearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// kv is one member of an ordered JSON object.
type kv struct {
	k string
	v any
}

// obj is a JSON object that keeps insertion order, so answers read like the real engine's.
type obj []kv

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := o.AppendJSON(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// AppendJSON renders the object into b with the shared writer (strings escaped as the engine
// does); nested objects write into the same buffer instead of each allocating their own.
func (o obj) AppendJSON(b *bytes.Buffer) error {
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		jsonval.AppendString(b, m.k)
		b.WriteByte(':')
		if err := writeValue(b, m.v); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// writeValue renders one value: lists of objects (the common hits and buckets) without going
// through encoding/json, everything else with the shared writer.
func writeValue(b *bytes.Buffer, v any) error {
	l, ok := v.([]obj)
	if !ok {
		return jsonval.Append(b, v)
	}
	b.WriteByte('[')
	for i, o := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := o.AppendJSON(b); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}

// javaDouble formats a float like Java's Double.toString, which the engine uses in keys ("50.0").
func javaDouble(f float64) string {
	if math.IsInf(f, 1) {
		return "Infinity"
	}
	if math.IsInf(f, -1) {
		return "-Infinity"
	}
	if math.IsNaN(f) {
		return "NaN"
	}
	a := math.Abs(f)
	if a == 0 || (a >= 1e-3 && a < 1e7) {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, 64)
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	exp = strings.TrimPrefix(exp, "+")
	return mant + "E" + exp
}

// decodeJSON parses one JSON value with numbers kept as json.Number; trailing garbage is an error.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonParseError(data, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		off := dec.InputOffset()
		line, col := lineCol(data, off)
		return nil, newErr(400, "json_parse_exception",
			fmt.Sprintf("Unexpected character after the end of the JSON value\n at [Source: (byte[]); line: %d, column: %d]", line, col))
	}
	return v, nil
}

// jsonParseError turns a decoder error into the engine's json_parse_exception with a position.
func jsonParseError(data []byte, dec *json.Decoder, err error) *apiError {
	off := dec.InputOffset()
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	msg := err.Error()
	switch {
	case errors.As(err, &se):
		off = se.Offset
		msg = se.Error()
	case errors.As(err, &te):
		off = te.Offset
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(data))
		msg = "Unexpected end-of-input"
	}
	line, col := lineCol(data, off)
	return newErr(400, "json_parse_exception",
		fmt.Sprintf("%s\n at [Source: (byte[]); line: %d, column: %d]", msg, line, col))
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// prettyJSON indents like the engine's Jackson pretty printer ("key" : value).
func prettyJSON(compact []byte) []byte {
	var ind bytes.Buffer
	if err := json.Indent(&ind, compact, "", "  "); err != nil {
		return compact
	}
	src := ind.Bytes()
	out := make([]byte, 0, len(src)+len(src)/8)
	inStr, esc := false, false
	for _, c := range src {
		if inStr {
			out = append(out, c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
		}
		if c == ':' {
			out = append(out, ' ')
		}
		out = append(out, c)
	}
	return append(out, '\n')
}

// Helpers reading loosely typed request JSON.

func asMap(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	return m, ok
}

func asInt(v any) (int, bool) {
	n, ok := jsonval.Int64(v)
	return int(n), ok
}

// asList wraps a scalar into a one-element list, as the engine accepts both forms.
func asList(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	if v == nil {
		return nil
	}
	return []any{v}
}
