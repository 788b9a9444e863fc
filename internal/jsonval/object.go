package jsonval

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Member is one member of an object. It is an unnamed struct type, so any package writes
// members as {"key", value}: the sandbox builds its answers that way.
type Member = struct {
	K string
	V any
}

// Object is a JSON object that keeps its members in order: the sandbox's answers read like
// the engine's, and the console lays table columns out in the order the engine (or the
// user's document) wrote them and rewrites a request body without reordering what the user
// typed. Each key appears once: decoding a repeated key keeps its first place and its last
// value, as a decoded map would.
type Object []Member

// NewObject is an empty object to fill with Set.
func NewObject() *Object { return &Object{} }

// Members are the object's members in order; the slice must not be changed.
func (o *Object) Members() []Member {
	if o == nil {
		return nil
	}
	return *o
}

// Len is the number of members.
func (o *Object) Len() int { return len(o.Members()) }

func (o *Object) index(k string) int {
	for i, m := range o.Members() {
		if m.K == k {
			return i
		}
	}
	return -1
}

// Get is the value of member k.
func (o *Object) Get(k string) (any, bool) {
	if i := o.index(k); i >= 0 {
		return (*o)[i].V, true
	}
	return nil, false
}

// Value is the value of member k, nil when there is none.
func (o *Object) Value(k string) any {
	v, _ := o.Get(k)
	return v
}

// Set gives member k the value v, appending k when it is new.
func (o *Object) Set(k string, v any) {
	if i := o.index(k); i >= 0 {
		(*o)[i].V = v
		return
	}
	*o = append(*o, Member{k, v})
}

// Delete removes member k, keeping the order of the others.
func (o *Object) Delete(k string) {
	if i := o.index(k); i >= 0 {
		*o = append((*o)[:i], (*o)[i+1:]...)
	}
}

// AppendJSON writes the object as compact JSON, in order, into the shared buffer.
func (o Object) AppendJSON(b *bytes.Buffer) error {
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		AppendString(b, m.K)
		b.WriteByte(':')
		if err := Append(b, m.V); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// MarshalJSON lets encoding/json write the object in order too.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := o.AppendJSON(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// indexAfter is how many members an object being decoded has before its keys are indexed.
const indexAfter = 32

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
		var o Object
		// Repeated keys are found by a scan while the object is small and through an index
		// once it is not, so a hostile answer with many keys decodes in linear time.
		var at map[string]int
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
			i := -1
			if at != nil {
				if j, ok := at[k]; ok {
					i = j
				}
			} else {
				i = o.index(k)
			}
			if i >= 0 {
				o[i].V = v
				continue
			}
			o = append(o, Member{k, v})
			switch {
			case at != nil:
				at[k] = len(o) - 1
			case len(o) > indexAfter:
				at = make(map[string]int, 2*len(o))
				for j, m := range o {
					at[m.K] = j
				}
			}
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return &o, nil
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
