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
