package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
)

// maxBodyBytes bounds a request body; the management API never needs more.
const maxBodyBytes = 1 << 20

// readBody reads a request body before any lock is taken, so a slow client never holds
// the store.
func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		return nil, badRequest("The request body could not be read")
	}
	if len(raw) > maxBodyBytes {
		return nil, badRequest("The request body is larger than %d bytes", maxBodyBytes)
	}
	return raw, nil
}

// decodeBody reads a request body the way a schema validator would: it must be sent as
// application/json, be one JSON object, carry every required field (non-null), and
// contain no field the endpoint does not know and no value of the wrong JSON type. Every
// refusal is a 400 naming the field.
func decodeBody(ct string, raw []byte, dst any, required ...string) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return badRequest("A JSON request body is required")
	}
	if ct == "" {
		return badRequest("Content-Type: application/json is required on a request with a body")
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return badRequest("Content-Type must be application/json, not %q", ct)
	}
	if !json.Valid(raw) {
		var probe any
		perr := json.Unmarshal(raw, &probe)
		msg := "The request body is not valid JSON"
		var se *json.SyntaxError
		if errors.As(perr, &se) {
			msg += " (at byte " + strconv.FormatInt(se.Offset, 10) + ": " + se.Error() + ")"
		}
		return badRequest("%s", msg)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return badRequest("The request body must be a JSON object")
	}
	for _, name := range required {
		v, ok := fields[name]
		if !ok || string(bytes.TrimSpace(v)) == "null" {
			return badRequest("Missing required field %q", name)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	return nil
}

// decodeError turns encoding/json's complaints into messages that name the field.
func decodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "(body)"
		}
		return badRequest("Field %q must be %s, not %s", field, jsonKind(te.Type), jsonValueName(te.Value))
	}
	msg := err.Error()
	if i := strings.Index(msg, "unknown field "); i >= 0 {
		return badRequest("Unknown field %s in the request body", strings.TrimPrefix(msg[i:], "unknown field "))
	}
	return badRequest("The request body does not match the expected shape: %s", strings.TrimPrefix(msg, "json: "))
}

// jsonKind names the JSON type a Go type expects.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a " + t.Kind().String()
}

// jsonValueName renders encoding/json's description of the value it got.
func jsonValueName(v string) string {
	switch {
	case v == "string":
		return "a string"
	case v == "bool":
		return "a boolean"
	case v == "array":
		return "an array"
	case v == "object":
		return "an object"
	case strings.HasPrefix(v, "number"):
		return "a number"
	}
	return v
}
