package opensearch

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/svcui/svcui/internal/jsonval"
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

// rawMember returns the raw value of a member of a raw JSON object (the last one, as a decoded
// map would keep), or nil.
func rawMember(raw []byte, key string) json.RawMessage {
	var found json.RawMessage
	_ = forEachMember(raw, func(k string, v json.RawMessage) {
		if k == key {
			found = v
		}
	})
	return found
}

// mergeRaw applies a partial-update document to a stored source the way the engine's merge does:
// objects merge recursively, other values are replaced in place, new keys are appended in the
// order the update wrote them.
func mergeRaw(dst, src []byte) []byte {
	srcVals := map[string]json.RawMessage{}
	var srcKeys []string
	_ = forEachMember(src, func(k string, v json.RawMessage) {
		if _, seen := srcVals[k]; !seen {
			srcKeys = append(srcKeys, k)
		}
		srcVals[k] = v
	})
	var b bytes.Buffer
	b.WriteByte('{')
	written := map[string]bool{}
	member := func(k string, v []byte) {
		if len(written) > 0 {
			b.WriteByte(',')
		}
		written[k] = true
		jsonval.AppendString(&b, k)
		b.WriteByte(':')
		b.Write(v)
	}
	_ = forEachMember(dst, func(k string, dv json.RawMessage) {
		if written[k] {
			return
		}
		sv, changed := srcVals[k]
		switch {
		case !changed:
			member(k, dv)
		case rawKind(sv) == '{' && rawKind(dv) == '{':
			member(k, mergeRaw(dv, sv))
		default:
			member(k, sv)
		}
	})
	for _, k := range srcKeys {
		if !written[k] {
			member(k, srcVals[k])
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}
