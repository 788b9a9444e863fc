// Package apierr is the engine's error: a type, a status and a reason, rendered as the
// {"error":{"root_cause":[…],…},"status":…} body the real engine sends, with the index and the
// place in the request body it concerns. Every layer of the emulation fails with it.
package apierr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// Error is an engine error; it renders as {"error":{"root_cause":[...],"type","reason",...},"status"}.
type Error struct {
	Status   int
	Type     string
	Reason   string
	Index    string      // adds "index" and "index_uuid" members when set
	Shard    string      // adds "shard" (between index and index_uuid) when set
	UUID     string      // the index_uuid shown; "_na_" when unset
	Extra    jsonout.Obj // further members of the error object
	Root     *Error
	CausedBy *Error
}

func (e *Error) Error() string { return e.Type + ": " + e.Reason }

// New is an error with a fixed reason.
func New(status int, typ, reason string) *Error {
	return &Error{Status: status, Type: typ, Reason: reason}
}

// Errf is an error whose reason is formatted.
func Errf(status int, typ, format string, args ...any) *Error {
	return New(status, typ, fmt.Sprintf(format, args...))
}

// BadRequest is the engine's usual 400, illegal_argument_exception.
func BadRequest(format string, args ...any) *Error {
	return Errf(400, "illegal_argument_exception", format, args...)
}

// Parsing is the parsing_exception of a malformed request body.
func Parsing(format string, args ...any) *Error {
	return Errf(400, "parsing_exception", format, args...)
}

// IndexExprNotFound is the missing index of a single-index request (get, mget): the resolver
// names the resource an index_expression there.
func IndexExprNotFound(name string) *Error {
	e := IndexNotFound(name)
	e.Extra = jsonout.Obj{{"resource.type", "index_expression"}, {"resource.id", name}}
	return e
}

// IndexNotFound is the missing index of a request naming indices, aliases or patterns.
func IndexNotFound(name string) *Error {
	e := Errf(404, "index_not_found_exception", "no such index [%s]", name)
	e.Index = name
	e.Extra = jsonout.Obj{{"resource.type", "index_or_alias"}, {"resource.id", name}}
	return e
}

// Body is the error object itself, as nested under "error" or "caused_by".
func (e *Error) Body() jsonout.Obj {
	o := jsonout.Obj{{"type", e.Type}, {"reason", e.Reason}}
	o = e.appendIndex(o)
	o = append(o, e.Extra...)
	if e.CausedBy != nil {
		o = append(o, jsonout.KV{"caused_by", e.CausedBy.Body()})
	}
	return o
}

func (e *Error) appendIndex(o jsonout.Obj) jsonout.Obj {
	if e.Index == "" {
		return o
	}
	o = append(o, jsonout.KV{"index", e.Index})
	if e.Shard != "" {
		o = append(o, jsonout.KV{"shard", e.Shard})
	}
	uuid := e.UUID
	if uuid == "" {
		uuid = "_na_"
	}
	return append(o, jsonout.KV{"index_uuid", uuid})
}

// rootBody is the root_cause entry: the innermost error's type, reason and index.
func (e *Error) rootBody() jsonout.Obj {
	r := e
	if e.Root != nil {
		r = e.Root
	}
	o := jsonout.Obj{{"type", r.Type}, {"reason", r.Reason}}
	o = r.appendIndex(o)
	if r == e {
		for _, m := range e.Extra {
			if m.K == "resource.type" || m.K == "resource.id" || m.K == "line" || m.K == "col" {
				o = append(o, m)
			}
		}
	}
	return o
}

// Response is the whole answer body: the error with its root causes, and the status.
func (e *Error) Response() jsonout.Obj {
	inner := jsonout.Obj{{"root_cause", []jsonout.Obj{e.rootBody()}}}
	inner = append(inner, e.Body()...)
	status := e.Status
	if status == 0 {
		status = 500
	}
	return jsonout.Obj{{"error", inner}, {"status", status}}
}

// WithLocation adds "line" and "col" to a parsing_exception, as the XContent parser reports them:
// where the value of the member the reason names (its last [...]) starts in the request body.
func WithLocation(e *Error, body []byte) *Error {
	if e == nil || e.Type != "parsing_exception" {
		return e
	}
	for _, m := range e.Extra {
		if m.K == "line" {
			return e
		}
	}
	line, col := 1, 1
	if i := strings.LastIndexByte(e.Reason, '['); i >= 0 {
		if j := strings.IndexByte(e.Reason[i:], ']'); j > 0 {
			if off := valueOffset(body, e.Reason[i+1:i+j]); off >= 0 {
				line, col = lineCol(body, int64(off))
			}
		}
	}
	e.Extra = append(jsonout.Obj{{"line", line}, {"col", col}}, e.Extra...)
	return e
}

// valueOffset is the offset of the first value of member key in a JSON body, or -1.
func valueOffset(body []byte, key string) int {
	pat := []byte(strconv.Quote(key))
	for from := 0; from < len(body); {
		i := bytes.Index(body[from:], pat)
		if i < 0 {
			return -1
		}
		j := from + i + len(pat)
		for j < len(body) && (body[j] == ' ' || body[j] == '\t' || body[j] == '\n' || body[j] == '\r') {
			j++
		}
		if j < len(body) && body[j] == ':' {
			j++
			for j < len(body) && (body[j] == ' ' || body[j] == '\t' || body[j] == '\n' || body[j] == '\r') {
				j++
			}
			return j
		}
		from = j
	}
	return -1
}

// DecodeJSON parses one JSON value with numbers kept as json.Number; trailing garbage is an error.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonParseError(data, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		off := dec.InputOffset()
		line, col := lineCol(data, off)
		return nil, New(400, "json_parse_exception",
			fmt.Sprintf("Unexpected character after the end of the JSON value\n at [Source: (byte[]); line: %d, column: %d]", line, col))
	}
	return v, nil
}

// jsonParseError turns a decoder error into the engine's json_parse_exception with a position.
func jsonParseError(data []byte, dec *json.Decoder, err error) *Error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	msg := err.Error()
	switch {
	case errors.As(err, &se):
		off = se.Offset
		msg = se.Error()
	case errors.As(err, &te):
		off = te.Offset
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(data))
		msg = "Unexpected end-of-input"
	}
	line, col := lineCol(data, off)
	return New(400, "json_parse_exception",
		fmt.Sprintf("%s\n at [Source: (byte[]); line: %d, column: %d]", msg, line, col))
}

// lineCol is the line and column of a byte offset, as the JSON parser reports positions.
func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// InIndex names the index (and its uuid, shard 0) an error happened in, as engine errors do.
func (e *Error) InIndex(name, uuid string) *Error {
	e.Index, e.UUID, e.Shard = name, uuid, "0"
	return e
}
