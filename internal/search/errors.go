package search

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// EngineError is an error answer of the engine, shaped for display.
type EngineError struct {
	Status int
	// Type and Reason come from the first root cause when there is one, else from the error itself.
	Type   string
	Reason string
	// Details is the SQL plugin's extra explanation, when present.
	Details    string
	RootCauses []ErrorCause
	// Raw is the body as text (trimmed, at most 2 KiB) when it was not a recognised JSON error.
	Raw string
	// ContentType, User and Reauth are filled by Response.Err: the answer's content
	// type, the user the request was sent as, and what a re-authentication did.
	ContentType string
	User        string
	Reauth      *ReauthEvent
}

// ErrorCause is one entry of error.root_cause.
type ErrorCause struct {
	Type   string
	Reason string
	Index  string
}

func (e *EngineError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s", e.Status, http.StatusText(e.Status))
	switch {
	case e.Type != "" && e.Reason != "":
		fmt.Fprintf(&b, ": %s: %s", e.Type, e.Reason)
	case e.Reason != "":
		b.WriteString(": " + e.Reason)
	case e.Type != "":
		b.WriteString(": " + e.Type)
	}
	return b.String()
}

const maxRawError = 2048

// ShapeError reads an error answer. Empty and non-JSON bodies (a 401's plain text)
// are tolerated: the text, or the status text, becomes the reason.
func ShapeError(status int, body []byte) *EngineError {
	e := &EngineError{Status: status}
	text := strings.TrimSpace(string(body))
	var top struct {
		Error  json.RawMessage `json:"error"`
		Status json.RawMessage `json:"status"`
		// Some plugins answer {"status":"FORBIDDEN","message":"..."}.
		Message string `json:"message"`
	}
	if text == "" || json.Unmarshal([]byte(text), &top) != nil {
		e.Raw = truncate(text, maxRawError)
		e.Reason = firstLine(e.Raw)
		if e.Reason == "" {
			e.Reason = http.StatusText(status)
		}
		return e
	}
	var inner struct {
		RootCause []struct {
			Type   string `json:"type"`
			Reason string `json:"reason"`
			Index  string `json:"index"`
		} `json:"root_cause"`
		Type    string `json:"type"`
		Reason  string `json:"reason"`
		Details string `json:"details"`
	}
	var asString string
	switch {
	case len(top.Error) > 0 && json.Unmarshal(top.Error, &inner) == nil:
		for _, rc := range inner.RootCause {
			e.RootCauses = append(e.RootCauses, ErrorCause{Type: rc.Type, Reason: rc.Reason, Index: rc.Index})
		}
		e.Type, e.Reason, e.Details = inner.Type, inner.Reason, inner.Details
		if len(e.RootCauses) > 0 && (e.RootCauses[0].Type != "" || e.RootCauses[0].Reason != "") {
			e.Type, e.Reason = e.RootCauses[0].Type, e.RootCauses[0].Reason
		}
	case len(top.Error) > 0 && json.Unmarshal(top.Error, &asString) == nil:
		e.Reason = asString
	case top.Message != "":
		e.Reason = top.Message
	}
	if e.Type == "" && e.Reason == "" {
		e.Raw = truncate(text, maxRawError)
		e.Reason = http.StatusText(status)
	}
	return e
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(truncate(s, 300))
}

// RequestError is a request that got no answer: TLS, connection, timeout, redirect or
// an answer over the size cap. Describe turns it into a sentence.
type RequestError struct {
	Method string
	Path   string // without the query string
	Host   string // host:port
	// PinnedCA means the service's CA was the only trusted root (else the system's roots).
	PinnedCA bool
	Err      error
}

func (e *RequestError) Error() string { return e.Method + " " + e.Path + ": " + e.Err.Error() }

func (e *RequestError) Unwrap() error { return e.Err }

// redirectError is a redirect the client refused to follow.
type redirectError struct {
	loop bool
	to   string // the other host, when not a loop
}

func (e *redirectError) Error() string {
	if e.loop {
		return "too many redirects"
	}
	return "redirect to another host (" + e.to + ") refused"
}

// AnswerError is a successful status whose body could not be read as expected.
type AnswerError struct {
	What        string // what was expected, e.g. "the index list"
	Status      int
	ContentType string
	// JSONPath and Found locate a value of the wrong type ("[3].docs.count", "object");
	// Offset is the byte offset of a syntax error. Empty/zero when unknown.
	JSONPath string
	Found    string
	Offset   int64
	// Body is the start of the body (at most 2 KiB), for the debug log.
	Body string
	Err  error
}

func (e *AnswerError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: unreadable answer (status %d", e.What, e.Status)
	if e.ContentType != "" {
		b.WriteString(", " + e.ContentType)
	}
	b.WriteString(")")
	switch {
	case e.JSONPath != "" || e.Found != "":
		fmt.Fprintf(&b, ": at %s found %s", orDollar(e.JSONPath), e.Found)
	case e.Err != nil:
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

func (e *AnswerError) Unwrap() error { return e.Err }

func orDollar(path string) string {
	if path == "" {
		return "the top level"
	}
	return path
}

// answerError explains why resp's body did not decode into what.
func answerError(what string, resp *Response, err error) *AnswerError {
	e := &AnswerError{What: what, Status: resp.Status, ContentType: resp.Header.Get("Content-Type"),
		Body: truncate(strings.TrimSpace(string(resp.Body)), maxRawError), Err: err}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		e.JSONPath, e.Found = te.Field, te.Value
	case errors.As(err, &se):
		e.Offset = se.Offset
	}
	return e
}
