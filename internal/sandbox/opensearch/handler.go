package opensearch

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// defaultMaxContentLength is OpenSearch's default http.max_content_length (100mb).
const defaultMaxContentLength = 100 << 20

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
			writeJSON(w, r, 500, apierr.New(500, "exception", "internal error in sandbox engine").Response())
		}
	}()
	route, args, f := routes.Route(r)
	if f == nil {
		var body []byte
		if body, f = rest.ReadBody(r, c.maxBody); f == nil {
			route.H(c, w, r, args, body)
			return
		}
	}
	if f.Allow != "" {
		w.Header().Set("Allow", f.Allow)
	}
	if f.Bare {
		writeJSON(w, r, f.Status, map[string]string{"error": f.Reason})
		return
	}
	c.fail(w, r, apierr.New(f.Status, f.Type, f.Reason))
}

func (c *Cluster) reply(w http.ResponseWriter, r *http.Request, status int, v any) {
	writeJSON(w, r, status, v)
}

func (c *Cluster) fail(w http.ResponseWriter, r *http.Request, err *apierr.Error) {
	writeJSON(w, r, err.Status, err.Response())
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
		out = rest.FilterPath(out, fp)
	}
	if wantPretty(r) {
		out = jsonout.Pretty(out)
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
func parseBody(body []byte, required bool) (any, *apierr.Error) {
	if len(bytes.TrimSpace(body)) == 0 {
		if required {
			return nil, apierr.Errf(400, "parse_exception", "request body is required")
		}
		return nil, nil
	}
	v, err := apierr.DecodeJSON(body)
	if err != nil {
		if ae, ok := err.(*apierr.Error); ok {
			return nil, ae
		}
		return nil, apierr.Errf(400, "parse_exception", "%s", err.Error())
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, apierr.Errf(400, "parse_exception", "request body must be a JSON object")
	}
	return v, nil
}
