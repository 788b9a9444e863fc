// Package jsonout writes JSON the way the engine does: objects keep the order their members were
// added in, strings are not HTML-escaped, and doubles print as Java prints them. Every answer of
// the emulation goes through it, so they read byte for byte like the real engine's.
package jsonout

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// KV is one member of an ordered JSON object. It is an unnamed struct type so other packages can
// write members as {"key", value} without naming the fields.
type KV = struct {
	K string
	V any
}

// Obj is a JSON object that keeps insertion order, so answers read like the real engine's.
type Obj []KV

func (o Obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := o.writeTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeTo renders the object into b; nested objects write into the same buffer instead of each
// allocating and re-compacting their own.
func (o Obj) writeTo(b *bytes.Buffer) error {
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		WriteString(b, m.K)
		b.WriteByte(':')
		if err := WriteValue(b, m.V); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// WriteValue renders one value. Strings are not HTML-escaped (json.Marshal would turn < > & into
// \u003c and so on, also inside stored sources); the engine leaves them alone.
func WriteValue(b *bytes.Buffer, v any) error {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
		return nil
	case Obj:
		return t.writeTo(b)
	case []Obj:
		b.WriteByte('[')
		for i, o := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := o.writeTo(b); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case string:
		WriteString(b, t)
		return nil
	case bool:
		b.WriteString(strconv.FormatBool(t))
		return nil
	case int:
		b.WriteString(strconv.Itoa(t))
		return nil
	case int64:
		b.WriteString(strconv.FormatInt(t, 10))
		return nil
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			b.WriteString("null")
			return nil
		}
	case float32:
		if math.IsNaN(float64(t)) || math.IsInf(float64(t), 0) {
			b.WriteString("null")
			return nil
		}
		b.WriteString(strconv.FormatFloat(float64(t), 'g', -1, 32))
		return nil
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // the encoder's newline
	return nil
}

// JavaDouble formats a float like Java's Double.toString, which the engine uses in keys ("50.0").
func JavaDouble(f float64) string {
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

// Pretty indents like the engine's Jackson pretty printer ("key" : value).
func Pretty(compact []byte) []byte {
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

// WriteString writes s as a JSON string the way the engine's writer does: control characters,
// quotes and backslashes escaped, everything else (<, >, &, non-ASCII) as is. Invalid UTF-8
// becomes U+FFFD, as encoding/json does, so the output is always valid JSON.
func WriteString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString(s[start:i])
				b.WriteString(`\ufffd`)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		}
		i++
		start = i
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// Marshal is json.Marshal for values known to marshal; null if one does not.
func Marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}

// JavaNumber is a double as Java prints it, written as a JSON number ("2.0", "1.0E-4").
func JavaNumber(f float64) json.Number { return json.Number(JavaDouble(f)) }
