// Package rest is the REST mechanics of the OpenSearch emulation: a route table matched by path
// pattern and method, the URL parameters each endpoint accepts (anything else is refused as
// BaseRestHandler refuses it), request bodies (gzip and deflate, bounded) and filter_path.
package rest

import (
	"compress/flate"
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// Args are the variable segments of a matched route.
type Args struct {
	Index string // {index}: an index expression (names, patterns, aliases)
	ID    string // {id}: a document id, template, policy, role or scroll id
	Name  string // {name}: an alias name, a metric, or a sub-path such as the health index
}

// Route is one endpoint: a path pattern, the methods it answers, the URL parameters it accepts
// besides the common ones, and its handler, which gets the router's context C.
type Route[C any] struct {
	Pattern string // "/{index}/_doc/{id}"; "{index}" matches no segment starting with "_" but "_all"
	Methods string // "GET,POST"; HEAD falls back to GET
	Params  []string
	H       func(c C, w http.ResponseWriter, r *http.Request, a Args, body []byte)
	segs    []string
}

// Router holds the routes, in order of precedence.
type Router[C any] struct {
	routes []*Route[C]
	common []string
}

// NewRouter compiles routes; common are the parameters every endpoint accepts.
func NewRouter[C any](common []string, routes []*Route[C]) *Router[C] {
	for _, rt := range routes {
		for _, s := range strings.Split(rt.Pattern, "/") {
			if s != "" {
				rt.segs = append(rt.segs, s)
			}
		}
	}
	return &Router[C]{routes: routes, common: common}
}

// Failure is a request the REST layer refuses, in the engine's terms.
type Failure struct {
	Status int
	Type   string
	Reason string
	Allow  string // the methods the path answers, for a 405
	// Bare: the answer is {"error": Reason} with no root_cause, type or status, as
	// RestController.handleBadRequest writes it for a path no handler answers.
	Bare bool
}

func badRequest(reason string) *Failure {
	return &Failure{Status: 400, Type: "illegal_argument_exception", Reason: reason}
}

// Route finds the route answering r and checks its URL parameters.
func (rt *Router[C]) Route(r *http.Request) (*Route[C], Args, *Failure) {
	segs, err := splitPath(r.URL.EscapedPath())
	if err != nil {
		return nil, Args{}, badRequest("invalid path [" + r.URL.Path + "]")
	}
	route, args, allowed := rt.lookup(r.Method, segs)
	if route == nil {
		if len(allowed) == 0 {
			return nil, Args{}, &Failure{Status: 400, Bare: true, Reason: "no handler found for uri [" + r.URL.Path + "] and method [" + r.Method + "]"}
		}
		return nil, Args{}, &Failure{Status: 405, Type: "illegal_argument_exception", Allow: strings.Join(allowed, ","),
			Reason: "Incorrect HTTP method for uri [" + r.URL.Path + "] and method [" + r.Method + "], allowed: [" + strings.Join(allowed, ", ") + "]"}
	}
	if bad := rt.unknownParams(route, r); len(bad) > 0 {
		plural := ""
		if len(bad) > 1 {
			plural = "s"
		}
		parts := make([]string, len(bad))
		for i, b := range bad {
			parts[i] = "[" + b + "]" + suggest(route.Params, b)
		}
		return nil, Args{}, badRequest("request [" + r.URL.Path + "] contains unrecognized parameter" + plural + ": " + strings.Join(parts, ", "))
	}
	return route, args, nil
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

// match binds the route's pattern to path segments.
func (route *Route[C]) match(segs []string) (Args, bool) {
	var a Args
	if len(segs) != len(route.segs) {
		return a, false
	}
	for i, want := range route.segs {
		got := segs[i]
		switch want {
		case "{index}":
			if strings.HasPrefix(got, "_") && got != "_all" {
				return a, false
			}
			a.Index = got
		case "{id}":
			a.ID = got
		case "{name}":
			a.Name = got
		default:
			if got != want {
				return a, false
			}
		}
	}
	return a, true
}

func (route *Route[C]) allows(method string) bool {
	for _, m := range strings.Split(route.Methods, ",") {
		if m == method {
			return true
		}
	}
	return false
}

// lookup finds the route for a method and path; when none answers the method it returns the
// methods the path does answer (an empty list: no such endpoint).
func (rt *Router[C]) lookup(method string, segs []string) (*Route[C], Args, []string) {
	var allowed []string
	var headAsGet *Route[C]
	var headArgs Args
	for _, route := range rt.routes {
		a, ok := route.match(segs)
		if !ok {
			continue
		}
		if route.allows(method) {
			return route, a, nil
		}
		if method == http.MethodHead && route.allows(http.MethodGet) && headAsGet == nil {
			headAsGet, headArgs = route, a
		}
		allowed = append(allowed, strings.Split(route.Methods, ",")...)
	}
	if headAsGet != nil {
		return headAsGet, headArgs, nil
	}
	sort.Strings(allowed)
	return nil, Args{}, allowed
}

// unknownParams lists URL parameters the route does not accept, sorted.
func (rt *Router[C]) unknownParams(route *Route[C], r *http.Request) []string {
	var bad []string
	for k := range r.URL.Query() {
		if !contains(rt.common, k) && !contains(route.Params, k) {
			bad = append(bad, k)
		}
	}
	sort.Strings(bad)
	return bad
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// suggest is BaseRestHandler's hint for an unrecognized parameter: the accepted parameters whose
// similarity (Lucene's LevenshteinDistance: 1 - edits/longer length) exceeds 0.5, best first.
func suggest(params []string, bad string) string {
	type cand struct {
		name  string
		score float64
	}
	var cands []cand
	for _, p := range params {
		longer := max(len([]rune(p)), len([]rune(bad)))
		if score := 1 - float64(levenshtein(p, bad))/float64(longer); score > 0.5 {
			cands = append(cands, cand{p, score})
		}
	}
	if len(cands) == 0 {
		return ""
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].name < cands[j].name
	})
	if len(cands) == 1 {
		return " -> did you mean [" + cands[0].name + "]?"
	}
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.name
	}
	return " -> did you mean any of [" + strings.Join(names, ", ") + "]?"
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// ReadBody reads a request body, inflating a gzip or deflate Content-Encoding (as
// http.compression lets the engine accept), bounded by maxBytes (http.max_content_length) either way.
func ReadBody(r *http.Request, maxBytes int) ([]byte, *Failure) {
	var src io.Reader = r.Body
	switch enc := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			return nil, badRequest("failed to decompress request body: " + err.Error())
		}
		defer zr.Close()
		src = zr
	case "deflate":
		zr := flate.NewReader(r.Body)
		defer zr.Close()
		src = zr
	default:
		return nil, &Failure{Status: 415, Type: "illegal_argument_exception", Reason: "unsupported Content-Encoding [" + enc + "]"}
	}
	body, err := io.ReadAll(io.LimitReader(src, int64(maxBytes)+1))
	if err != nil {
		return nil, badRequest("failed to read request body")
	}
	if len(body) > maxBytes {
		return nil, &Failure{Status: 413, Type: "content_too_long_exception", Reason: "request body is too large"}
	}
	return body, nil
}
