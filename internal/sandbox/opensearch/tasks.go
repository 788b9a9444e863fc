package opensearch

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// Requests sent with wait_for_completion=false (delete_by_query, update_by_query, reindex) are
// answered {"task": "node:id"} and their result is kept, as OpenSearch keeps it in .tasks, for GET
// /_tasks/{task_id} (opensearch-api-specification tests/default/_core/tasks.yaml starts a
// delete_by_query that way and reads the task back). The emulation runs the request to its end
// before it answers, so the task is already completed when it is read; a request the engine
// refuses (a parse error, a missing index) is refused at once, as OpenSearch validates it before it
// starts a task.

type taskRecord struct {
	action, description string
	start               time.Time
	took                time.Duration
	response            map[string]any
}

type taskStore struct {
	mu    sync.Mutex
	next  int64
	tasks map[int64]*taskRecord
}

func (s *taskStore) add(t *taskRecord) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tasks == nil {
		s.tasks = map[int64]*taskRecord{}
	}
	s.next++
	s.tasks[s.next] = t
	return s.next
}

func (s *taskStore) get(id int64) *taskRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tasks[id]
}

// answerRecorder keeps the answer of a request run as a task.
type answerRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *answerRecorder) Header() http.Header { return a.header }

func (a *answerRecorder) WriteHeader(status int) {
	if a.status == 0 {
		a.status = status
	}
}

func (a *answerRecorder) Write(b []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return a.body.Write(b)
}

// maybeTask runs run as the answer to r, or, with wait_for_completion=false, as a task whose id is
// the answer.
func (c *Cluster) maybeTask(w http.ResponseWriter, r *http.Request, action, description string, run func(http.ResponseWriter, *http.Request)) {
	q := r.URL.Query()
	if q.Get("wait_for_completion") != "false" {
		run(w, r)
		return
	}
	for _, k := range []string{"wait_for_completion", "filter_path", "pretty"} {
		q.Del(k) // the task keeps the whole answer; filter_path and pretty shape the task's id
	}
	inner := r.Clone(r.Context())
	u := *r.URL
	u.RawQuery = q.Encode()
	inner.URL = &u
	rec := &answerRecorder{header: http.Header{}}
	start := c.clock()
	run(rec, inner)
	if rec.status != http.StatusOK {
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(rec.body.Bytes())
		return
	}
	var resp map[string]any
	_ = json.Unmarshal(rec.body.Bytes(), &resp)
	id := c.tasks.add(&taskRecord{action: action, description: description, start: start, took: c.clock().Sub(start), response: resp})
	c.reply(w, r, 200, jsonout.Obj{{"task", nodeID + ":" + strconv.FormatInt(id, 10)}})
}

// handleGetTask answers GET /_tasks/{task_id} for a task that has finished: completed, the task's
// info (TaskInfo) with BulkByScrollTask's status, and the response. A malformed id is
// TaskId's illegal_argument_exception; an unknown one is the resource_not_found_exception of
// TransportGetTaskAction.
func (c *Cluster) handleGetTask(w http.ResponseWriter, r *http.Request, taskID string) {
	node, num, ok := strings.Cut(taskID, ":")
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || node == "" || err != nil || n < 0 {
		c.fail(w, r, apierr.BadRequest("malformed task id %s", taskID))
		return
	}
	t := c.tasks.get(n)
	if node != nodeID || t == nil {
		c.fail(w, r, apierr.Errf(404, "resource_not_found_exception", "task [%s] isn't running and hasn't stored its results", taskID))
		return
	}
	info := jsonout.Obj{{"node", nodeID}, {"id", n}, {"type", "transport"}, {"action", t.action}}
	if _, byScroll := t.response["total"]; byScroll { // BulkByScrollTask's status; a force merge has none
		info = append(info, jsonout.KV{"status", bulkByScrollStatus(t.response)})
	}
	info = append(info, jsonout.KV{"description", t.description}, jsonout.KV{"start_time_in_millis", t.start.UnixMilli()},
		jsonout.KV{"running_time_in_nanos", t.took.Nanoseconds()}, jsonout.KV{"cancellable", true}, jsonout.KV{"cancelled", false}, jsonout.KV{"headers", jsonout.Obj{}})
	c.reply(w, r, 200, jsonout.Obj{{"completed", true}, {"task", info}, {"response", t.response}})
}

func bulkByScrollStatus(resp map[string]any) jsonout.Obj {
	status := jsonout.Obj{}
	for _, k := range []string{"total", "updated", "created", "deleted", "batches", "version_conflicts", "noops", "retries",
		"throttled_millis", "requests_per_second", "throttled_until_millis"} {
		v, has := resp[k]
		if !has {
			v = 0
		}
		status = append(status, jsonout.KV{k, v})
	}
	return status
}

