//lint:file-ignore SA1019 the contract drives legacy endpoints (_template) and raw requests (Perform) on purpose: clients in the field still send them

package opensearch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"
	"github.com/opensearch-project/opensearch-go/v4/opensearchutil"
	"github.com/opensearch-project/opensearch-go/v4/plugins/ism"

	sandbox "github.com/svcui/svcui/internal/sandbox/opensearch"
)

// The contract test drives the emulation with the official Go client (opensearch-go v4, a
// test-only dependency) over verified TLS and basic auth, through an ordinary log workflow. Each
// operation is checked against what OpenSearch 2.x answers (the REST spec and the YAML stories
// of opensearch-api-specification cited beside each step); the test counts operations tried and
// passed and logs the figure.

const (
	goUser = "avnadmin"
	goPass = "contract-pass"
)

type workflow struct {
	t      *testing.T
	tried  int
	passed int
	failed []string
}

// step runs one client operation; check returns nil when the answer is OpenSearch's.
func (w *workflow) step(name string, check func() error) {
	w.t.Helper()
	w.tried++
	if err := check(); err != nil {
		w.failed = append(w.failed, name)
		w.t.Errorf("%s: %v", name, err)
		return
	}
	w.passed++
}

func newGoClient(t *testing.T, srv *httptest.Server, user, pass string, compress bool) *opensearchapi.Client {
	t.Helper()
	client, err := opensearchapi.NewClient(opensearchapi.Config{Client: opensearch.Config{
		Addresses:           []string{srv.URL},
		Username:            user,
		Password:            pass,
		Transport:           srv.Client().Transport, // trusts only the test server's certificate
		CompressRequestBody: compress,
		DisableRetry:        true,
	}})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

func jsonBody(v any) io.Reader {
	b, _ := json.Marshal(v)
	return bytes.NewReader(b)
}

func want(cond bool, format string, a ...any) error {
	if cond {
		return nil
	}
	return fmt.Errorf(format, a...)
}

// structErr extracts the typed error the client raises for an engine error.
func structErr(err error) *opensearch.StructError {
	var se *opensearch.StructError
	if errors.As(err, &se) {
		return se
	}
	return nil
}

var logIPs = []string{"203.0.113.61", "203.0.113.7", "198.51.100.23", "192.0.2.10"}
var logPaths = []string{"/index.html", "/favicon.ico", "/api/v1/orders", "/login", "/static/app.js"}

func logLine(i int) map[string]any {
	ip := logIPs[i%len(logIPs)]
	path := logPaths[i%len(logPaths)]
	status := []int{200, 200, 200, 404, 500}[i%5]
	ts := time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	return map[string]any{
		"@timestamp": ts.Format(time.RFC3339),
		"client_ip":  ip,
		"status":     status,
		"bytes":      100 + i%900,
		"path":       path,
		"message":    fmt.Sprintf("%s - GET %s HTTP/1.1 %d", ip, path, status),
	}
}

func TestOpenSearchGoWorkflow(t *testing.T) {
	cl := sandbox.New(sandbox.Options{Name: "go-contract"})
	srv := httptest.NewTLSServer(sandbox.BasicAuth(cl.Handler(), func(u, p string) bool { return u == goUser && p == goPass }))
	defer srv.Close()
	c := newGoClient(t, srv, goUser, goPass, true)
	ctx := context.Background()
	w := &workflow{t: t}
	const nDocs = 2000
	const index = "logs-2024.03.15"

	w.step("info", func() error {
		r, err := c.Info(ctx, nil)
		if err != nil {
			return err
		}
		return want(r.Version.Distribution == "opensearch" && strings.HasPrefix(r.Version.Number, "2."), "info: %+v", r.Version)
	})
	w.step("cluster health", func() error {
		r, err := c.Cluster.Health(ctx, nil)
		if err != nil {
			return err
		}
		return want(r.ClusterName == "go-contract" && r.Status != "", "health: %+v", r)
	})
	// indices/index_template.yaml
	w.step("put index template", func() error {
		_, err := c.IndexTemplate.Create(ctx, opensearchapi.IndexTemplateCreateReq{IndexTemplate: "logs", Body: jsonBody(map[string]any{
			"index_patterns": []string{"logs-*"},
			"template": map[string]any{
				"settings": map[string]any{"number_of_shards": 1, "number_of_replicas": 0},
				"mappings": map[string]any{"properties": map[string]any{
					"@timestamp": map[string]any{"type": "date"}, "client_ip": map[string]any{"type": "ip"},
					"status": map[string]any{"type": "integer"}, "bytes": map[string]any{"type": "long"},
					"path": map[string]any{"type": "keyword"}, "message": map[string]any{"type": "text"},
				}},
			},
		})})
		return err
	})
	w.step("create index", func() error {
		r, err := c.Indices.Create(ctx, opensearchapi.IndicesCreateReq{Index: index})
		if err != nil {
			return err
		}
		return want(r.Acknowledged && r.Index == index, "create: %+v", r)
	})
	w.step("create existing index is resource_already_exists_exception", func() error {
		_, err := c.Indices.Create(ctx, opensearchapi.IndicesCreateReq{Index: index})
		se := structErr(err)
		return want(se != nil && se.Status == 400 && se.Err.Type == "resource_already_exists_exception", "error: %#v", err)
	})
	w.step("mapping from template", func() error {
		r, err := c.Indices.Mapping.Get(ctx, &opensearchapi.MappingGetReq{Indices: []string{index}})
		if err != nil {
			return err
		}
		raw := r.GetIndices()[index].Mappings
		return want(strings.Contains(string(raw), `"client_ip":{"type":"ip"}`), "mapping: %s", raw)
	})
	// indices/settings.yaml: bulk tuning turns refresh off, then on.
	w.step("put settings refresh_interval -1", func() error {
		r, err := c.Indices.Settings.Put(ctx, opensearchapi.SettingsPutReq{Indices: []string{index},
			Body: strings.NewReader(`{"index":{"refresh_interval":"-1"}}`)})
		if err != nil {
			return err
		}
		return want(r.Acknowledged, "settings: %+v", r)
	})
	w.step("bulk indexer (gzip bodies)", func() error {
		bi, err := opensearchutil.NewBulkIndexer(opensearchutil.BulkIndexerConfig{Client: c, Index: index, NumWorkers: 2, FlushBytes: 64 << 10})
		if err != nil {
			return err
		}
		var failures int
		for i := 0; i < nDocs; i++ {
			b, _ := json.Marshal(logLine(i))
			err := bi.Add(ctx, opensearchutil.BulkIndexerItem{Action: "index", DocumentID: fmt.Sprintf("log-%d", i), Body: bytes.NewReader(b),
				OnFailure: func(context.Context, opensearchutil.BulkIndexerItem, opensearchapi.BulkRespItem, error) { failures++ }})
			if err != nil {
				return err
			}
		}
		if err := bi.Close(ctx); err != nil {
			return err
		}
		st := bi.Stats()
		return want(st.NumIndexed == nDocs && st.NumFailed == 0 && failures == 0, "bulk stats: %+v", st)
	})
	w.step("put settings refresh_interval back", func() error {
		_, err := c.Indices.Settings.Put(ctx, opensearchapi.SettingsPutReq{Indices: []string{index},
			Body: strings.NewReader(`{"index":{"refresh_interval":null}}`)})
		return err
	})
	w.step("refresh", func() error {
		_, err := c.Indices.Refresh(ctx, &opensearchapi.IndicesRefreshReq{Index: []string{index}})
		return err
	})
	w.step("count", func() error {
		r, err := c.Indices.Count(ctx, &opensearchapi.IndicesCountReq{Indices: []string{index}})
		if err != nil {
			return err
		}
		return want(r.Count == nDocs, "count: %d", r.Count)
	})
	// CRUD.
	w.step("index a document", func() error {
		r, err := c.Index(ctx, opensearchapi.IndexReq{Index: index, DocumentID: "manual-1", Body: jsonBody(logLine(7)),
			Params: opensearchapi.IndexParams{Refresh: "true"}})
		if err != nil {
			return err
		}
		return want(r.Result == "created" && r.Version == 1, "index: %+v", r)
	})
	w.step("get a document", func() error {
		r, err := c.Document.Get(ctx, opensearchapi.DocumentGetReq{Index: index, DocumentID: "manual-1"})
		if err != nil {
			return err
		}
		return want(r.Found && strings.Contains(string(r.Source), `"client_ip":"192.0.2.10"`), "get: %+v", r)
	})
	w.step("document exists (HEAD)", func() error {
		r, err := c.Document.Exists(ctx, opensearchapi.DocumentExistsReq{Index: index, DocumentID: "manual-1"})
		if err != nil {
			return err
		}
		return want(r.StatusCode == 200, "exists: %d", r.StatusCode)
	})
	w.step("update with a partial doc", func() error {
		r, err := c.Update(ctx, opensearchapi.UpdateReq{Index: index, DocumentID: "manual-1", Body: strings.NewReader(`{"doc":{"status":503}}`)})
		if err != nil {
			return err
		}
		return want(r.Result == "updated" && r.Version == 2, "update: %+v", r)
	})
	w.step("update with a painless script", func() error {
		r, err := c.Update(ctx, opensearchapi.UpdateReq{Index: index, DocumentID: "manual-1",
			Body: strings.NewReader(`{"script":{"source":"ctx._source.bytes += params.n","lang":"painless","params":{"n":1000}}}`)})
		if err != nil {
			return err
		}
		g, err := c.Document.Get(ctx, opensearchapi.DocumentGetReq{Index: index, DocumentID: "manual-1"})
		if err != nil {
			return err
		}
		return want(r.Result == "updated" && strings.Contains(string(g.Source), `"bytes":1107`), "scripted update: %+v %s", r, g.Source)
	})
	w.step("version conflict is version_conflict_engine_exception", func() error {
		_, err := c.Document.Create(ctx, opensearchapi.DocumentCreateReq{Index: index, DocumentID: "manual-1", Body: jsonBody(logLine(1))})
		se := structErr(err)
		return want(se != nil && se.Status == 409 && se.Err.Type == "version_conflict_engine_exception" && se.Err.IndexUUID != "" && se.Err.IndexUUID != "_na_", "error: %#v", err)
	})
	w.step("delete a document", func() error {
		r, err := c.Document.Delete(ctx, opensearchapi.DocumentDeleteReq{Index: index, DocumentID: "manual-1"})
		if err != nil {
			return err
		}
		return want(r.Result == "deleted", "delete: %+v", r)
	})
	w.step("get a missing document", func() error {
		r, err := c.Document.Get(ctx, opensearchapi.DocumentGetReq{Index: index, DocumentID: "manual-1"})
		if r == nil || r.Found || r.Inspect().Response.StatusCode != 404 {
			return fmt.Errorf("missing document: %+v %v", r, err)
		}
		return nil
	})
	w.step("get in a missing index is index_not_found_exception", func() error {
		_, err := c.Document.Get(ctx, opensearchapi.DocumentGetReq{Index: "nope", DocumentID: "1"})
		se := structErr(err)
		return want(se != nil && se.Status == 404 && se.Err.Type == "index_not_found_exception", "error: %#v", err)
	})
	// Search.
	w.step("match on an IP inside message", func() error {
		r, err := c.Search(ctx, &opensearchapi.SearchReq{Indices: []string{index},
			Body: strings.NewReader(`{"query":{"match":{"message":"203.0.113.61"}}}`)})
		if err != nil {
			return err
		}
		return want(r.Hits.Total.Value == nDocs/len(logIPs), "ip match: %d hits", r.Hits.Total.Value)
	})
	w.step("match on a word does not hit file names", func() error {
		r, err := c.Search(ctx, &opensearchapi.SearchReq{Indices: []string{index},
			Body: strings.NewReader(`{"query":{"match":{"message":"favicon"}}}`)})
		if err != nil {
			return err
		}
		return want(r.Hits.Total.Value == 0, "favicon: %d hits", r.Hits.Total.Value)
	})
	w.step("aggregations", func() error {
		r, err := c.Search(ctx, &opensearchapi.SearchReq{Indices: []string{index}, Body: strings.NewReader(`{"size":0,
			"query":{"range":{"@timestamp":{"gte":"2024-03-15T00:00:00Z","lt":"2024-03-16T00:00:00Z"}}},
			"aggs":{"by_status":{"terms":{"field":"status"},"aggs":{"avg_bytes":{"avg":{"field":"bytes"}}}},
			"per_hour":{"date_histogram":{"field":"@timestamp","fixed_interval":"1h"}}}}`)})
		if err != nil {
			return err
		}
		var aggs struct {
			ByStatus struct {
				Buckets []struct {
					Key      int `json:"key"`
					DocCount int `json:"doc_count"`
				} `json:"buckets"`
			} `json:"by_status"`
			PerHour struct {
				Buckets []struct {
					DocCount int `json:"doc_count"`
				} `json:"buckets"`
			} `json:"per_hour"`
		}
		if err := json.Unmarshal(r.Aggregations, &aggs); err != nil {
			return err
		}
		// The first day holds 1440 of the minutes; 3 in 5 answer 200.
		return want(len(aggs.ByStatus.Buckets) == 3 && aggs.ByStatus.Buckets[0].Key == 200 && aggs.ByStatus.Buckets[0].DocCount == 864 &&
			len(aggs.PerHour.Buckets) == 24 && aggs.PerHour.Buckets[0].DocCount == 60, "aggs: %s", r.Aggregations)
	})
	w.step("search_after paging", func() error {
		var after []any
		seen := 0
		for page := 0; page < 5; page++ {
			body := map[string]any{"size": 100, "sort": []any{map[string]any{"@timestamp": "asc"}, map[string]any{"path": "asc"}}}
			if after != nil {
				body["search_after"] = after
			}
			r, err := c.Search(ctx, &opensearchapi.SearchReq{Indices: []string{index}, Body: jsonBody(body)})
			if err != nil {
				return err
			}
			if len(r.Hits.Hits) != 100 {
				return fmt.Errorf("page %d: %d hits", page, len(r.Hits.Hits))
			}
			if want := fmt.Sprintf("log-%d", page*100); r.Hits.Hits[0].ID != want {
				return fmt.Errorf("page %d starts at %s, want %s", page, r.Hits.Hits[0].ID, want)
			}
			last := r.Hits.Hits[len(r.Hits.Hits)-1]
			after = last.Sort
			seen += len(r.Hits.Hits)
		}
		return want(seen == 500, "seen %d", seen)
	})
	w.step("query_string syntax error is search_phase_execution_exception", func() error {
		_, err := c.Search(ctx, &opensearchapi.SearchReq{Indices: []string{index},
			Body: strings.NewReader(`{"query":{"query_string":{"query":"status:(500"}}}`)})
		se := structErr(err)
		return want(se != nil && se.Status == 400 && se.Err.Type == "search_phase_execution_exception" &&
			len(se.Err.RootCause) == 1 && se.Err.RootCause[0].Type == "query_shard_exception", "error: %#v", err)
	})
	w.step("unknown query is parsing_exception", func() error {
		_, err := c.Search(ctx, &opensearchapi.SearchReq{Indices: []string{index}, Body: strings.NewReader(`{"query":{"nope":{}}}`)})
		se := structErr(err)
		return want(se != nil && se.Status == 400 && se.Err.Type == "parsing_exception", "error: %#v", err)
	})
	w.step("unknown URL parameter is illegal_argument_exception", func() error {
		req, _ := http.NewRequest("GET", "/"+index+"/_search?foo=bar", nil)
		resp, err := c.Client.Perform(req)
		if err != nil {
			return err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return want(resp.StatusCode == 400 && strings.Contains(string(b), "contains unrecognized parameter: [foo]"), "answer: %d %s", resp.StatusCode, b)
	})
	// _core/search/scroll.yaml
	w.step("scroll through all documents", func() error {
		r, err := c.Search(ctx, &opensearchapi.SearchReq{Indices: []string{index}, Body: strings.NewReader(`{"size":500,"query":{"term":{"status":404}}}`),
			Params: opensearchapi.SearchParams{Scroll: time.Minute}})
		if err != nil {
			return err
		}
		if r.ScrollID == nil {
			return fmt.Errorf("no _scroll_id")
		}
		id := *r.ScrollID
		total := len(r.Hits.Hits)
		ids := map[string]bool{}
		for _, h := range r.Hits.Hits {
			ids[h.ID] = true
		}
		for {
			s, err := c.Scroll.Get(ctx, opensearchapi.ScrollGetReq{ScrollID: id, Params: opensearchapi.ScrollGetParams{Scroll: time.Minute}})
			if err != nil {
				return err
			}
			if len(s.Hits.Hits) == 0 {
				break
			}
			for _, h := range s.Hits.Hits {
				ids[h.ID] = true
			}
			total += len(s.Hits.Hits)
		}
		d, err := c.Scroll.Delete(ctx, opensearchapi.ScrollDeleteReq{ScrollIDs: []string{id}})
		if err != nil {
			return err
		}
		return want(total == nDocs/5 && len(ids) == total && d.NumFreed == 1 && d.Succeeded, "scrolled %d (%d distinct), freed %d", total, len(ids), d.NumFreed)
	})
	// _core/search/point_in_time.yaml, indices/search/point_in_time.yaml
	w.step("point in time with search_after", func() error {
		p, err := c.PointInTime.Create(ctx, opensearchapi.PointInTimeCreateReq{Indices: []string{index},
			Params: opensearchapi.PointInTimeCreateParams{KeepAlive: time.Minute}})
		if err != nil {
			return err
		}
		// Written after the point in time: not seen through it.
		if _, err := c.Index(ctx, opensearchapi.IndexReq{Index: index, DocumentID: "late", Body: jsonBody(logLine(0)),
			Params: opensearchapi.IndexParams{Refresh: "true"}}); err != nil {
			return err
		}
		body := map[string]any{"size": 1000, "pit": map[string]any{"id": p.PitID, "keep_alive": "1m"},
			"sort": []any{map[string]any{"@timestamp": "asc"}}, "query": map[string]any{"term": map[string]any{"client_ip": "203.0.113.61"}}}
		r, err := c.Search(ctx, &opensearchapi.SearchReq{Body: jsonBody(body)})
		if err != nil {
			return err
		}
		if r.Hits.Total.Value != nDocs/4 {
			return fmt.Errorf("pit search: %d hits", r.Hits.Total.Value)
		}
		l, err := c.PointInTime.Get(ctx, nil)
		if err != nil {
			return err
		}
		d, err := c.PointInTime.Delete(ctx, opensearchapi.PointInTimeDeleteReq{PitID: []string{p.PitID}})
		if err != nil {
			return err
		}
		return want(len(l.Pits) == 1 && len(d.Pits) == 1 && d.Pits[0].Successful, "pits: %+v %+v", l, d)
	})
	// _core/msearch.yaml
	w.step("msearch", func() error {
		body := `{"index":"` + index + `"}
{"query":{"term":{"status":500}},"size":0}
{"index":"` + index + `"}
{"query":{"match":{"message":"198.51.100.23"}},"size":1}
`
		r, err := c.MSearch(ctx, opensearchapi.MSearchReq{Body: strings.NewReader(body)})
		if err != nil {
			return err
		}
		return want(len(r.Responses) == 2 && r.Responses[0].Hits.Total.Value == nDocs/5 && r.Responses[1].Hits.Total.Value == nDocs/4, "msearch: %+v", r.Responses)
	})
	// _core/mget.yaml
	w.step("mget", func() error {
		r, err := c.MGet(ctx, opensearchapi.MGetReq{Index: index, Body: strings.NewReader(`{"ids":["log-1","log-2","missing"]}`)})
		if err != nil {
			return err
		}
		return want(len(r.Docs) == 3 && r.Docs[0].Found && r.Docs[1].Found && !r.Docs[2].Found, "mget: %+v", r.Docs)
	})
	// indices/update_by_query.yaml
	w.step("update by query with a script", func() error {
		r, err := c.UpdateByQuery(ctx, opensearchapi.UpdateByQueryReq{Indices: []string{index},
			Body:   strings.NewReader(`{"query":{"term":{"path":"/login"}},"script":{"source":"ctx._source.path = params.p","params":{"p":"/signin"}}}`),
			Params: opensearchapi.UpdateByQueryParams{Refresh: opensearchapi.ToPointer(true)}})
		if err != nil {
			return err
		}
		n, err := c.Indices.Count(ctx, &opensearchapi.IndicesCountReq{Indices: []string{index}, Body: strings.NewReader(`{"query":{"term":{"path":"/signin"}}}`)})
		if err != nil {
			return err
		}
		return want(r.Updated == nDocs/5 && n.Count == nDocs/5, "update_by_query: %+v, count %d", r, n.Count)
	})
	// indices/delete_by_query.yaml
	w.step("delete by query", func() error {
		r, err := c.Document.DeleteByQuery(ctx, opensearchapi.DocumentDeleteByQueryReq{Indices: []string{index},
			Body: strings.NewReader(`{"query":{"term":{"status":500}}}`)})
		if err != nil {
			return err
		}
		return want(r.Deleted == nDocs/5, "delete_by_query: %+v", r)
	})
	// indices/aliases (alias.yaml)
	w.step("alias and search through it", func() error {
		if _, err := c.Indices.Alias.Put(ctx, opensearchapi.AliasPutReq{Indices: []string{index}, Alias: "logs"}); err != nil {
			return err
		}
		g, err := c.Indices.Alias.Get(ctx, opensearchapi.AliasGetReq{Alias: []string{"logs"}})
		if err != nil {
			return err
		}
		r, err := c.Indices.Count(ctx, &opensearchapi.IndicesCountReq{Indices: []string{"logs"}})
		if err != nil {
			return err
		}
		_, has := g.GetIndices()[index]
		return want(has && r.Count == nDocs-nDocs/5+1, "alias: %+v count %d", g, r.Count)
	})
	// ism/add.yaml, ism/explain.yaml, through the client's ISM plugin.
	w.step("ISM add and explain", func() error {
		req, _ := http.NewRequest("PUT", "/_plugins/_ism/policies/rollover", strings.NewReader(`{"policy":{"description":"A rollover policy.","default_state":"ingest","states":[{"name":"ingest","actions":[{"rollover":{"min_doc_count":5}}],"transitions":[]}]}}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Client.Perform(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		ic, err := ism.NewClient(ism.Config{Client: opensearch.Config{Addresses: []string{srv.URL}, Username: goUser, Password: goPass, Transport: srv.Client().Transport}})
		if err != nil {
			return err
		}
		a, err := ic.Add(ctx, ism.AddReq{Indices: []string{index}, Body: ism.AddBody{PolicyID: "rollover"}})
		if err != nil {
			return err
		}
		e, err := ic.Explain(ctx, &ism.ExplainReq{Indices: []string{index}})
		if err != nil {
			return err
		}
		item := e.Indices[index]
		return want(resp.StatusCode == 201 && a.UpdatedIndices == 1 && !a.Failures && e.TotalManagedIndices == 1 &&
			item.PolicyID == "rollover" && item.Enabled != nil && *item.Enabled, "ism: add %+v explain %+v", a, e)
	})
	w.step("reindex", func() error {
		r, err := c.Reindex(ctx, opensearchapi.ReindexReq{Body: strings.NewReader(`{"source":{"index":"` + index + `","query":{"term":{"status":404}}},"dest":{"index":"errors-404"}}`)})
		if err != nil {
			return err
		}
		return want(r.Created == nDocs/5, "reindex: %+v", r)
	})
	w.step("cat indices", func() error {
		r, err := c.Cat.Indices(ctx, &opensearchapi.CatIndicesReq{})
		if err != nil {
			return err
		}
		return want(len(r.Indices) == 2, "cat: %+v", r.Indices)
	})
	w.step("SQL", func() error {
		req, _ := http.NewRequest("POST", "/_plugins/_sql", strings.NewReader(`{"query":"SELECT status, COUNT(*) AS n FROM `+index+` GROUP BY status"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Client.Perform(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		var out struct {
			Schema   []map[string]any `json:"schema"`
			Datarows [][]any          `json:"datarows"`
			Status   int              `json:"status"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			return err
		}
		return want(resp.StatusCode == 200 && len(out.Datarows) == 2 && out.Status == 200, "sql: %+v", out)
	})
	w.step("index stats", func() error {
		r, err := c.Indices.Stats(ctx, &opensearchapi.IndicesStatsReq{Indices: []string{index}})
		if err != nil {
			return err
		}
		return want(r.All.Primaries.Docs.Count == nDocs-nDocs/5+1, "stats: %+v", r.All.Primaries.Docs)
	})
	w.step("nodes info", func() error {
		r, err := c.Nodes.Info(ctx, nil)
		if err != nil {
			return err
		}
		return want(r.NodesInfo.Total == 1 && len(r.Nodes) == 1, "nodes: %+v", r.NodesInfo)
	})
	w.step("cluster settings", func() error {
		if _, err := c.Cluster.PutSettings(ctx, opensearchapi.ClusterPutSettingsReq{Body: strings.NewReader(`{"persistent":{"cluster.max_shards_per_node":2000}}`)}); err != nil {
			return err
		}
		r, err := c.Cluster.GetSettings(ctx, nil)
		if err != nil {
			return err
		}
		return want(strings.Contains(string(r.Persistent), "2000"), "cluster settings: %s", r.Persistent)
	})
	w.step("legacy template", func() error {
		_, err := c.Template.Create(ctx, opensearchapi.TemplateCreateReq{Template: "old", Body: strings.NewReader(`{"index_patterns":["old-*"],"mappings":{"properties":{"a":{"type":"keyword"}}}}`)})
		if err != nil {
			return err
		}
		g, err := c.Template.Get(ctx, &opensearchapi.TemplateGetReq{Templates: []string{"old"}})
		if err != nil {
			return err
		}
		_, ok := g.Templates["old"]
		return want(ok, "template: %+v", g)
	})
	w.step("get settings", func() error {
		r, err := c.Indices.Settings.Get(ctx, &opensearchapi.SettingsGetReq{Indices: []string{index}})
		if err != nil {
			return err
		}
		raw := string(r.GetIndices()[index].Settings)
		return want(strings.Contains(raw, `"number_of_shards":"1"`) && !strings.Contains(raw, "refresh_interval"), "settings: %s", raw)
	})
	w.step("put mapping", func() error {
		if _, err := c.Indices.Mapping.Put(ctx, opensearchapi.MappingPutReq{Indices: []string{index},
			Body: strings.NewReader(`{"properties":{"user_agent":{"type":"keyword"}}}`)}); err != nil {
			return err
		}
		r, err := c.Indices.Mapping.Get(ctx, &opensearchapi.MappingGetReq{Indices: []string{index}})
		if err != nil {
			return err
		}
		raw := string(r.GetIndices()[index].Mappings)
		return want(strings.Contains(raw, `"user_agent":{"type":"keyword"}`), "mapping: %s", raw)
	})
	w.step("get _source", func() error {
		r, err := c.Document.Source(ctx, opensearchapi.DocumentSourceReq{Index: index, DocumentID: "log-3"})
		if err != nil {
			return err
		}
		return want(strings.Contains(string(r.Source), `"status":404`), "source: %s", r.Source)
	})
	w.step("analyze with the field's analyzer", func() error {
		r, err := c.Indices.Analyze(ctx, opensearchapi.IndicesAnalyzeReq{Index: index,
			Body: opensearchapi.IndicesAnalyzeBody{Field: "message", Text: []string{"203.0.113.61 - GET /favicon.ico"}}})
		if err != nil {
			return err
		}
		var toks []string
		for _, t := range r.Tokens {
			toks = append(toks, t.Token)
		}
		return want(strings.Join(toks, " ") == "203.0.113.61 get favicon.ico", "tokens: %v", toks)
	})
	w.step("field capabilities", func() error {
		r, err := c.Indices.FieldCaps(ctx, opensearchapi.IndicesFieldCapsReq{Indices: []string{index},
			Params: opensearchapi.IndicesFieldCapsParams{Fields: []string{"status", "message"}}})
		if err != nil {
			return err
		}
		return want(r.Fields["status"]["integer"].Aggregatable && r.Fields["message"]["text"].Searchable && !r.Fields["message"]["text"].Aggregatable,
			"field caps: %+v", r.Fields)
	})
	w.step("cat health, count and aliases", func() error {
		h, err := c.Cat.Health(ctx, nil)
		if err != nil {
			return err
		}
		n, err := c.Cat.Count(ctx, &opensearchapi.CatCountReq{Indices: []string{index}})
		if err != nil {
			return err
		}
		a, err := c.Cat.Aliases(ctx, nil)
		if err != nil {
			return err
		}
		return want(len(h.Health) == 1 && h.Health[0].Cluster == "go-contract" && len(n.Counts) == 1 && n.Counts[0].Count == nDocs-nDocs/5+1 &&
			len(a.Aliases) == 1 && a.Aliases[0].Alias == "logs", "cat: %+v %+v %+v", h.Health, n.Counts, a.Aliases)
	})
	w.step("index template get, exists", func() error {
		g, err := c.IndexTemplate.Get(ctx, &opensearchapi.IndexTemplateGetReq{IndexTemplates: "logs"})
		if err != nil {
			return err
		}
		e, err := c.IndexTemplate.Exists(ctx, opensearchapi.IndexTemplateExistsReq{IndexTemplate: "logs"})
		if err != nil {
			return err
		}
		return want(len(g.IndexTemplates) == 1 && g.IndexTemplates[0].Name == "logs" && e.StatusCode == 200, "template: %+v", g)
	})
	w.step("rollover a write alias", func() error {
		if _, err := c.Indices.Create(ctx, opensearchapi.IndicesCreateReq{Index: "app-000001",
			Body: strings.NewReader(`{"aliases":{"app":{"is_write_index":true}}}`)}); err != nil {
			return err
		}
		r, err := c.Indices.Rollover(ctx, opensearchapi.IndicesRolloverReq{Alias: "app", Body: strings.NewReader(`{"conditions":{"max_docs":0}}`)})
		if err != nil {
			return err
		}
		return want(r.RolledOver && r.OldIndex == "app-000001" && r.NewIndex == "app-000002" && r.Conditions["[max_docs: 0]"], "rollover: %+v", r)
	})
	w.step("flush and delete an alias", func() error {
		if _, err := c.Indices.Flush(ctx, &opensearchapi.IndicesFlushReq{Indices: []string{index}}); err != nil {
			return err
		}
		_, err := c.Indices.Alias.Delete(ctx, opensearchapi.AliasDeleteReq{Indices: []string{index}, Alias: []string{"logs"}})
		if err != nil {
			return err
		}
		e, err := c.Indices.Alias.Exists(ctx, opensearchapi.AliasExistsReq{Alias: []string{"logs"}})
		return want(e != nil && e.StatusCode == 404, "alias after delete: %v %v", e, err)
	})
	// indices/close.yaml, indices/open.yaml: a closed index refuses a search with
	// index_closed_exception until it is opened, and keeps its documents.
	w.step("close and open", func() error {
		before, err := c.Indices.Count(ctx, &opensearchapi.IndicesCountReq{Indices: []string{index}})
		if err != nil {
			return err
		}
		cl, err := c.Indices.Close(ctx, opensearchapi.IndicesCloseReq{Index: index})
		if err != nil {
			return err
		}
		_, serr := c.Search(ctx, &opensearchapi.SearchReq{Indices: []string{index}})
		op, err := c.Indices.Open(ctx, opensearchapi.IndicesOpenReq{Index: index})
		if err != nil {
			return err
		}
		after, err := c.Indices.Count(ctx, &opensearchapi.IndicesCountReq{Indices: []string{index}})
		if err != nil {
			return err
		}
		se := structErr(serr)
		return want(cl.Acknowledged && cl.Indices[index].Closed && se != nil && se.Status == 400 && se.Err.Type == "index_closed_exception" &&
			op.Acknowledged && op.ShardsAcknowledged && after.Count == before.Count, "close %+v, search %v, open %+v, count %d then %d", cl, serr, op, before.Count, after.Count)
	})
	// indices/data_stream/data_stream.yaml, stats.yaml: a template with data_stream, the stream,
	// a create into it, its backing index, stats and search through it, then its deletion.
	w.step("data stream", func() error {
		if _, err := c.IndexTemplate.Create(ctx, opensearchapi.IndexTemplateCreateReq{IndexTemplate: "ds",
			Body: strings.NewReader(`{"index_patterns":["ds-logs*"],"data_stream":{},"priority":10}`)}); err != nil {
			return err
		}
		if _, err := c.DataStream.Create(ctx, opensearchapi.DataStreamCreateReq{DataStream: "ds-logs"}); err != nil {
			return err
		}
		ix, err := c.Index(ctx, opensearchapi.IndexReq{Index: "ds-logs", Body: jsonBody(logLine(1)),
			Params: opensearchapi.IndexParams{OpType: "create", Refresh: "true"}})
		if err != nil {
			return err
		}
		g, err := c.DataStream.Get(ctx, &opensearchapi.DataStreamGetReq{DataStreams: []string{"ds-logs"}})
		if err != nil {
			return err
		}
		st, err := c.DataStream.Stats(ctx, &opensearchapi.DataStreamStatsReq{DataStreams: []string{"ds-logs"}})
		if err != nil {
			return err
		}
		n, err := c.Indices.Count(ctx, &opensearchapi.IndicesCountReq{Indices: []string{"ds-logs"}})
		if err != nil {
			return err
		}
		if _, err := c.DataStream.Delete(ctx, opensearchapi.DataStreamDeleteReq{DataStream: "ds-logs"}); err != nil {
			return err
		}
		if _, err := c.IndexTemplate.Delete(ctx, opensearchapi.IndexTemplateDeleteReq{IndexTemplate: "ds"}); err != nil {
			return err
		}
		return want(ix.Index == ".ds-ds-logs-000001" && len(g.DataStreams) == 1 && g.DataStreams[0].TimestampField.Name == "@timestamp" &&
			g.DataStreams[0].Indices[0].Name == ix.Index && st.BackingIndices == 1 && st.DataStreams[0].MaximumTimestamp > 0 && n.Count == 1,
			"index %+v, get %+v, stats %+v, count %d", ix, g, st, n.Count)
	})
	w.step("delete index", func() error {
		r, err := c.Indices.Delete(ctx, opensearchapi.IndicesDeleteReq{Indices: []string{"errors-404"}})
		if err != nil {
			return err
		}
		return want(r.Acknowledged, "delete: %+v", r)
	})
	w.step("wrong password is the security plugin's 401", func() error {
		bad := newGoClient(t, srv, goUser, "wrong", false)
		_, err := bad.Cluster.Health(ctx, nil)
		// The body is the text "Unauthorized", so the client cannot decode it as JSON and raises
		// ErrJSONUnmarshalBody with the status, as against OpenSearch with the security plugin.
		return want(err != nil && errors.Is(err, opensearch.ErrJSONUnmarshalBody) && strings.Contains(err.Error(), "401"), "error: %#v", err)
	})

	t.Logf("opensearch-go workflow: %d of %d operations answered as OpenSearch 2.x does", w.passed, w.tried)
	if len(w.failed) > 0 {
		t.Logf("failed: %s", strings.Join(w.failed, "; "))
	}
}
