package opensearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// Helpers walking raw JSON in document order: Go maps forget key order, the engine does not.

var errNotContainer = errors.New("not a JSON object or array")

// forEachMember calls fn with every member of a raw JSON object, in the order they were written.
func forEachMember(raw []byte, fn func(key string, val json.RawMessage)) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := openDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return err
		}
		fn(key, val)
	}
	return nil
}

// forEachElement calls fn with every element of a raw JSON array, in order.
func forEachElement(raw []byte, fn func(val json.RawMessage)) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := openDelim(dec, '['); err != nil {
		return err
	}
	for dec.More() {
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return err
		}
		fn(val)
	}
	return nil
}

func openDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return errNotContainer
	}
	return nil
}

// rawKind is the first significant byte of a raw JSON value: '{', '[', or 0 for a scalar.
func rawKind(raw []byte) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) > 0 && (raw[0] == '{' || raw[0] == '[') {
		return raw[0]
	}
	return 0
}

// appendJSONString writes s as a JSON string the way the engine's writer does: control characters,
// quotes and backslashes escaped, everything else (<, >, &, non-ASCII) as is. Invalid UTF-8
// becomes U+FFFD, as encoding/json does, so the output is always valid JSON.
func appendJSONString(b *bytes.Buffer, s string) {
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
