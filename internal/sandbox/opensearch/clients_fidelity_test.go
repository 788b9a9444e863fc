package opensearch

import (
	"strings"
	"testing"
)

// Gaps the official Python and JavaScript clients found (clients_contract_test.go), each
// following OpenSearch's own code or a REST story of opensearch-api-specification.

// A path no handler answers gets RestController.handleBadRequest's answer: 400 and the bare object
// {"error": "no handler found for uri [PATH] and method [METHOD]"}, the path without its query
// string, and no root_cause, type or status. Elasticsearch-only routes meet it, such as
// elasticsearch-py 7.17's open_point_in_time (POST /{index}/_pit); the client then raises
// RequestError whose error is that text. A known path with another method stays a 405 with the
// usual error object (handleUnsupportedHttpMethod).
func TestNoHandlerFoundIsBare(t *testing.T) {
	h := logsFixture(t)
	code, body := do(t, h, "POST", "/logs/_pit?keep_alive=1m", "")
	if code != 400 || strings.TrimSpace(string(body)) != `{"error":"no handler found for uri [/logs/_pit] and method [POST]"}` {
		t.Fatalf("no handler: %d %s", code, body)
	}
	code, m := doJSON(t, h, "DELETE", "/logs/_search", "")
	mustStatus(t, 405, code, m)
	if get(m, "error.type") != "illegal_argument_exception" || get(m, "status") != 405.0 {
		t.Fatalf("wrong method: %v", m)
	}
}

