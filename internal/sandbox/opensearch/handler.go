package opensearch

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// maxBodyBytes mirrors http.max_content_length (100mb).
const maxBodyBytes = 100 << 20

// Handler returns the engine API (no authentication).
func (c *Cluster) Handler() http.Handler { return http.HandlerFunc(c.serve) }

// BasicAuth guards next with HTTP basic authentication, answering failures like the security plugin.
func BasicAuth(next http.Handler, check func(user, pass string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		if ok && check != nil && check(user, pass) {
			next.ServeHTTP(w, r)
			return
		}
		reason := "missing authentication credentials for REST request [" + r.URL.Path + "]"
		if ok {
			reason = "unable to authenticate user for REST request [" + r.URL.Path + "]"
		}
		e := newErr(401, "security_exception", reason)
		e.extra = obj{{"header", obj{{"WWW-Authenticate", `Basic realm="OpenSearch Security"`}}}}
		w.Header().Set("WWW-Authenticate", `Basic realm="OpenSearch Security"`)
		writeJSON(w, r, 401, e.response())
	})
}

type handlerFunc func(w http.ResponseWriter, r *http.Request, body []byte)

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
	routes := c.route(segs)
	h, ok := routes[r.Method]
	if !ok && r.Method == http.MethodHead {
		h, ok = routes[http.MethodGet]
	}
	if !ok {
		uri := r.URL.Path
		if len(routes) == 0 {
			c.fail(w, r, badRequest("no handler found for uri [%s] and method [%s]", uri, r.Method))
			return
		}
		allowed := make([]string, 0, len(routes))
		for m := range routes {
			allowed = append(allowed, m)
		}
		sort.Strings(allowed)
		w.Header().Set("Allow", strings.Join(allowed, ","))
		c.fail(w, r, errf(405, "illegal_argument_exception", "Incorrect HTTP method for uri [%s] and method [%s], allowed: [%s]",
			uri, r.Method, strings.Join(allowed, ", ")))
		return
	}
	body, rerr := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if rerr != nil {
		c.fail(w, r, badRequest("failed to read request body"))
		return
	}
	if len(body) > maxBodyBytes {
		c.fail(w, r, errf(413, "content_too_long_exception", "request body is too large"))
		return
	}
	h(w, r, body)
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

