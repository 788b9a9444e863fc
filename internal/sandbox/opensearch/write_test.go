package opensearch

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

func TestDocumentLifecycle(t *testing.T) {
	_, h := loadFixture(t)
	code, m := doJSON(t, h, "PUT", "/docs/_doc/9?refresh=true", `{"title":"Nine"}`)
	mustStatus(t, 201, code, m)
	if m["result"] != "created" || m["_version"] != 1.0 || m["_id"] != "9" || get(m, "_shards.total") != 1.0 {
		t.Fatalf("create: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/docs/_doc/9", `{"title":"Nine again"}`)
	mustStatus(t, 200, code, m)
	if m["result"] != "updated" || m["_version"] != 2.0 {
		t.Fatalf("update: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/docs/_doc/9", ``)
	mustStatus(t, 200, code, m)
	if m["found"] != true || get(m, "_source.title") != "Nine again" {
		t.Fatalf("get: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/docs/_doc", `{"title":"auto id"}`)
	mustStatus(t, 201, code, m)
	if id, _ := m["_id"].(string); len(id) != 20 {
		t.Fatalf("generated id %q should have 20 characters", id)
	}
	code, m = doJSON(t, h, "DELETE", "/docs/_doc/9", ``)
	mustStatus(t, 200, code, m)
	if m["result"] != "deleted" || m["_version"] != 3.0 {
		t.Fatalf("delete: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/docs/_doc/9", ``)
	mustStatus(t, 404, code, m)
	if m["found"] != false {
		t.Fatalf("get deleted: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/docs/_doc/9", ``)
	mustStatus(t, 404, code, m)
	if m["result"] != "not_found" {
		t.Fatalf("delete missing: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/nope/_doc/1", ``)
	mustStatus(t, 404, code, m)
	// A deleted document no longer matches nor counts in statistics.
	_, m = doJSON(t, h, "POST", "/docs/_search", `{"query":{"match":{"title":"nine"}}}`)
	if get(m, "hits.total.value") != 0.0 {
		t.Fatalf("deleted doc still found: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/docs/_doc/1", `{"qty":"many"}`)
	mustStatus(t, 400, code, m)
	if get(m, "error.type") != "mapper_parsing_exception" {
		t.Fatalf("bad doc: %v", m)
	}
}

func TestDynamicMapping(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	code, m := doJSON(t, h, "POST", "/dyn/_doc", `{"s":"hello world","d":"2024-01-01T00:00:00Z","i":3,"f":1.5,"b":true,"o":{"x":"y"}}`)
	mustStatus(t, 201, code, m)
	_, m = doJSON(t, h, "GET", "/dyn/_mapping", ``)
	props := get(m, "dyn.mappings.properties").(map[string]any)
	want := map[string]string{"s": "text", "d": "date", "i": "long", "f": "float", "b": "boolean"}
	for f, typ := range want {
		if get(props, f+".type") != typ {
			t.Errorf("%s mapped as %v, want %s", f, get(props, f+".type"), typ)
		}
	}
	if get(props, "s.fields.keyword.type") != "keyword" || get(props, "s.fields.keyword.ignore_above") != 256.0 {
		t.Errorf("text needs a .keyword sub-field: %v", props["s"])
	}
	if get(props, "o.properties.x.type") != "text" {
		t.Errorf("object properties: %v", props["o"])
	}
	_, m = doJSON(t, h, "POST", "/dyn/_search", `{"query":{"term":{"s.keyword":"hello world"}}}`)
	if get(m, "hits.total.value") != 1.0 {
		t.Fatalf(".keyword exact match: %v", m)
	}
	// A rejected document must not leave its new fields in the mapping.
	code, _ = doJSON(t, h, "POST", "/dyn/_doc", `{"newfield":"x","i":"not a number"}`)
	mustStatus(t, 400, code, nil)
	_, m = doJSON(t, h, "GET", "/dyn/_mapping", ``)
	if get(m, "dyn.mappings.properties.newfield") != nil {
		t.Fatalf("failed document leaked a mapping")
	}
}

func TestBulk(t *testing.T) {
	_, h := loadFixture(t)
	body := strings.Join([]string{
		`{"create":{"_id":"1"}}`, `{"title":"dup"}`,
		`{"index":{"_id":"10"}}`, `{"title":"ten"}`,
		`{"index":{"_index":"docs","_id":"2"}}`, `{"title":"two again"}`,
		`{"delete":{"_id":"404"}}`,
		`{"index":{"_id":"11"}}`, `{"qty":"abc"}`,
		`{"update":{"_id":"12"}}`, `{"doc":{"title":"twelve"},"doc_as_upsert":true}`,
		`{"update":{"_id":"13"}}`, `{"doc":{"title":"x"}}`,
		`{"update":{"_id":"10"}}`, `{"doc":{"qty":2}}`,
		`{"update":{"_id":"10"}}`, `{"doc":{"qty":2}}`,
		`{"delete":{"_id":"3"}}`,
	}, "\n") + "\n"
	code, m := doJSON(t, h, "POST", "/docs/_bulk", body)
	mustStatus(t, 200, code, m)
	if m["errors"] != true {
		t.Fatalf("errors flag should be set")
	}
	type item struct {
		action, result, errType string
		status                  float64
	}
	var got []item
	for _, it := range m["items"].([]any) {
		for action, v := range it.(map[string]any) {
			vm := v.(map[string]any)
			r, _ := vm["result"].(string)
			e, _ := get(vm, "error.type").(string)
			got = append(got, item{action, r, e, vm["status"].(float64)})
		}
	}
	want := []item{
		{"create", "", "version_conflict_engine_exception", 409},
		{"index", "created", "", 201},
		{"index", "updated", "", 200},
		{"delete", "not_found", "", 404},
		{"index", "", "mapper_parsing_exception", 400},
		{"update", "created", "", 201},
		{"update", "", "document_missing_exception", 404},
		{"update", "updated", "", 200},
		{"update", "noop", "", 200},
		{"delete", "deleted", "", 200},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("items:\n got %v\nwant %v", got, want)
	}
	// A delete of a missing id alone does not set errors.
	_, m = doJSON(t, h, "POST", "/_bulk", `{"delete":{"_index":"docs","_id":"zzz"}}`+"\n")
	if m["errors"] != false {
		t.Fatalf("not_found delete must not set errors: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/docs/_doc/10", ``)
	if get(m, "_source.qty") != 2.0 || get(m, "_version") != 2.0 {
		t.Fatalf("partial update: %v", m)
	}
}

func TestBulkRequestErrors(t *testing.T) {
	_, h := loadFixture(t)
	cases := []struct {
		name, body, ctype string
		status            int
		reason            string
	}{
		{"no trailing newline", `{"index":{"_id":"x"}}` + "\n" + `{"a":1}`, "application/x-ndjson", 400, `The bulk request must be terminated by a newline [\\n]`},
		{"unknown action", `{"upsert":{"_id":"x"}}` + "\n" + `{"a":1}` + "\n", "application/x-ndjson", 400, "expected one of [create, delete, index, update] but found [upsert]"},
		{"malformed action json", `{"index":` + "\n" + `{"a":1}` + "\n", "application/x-ndjson", 400, "line: 1"},
		{"missing index", `{"index":{"_id":"x"}}` + "\n" + `{"a":1}` + "\n", "application/x-ndjson", 400, "index is missing"},
		{"wrong content type", `{"index":{"_index":"a"}}` + "\n" + `{"a":1}` + "\n", "text/plain", 406, "Content-Type header [text/plain] is not supported"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := "/_bulk"
			req := httptest.NewRequest("POST", path, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", tc.ctype)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.reason) {
				t.Fatalf("%d %s", rec.Code, rec.Body.String())
			}
		})
	}
	// Nothing from a rejected request is written.
	_, m := doJSON(t, h, "GET", "/docs/_count", ``)
	if m["count"] != 5.0 {
		t.Fatalf("a failed bulk wrote documents: %v", m)
	}
}

func TestReindex(t *testing.T) {
	_, h := loadFixture(t)
	code, m := doJSON(t, h, "POST", "/_reindex", `{"source":{"index":"docs","query":{"term":{"category":"food"}}},"dest":{"index":"food-copy"}}`)
	mustStatus(t, 200, code, m)
	for k, want := range map[string]any{"total": 2.0, "created": 2.0, "updated": 0.0, "batches": 1.0, "version_conflicts": 0.0, "timed_out": false} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v", k, m[k], want)
		}
	}
	if len(m["failures"].([]any)) != 0 || get(m, "retries.bulk") != 0.0 {
		t.Errorf("shape: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/food-copy/_search", `{"sort":["_doc"]}`)
	if !reflect.DeepEqual(hitIDs(m), []string{"4", "5"}) {
		t.Fatalf("copied ids: %v", hitIDs(m))
	}
	_, m = doJSON(t, h, "POST", "/_reindex", `{"max_docs":1,"source":{"index":"docs"},"dest":{"index":"food-copy"}}`)
	if m["total"] != 1.0 || m["created"] != 1.0 {
		t.Fatalf("max_docs: %v", m)
	}
	// A script in the painless subset transforms each document (ctx.op = 'noop' skips it); one
	// outside the subset is a compile error before anything is written.
	code, m = doJSON(t, h, "POST", "/_reindex", `{"source":{"index":"docs"},"dest":{"index":"scripted"},"script":{"source":"ctx._source.x = 1; ctx._source.remove('body')"}}`)
	mustStatus(t, 200, code, m)
	if m["created"] != 5.0 {
		t.Fatalf("script reindex: %v", m)
	}
	if _, m = doJSON(t, h, "GET", "/scripted/_doc/1", ``); get(m, "_source.x") != 1.0 || get(m, "_source.body") != nil {
		t.Fatalf("scripted copy: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_reindex", `{"source":{"index":"docs"},"dest":{"index":"scripted2"},"script":{"source":"if (true) { ctx._source.x = 1 }"}}`)
	mustStatus(t, 400, code, m)
	if get(m, "error.type") != "script_exception" {
		t.Fatalf("unsupported script reindex: %v", m)
	}
	if code, _ := do(t, h, "HEAD", "/scripted2", ""); code != 404 {
		t.Fatalf("a script that cannot compile must not create the destination")
	}
	code, m = doJSON(t, h, "POST", "/_reindex", `{"source":{"index":"missing"},"dest":{"index":"x"}}`)
	mustStatus(t, 404, code, m)
}

func TestIndexTemplates(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	code, m := doJSON(t, h, "PUT", "/_index_template/t1", `{"index_patterns":["tmpl-*"],"priority":5,
	  "template":{"settings":{"number_of_replicas":0,"index":{"number_of_shards":2}},"mappings":{"properties":{"code":{"type":"keyword"},"when":{"type":"date"}}}}}`)
	mustStatus(t, 200, code, m)
	if m["acknowledged"] != true {
		t.Fatalf("%v", m)
	}
	do(t, h, "PUT", "/_index_template/low", `{"index_patterns":["tmpl-*"],"priority":1,"template":{"mappings":{"properties":{"code":{"type":"text"}}}}}`)
	do(t, h, "POST", "/tmpl-1/_doc", `{"code":"X1","n":3}`)
	_, m = doJSON(t, h, "GET", "/tmpl-1/_mapping", ``)
	if get(m, "tmpl-1.mappings.properties.code.type") != "keyword" || get(m, "tmpl-1.mappings.properties.when.type") != "date" ||
		get(m, "tmpl-1.mappings.properties.n.type") != "long" {
		t.Fatalf("template mapping not applied: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/tmpl-1/_settings", ``)
	if get(m, "tmpl-1.settings.index.number_of_shards") != "2" || get(m, "tmpl-1.settings.index.number_of_replicas") != "0" {
		t.Fatalf("template settings: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/_index_template/t1", ``)
	if get(m, "index_templates.0.name") != "t1" || get(m, "index_templates.0.index_template.index_patterns.0") != "tmpl-*" ||
		get(m, "index_templates.0.index_template.template.mappings.properties.code.type") != "keyword" {
		t.Fatalf("get template: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_index_template/none", ``)
	mustStatus(t, 404, code, m)
	code, m = doJSON(t, h, "PUT", "/_index_template/bad", `{"template":{}}`)
	mustStatus(t, 400, code, m)
	// Index not matching gets no template.
	do(t, h, "POST", "/other/_doc", `{"code":"X1"}`)
	_, m = doJSON(t, h, "GET", "/other/_mapping", ``)
	if get(m, "other.mappings.properties.code.type") != "text" {
		t.Fatalf("non-matching index got template: %v", m)
	}
}
