package models

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
)

// scalarString renders a decoded JSON scalar as text; composite values as JSON.
func scalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return ""
		}
		return string(b)
	}
}

// typeError is the error of a value of the wrong JSON type: encoding/json adds the path
// of the field to it, and it never carries the value (which may be a secret).
func typeError(found string, t reflect.Type) error {
	return &json.UnmarshalTypeError{Value: found, Type: t}
}

// jsonKind names the JSON type of a raw value as encoding/json does in its errors.
func jsonKind(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}
