package opensearch

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

func TestISMPolicies(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	pol := `{"policy":{"description":"d","default_state":"hot","states":[
	  {"name":"hot","actions":[],"transitions":[{"state_name":"delete","conditions":{"min_index_age":"30d"}}]},
	  {"name":"delete","actions":[{"delete":{}}],"transitions":[]}]}}`
	code, m := doJSON(t, h, "PUT", "/_plugins/_ism/policies/p1", pol)
	mustStatus(t, 201, code, m)
	if m["_id"] != "p1" || m["_version"] != 1.0 || m["_primary_term"] != 1.0 || m["_seq_no"] == nil ||
		get(m, "policy.policy.default_state") != "hot" || get(m, "policy.policy.policy_id") != "p1" {
		t.Fatalf("create: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/_plugins/_ism/policies/p1", pol)
	mustStatus(t, 200, code, m)
	if m["_version"] != 2.0 {
		t.Fatalf("update: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_plugins/_ism/policies/p1", ``)
	mustStatus(t, 200, code, m)
	if get(m, "policy.states.1.name") != "delete" {
		t.Fatalf("get: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/_plugins/_ism/policies/bad", `{"policy":{"default_state":"warm","states":[{"name":"hot","actions":[]}]}}`)
	mustStatus(t, 400, code, m)
	if !strings.Contains(get(m, "error.reason").(string), "default_state [warm]") {
		t.Fatalf("validation: %v", m)
	}
	code, m = doJSON(t, h, "DELETE", "/_plugins/_ism/policies/p1", ``)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/_plugins/_ism/policies/p1", ``)
	mustStatus(t, 404, code, m)
}

func TestSecurityRoles(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	role := `{"cluster_permissions":["cluster_composite_ops_ro"],"index_permissions":[{"index_patterns":["logs-*"],"allowed_actions":["read"]}]}`
	code, m := doJSON(t, h, "PUT", "/_plugins/_security/api/roles/reader", role)
	mustStatus(t, 201, code, m)
	if m["status"] != "CREATED" || m["message"] != "'reader' created." {
		t.Fatalf("create: %v", m)
	}
	code, m = doJSON(t, h, "PUT", "/_plugins/_security/api/roles/reader", role)
	mustStatus(t, 200, code, m)
	if m["status"] != "OK" {
		t.Fatalf("update: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/_plugins/_security/api/roles/reader", ``)
	if get(m, "reader.index_permissions.0.index_patterns.0") != "logs-*" || get(m, "reader.reserved") != false {
		t.Fatalf("get: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/_plugins/_security/api/roles", ``)
	if m["reader"] == nil || m["all_access"] == nil {
		t.Fatalf("list: %v", m)
	}
	code, _ = doJSON(t, h, "PUT", "/_plugins/_security/api/roles/all_access", role)
	mustStatus(t, 403, code, nil)
	code, _ = doJSON(t, h, "PUT", "/_plugins/_security/api/roles/x", `{"bogus":1}`)
	mustStatus(t, 400, code, nil)
	code, m = doJSON(t, h, "DELETE", "/_plugins/_security/api/roles/reader", ``)
	mustStatus(t, 200, code, m)
	code, _ = doJSON(t, h, "GET", "/_plugins/_security/api/roles/reader", ``)
	mustStatus(t, 404, code, nil)
}

func TestHealthAndCat(t *testing.T) {
	c := New(Options{Name: "c1", Nodes: 1, Clock: func() time.Time { return testNow }})
	h := c.Handler()
	_, m := doJSON(t, h, "GET", "/_cluster/health", ``)
	if m["status"] != "green" || m["cluster_name"] != "c1" || m["active_shards_percent_as_number"] != 100.0 {
		t.Fatalf("empty cluster: %v", m)
	}
	for _, k := range []string{"cluster_name", "status", "timed_out", "number_of_nodes", "number_of_data_nodes", "active_primary_shards",
		"active_shards", "relocating_shards", "initializing_shards", "unassigned_shards", "delayed_unassigned_shards",
		"number_of_pending_tasks", "number_of_in_flight_fetch", "task_max_waiting_in_queue_millis", "active_shards_percent_as_number"} {
		if _, ok := m[k]; !ok {
			t.Errorf("health lacks %s", k)
		}
	}
	do(t, h, "PUT", "/a", `{"settings":{"number_of_shards":2,"number_of_replicas":1}}`)
	do(t, h, "PUT", "/b", `{"settings":{"index":{"number_of_replicas":0}}}`)
	do(t, h, "POST", "/b/_doc/1", `{"x":1}`)
	_, m = doJSON(t, h, "GET", "/_cluster/health", ``)
	if m["status"] != "yellow" || m["active_primary_shards"] != 3.0 || m["active_shards"] != 3.0 || m["unassigned_shards"] != 2.0 ||
		m["active_shards_percent_as_number"] != 60.0 {
		t.Fatalf("yellow cluster: %v", m)
	}
	_, raw := do(t, h, "GET", "/_cluster/health?pretty", ``)
	if !strings.Contains(string(raw), "\n  \"status\" : \"yellow\",\n") {
		t.Fatalf("pretty: %s", raw)
	}
	code, raw := do(t, h, "GET", "/_cat/indices?format=json", ``)
	var rows []map[string]any
	if code != 200 || json.Unmarshal(raw, &rows) != nil || len(rows) != 2 {
		t.Fatalf("cat json: %d %s", code, raw)
	}
	b := rows[1]
	for k, want := range map[string]string{"health": "green", "status": "open", "index": "b", "pri": "1", "rep": "0", "docs.count": "1", "docs.deleted": "0"} {
		if b[k] != want {
			t.Errorf("cat %s = %v, want %s", k, b[k], want)
		}
	}
	if _, ok := b["store.size"].(string); !ok || b["uuid"] == "" {
		t.Errorf("cat row: %v", b)
	}
	_, raw = do(t, h, "GET", "/_cat/indices?v", ``)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "health status index") || !strings.HasPrefix(lines[1], "yellow open   a") {
		t.Fatalf("cat text:\n%s", raw)
	}
	_, m = doJSON(t, h, "GET", "/", ``)
	if get(m, "version.distribution") != "opensearch" || !strings.HasPrefix(get(m, "version.number").(string), "2.") {
		t.Fatalf("info: %v", m)
	}
	if code, _ := do(t, h, "HEAD", "/a", ""); code != 200 {
		t.Fatalf("HEAD existing = %d", code)
	}
	_, m = doJSON(t, h, "DELETE", "/a", ``)
	if m["acknowledged"] != true {
		t.Fatalf("delete index: %v", m)
	}
	if code, _ := do(t, h, "HEAD", "/a", ""); code != 404 {
		t.Fatalf("HEAD deleted = %d", code)
	}
	_, m = doJSON(t, h, "GET", "/_mapping", ``)
	if get(m, "b.mappings.properties.x.type") != "long" {
		t.Fatalf("_mapping: %v", m)
	}
}

func TestBasicAuth(t *testing.T) {
	c := newTestCluster(t)
	h := BasicAuth(c.Handler(), func(u, p string) bool { return u == "avnadmin" && p == "s3cret" })
	req := httptest.NewRequest("GET", "/_cluster/health", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 401 || rec.Header().Get("WWW-Authenticate") != `Basic realm="OpenSearch Security"` ||
		rec.Body.String() != "Unauthorized" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("no credentials: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	req.SetBasicAuth("avnadmin", "wrong")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 401 || rec.Body.String() != "Unauthorized" {
		t.Fatalf("bad password: %d %s", rec.Code, rec.Body)
	}
	req.SetBasicAuth("avnadmin", "s3cret")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("good credentials: %d", rec.Code)
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	c, h := loadFixture(t)
	do(t, h, "PUT", "/_index_template/t", `{"index_patterns":["x-*"],"template":{"mappings":{"properties":{"k":{"type":"keyword"}}}}}`)
	do(t, h, "PUT", "/_plugins/_security/api/roles/r", `{"cluster_permissions":["a"]}`)
	do(t, h, "PUT", "/_plugins/_ism/policies/p", `{"policy":{"default_state":"s","states":[{"name":"s","actions":[]}]}}`)
	do(t, h, "PUT", "/_template/old", `{"index_patterns":["old-*"],"order":2,"settings":{"number_of_shards":2}}`)
	do(t, h, "POST", "/_plugins/_ism/add/docs", `{"policy_id":"p"}`)
	do(t, h, "PUT", "/_cluster/settings", `{"persistent":{"cluster.max_shards_per_node":700}}`)
	data, err := c.Export()
	if err != nil {
		t.Fatal(err)
	}
	d := newTestCluster(t)
	if err := d.Import(data); err != nil {
		t.Fatal(err)
	}
	dh := d.Handler()
	_, a := doJSON(t, h, "POST", "/docs/_search", `{"query":{"match":{"body":"brown butter"}},"aggs":{"c":{"terms":{"field":"category"}}}}`)
	_, b := doJSON(t, dh, "POST", "/docs/_search", `{"query":{"match":{"body":"brown butter"}},"aggs":{"c":{"terms":{"field":"category"}}}}`)
	delete(a, "took")
	delete(b, "took")
	if string(jsonout.Marshal(a)) != string(jsonout.Marshal(b)) {
		t.Fatalf("search differs after import:\n%v\n%v", a, b)
	}
	_, m := doJSON(t, dh, "GET", "/docs/_doc/1", ``)
	if m["_version"] != 1.0 {
		t.Fatalf("version lost: %v", m)
	}
	if _, m := doJSON(t, dh, "GET", "/_plugins/_ism/explain/docs", ``); m["total_managed_indices"] != 1.0 {
		t.Errorf("ISM policy of docs lost: %v", m)
	}
	if _, m := doJSON(t, dh, "GET", "/_cluster/settings", ``); get(m, "persistent.cluster.max_shards_per_node") != "700" {
		t.Errorf("cluster settings lost: %v", m)
	}
	for _, p := range []string{"/_index_template/t", "/_plugins/_security/api/roles/r", "/_plugins/_ism/policies/p", "/_template/old"} {
		if code, _ := do(t, dh, "GET", p, ""); code != 200 {
			t.Errorf("%s missing after import", p)
		}
	}
	again, _ := d.Export()
	if string(again) != string(data) {
		t.Fatalf("export is not stable across import")
	}
	if err := d.Import([]byte(`{"format":"other"}`)); err == nil {
		t.Fatal("bad format accepted")
	}
	if code, _ := do(t, dh, "HEAD", "/docs", ""); code != 200 {
		t.Fatal("failed import changed state")
	}
}

func TestLoadDemo(t *testing.T) {
	c := newTestCluster(t)
	if err := c.LoadDemo(42); err != nil {
		t.Fatal(err)
	}
	h := c.Handler()
	_, m := doJSON(t, h, "GET", "/logs-app/_count", ``)
	if m["count"] != 5000.0 {
		t.Fatalf("logs count: %v", m)
	}
	_, m = doJSON(t, h, "GET", "/products/_count", ``)
	if m["count"] != 200.0 {
		t.Fatalf("products count: %v", m)
	}
	_, m = doJSON(t, h, "POST", "/logs-app/_search", `{"size":0,"query":{"range":{"@timestamp":{"gte":"now-35d","lte":"now"}}},
	  "aggs":{"lv":{"terms":{"field":"level"}},"t":{"date_histogram":{"field":"@timestamp","calendar_interval":"week"}}}}`)
	if get(m, "hits.total.value") != 5000.0 || get(m, "aggregations.lv.buckets.0.key") != "INFO" || get(m, "aggregations.lv.buckets.3.key") != "ERROR" {
		t.Fatalf("demo logs: %v", get(m, "aggregations.lv"))
	}
	_, m = doJSON(t, h, "GET", "/logs-app/_mapping", ``)
	if get(m, "logs-app.mappings.properties.latency_ms.type") != "float" {
		t.Fatalf("template not applied to logs-app")
	}
	_, m = doJSON(t, h, "POST", "/_plugins/_sql", `{"query":"SELECT service, COUNT(*) AS n FROM logs-app WHERE level = 'ERROR' GROUP BY service ORDER BY n DESC"}`)
	if len(m["datarows"].([]any)) < 3 {
		t.Fatalf("demo SQL: %v", m)
	}
	for _, p := range []string{"/_plugins/_ism/policies/logs-retention", "/_plugins/_security/api/roles/logs_reader", "/_index_template/logs-template"} {
		if code, raw := do(t, h, "GET", p, ""); code != 200 {
			t.Errorf("%s: %d %s", p, code, raw)
		}
	}
	// Deterministic from the seed: this load and the one the read-only tests share agree.
	d := sharedDemo(t).Handler()
	_, a := do(t, h, "GET", "/logs-app/_doc/log-00042", "")
	_, b := do(t, d, "GET", "/logs-app/_doc/log-00042", "")
	if string(a) != string(b) {
		t.Fatalf("demo not deterministic:\n%s\n%s", a, b)
	}
	_, a = do(t, h, "GET", "/logs-web/_doc/web-01234", "")
	_, b = do(t, d, "GET", "/logs-web/_doc/web-01234", "")
	if string(a) != string(b) || !strings.Contains(string(a), `"found":true`) {
		t.Fatalf("demo web logs not deterministic:\n%s\n%s", a, b)
	}
	if err := c.LoadDemo(42); err != nil {
		t.Fatalf("reloading demo: %v", err)
	}
}
