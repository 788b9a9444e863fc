package jsonval

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// Appender is a value that writes itself as JSON into a shared buffer, so nested objects do
// not each allocate and re-compact their own bytes.
type Appender interface {
	AppendJSON(b *bytes.Buffer) error
}

// Append writes v as compact JSON. Strings are escaped as the engine's writer does them
// (AppendString); json.Number is written as it was read; NaN and infinities become null,
// as no JSON can carry them. Anything else goes through encoding/json without HTML escaping.
func Append(b *bytes.Buffer, v any) error {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
		return nil
	case string:
		AppendString(b, t)
		return nil
	case json.Number:
		b.WriteString(string(t))
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
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := Append(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case []Object: // lists of hits and buckets, without encoding/json
		b.WriteByte('[')
		for i, o := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := o.AppendJSON(b); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case Appender:
		return t.AppendJSON(b)
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // the encoder's newline
	return nil
}

// Compact is v as compact JSON text; a value encoding/json cannot write becomes "null".
func Compact(v any) string {
	var b bytes.Buffer
	if err := Append(&b, v); err != nil {
		return "null"
	}
	return b.String()
}

// AppendString writes s as a JSON string the way the engine's writer does: control
// characters, quotes and backslashes escaped, everything else (<, >, &, non-ASCII) as is.
// Invalid UTF-8 becomes U+FFFD, as encoding/json does, so the output is always valid JSON.
func AppendString(b *bytes.Buffer, s string) {
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
