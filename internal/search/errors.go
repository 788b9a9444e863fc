package search

import (
	"encoding/json"
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
