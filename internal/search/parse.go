package search

import (
	"strings"
)

// ParsedRequest is one request of a console buffer. Line numbers are 1-based and
// refer to the buffer the request was parsed from.
type ParsedRequest struct {
	Method string // upper case
	Path   string // always starts with "/", query string included
	// Body is the text after the request line, comment lines blanked and surrounding
	// blank lines trimmed. Empty when the request has no body.
	Body string
	// StartLine is the request line; EndLine the last non-blank, non-comment line of the request.
	StartLine, EndLine int
	// BodyLine is the buffer line of the first line of Body (0 without a body).
	BodyLine int
}

// isConsoleMethod reports the HTTP methods a console request line may start with.
func isConsoleMethod(m string) bool {
	switch m {
	case "GET", "POST", "PUT", "DELETE", "HEAD", "PATCH":
		return true
	}
	return false
}

// parseRequestLine recognises "METHOD /path?query" (method case-insensitive, leading
// slash optional). The path is everything after the method, trimmed.
func parseRequestLine(line string) (method, path string, ok bool) {
	s := strings.TrimSpace(line)
	i := strings.IndexAny(s, " \t")
	if i <= 0 {
		return "", "", false
	}
	m := strings.ToUpper(s[:i])
	if !isConsoleMethod(m) {
		return "", "", false
	}
	p := strings.TrimSpace(s[i:])
	if p == "" {
		return "", "", false
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return m, p, true
}

// isCommentLine reports a whole-line comment. A JSON line can never start with '#' or
// "//", so such lines are dropped even inside bodies.
func isCommentLine(line string) bool {
	s := strings.TrimSpace(line)
	return strings.HasPrefix(s, "#") || strings.HasPrefix(s, "//")
}

// splitLines splits on "\n", dropping a "\r" before it, so CRLF buffers parse too.
func splitLines(text string) []string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// ParseBuffer finds every request of a console buffer, in order. It never fails:
// text that is neither a request line, a comment nor a body is ignored.
func ParseBuffer(text string) []ParsedRequest {
	lines := splitLines(text)
	var out []ParsedRequest
	cur := -1 // index in out of the request whose body is being collected
	var body []string
	finish := func() {
		if cur < 0 {
			return
		}
		r := &out[cur]
		// Trim blank lines around the body; comments are already blank.
		first, last := 0, len(body)-1
		for first <= last && strings.TrimSpace(body[first]) == "" {
			first++
		}
		for last >= first && strings.TrimSpace(body[last]) == "" {
			last--
		}
		if first <= last {
			r.Body = strings.Join(body[first:last+1], "\n")
			r.BodyLine = r.StartLine + 1 + first
			r.EndLine = r.StartLine + 1 + last
		} else {
			r.EndLine = r.StartLine
		}
		body = body[:0]
	}
	for i, line := range lines {
		if m, p, ok := parseRequestLine(line); ok {
			finish()
			out = append(out, ParsedRequest{Method: m, Path: p, StartLine: i + 1})
			cur = len(out) - 1
			continue
		}
		if cur < 0 {
			continue
		}
		if isCommentLine(line) {
			line = ""
		}
		body = append(body, line)
	}
	finish()
	return out
}

// RequestAt returns the request under the cursor line (1-based). A cursor on the
// blank or comment lines after a request still selects it, as consoles do; a cursor
// above the first request selects nothing.
func RequestAt(text string, line int) (ParsedRequest, bool) {
	reqs := ParseBuffer(text)
	var best ParsedRequest
	found := false
	for _, r := range reqs {
		if r.StartLine > line {
			break
		}
		best, found = r, true
	}
	return best, found
}

// Base is the path without its query string.
func (r ParsedRequest) Base() string {
	p, _, _ := strings.Cut(r.Path, "?")
	return p
}

// Query is the raw query string ("" when none).
func (r ParsedRequest) Query() string {
	_, q, _ := strings.Cut(r.Path, "?")
	return q
}

// WantsNDJSON reports endpoints whose body is newline-delimited JSON (_bulk, _msearch).
func (r ParsedRequest) WantsNDJSON() bool {
	for _, seg := range strings.Split(r.Base(), "/") {
		switch seg {
		case "_bulk", "_msearch":
			return true
		}
	}
	return false
}

// String renders the request back in console syntax.
func (r ParsedRequest) String() string {
	if r.Body == "" {
		return r.Method + " " + r.Path
	}
	return r.Method + " " + r.Path + "\n" + r.Body
}
