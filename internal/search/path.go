package search

import (
	"context"
	"net/url"
	"strings"
)

// Path is the path and query string of a request to the service. The console builds
// one only with PathOf, which escapes every segment, so text from an answer (an index
// name, a document id) stays one segment whatever it holds: "logs-web/_close#" is the
// index "logs-web%2F_close%23", never a request to _close. The only other way to a Path
// is what the user typed in the editor, taken as written (ParsedRequest.HTTPRequest).
type Path struct{ raw string }

// PathOf is "/seg1/seg2/…", every segment escaped.
func PathOf(segments ...string) Path {
	var b strings.Builder
	for _, s := range segments {
		b.WriteByte('/')
		if s == "." || s == ".." {
			// Escaped too, so no proxy on the way takes them for a step up.
			b.WriteString(strings.ReplaceAll(s, ".", "%2E"))
			continue
		}
		b.WriteString(url.PathEscape(s))
	}
	if b.Len() == 0 {
		return Path{raw: "/"}
	}
	return Path{raw: b.String()}
}

// With adds query parameters (escaped) to p.
func (p Path) With(q url.Values) Path {
	if len(q) == 0 {
		return p
	}
	sep := "?"
	if strings.Contains(p.raw, "?") {
		sep = "&"
	}
	return Path{raw: p.raw + sep + q.Encode()}
}

// String is the path as sent, "/" when empty.
func (p Path) String() string {
	if p.raw == "" {
		return "/"
	}
	return p.raw
}

// typedPath is a path as the user typed it in the editor.
func typedPath(s string) Path { return Path{raw: s} }

// Read is a request that can only read the service: a GET, or a query POSTed to
// _search or _count. The console's own requests for reading (surrounding documents,
// the tail, counts before a write, index lists) are Reads, so an answer can never
// turn one of them into a write.
type Read struct {
	method string
	path   Path
	body   []byte
}

// Get reads p.
func Get(p Path) Read { return Read{method: "GET", path: p} }

// SearchIn is POST /target/_search with a JSON body.
func SearchIn(target string, body []byte) Read {
	return Read{method: "POST", path: PathOf(target, "_search"), body: body}
}

// CountIn is POST /target/_count with a JSON body.
func CountIn(target string, body []byte) Read {
	return Read{method: "POST", path: PathOf(target, "_count"), body: body}
}

// Method and Path say what r sends.
func (r Read) Method() string { return r.method }
func (r Read) Path() Path     { return r.path }

// Read sends r: see Do.
func (c *Client) Read(ctx context.Context, r Read) (*Response, error) {
	req := Request{Method: r.method, Path: r.path, Body: r.body}
	if len(r.body) > 0 {
		req.ContentType = ContentTypeJSON
	}
	return c.Do(ctx, req)
}
