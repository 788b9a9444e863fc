package search

import (
	"bytes"
	"net/http"
	"regexp"
	"testing"

	"github.com/svcui/svcui/internal/sandbox/opensearch"
)

// read is one request both clusters answer.
type read struct {
	method, path string
	body         []byte
}

// allDocs reads every document of an index with its version and sequence number.
var allDocs = []byte(`{"size": 10000, "version": true, "seq_no_primary_term": true, "sort": ["_doc"]}`)

// sameAnswers fails unless the demo cluster answers each read 200 OK and its copy the
// same, byte for byte ("took" aside).
func sameAnswers(t *testing.T, src, cp *opensearch.Cluster, reads ...read) {
	t.Helper()
	took := regexp.MustCompile(`"took":\d+`)
	for _, r := range reads {
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

// A writing test's copy of the demo cluster answers every read as the demo cluster
// does: indices (names, uuids, counts, sizes), aliases, mappings, settings, templates,
// data streams, policies, health, and every document with its version and sequence
// number, directly and through an alias, scored as there.
func TestDemoCopyIsFaithful(t *testing.T) {
	t.Parallel()
	sameAnswers(t, demoCluster(t), demoCopy(t),
		read{"GET", "/_cat/indices?format=json&bytes=b&s=index", nil},
		read{"GET", "/_cat/aliases?format=json&s=alias,index", nil},
		read{"GET", "/_cat/count?format=json", nil},
		read{"GET", "/_alias", nil},
		read{"GET", "/_mapping", nil},
		read{"GET", "/_settings", nil},
		read{"GET", "/_index_template", nil},
		read{"GET", "/_template", nil},
		read{"GET", "/_data_stream", nil},
		read{"GET", "/_plugins/_ism/policies", nil},
		read{"GET", "/_cluster/health", nil},
		read{"GET", "/_cluster/settings", nil},
		read{"POST", "/logs-app/_search", allDocs},
		read{"POST", "/logs-web/_search", allDocs},
		read{"POST", "/products/_search", allDocs},
		read{"POST", "/logs/_search", []byte(`{"size": 50, "query": {"match": {"message": "order payment"}}}`)},
		read{"POST", "/logs/_search", []byte(`{"size": 0, "track_total_hits": true, "aggs": {"by_index": {"terms": {"field": "_index"}}}}`)},
	)
}

// A copy of some of the demo's indices holds those alone, each as the demo holds it,
// with the demo's aliases of them.
func TestDemoCopyOfSomeIndicesHoldsThoseAsTheDemo(t *testing.T) {
	t.Parallel()
	src, cp := demoCluster(t), demoCopy(t, "logs-web")
	if _, body := call(cp, "GET", "/_cat/indices?h=index", nil); string(bytes.TrimSpace(body)) != "logs-web" {
		t.Errorf("the copy holds the indices %q, want logs-web alone", body)
	}
	if _, body := call(src, "GET", "/logs-web/_alias", nil); !bytes.Contains(body, []byte(`"logs"`)) {
		t.Errorf("the demo's logs-web has no alias to copy: %s", body)
	}
	sameAnswers(t, src, cp,
		read{"GET", "/logs-web/_alias", nil},
		read{"GET", "/logs-web/_mapping", nil},
		read{"POST", "/logs-web/_search", allDocs},
	)
}
