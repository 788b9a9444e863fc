package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// decodeError says what in an answer could not be read: where (the JSON path), what
// was found there and what was expected. It never holds a value from the answer,
// which may be a secret.
type decodeError struct {
	Path    string // "services[3].node_count"; "" for the answer itself
	Found   string // the JSON type found, in words: "a string", "null"
	Want    string // what was expected, in words: "an integer"
	GoType  string // the Go type expected, for the debug log
	Offset  int64  // byte of the answer where reading stopped
	Problem string // anything else: "it ends early"
	cause   error
}

// Error is the brief account shown on screen.
func (e *decodeError) Error() string {
	where := e.Path
	if where == "" {
		where = "the answer"
	}
	if e.Found != "" {
		return fmt.Sprintf("%s is %s, not %s", where, e.Found, e.Want)
	}
	if e.Path != "" {
		return e.Problem + " (at " + e.Path + ")"
	}
	return e.Problem
}

func (e *decodeError) Unwrap() error { return e.cause }

// detail is the full account for the debug log.
func (e *decodeError) detail(token string) string {
	var sb strings.Builder
	sb.WriteString(e.Error())
	if e.GoType != "" {
		fmt.Fprintf(&sb, "; expected Go type %s", e.GoType)
	}
	fmt.Fprintf(&sb, "; stopped near byte %d", e.Offset)
	if e.cause != nil && e.Found == "" {
		// Type errors are fully told above; other causes are text worth having, scrubbed.
		sb.WriteString("; cause: " + scrub(e.cause.Error(), token))
	}
	return sb.String()
}

// syntaxProblem is the error of an answer that cannot be read on from here.
func syntaxProblem(err error, path string, at int64) *decodeError {
	var de *decodeError
	if errors.As(err, &de) {
		return de
	}
	e := &decodeError{Path: path, Offset: at, cause: err}
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF) && at == 0:
		e.Problem = "it is empty"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		e.Problem = "it ends early"
	case errors.As(err, &se):
		e.Problem = "it is not valid JSON"
		e.Offset = se.Offset
	default:
		e.Problem = "it could not be read"
	}
	return e
}

// elementProblem is the error of one value that was read whole but does not fit its
// type; nil when err broke the answer itself (then nothing after it can be read).
func elementProblem(err error, path string, at int64) *decodeError {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	var be bodyError
	switch {
	case errors.As(err, &be):
		return nil // the answer could not be read on: nothing after it can be
	case errors.As(err, &te):
		p := path
		if te.Field != "" {
			if p != "" {
				p += "."
			}
			p += te.Field
		}
		found, _, _ := strings.Cut(te.Value, " ") // "number 5": the kind, never the value
		e := &decodeError{Path: p, Found: kindWords(found), Offset: at + te.Offset, cause: err}
		if te.Type != nil {
			e.Want, e.GoType = describeType(te.Type), te.Type.String()
		}
		return e
	case errors.As(err, &se), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return nil
	}
	var de *decodeError
	if errors.As(err, &de) {
		return de
	}
	return &decodeError{Path: path, Problem: "it could not be read", Offset: at, cause: err}
}

// kindWords turns encoding/json's name of a JSON type into words.
func kindWords(kind string) string {
	switch kind {
	case "object":
		return "an object"
	case "array":
		return "a list"
	case "string":
		return "a string"
	case "number":
		return "a number"
	case "bool":
		return "true or false"
	case "null":
		return "null"
	case "":
		return "something else"
	}
	return kind
}

func tokenKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return kindWords("object")
		}
		return kindWords("array")
	case string:
		return kindWords("string")
	case bool:
		return kindWords("bool")
	case nil:
		return "null"
	}
	return kindWords("number")
}

// describeType says in words what a Go type expects to read.
func describeType(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[models.FlexInt]():
		return "an integer"
	case reflect.TypeFor[models.Amount]():
		return "a decimal amount"
	case reflect.TypeFor[time.Time]():
		return "a time"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return describeType(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a value"
}

func wantOf[T any](zero T) string { return describeType(reflect.TypeOf(&zero).Elem()) }

// unreadable builds the error of a 2xx answer whose body cannot be decoded. A write
// answered so took effect, but what it made is unknown to the caller: it counts as of
// unknown outcome, to be read back.
func (c *Client) unreadable(method, path string, resp *rawResponse, cause error) *Error {
	de := syntaxProblem(cause, "", 0)
	mediaType, _, _ := mime.ParseMediaType(resp.header.Get("Content-Type"))
	if de.Found == "" && de.Path == "" && mediaType != "" && !strings.Contains(mediaType, "json") {
		de.Problem = fmt.Sprintf("it is %s, not JSON", mediaType)
	}
	brief := scrub(de.Error(), c.token)
	return &Error{Method: method, Path: path, Status: resp.status,
		Messages:       []string{"The platform sent an unreadable answer: " + brief},
		ContentType:    scrub(resp.header.Get("Content-Type"), c.token),
		OutcomeUnknown: method != http.MethodGet,
		Err:            de, reason: brief, decode: de}
}
