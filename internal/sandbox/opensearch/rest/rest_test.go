package rest

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type ctx struct{ got string }

func testRouter() *Router[*ctx] {
	h := func(name string) func(c *ctx, w http.ResponseWriter, r *http.Request, a Args, body []byte) {
		return func(c *ctx, _ http.ResponseWriter, _ *http.Request, a Args, _ []byte) {
			c.got = name + ":" + a.Index + ":" + a.ID + ":" + a.Name
		}
	}
	return NewRouter([]string{"pretty", "filter_path"}, []*Route[*ctx]{
		{Pattern: "/_search", Methods: "GET,POST", Params: []string{"size", "scroll"}, H: h("search")},
		{Pattern: "/{index}", Methods: "PUT", H: h("create")},
		{Pattern: "/{index}", Methods: "GET", H: h("get")},
		{Pattern: "/{index}/_doc/{id}", Methods: "GET", Params: []string{"_source"}, H: h("doc")},
	})
}

// Routing as the engine's RestController does it: HEAD answered by GET, 405 with Allow for a
// known path, 400 "no handler found" otherwise, and BaseRestHandler's unrecognized parameters.
func TestRoute(t *testing.T) {
	rt := testRouter()
	route := func(method, target string) (string, *Failure) {
		c := &ctx{}
		r, a, f := rt.Route(httptest.NewRequest(method, target, nil))
		if f != nil {
			return "", f
		}
		r.H(c, nil, nil, a, nil)
		return c.got, nil
	}
	if got, f := route("HEAD", "/logs"); f != nil || got != "get:logs::" {
		t.Errorf("HEAD: %q %+v", got, f)
	}
	if got, f := route("GET", "/logs/_doc/a%2Fb?_source=false&pretty"); f != nil || got != "doc:logs:a/b:" {
		t.Errorf("doc: %q %+v", got, f)
	}
	if _, f := route("DELETE", "/logs"); f == nil || f.Status != 405 || f.Allow != "GET,PUT" {
		t.Errorf("405: %+v", f)
	}
	if _, f := route("GET", "/_nope"); f == nil || f.Status != 400 || !strings.HasPrefix(f.Reason, "no handler found for uri [/_nope]") {
		t.Errorf("no handler: %+v", f)
	}
	_, f := route("GET", "/_search?sise=1&zzz=2")
	if f == nil || f.Reason != "request [/_search] contains unrecognized parameters: [sise] -> did you mean [size]?, [zzz]" {
		t.Errorf("unrecognized: %+v", f)
	}
}

func TestReadBodyAndFilterPath(t *testing.T) {
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write([]byte(`{"a":1}`))
	zw.Close()
	r := httptest.NewRequest("POST", "/", &zb)
	r.Header.Set("Content-Encoding", "gzip")
	if b, f := ReadBody(r, 100); f != nil || string(b) != `{"a":1}` {
		t.Errorf("gzip: %s %+v", b, f)
	}
	if _, f := ReadBody(httptest.NewRequest("POST", "/", strings.NewReader("0123456789")), 5); f == nil || f.Status != 413 {
		t.Errorf("limit: %+v", f)
	}
	// A bomb is cut at the limit as it inflates. It is one gzip member of 64 KiB of zeros
	// repeated (a gzip stream may hold many members; readers inflate them all).
	zb.Reset()
	zw = gzip.NewWriter(&zb)
	zw.Write(make([]byte, 64<<10))
	zw.Close()
	r = httptest.NewRequest("POST", "/", bytes.NewReader(bytes.Repeat(zb.Bytes(), 17)))
	r.Header.Set("Content-Encoding", "gzip")
	if _, f := ReadBody(r, 1<<20); f == nil || f.Status != 413 {
		t.Errorf("gzip bomb: %+v", f)
	}
	raw := []byte(`{"took":1,"hits":{"total":{"value":2,"relation":"eq"},"hits":[{"_id":"1","_source":{"a":"<b>"}},{"_id":"2"}]}}`)
	for spec, want := range map[string]string{
		"hits.hits._id":     `{"hits":{"hits":[{"_id":"1"},{"_id":"2"}]}}`,
		"-hits.hits,-took":  `{"hits":{"total":{"value":2,"relation":"eq"}}}`,
		"**._source":        `{"hits":{"hits":[{"_source":{"a":"<b>"}}]}}`,
		"hits.total.*,took": `{"took":1,"hits":{"total":{"value":2,"relation":"eq"}}}`,
		"nothing":           `{}`,
	} {
		if got := string(FilterPath(raw, spec)); got != want {
			t.Errorf("filter_path=%s: %s, want %s", spec, got, want)
		}
	}
}
