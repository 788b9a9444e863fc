package opensearch

import (
	"strings"
	"testing"
)

// dsTemplate is the template of opensearch-api-specification's data stream stories
// (tests/default/indices/data_stream/*.yaml), its timestamp field request_time.
const dsTemplate = `{"index_patterns":["logs-*","my-data-stream"],"data_stream":{"timestamp_field":{"name":"request_time"}},"priority":100}`

// tests/default/indices/data_stream/data_stream.yaml: a template with data_stream, PUT
// /_data_stream/{name}, a document POSTed to the stream (201, into .ds-{name}-000001), GET of the
// stream and of all streams (GetDataStreamAction.Response), DELETE of the stream with its
// backing indices. The template cannot go while a stream made from it is there.
func TestDataStreamStory(t *testing.T) {
	h := newTestCluster(t).Handler()
	code, m := doJSON(t, h, "PUT", "/_index_template/logs-template-nginx", dsTemplate)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/_index_template/logs-template-nginx", "")
	if mustStatus(t, 200, code, m); get(m["index_templates"].([]any)[0], "index_template.data_stream.timestamp_field.name") != "request_time" {
		t.Fatalf("template: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/_data_stream/logs-nginx", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "PUT", "/_data_stream/logs-nginx", "")
	if mustStatus(t, 400, code, m); get(m, "error.type") != "resource_already_exists_exception" {
		t.Fatalf("twice: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/logs-nginx/_doc?refresh=true", `{"message":"login attempt failed","request_time":"2013-03-01T00:00:00"}`)
	mustStatus(t, 201, code, m)
	if m["_index"] != ".ds-logs-nginx-000001" || m["result"] != "created" {
		t.Fatalf("ingest: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_data_stream/logs-nginx", "")
	mustStatus(t, 200, code, m)
	ds := m["data_streams"].([]any)[0]
	if get(ds, "name") != "logs-nginx" || get(ds, "timestamp_field.name") != "request_time" || get(ds, "generation") != 1.0 ||
		get(ds, "template") != "logs-template-nginx" || get(ds, "status") != "YELLOW" ||
		get(ds.(map[string]any)["indices"].([]any)[0], "index_name") != ".ds-logs-nginx-000001" {
		t.Fatalf("get: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_data_stream", "")
	if mustStatus(t, 200, code, m); len(m["data_streams"].([]any)) != 1 {
		t.Fatalf("get all: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/logs-nginx/_search", "")
	if mustStatus(t, 200, code, m); get(m, "hits.total.value") != 1.0 || get(m["hits"].(map[string]any)["hits"].([]any)[0], "_index") != ".ds-logs-nginx-000001" {
		t.Fatalf("search through the stream: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/_index_template/logs-template-nginx", "")
	if mustStatus(t, 400, code, m); get(m, "error.reason") != "unable to remove composable templates [logs-template-nginx] as they are in use by a data streams [logs-nginx]" {
		t.Fatalf("template in use: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/_data_stream/logs-nginx", "")
	mustStatus(t, 200, code, m)
	for _, path := range []string{"/_data_stream/logs-nginx", "/.ds-logs-nginx-000001"} {
		code, m = doJSON(t, h, "GET", path, "")
		mustStatus(t, 404, code, m)
	}
	if get(m, "error.type") != "index_not_found_exception" {
		t.Fatalf("backing index after delete: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_data_stream/logs-nginx", "")
	if mustStatus(t, 404, code, m); get(m, "error.type") != "resource_not_found_exception" || get(m, "error.reason") != "data_stream matching [logs-nginx] not found" {
		t.Fatalf("missing stream: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_data_stream/nothing-*", "")
	if mustStatus(t, 200, code, m); len(m["data_streams"].([]any)) != 0 {
		t.Fatalf("wildcard matching none: %v", m)
	}
}

// The writes a stream takes, as OpenSearch's DataStreamIT and DataStreamFieldMapper decide: the
// first create to a name a data stream template matches creates the stream; op_type=index (a PUT
// with an id, a bulk index action) is refused; a document without exactly one timestamp value is
// mapper_parsing_exception caused by illegal_argument_exception; PUT /_data_stream without a
// matching data stream template is refused.
func TestDataStreamWrites(t *testing.T) {
	h := newTestCluster(t).Handler()
	code, m := doJSON(t, h, "PUT", "/_index_template/logs", `{"index_patterns":["logs-*"],"data_stream":{},"template":{"mappings":{"properties":{"status":{"type":"integer"}}}}}`)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "PUT", "/logs-app/_doc/1?op_type=create&refresh=true", `{"@timestamp":"2024-03-15T00:00:00Z","status":200}`)
	if mustStatus(t, 201, code, m); m["_index"] != ".ds-logs-app-000001" {
		t.Fatalf("auto-created stream: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/logs-app/_doc/2", `{"@timestamp":"2024-03-15T00:00:00Z"}`)
	if mustStatus(t, 400, code, m); get(m, "error.type") != "illegal_argument_exception" ||
		get(m, "error.reason") != "only write ops with an op_type of create are allowed in data streams" {
		t.Fatalf("op_type=index: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/logs-app/_doc", `{"message":"no time"}`)
	if mustStatus(t, 400, code, m); get(m, "error.type") != "mapper_parsing_exception" ||
		get(m, "error.caused_by.reason") != "documents must contain a single-valued timestamp field '@timestamp' of date type" {
		t.Fatalf("missing timestamp: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_bulk?refresh=true", `{"create":{"_index":"logs-app"}}`+"\n"+`{"@timestamp":"2024-03-16T00:00:00Z"}`+"\n"+
		`{"index":{"_index":"logs-app"}}`+"\n"+`{"@timestamp":"2024-03-16T00:00:00Z"}`+"\n"+
		`{"create":{"_index":"logs-app"}}`+"\n"+`{"@timestamp":["2024-03-16T00:00:00Z","2024-03-17T00:00:00Z"]}`+"\n")
	mustStatus(t, 200, code, m)
	items := m["items"].([]any)
	if get(items[0], "create.status") != 201.0 || get(items[0], "create._index") != ".ds-logs-app-000001" ||
		get(items[1], "index.error.type") != "illegal_argument_exception" || get(items[2], "create.error.type") != "mapper_parsing_exception" {
		t.Fatalf("bulk: %v", m)
	}
	// The backing index carries the template's mapping, the timestamp as a date and the
	// _data_stream_timestamp meta field, and is hidden.
	code, m = doJSON(t, h, "GET", "/logs-app/_mapping", "")
	mustStatus(t, 200, code, m)
	if b := m[".ds-logs-app-000001"]; get(b, "mappings.properties.@timestamp.type") != "date" || get(b, "mappings.properties.status.type") != "integer" ||
		get(b, "mappings._data_stream_timestamp.timestamp_field.name") != "@timestamp" {
		t.Fatalf("mapping: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/.ds-logs-app-000001/_settings", "")
	if mustStatus(t, 200, code, m); get(m[".ds-logs-app-000001"], "settings.index.hidden") != "true" {
		t.Fatalf("settings: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/logs-app/_count", "")
	if mustStatus(t, 200, code, m); m["count"] != 2.0 {
		t.Fatalf("count: %v", m)
	}
	// The backing index is hidden, but wildcards and _all matching the stream's name reach it
	// through the stream (data streams are resolved with their backing indices), as do the
	// stream's name and a pattern starting with a dot.
	for _, path := range []string{"/_cat/indices?h=index", "/_cat/indices/logs-app?h=index", "/_cat/indices/.ds-*?h=index", "/_cat/indices?h=index&expand_wildcards=all"} {
		if _, body := do(t, h, "GET", path, ""); strings.TrimSpace(string(body)) != ".ds-logs-app-000001" {
			t.Fatalf("%s: %q", path, body)
		}
	}
	for _, path := range []string{"/*/_count", "/logs-*/_count", "/_count"} {
		code, m = doJSON(t, h, "GET", path, "")
		if mustStatus(t, 200, code, m); m["count"] != 2.0 {
			t.Fatalf("%s: %v", path, m)
		}
	}
	code, m = doJSON(t, h, "PUT", "/secret", `{"settings":{"index.hidden":true}}`)
	mustStatus(t, 200, code, m)
	if _, body := do(t, h, "GET", "/_cat/indices?h=index", ""); strings.Contains(string(body), "secret") {
		t.Fatalf("a hidden index matched by no stream: %q", body)
	}

	code, m = doJSON(t, h, "PUT", "/_data_stream/other", "")
	if mustStatus(t, 400, code, m); get(m, "error.reason") != "no matching index template found for data stream [other]" {
		t.Fatalf("no template: %v", m)
	}
	// The write index can be neither deleted nor closed alone.
	code, m = doJSON(t, h, "DELETE", "/.ds-logs-app-000001", "")
	if mustStatus(t, 400, code, m); !strings.Contains(get(m, "error.reason").(string), "is the write index for data stream [logs-app]") {
		t.Fatalf("delete the write index: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/logs-app", "")
	mustStatus(t, 404, code, m)
}

// tests/default/indices/data_stream/rollover.yaml and stats.yaml: a rollover of the stream makes
// generation 2 its write index, the older backing index stays searchable through the stream, and
// _stats counts both backing indices and the newest timestamp (epoch millis).
func TestDataStreamRolloverAndStats(t *testing.T) {
	h := newTestCluster(t).Handler()
	code, m := doJSON(t, h, "PUT", "/_index_template/logs-template-nginx", dsTemplate)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "PUT", "/_data_stream/logs-nginx", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "POST", "/logs-nginx/_doc", `{"message":"login attempt failed","request_time":"2013-03-01T00:00:00"}`)
	mustStatus(t, 201, code, m)
	code, m = doJSON(t, h, "POST", "/logs-nginx/_rollover", "")
	mustStatus(t, 200, code, m)
	if m["old_index"] != ".ds-logs-nginx-000001" || m["new_index"] != ".ds-logs-nginx-000002" || m["rolled_over"] != true {
		t.Fatalf("rollover: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/logs-nginx/_doc?refresh=true", `{"request_time":"2013-03-02T00:00:00Z"}`)
	if mustStatus(t, 201, code, m); m["_index"] != ".ds-logs-nginx-000002" {
		t.Fatalf("write after rollover: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/logs-nginx/_count", "")
	if mustStatus(t, 200, code, m); m["count"] != 2.0 {
		t.Fatalf("count over generations: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_data_stream/logs-nginx/_stats", "")
	mustStatus(t, 200, code, m)
	st := m["data_streams"].([]any)[0]
	if m["data_stream_count"] != 1.0 || m["backing_indices"] != 2.0 || get(st, "data_stream") != "logs-nginx" ||
		get(st, "backing_indices") != 2.0 || get(st, "maximum_timestamp") != 1362182400000.0 {
		t.Fatalf("stats: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_data_stream/logs-nginx", "")
	if mustStatus(t, 200, code, m); get(m["data_streams"].([]any)[0], "generation") != 2.0 {
		t.Fatalf("generation: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/logs-nginx/_rollover/named", "")
	mustStatus(t, 400, code, m)
	// The older generation may go on its own; the stream then has one backing index.
	code, m = doJSON(t, h, "DELETE", "/.ds-logs-nginx-000001", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/logs-nginx/_count", "")
	if mustStatus(t, 200, code, m); m["count"] != 1.0 {
		t.Fatalf("count after deleting generation 1: %v", m)
	}
}

// The sandbox keeps a service's search data across restarts through Export and Import: a data
// stream keeps its backing indices and generation, and a closed index stays closed.
func TestExportImportKeepsStreamsAndClosedIndices(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	code, m := doJSON(t, h, "PUT", "/_index_template/logs-template-nginx", dsTemplate)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "POST", "/logs-nginx/_doc", `{"request_time":"2013-03-01T00:00:00Z"}`)
	mustStatus(t, 201, code, m)
	code, m = doJSON(t, h, "POST", "/logs-nginx/_rollover", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "PUT", "/archive", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "POST", "/archive/_close", "")
	mustStatus(t, 200, code, m)
	data, err := c.Export()
	if err != nil {
		t.Fatal(err)
	}
	d := newTestCluster(t)
	if err := d.Import(data); err != nil {
		t.Fatal(err)
	}
	if again, _ := d.Export(); string(again) != string(data) {
		t.Fatalf("export is not stable across import")
	}
	dh := d.Handler()
	code, m = doJSON(t, dh, "GET", "/_data_stream/logs-nginx", "")
	mustStatus(t, 200, code, m)
	if ds := m["data_streams"].([]any)[0]; get(ds, "generation") != 2.0 || get(ds, "timestamp_field.name") != "request_time" {
		t.Fatalf("stream after import: %v", m)
	}
	code, m = doJSON(t, dh, "POST", "/logs-nginx/_doc", `{"request_time":"2013-03-02T00:00:00Z"}`)
	if mustStatus(t, 201, code, m); m["_index"] != ".ds-logs-nginx-000002" {
		t.Fatalf("write after import: %v", m)
	}
	code, m = doJSON(t, dh, "GET", "/archive/_search", "")
	mustClosed(t, code, m, "archive")
}

// Writes that name a backing index or update a stream, refused as TransportBulkAction does: a
// create or an unconditional index into a backing index ("target corresponding data stream"),
// an update or a delete through the stream's name ("only write ops with an op_type of create").
// A single-document get names a backing index, not the stream (concreteSingleIndex); a delete
// naming the backing index goes through.
func TestDataStreamWritesRefused(t *testing.T) {
	h := newTestCluster(t).Handler()
	code, m := doJSON(t, h, "PUT", "/_index_template/logs", `{"index_patterns":["logs-*"],"data_stream":{}}`)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "PUT", "/logs-app/_create/1?refresh=true", `{"@timestamp":"2024-03-15T00:00:00Z"}`)
	mustStatus(t, 201, code, m)
	for _, req := range [][3]string{
		{"PUT", "/.ds-logs-app-000001/_create/2", "index request with op_type=create targeting backing indices is disallowed, target corresponding data stream [logs-app] instead"},
		{"PUT", "/.ds-logs-app-000001/_doc/1", "index request with op_type=index and no if_primary_term and if_seq_no set targeting backing indices is disallowed, target corresponding data stream [logs-app] instead"},
		{"POST", "/logs-app/_update/1", "only write ops with an op_type of create are allowed in data streams"},
		{"DELETE", "/logs-app/_doc/1", "only write ops with an op_type of create are allowed in data streams"},
	} {
		body := `{"@timestamp":"2024-03-15T00:00:00Z"}`
		if strings.Contains(req[1], "_update") {
			body = `{"doc":{"a":1}}`
		}
		code, m = doJSON(t, h, req[0], req[1], body)
		if mustStatus(t, 400, code, m); get(m, "error.reason") != req[2] {
			t.Fatalf("%s %s: %v", req[0], req[1], m)
		}
	}
	code, m = doJSON(t, h, "POST", "/_bulk", `{"delete":{"_index":"logs-app","_id":"1"}}`+"\n"+`{"create":{"_index":".ds-logs-app-000001"}}`+"\n"+`{"@timestamp":"2024-03-15T00:00:00Z"}`+"\n")
	mustStatus(t, 200, code, m)
	items := m["items"].([]any)
	if get(items[0], "delete.status") != 400.0 || get(items[1], "create.status") != 400.0 {
		t.Fatalf("bulk: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/logs-app/_doc/1", "")
	if mustStatus(t, 400, code, m); get(m, "error.reason") != "The provided expression [logs-app] matches a data stream, specify the corresponding concrete indices instead." {
		t.Fatalf("get through the stream: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/.ds-logs-app-000001/_doc/1", "")
	if mustStatus(t, 200, code, m); m["found"] != true {
		t.Fatalf("get in the backing index: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/.ds-logs-app-000001/_doc/1", "")
	if mustStatus(t, 200, code, m); m["result"] != "deleted" {
		t.Fatalf("delete in the backing index: %v", m)
	}
}
