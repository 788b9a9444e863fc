package search

import (
	"net/url"
	"testing"
)

// Every segment is escaped: text from an answer stays one segment, and a Read is a GET
// or a POST to _search or _count whatever the target holds.
func TestPathOfEscapesEverySegment(t *testing.T) {
	for _, c := range []struct {
		got  Path
		want string
	}{
		{PathOf("logs-web/_close#", "_search"), "/logs-web%2F_close%23/_search"},
		{PathOf("a?b=1&c", "_count"), "/a%3Fb=1&c/_count"},
		{PathOf("..", "_mapping"), "/%2E%2E/_mapping"},
		{PathOf("_cat", "indices", "logs-*,x").With(url.Values{"format": {"json"}}), "/_cat/indices/logs-%2A%2Cx?format=json"},
		{PathOf(), "/"},
	} {
		if c.got.String() != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if r := SearchIn("x/_delete_by_query?refresh=true&x=", nil); r.Method() != "POST" || r.Path().String() != "/x%2F_delete_by_query%3Frefresh=true&x=/_search" {
		t.Errorf("%s %s", r.Method(), r.Path())
	}
}
