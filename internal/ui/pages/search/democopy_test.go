package search

import (
	"bytes"
	"net/http"
	"regexp"
	"testing"
)

// A writing test's copy of the demo cluster answers every read as the demo cluster
// does: indices (names, uuids, counts, sizes), aliases, mappings, settings, templates,
// data streams, policies, health, and every document with its version and sequence
// number, directly and through an alias, scored as there.
func TestDemoCopyIsFaithful(t *testing.T) {
	t.Parallel()
	src, cp := demoCluster(t), demoCopy(t)
	took := regexp.MustCompile(`"took":\d+`)
	docs := []byte(`{"size": 10000, "version": true, "seq_no_primary_term": true, "sort": ["_doc"]}`)
	for _, r := range []struct {
		method, path string
		body         []byte
	}{
		{"GET", "/_cat/indices?format=json&bytes=b&s=index", nil},
		{"GET", "/_cat/aliases?format=json&s=alias,index", nil},
		{"GET", "/_cat/count?format=json", nil},
		{"GET", "/_alias", nil},
		{"GET", "/_mapping", nil},
		{"GET", "/_settings", nil},
		{"GET", "/_index_template", nil},
		{"GET", "/_template", nil},
		{"GET", "/_data_stream", nil},
		{"GET", "/_plugins/_ism/policies", nil},
		{"GET", "/_cluster/health", nil},
		{"GET", "/_cluster/settings", nil},
		{"POST", "/logs-app/_search", docs},
		{"POST", "/logs-web/_search", docs},
		{"POST", "/products/_search", docs},
		{"POST", "/logs/_search", []byte(`{"size": 50, "query": {"match": {"message": "order payment"}}}`)},
		{"POST", "/logs/_search", []byte(`{"size": 0, "track_total_hits": true, "aggs": {"by_index": {"terms": {"field": "_index"}}}}`)},
	} {
		ss, sb := call(src, r.method, r.path, r.body)
		cs, cb := call(cp, r.method, r.path, r.body)
		sb, cb = took.ReplaceAll(sb, nil), took.ReplaceAll(cb, nil)
		if ss != http.StatusOK {
			t.Errorf("%s %s: the demo answers %d %.300s", r.method, r.path, ss, sb)
		}
		if ss != cs || !bytes.Equal(sb, cb) {
			t.Errorf("%s %s: the demo answers %d %.300s\nits copy %d %.300s", r.method, r.path, ss, sb, cs, cb)
		}
	}
}
