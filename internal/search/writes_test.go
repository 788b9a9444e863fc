package search

import (
	"strings"
	"testing"
)

func TestReadOnlyRequest(t *testing.T) {
	for _, c := range []struct {
		method, path string
		ro           bool
	}{
		{"GET", "/logs/_search", true}, {"HEAD", "/logs", true}, {"POST", "/logs/_search", true},
		{"POST", "/_search", true}, {"POST", "/logs/_count", true}, {"POST", "/_msearch", true},
		{"POST", "/_mget", true}, {"POST", "/_plugins/_sql", true}, {"POST", "/_plugins/_sql/_explain", true},
		{"POST", "/logs/_analyze", true}, {"POST", "/logs/_validate/query", true}, {"POST", "/logs/_explain/1", true},
		{"POST", "/logs/_doc", false}, {"PUT", "/logs", false}, {"DELETE", "/logs", false},
		{"POST", "/_bulk", false}, {"POST", "/_reindex", false}, {"POST", "/logs/_delete_by_query", false},
		{"PATCH", "/x", false},
	} {
		if got := ReadOnlyRequest(ParsedRequest{Method: c.method, Path: c.path}); got != c.ro {
			t.Errorf("%s %s: read-only %v", c.method, c.path, got)
		}
	}
}

func TestPlanWrite(t *testing.T) {
	for _, c := range []struct {
		method, path, body string
		refuse             bool
		targets, confirm   string
		deletesIndex       bool
		closes             bool
	}{
		{method: "DELETE", path: "/products", targets: "products", confirm: "products", deletesIndex: true},
		{method: "DELETE", path: "/logs-*", refuse: true},
		{method: "DELETE", path: "/_all", refuse: true},
		{method: "DELETE", path: "/*", refuse: true},
		{method: "DELETE", path: "/a,b*", refuse: true},
		{method: "DELETE", path: "/", refuse: true},
		{method: "DELETE", path: "/a,b", targets: "a,b", confirm: "a,b", deletesIndex: true},
		{method: "DELETE", path: "/logs-app/_doc/1", targets: "logs-app"},
		{method: "DELETE", path: "/_index_template/t"},
		{method: "POST", path: "/logs-*/_delete_by_query", body: `{"query":{"match_all":{}}}`, targets: "logs-*", confirm: "logs-*"},
		{method: "PUT", path: "/logs-archive?pretty", targets: "logs-archive"},
		{method: "POST", path: "/_bulk", body: "{\"index\":{\"_index\":\"a\"}}\n{\"x\":1}\n{\"delete\":{\"_index\":\"b\",\"_id\":\"1\"}}\n{\"index\":{\"_index\":\"a\"}}\n{\"x\":2}\n", targets: "a|b"},
		{method: "POST", path: "/_reindex", body: `{"source":{"index":"s"},"dest":{"index":"d"}}`, targets: "d"},
		{method: "POST", path: "/_aliases", body: `{"actions":[{"add":{"index":"x","alias":"y"}},{"remove_index":{"index":"z"}}]}`, targets: "x|z", confirm: "z", deletesIndex: true},
		{method: "POST", path: "/_aliases", body: `{"actions":[{"remove_index":{"index":"z*"}}]}`, refuse: true},
		{method: "DELETE", path: "/_data_stream/logs-ds", targets: "logs-ds", confirm: "logs-ds", deletesIndex: true},
		{method: "DELETE", path: "/_data_stream/logs-*", refuse: true},
		{method: "POST", path: "/products/_close", targets: "products", confirm: "products", closes: true},
		{method: "POST", path: "/logs-*/_close", refuse: true},
		{method: "POST", path: "/_all/_close", refuse: true},
		{method: "POST", path: "/products/_open", targets: "products"},
	} {
		p := PlanWrite(ParsedRequest{Method: c.method, Path: c.path, Body: c.body})
		if c.refuse {
			p.Targets = nil
		}
		if (p.Refuse != "") != c.refuse || strings.Join(p.Targets, "|") != c.targets || p.Confirm != c.confirm || p.DeletesIndex != c.deletesIndex || p.Closes != c.closes {
			t.Errorf("%s %s: %+v", c.method, c.path, p)
		}
		if c.refuse && !strings.Contains(p.Refuse, "was not sent") {
			t.Errorf("%s %s: refusal %q", c.method, c.path, p.Refuse)
		}
	}
}
