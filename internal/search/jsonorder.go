package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// object is a decoded JSON object that keeps its key order, so table columns follow
// the order the engine (or the user's document) used.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

// maxDecodeDepth bounds recursion over untrusted answers.
const maxDecodeDepth = 1000

var errTooDeep = errors.New("JSON nesting is too deep")

// decodeOrdered decodes one JSON value: objects as *object, arrays as []any, numbers
// as json.Number (exact, as written), strings, bools and nil.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDecodeDepth {
		return nil, errTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &object{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				if _, dup := o.vals[k]; !dup {
					o.keys = append(o.keys, k)
				}
				o.vals[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		}
		return nil, errors.New("unexpected delimiter")
	default:
		return t, nil
	}
}

// encodeOrdered writes v as compact JSON, keeping object key order.
func encodeOrdered(b *strings.Builder, v any) {
	switch t := v.(type) {
	case *object:
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			// JSON's quoting, not Go's: a key with a control character must stay valid JSON.
			q, _ := json.Marshal(k)
			b.Write(q)
			b.WriteByte(':')
			encodeOrdered(b, t.vals[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeOrdered(b, e)
		}
		b.WriteByte(']')
	case string:
		q, _ := json.Marshal(t)
		b.Write(q)
	case json.Number:
		b.WriteString(string(t))
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	}
}

func compactJSON(v any) string {
	var b strings.Builder
	encodeOrdered(&b, v)
	return b.String()
}

// cellText renders a value for a table cell: strings as they are, numbers as written,
// null as "null", arrays of scalars joined with ", ", anything nested as compact JSON.
func cellText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return string(t)
	case bool:
		return strconv.FormatBool(t)
	case nil:
		return "null"
	case []any:
		parts := make([]string, 0, len(t))
		for _, e := range t {
			switch e.(type) {
			case *object, []any:
				return compactJSON(t)
			}
			parts = append(parts, cellText(e))
		}
		return strings.Join(parts, ", ")
	default:
		return compactJSON(t)
	}
}

// flatten emits leaf paths of v: nested objects become "a.b.c"; arrays and scalars are leaves.
func flatten(prefix string, v any, emit func(path, text string)) {
	o, ok := v.(*object)
	if !ok {
		emit(prefix, cellText(v))
		return
	}
	if len(o.keys) == 0 && prefix != "" {
		emit(prefix, "{}")
		return
	}
	for _, k := range o.keys {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		flatten(p, o.vals[k], emit)
	}
}

// columnSet collects column names in order of first appearance.
type columnSet struct {
	names []string
	index map[string]int
}

func newColumnSet(initial ...string) *columnSet {
	c := &columnSet{index: map[string]int{}}
	for _, n := range initial {
		c.add(n)
	}
	return c
}

func (c *columnSet) add(name string) int {
	if i, ok := c.index[name]; ok {
		return i
	}
	c.index[name] = len(c.names)
	c.names = append(c.names, name)
	return len(c.names) - 1
}

// rowsFromMaps builds rectangular rows from per-row column→text maps.
func (c *columnSet) rows(maps []map[string]string) [][]string {
	out := make([][]string, len(maps))
	for i, m := range maps {
		row := make([]string, len(c.names))
		for k, v := range m {
			row[c.index[k]] = v
		}
		out[i] = row
	}
	return out
}

func asInt64(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		if s, isStr := v.(string); isStr {
			n = json.Number(s)
		} else {
			return 0, false
		}
	}
	if i, err := n.Int64(); err == nil {
		return i, true
	}
	if f, err := n.Float64(); err == nil {
		return int64(f), true
	}
	return 0, false
}

func asFloat(v any) (float64, bool) {
	switch t := v.(type) {
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(t, 64)
		return f, err == nil
	}
	return 0, false
}
