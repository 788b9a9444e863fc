package opensearch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxBodyBytes mirrors http.max_content_length (100mb).
const maxBodyBytes = 100 << 20

// Handler returns the engine API (no authentication).
func (c *Cluster) Handler() http.Handler { return http.HandlerFunc(c.serve) }

// BasicAuth guards next with HTTP basic authentication, answering failures like the security
// plugin's HTTPBasicAuthenticator: 401, WWW-Authenticate: Basic realm="OpenSearch Security" and the
// text body "Unauthorized" (not JSON), with or without credentials.
func BasicAuth(next http.Handler, check func(user, pass string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		if ok && check != nil && check(user, pass) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Basic realm="OpenSearch Security"`)
		writeText(w, r, 401, "text/plain; charset=UTF-8", "Unauthorized")
	})
}

func (c *Cluster) serve(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			writeJSON(w, r, 500, newErr(500, "exception", "internal error in sandbox engine").response())
		}
	}()
	segs, err := splitPath(r.URL.EscapedPath())
	if err != nil {
		c.fail(w, r, badRequest("invalid path [%s]", r.URL.Path))
		return
	}
	rt, args, allowed := lookup(r.Method, segs)
	if rt == nil {
		uri := r.URL.Path
		if len(allowed) == 0 {
			c.fail(w, r, badRequest("no handler found for uri [%s] and method [%s]", uri, r.Method))
			return
		}
		w.Header().Set("Allow", strings.Join(allowed, ","))
		c.fail(w, r, errf(405, "illegal_argument_exception", "Incorrect HTTP method for uri [%s] and method [%s], allowed: [%s]",
			uri, r.Method, strings.Join(allowed, ", ")))
		return
	}
	// BaseRestHandler refuses parameters no handler consumed.
	if bad := rt.unknownParams(r); len(bad) > 0 {
		plural := ""
		if len(bad) > 1 {
			plural = "s"
		}
		parts := make([]string, len(bad))
		for i, b := range bad {
			parts[i] = "[" + b + "]" + rt.suggest(b)
		}
		c.fail(w, r, badRequest("request [%s] contains unrecognized parameter%s: %s", r.URL.Path, plural, strings.Join(parts, ", ")))
		return
	}
	body, aerr := readBody(r)
	if aerr != nil {
		c.fail(w, r, aerr)
		return
	}
	rt.h(c, w, r, args, body)
}

// readBody reads the request body, inflating a gzip or deflate Content-Encoding (as
// http.compression lets the engine accept), bounded by http.max_content_length either way.
func readBody(r *http.Request) ([]byte, *apiError) {
	var src io.Reader = r.Body
	switch enc := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			return nil, badRequest("failed to decompress request body: %s", err.Error())
		}
		defer zr.Close()
		src = zr
	case "deflate":
		zr := flate.NewReader(r.Body)
		defer zr.Close()
		src = zr
	default:
		return nil, errf(415, "illegal_argument_exception", "unsupported Content-Encoding [%s]", enc)
	}
	body, err := io.ReadAll(io.LimitReader(src, maxBodyBytes+1))
	if err != nil {
		return nil, badRequest("failed to read request body")
	}
	if len(body) > maxBodyBytes {
		return nil, errf(413, "content_too_long_exception", "request body is too large")
	}
	return body, nil
}

func splitPath(escaped string) ([]string, error) {
	var segs []string
	for _, s := range strings.Split(escaped, "/") {
		if s == "" {
			continue
		}
		u, err := url.PathUnescape(s)
		if err != nil {
			return nil, err
		}
		segs = append(segs, u)
	}
	return segs, nil
}

func (c *Cluster) reply(w http.ResponseWriter, r *http.Request, status int, v any) {
	writeJSON(w, r, status, v)
}

func (c *Cluster) fail(w http.ResponseWriter, r *http.Request, err *apiError) {
	writeJSON(w, r, err.status, err.response())
}

func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		buf.Reset()
		buf.WriteString(`{"error":{"root_cause":[{"type":"exception","reason":"failed to render response"}],"type":"exception","reason":"failed to render response"},"status":500}`)
		status = 500
	}
	out := bytes.TrimRight(buf.Bytes(), "\n")
	if fp := r.URL.Query().Get("filter_path"); fp != "" {
		out = applyFilterPath(out, fp)
	}
	if wantPretty(r) {
		out = prettyJSON(out)
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("Content-Length", itoa(len(out)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(out)
	}
}

func wantPretty(r *http.Request) bool {
	q := r.URL.Query()
	return q.Has("pretty") && q.Get("pretty") != "false"
}

func writeText(w http.ResponseWriter, r *http.Request, status int, contentType, text string) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", itoa(len(text)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = io.WriteString(w, text)
	}
}

// parseBody decodes a JSON request body; an empty body is nil unless required.
func parseBody(body []byte, required bool) (any, *apiError) {
	if len(bytes.TrimSpace(body)) == 0 {
		if required {
			return nil, errf(400, "parse_exception", "request body is required")
		}
		return nil, nil
	}
	v, err := decodeJSON(body)
	if err != nil {
		if ae, ok := err.(*apiError); ok {
			return nil, ae
		}
		return nil, errf(400, "parse_exception", "%s", err.Error())
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, errf(400, "parse_exception", "request body must be a JSON object")
	}
	return v, nil
}