// GET /{index}/_mapping/field/{fields} and /_mapping/field/{fields}, as in
// opensearch-api-specification tests/default/indices/mapping/field.yaml: per index, each field
// named (or matched by a pattern, sub-fields by their dotted name) as full_name and mapping.
func TestGetFieldMapping(t *testing.T) {
	c := newTestCluster(t)
	h := c.Handler()
	code, m := doJSON(t, h, "PUT", "/movies", `{"mappings":{"properties":{"director":{"type":"text","fields":{"raw":{"type":"keyword"}}},"year":{"type":"integer"}}}}`)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/movies/_mapping/field/director,year", "")
	mustStatus(t, 200, code, m)
	if get(m, "movies.mappings.year.full_name") != "year" || get(m, "movies.mappings.year.mapping.year.type") != "integer" ||
		get(m, "movies.mappings.director.mapping.director.type") != "text" {
		t.Fatalf("field mapping: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_mapping/field/director.*", "")
	mustStatus(t, 200, code, m)
	if e := get(m, "movies.mappings").(map[string]any)["director.raw"].(map[string]any); e["full_name"] != "director.raw" ||
		get(e, "mapping.raw.type") != "keyword" {
		t.Fatalf("sub-field: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/movies/_mapping/field/nope", "")
	mustStatus(t, 200, code, m)
	if mm, _ := get(m, "movies.mappings").(map[string]any); mm == nil || len(mm) != 0 {
		t.Fatalf("unknown field: %v", m)
	}
}

// opensearch-api-specification tests/default/_core/tasks.yaml: a delete_by_query sent with
// wait_for_completion=false answers {"task": "node:id"}, and GET /_tasks/{task_id} reads it back,
// completed, with the task's status and the delete_by_query's response. A refused request is
// refused at once; unknown and malformed task ids are OpenSearch's 404 and 400.
func TestTasksForByQueryAndReindex(t *testing.T) {
	h := logsFixture(t)
	code, m := doJSON(t, h, "POST", "/logs/_delete_by_query?refresh=true&conflicts=proceed&wait_for_completion=false", `{"query":{"match":{"message":"favicon"}}}`)
	mustStatus(t, 200, code, m)
	id, _ := m["task"].(string)
	if len(m) != 1 || !strings.HasPrefix(id, nodeID+":") {
		t.Fatalf("task answer: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_tasks/"+id, "")
	mustStatus(t, 200, code, m)
	if m["completed"] != true || get(m, "response.deleted") != 1.0 || get(m, "task.status.deleted") != 1.0 ||
		get(m, "task.action") != "indices:data/write/delete/byquery" || get(m, "task.node") != nodeID {
		t.Fatalf("task: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/logs/_count", "")
	mustStatus(t, 200, code, m)
	if m["count"] != 3.0 { // "favicon.ico" is one token; only "favicon missing" went
		t.Fatalf("count after the task: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/_reindex?wait_for_completion=false", `{"source":{"index":"logs"},"dest":{"index":"copy"}}`)
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/_tasks/"+m["task"].(string), "")
	mustStatus(t, 200, code, m)
	if get(m, "response.created") != 3.0 || get(m, "task.description") != "reindex from [logs] to [copy]" {
		t.Fatalf("reindex task: %v", m)
	}
	code, m = doJSON(t, h, "POST", "/nowhere/_update_by_query?wait_for_completion=false", `{}`)
	mustStatus(t, 404, code, m)
	code, m = doJSON(t, h, "GET", "/_tasks/"+nodeID+":999", "")
	mustStatus(t, 404, code, m)
	if get(m, "error.type") != "resource_not_found_exception" {
		t.Fatalf("unknown task: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_tasks/nope", "")
	mustStatus(t, 400, code, m)
	if get(m, "error.reason") != "malformed task id nope" {
		t.Fatalf("malformed task id: %v", m)
	}
}

// opensearch-api-specification tests/default/indices/forcemerge.yaml: POST /_forcemerge and
// /{index}/_forcemerge with its parameters answer _shards; with wait_for_completion=false (2.7
// and later) the answer is a task.
func TestForceMerge(t *testing.T) {
	h := logsFixture(t)
	for _, path := range []string{"/_forcemerge?flush=true&max_num_segments=1&only_expunge_deletes=true&ignore_unavailable=true", "/logs/_forcemerge?primary_only=true"} {
		code, m := doJSON(t, h, "POST", path, "")
		mustStatus(t, 200, code, m)
		if get(m, "_shards.failed") != 0.0 || get(m, "_shards.successful") != 1.0 {
			t.Fatalf("%s: %v", path, m)
		}
	}
	code, m := doJSON(t, h, "POST", "/logs/_forcemerge?wait_for_completion=false", "")
	mustStatus(t, 200, code, m)
	code, m = doJSON(t, h, "GET", "/_tasks/"+m["task"].(string), "")
	mustStatus(t, 200, code, m)
	if m["completed"] != true || get(m, "task.action") != "indices:admin/forcemerge" || get(m, "task.status") != nil || get(m, "response._shards.failed") != 0.0 {
		t.Fatalf("force merge task: %v", m)
	}
}

// opensearch-api-specification tests/default/_core/tasks.yaml lists tasks grouped by nodes,
// parents and none (ListTasksResponse). What runs is the listing itself,
// cluster:monitor/tasks/lists with its per-node child, whose ids follow those of the stored
// tasks; actions filters them by wildcard, and an unknown group_by is refused.
func TestListTasks(t *testing.T) {
	h := logsFixture(t)
	code, m := doJSON(t, h, "POST", "/logs/_delete_by_query?refresh=true&conflicts=proceed&wait_for_completion=false", `{"query":{"match_all":{}}}`)
	mustStatus(t, 200, code, m)
	stored := m["task"].(string)
	code, m = doJSON(t, h, "GET", "/_tasks?group_by=nodes", "")
	mustStatus(t, 200, code, m)
	tasks, _ := get(m, "nodes."+nodeID+".tasks").(map[string]any)
	if len(tasks) != 2 || get(m, "nodes."+nodeID+".name") != nodeID {
		t.Fatalf("by nodes: %v", m)
	}
	for id, x := range tasks {
		if id == stored || !strings.HasPrefix(id, nodeID+":") || !strings.HasPrefix(get(x, "action").(string), "cluster:monitor/tasks/lists") {
			t.Fatalf("listed task %s: %v", id, x)
		}
	}
	code, m = doJSON(t, h, "GET", "/_tasks?group_by=parents&detailed=true", "")
	mustStatus(t, 200, code, m)
	parents, _ := m["tasks"].(map[string]any)
	for _, p := range parents {
		kids, _ := get(p, "children").([]any)
		if len(parents) != 1 || len(kids) != 1 || get(p, "action") != "cluster:monitor/tasks/lists" || get(kids[0], "parent_task_id") == nil ||
			get(p, "description") != "" {
			t.Fatalf("by parents: %v", m)
		}
	}
	code, m = doJSON(t, h, "GET", "/_tasks?group_by=none&actions=*lists", "")
	mustStatus(t, 200, code, m)
	if l, _ := m["tasks"].([]any); len(l) != 1 || get(l[0], "action") != "cluster:monitor/tasks/lists" {
		t.Fatalf("by none, filtered: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_tasks?actions=*reindex", "")
	if mustStatus(t, 200, code, m); len(m["nodes"].(map[string]any)) != 0 {
		t.Fatalf("nothing matching: %v", m)
	}
	code, m = doJSON(t, h, "GET", "/_tasks?group_by=x", "")
	mustStatus(t, 400, code, m)
	// The stored task is still read by its id.
	code, m = doJSON(t, h, "GET", "/_tasks/"+stored, "")
	if mustStatus(t, 200, code, m); m["completed"] != true {
		t.Fatalf("stored task: %v", m)
	}
}
