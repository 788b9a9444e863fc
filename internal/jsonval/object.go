package jsonval

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Object is a JSON object that keeps its key order: the console lays table columns out in
// the order the engine (or the user's document) wrote them, and rewrites a request body
// without reordering what the user typed. A repeated key keeps its first place and its
// last value, as a decoded map would.
type Object struct {
	keys []string
	vals map[string]any
}

// NewObject is an empty object.
func NewObject() *Object { return &Object{vals: map[string]any{}} }

// Keys are the object's keys in order; the slice must not be changed.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return o.keys
}

// Len is the number of members.
func (o *Object) Len() int { return len(o.Keys()) }

// Get is the value of member k.
func (o *Object) Get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

// Value is the value of member k, nil when there is none.
func (o *Object) Value(k string) any {
	v, _ := o.Get(k)
	return v
}

// Set gives member k the value v, appending k when it is new.
func (o *Object) Set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// Delete removes member k, keeping the order of the others.
func (o *Object) Delete(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// AppendJSON writes the object as compact JSON, in key order.
func (o *Object) AppendJSON(b *bytes.Buffer) error {
	b.WriteByte('{')
	for i, k := range o.Keys() {
		if i > 0 {
			b.WriteByte(',')
		}
		AppendString(b, k)
		b.WriteByte(':')
		if err := Append(b, o.vals[k]); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// MarshalJSON lets encoding/json write the object in order too.
func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := o.AppendJSON(&b)
	return b.Bytes(), err
}

// MaxDepth bounds how deep Decode follows nesting, as answers may come from anywhere.
const MaxDepth = 1000

// ErrTooDeep is Decode's answer to nesting beyond MaxDepth.
var ErrTooDeep = errors.New("JSON nesting is too deep")

// Decode reads one JSON value: objects as *Object, arrays as []any, numbers as json.Number
// (exact, as written), strings, bools and nil. Data after the value is an error.
func Decode(data []byte) (any, error) {
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
	if depth > MaxDepth {
		return nil, ErrTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch delim {
	case '{':
		o := NewObject()
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
			o.Set(k, v)
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
}