// reindexDescription is ReindexRequest's description: "reindex from [source] to [dest]".
func reindexDescription(body []byte) string {
	var b struct {
		Source struct {
			Index any `json:"index"`
		} `json:"source"`
		Dest struct {
			Index string `json:"index"`
		} `json:"dest"`
	}
	_ = json.Unmarshal(body, &b)
	src := ""
	switch v := b.Source.Index.(type) {
	case string:
		src = v
	case []any:
		var names []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				names = append(names, s)
			}
		}
		src = strings.Join(names, ", ")
	}
	return "reindex from [" + src + "] to [" + b.Dest.Index + "]"
}

// handleListTasks answers GET /_tasks (ListTasksResponse, _core/tasks.yaml): the tasks running at
// the time. A request the emulation runs as a task has finished before its id is answered, so, as
// on an idle OpenSearch node, what runs is the listing itself: cluster:monitor/tasks/lists and its
// per-node child, with ids from the same sequence as the stored tasks. group_by is nodes (the
// default), parents or none; actions filters by wildcard; detailed adds the descriptions.
func (c *Cluster) handleListTasks(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	groupBy := q.Get("group_by")
	if groupBy == "" {
		groupBy = "nodes"
	}
	if groupBy != "nodes" && groupBy != "parents" && groupBy != "none" {
		c.fail(w, r, apierr.BadRequest("[group_by] must be one of [nodes] or [parents] or [none] but was [%s]", groupBy))
		return
	}
	start := c.clock()
	parent := c.tasks.add(&taskRecord{action: "cluster:monitor/tasks/lists", start: start})
	child := c.tasks.add(&taskRecord{action: "cluster:monitor/tasks/lists[n]", start: start})
	c.tasks.mu.Lock()
	delete(c.tasks.tasks, parent) // running tasks leave no stored result
	delete(c.tasks.tasks, child)
	c.tasks.mu.Unlock()
	detailed := q.Get("detailed") == "true"
	info := func(id int64, action string, parentID int64) (jsonout.KV, bool) {
		if acts := q.Get("actions"); acts != "" {
			match := false
			for _, p := range strings.Split(acts, ",") {
				match = match || rest.GlobMatch(strings.TrimSpace(p), action)
			}
			if !match {
				return jsonout.KV{}, false
			}
		}
		t := jsonout.Obj{{"node", nodeID}, {"id", id}, {"type", "transport"}, {"action", action}}
		if detailed {
			t = append(t, jsonout.KV{"description", ""})
		}
		t = append(t, jsonout.KV{"start_time_in_millis", start.UnixMilli()},
			jsonout.KV{"running_time_in_nanos", c.clock().Sub(start).Nanoseconds()}, jsonout.KV{"cancellable", false})
		if parentID > 0 {
			t = append(t, jsonout.KV{"parent_task_id", nodeID + ":" + strconv.FormatInt(parentID, 10)})
		}
		t = append(t, jsonout.KV{"headers", jsonout.Obj{}})
		return jsonout.KV{nodeID + ":" + strconv.FormatInt(id, 10), t}, true
	}
	var tasks jsonout.Obj
	p, pOK := info(parent, "cluster:monitor/tasks/lists", 0)
	if pOK {
		tasks = append(tasks, p)
	}
	ch, chOK := info(child, "cluster:monitor/tasks/lists[n]", parent)
	if chOK {
		tasks = append(tasks, ch)
	}
	switch groupBy {
	case "none":
		list := make([]any, 0, len(tasks))
		for _, t := range tasks {
			list = append(list, t.V)
		}
		c.reply(w, r, 200, jsonout.Obj{{"tasks", list}})
	case "parents":
		out := jsonout.Obj{}
		switch {
		case pOK && chOK:
			out = append(out, jsonout.KV{p.K, append(p.V.(jsonout.Obj), jsonout.KV{"children", []any{ch.V}})})
		case pOK:
			out = append(out, p)
		case chOK:
			out = append(out, ch)
		}
		c.reply(w, r, 200, jsonout.Obj{{"tasks", out}})
	default:
		nodes := jsonout.Obj{}
		if len(tasks) > 0 {
			nodes = append(nodes, jsonout.KV{nodeID, jsonout.Obj{{"name", nodeID}, {"transport_address", "127.0.0.1:9300"},
				{"host", "127.0.0.1"}, {"ip", "127.0.0.1:9300"}, {"roles", []string{"cluster_manager", "data", "ingest", "remote_cluster_client"}},
				{"attributes", jsonout.Obj{{"shard_indexing_pressure_enabled", "true"}}}, {"tasks", tasks}}})
		}
		c.reply(w, r, 200, jsonout.Obj{{"nodes", nodes}})
	}
}