// route maps a path to its handlers by method; an empty map means no such endpoint.
func (c *Cluster) route(s []string) map[string]handlerFunc {
	n := len(s)
	if n == 0 {
		return map[string]handlerFunc{"GET": c.handleInfo}
	}
	at := func(i int) string {
		if i < n {
			return s[i]
		}
		return ""
	}
	if strings.HasPrefix(s[0], "_") {
		switch {
		case s[0] == "_cluster" && at(1) == "health" && n <= 3:
			return map[string]handlerFunc{"GET": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleHealth(w, r, at(2)) }}
		case s[0] == "_cat" && at(1) == "indices" && n <= 3:
			return map[string]handlerFunc{"GET": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleCatIndices(w, r, at(2)) }}
		case s[0] == "_cat" && at(1) == "aliases" && n <= 3:
			return map[string]handlerFunc{"GET": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleCatAliases(w, r, at(2)) }}
		case s[0] == "_aliases" && n == 1:
			return map[string]handlerFunc{
				"POST": c.handleUpdateAliases,
				"GET":  func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleGetAlias(w, r, "", "") },
			}
		case (s[0] == "_alias" || s[0] == "_aliases") && n <= 2:
			return c.aliasRoutes("", at(1))
		case s[0] == "_cat" && at(1) == "health" && n == 2:
			return map[string]handlerFunc{"GET": c.handleCatHealth}
		case s[0] == "_cat" && at(1) == "count" && n <= 3:
			return map[string]handlerFunc{"GET": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleCatCount(w, r, at(2)) }}
		case s[0] == "_search" && n == 1:
			h := func(w http.ResponseWriter, r *http.Request, b []byte) { c.handleSearch(w, r, "", b) }
			return map[string]handlerFunc{"GET": h, "POST": h}
		case s[0] == "_count" && n == 1:
			h := func(w http.ResponseWriter, r *http.Request, b []byte) { c.handleCount(w, r, "", b) }
			return map[string]handlerFunc{"GET": h, "POST": h}
		case s[0] == "_mapping" && n == 1:
			return map[string]handlerFunc{"GET": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleGetMapping(w, r, "") }}
		case s[0] == "_bulk" && n == 1:
			h := func(w http.ResponseWriter, r *http.Request, b []byte) { c.handleBulk(w, r, "", b) }
			return map[string]handlerFunc{"POST": h, "PUT": h}
		case s[0] == "_reindex" && n == 1:
			return map[string]handlerFunc{"POST": c.handleReindex}
		case (s[0] == "_refresh" || s[0] == "_flush") && n == 1:
			h := func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleRefresh(w, r, "") }
			return map[string]handlerFunc{"POST": h, "GET": h}
		case s[0] == "_index_template" && n == 1:
			return map[string]handlerFunc{"GET": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.getTemplates(w, r, "") }}
		case s[0] == "_index_template" && n == 2:
			put := func(w http.ResponseWriter, r *http.Request, b []byte) { c.putTemplate(w, r, s[1], b) }
			return map[string]handlerFunc{
				"PUT": put, "POST": put,
				"GET":    func(w http.ResponseWriter, r *http.Request, _ []byte) { c.getTemplates(w, r, s[1]) },
				"DELETE": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.deleteTemplate(w, r, s[1]) },
			}
		case s[0] == "_plugins" && at(1) == "_ism" && at(2) == "policies" && n == 3:
			return map[string]handlerFunc{"GET": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.getPolicy(w, r, "") }}
		case s[0] == "_plugins" && at(1) == "_ism" && at(2) == "policies" && n == 4:
			return map[string]handlerFunc{
				"PUT":    func(w http.ResponseWriter, r *http.Request, b []byte) { c.putPolicy(w, r, s[3], b) },
				"GET":    func(w http.ResponseWriter, r *http.Request, _ []byte) { c.getPolicy(w, r, s[3]) },
				"DELETE": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.deletePolicy(w, r, s[3]) },
			}
		case s[0] == "_plugins" && at(1) == "_security" && at(2) == "api" && at(3) == "roles" && n == 4:
			return map[string]handlerFunc{"GET": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.getRoles(w, r, "") }}
		case s[0] == "_plugins" && at(1) == "_security" && at(2) == "api" && at(3) == "roles" && n == 5:
			return map[string]handlerFunc{
				"PUT":    func(w http.ResponseWriter, r *http.Request, b []byte) { c.putRole(w, r, s[4], b) },
				"GET":    func(w http.ResponseWriter, r *http.Request, _ []byte) { c.getRoles(w, r, s[4]) },
				"DELETE": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.deleteRole(w, r, s[4]) },
			}
		case s[0] == "_plugins" && at(1) == "_sql" && n == 2:
			return map[string]handlerFunc{"POST": c.handleSQL}
		case s[0] == "_plugins" && at(1) == "_sql" && at(2) == "_explain" && n == 3:
			return map[string]handlerFunc{"POST": c.handleSQLExplain}
		}
		return nil
	}
	idx := s[0]
	if n == 1 {
		return map[string]handlerFunc{
			"PUT":    func(w http.ResponseWriter, r *http.Request, b []byte) { c.handleCreateIndex(w, r, idx, b) },
			"GET":    func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleGetIndex(w, r, idx) },
			"HEAD":   func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleHeadIndex(w, r, idx) },
			"DELETE": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleDeleteIndex(w, r, idx) },
		}
	}
	switch s[1] {
	case "_doc":
		if n == 2 {
			return map[string]handlerFunc{"POST": func(w http.ResponseWriter, r *http.Request, b []byte) { c.handleIndexDoc(w, r, idx, "", b, false) }}
		}
		if n == 3 {
			id := s[2]
			put := func(w http.ResponseWriter, r *http.Request, b []byte) {
				c.handleIndexDoc(w, r, idx, id, b, r.URL.Query().Get("op_type") == "create")
			}
			return map[string]handlerFunc{
				"PUT": put, "POST": put,
				"GET":    func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleGetDoc(w, r, idx, id, false) },
				"DELETE": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleDeleteDoc(w, r, idx, id) },
			}
		}
	case "_create":
		if n == 3 {
			h := func(w http.ResponseWriter, r *http.Request, b []byte) { c.handleIndexDoc(w, r, idx, s[2], b, true) }
			return map[string]handlerFunc{"PUT": h, "POST": h}
		}
	case "_source":
		if n == 3 {
			return map[string]handlerFunc{"GET": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleGetDoc(w, r, idx, s[2], true) }}
		}
	case "_update":
		if n == 3 {
			return map[string]handlerFunc{"POST": func(w http.ResponseWriter, r *http.Request, b []byte) { c.handleUpdate(w, r, idx, s[2], b) }}
		}
	case "_search":
		if n == 2 {
			h := func(w http.ResponseWriter, r *http.Request, b []byte) { c.handleSearch(w, r, idx, b) }
			return map[string]handlerFunc{"GET": h, "POST": h}
		}
	case "_count":
		if n == 2 {
			h := func(w http.ResponseWriter, r *http.Request, b []byte) { c.handleCount(w, r, idx, b) }
			return map[string]handlerFunc{"GET": h, "POST": h}
		}
	case "_bulk":
		if n == 2 {
			h := func(w http.ResponseWriter, r *http.Request, b []byte) { c.handleBulk(w, r, idx, b) }
			return map[string]handlerFunc{"POST": h, "PUT": h}
		}
	case "_mapping":
		if n == 2 {
			put := func(w http.ResponseWriter, r *http.Request, b []byte) { c.handlePutMapping(w, r, idx, b) }
			return map[string]handlerFunc{
				"GET": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleGetMapping(w, r, idx) },
				"PUT": put, "POST": put,
			}
		}
	case "_alias", "_aliases":
		if n <= 3 {
			return c.aliasRoutes(idx, at(2))
		}
	case "_settings":
		if n == 2 {
			return map[string]handlerFunc{"GET": func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleGetSettings(w, r, idx) }}
		}
	case "_refresh", "_flush":
		if n == 2 {
			h := func(w http.ResponseWriter, r *http.Request, _ []byte) { c.handleRefresh(w, r, idx) }
			return map[string]handlerFunc{"POST": h, "GET": h}
		}
	}
	return nil
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
