package opensearch

import (
	"bytes"
	"encoding/json"
	"errors"
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

// appendJSONString writes s as a JSON string without HTML escaping, as the engine does.
func appendJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // drop the encoder's newline
}
