package opensearch

import (
	"net/http"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/aggs"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// statsMetrics are the index stats this emulation knows; the others of IndicesStatsResponse
// (merges, segments, fielddata, ...) have nothing to report here and are left out.
var statsMetrics = []string{"docs", "store", "indexing", "search"}

func statsSection(ix *index.Index, metrics []string) jsonout.Obj {
	o := jsonout.Obj{}
	for _, m := range metrics {
		switch m {
		case "docs":
			o = append(o, jsonout.KV{"docs", jsonout.Obj{{"count", ix.LiveCount()}, {"deleted", ix.Deleted}}})
		case "store":
			o = append(o, jsonout.KV{"store", jsonout.Obj{{"size_in_bytes", ix.StoreSize()}, {"reserved_in_bytes", 0}}})
		case "indexing":
			o = append(o, jsonout.KV{"indexing", jsonout.Obj{{"index_total", ix.IndexTotal}, {"index_time_in_millis", 0}, {"index_current", 0},
				{"index_failed", 0}, {"delete_total", ix.DeleteTotal}, {"delete_time_in_millis", 0}, {"delete_current", 0},
				{"noop_update_total", 0}, {"is_throttled", false}, {"throttle_time_in_millis", 0}}})
		case "search":
			o = append(o, jsonout.KV{"search", jsonout.Obj{{"open_contexts", 0}, {"query_total", ix.QueryTotal.Load()}, {"query_time_in_millis", 0},
				{"query_current", 0}, {"fetch_total", ix.QueryTotal.Load()}, {"fetch_time_in_millis", 0}, {"fetch_current", 0},
				{"scroll_total", 0}, {"scroll_time_in_millis", 0}, {"scroll_current", 0}}})
		}
	}
	return o
}

// sumSections adds up per-index stats sections (numbers only).
func sumSections(parts []jsonout.Obj) jsonout.Obj {
	if len(parts) == 0 {
		return jsonout.Obj{}
	}
	out := make(jsonout.Obj, len(parts[0]))
	for i, m := range parts[0] {
		sub := make(jsonout.Obj, len(m.V.(jsonout.Obj)))
		for j, f := range m.V.(jsonout.Obj) {
			var total any = f.V
			switch f.V.(type) {
			case int, int64:
				var n int64
				for _, p := range parts {
					switch x := p[i].V.(jsonout.Obj)[j].V.(type) {
					case int:
						n += int64(x)
					case int64:
						n += x
					}
				}
				total = n
			}
			sub[j] = jsonout.KV{f.K, total}
		}
		out[i] = jsonout.KV{m.K, sub}
	}
	return out
}

// handleStats answers GET /_stats[/{metric}] and /{index}/_stats[/{metric}]
// (IndicesStatsResponse: _shards, _all, indices).
func (c *Cluster) handleStats(w http.ResponseWriter, r *http.Request, expr, metric string) {
	metrics := statsMetrics
	if metric != "" && metric != "_all" {
		metrics = nil
		for _, m := range strings.Split(metric, ",") {
			known := false
			for _, k := range statsMetrics {
				known = known || k == m
			}
			if !known {
				c.fail(w, r, apierr.BadRequest("request [%s] contains unrecognized metric: [%s]", r.URL.Path, m))
				return
			}
			metrics = append(metrics, m)
		}
	}
	level := r.URL.Query().Get("level")
	c.mu.RLock()
	defer c.mu.RUnlock()
	targets, err := c.resolveReq(r, expr, searchOpts)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	var prim, tot []jsonout.Obj
	per := jsonout.Obj{}
	shards, ok := 0, 0
	for _, ix := range targets {
		p := statsSection(ix, metrics)
		reps := c.assignedReplicas(ix)
		copies := make([]jsonout.Obj, 1+reps)
		for i := range copies {
			copies[i] = p
		}
		t := sumSections(copies)
		prim, tot = append(prim, p), append(tot, t)
		shards += ix.Shards * (1 + ix.Replicas)
		ok += ix.Shards * (1 + reps)
		if level != "cluster" {
			per = append(per, jsonout.KV{ix.Name, jsonout.Obj{{"uuid", ix.UUID}, {"primaries", p}, {"total", t}}})
		}
	}
	out := jsonout.Obj{{"_shards", jsonout.Obj{{"total", shards}, {"successful", ok}, {"failed", 0}}},
		{"_all", jsonout.Obj{{"primaries", sumSections(prim)}, {"total", sumSections(tot)}}}}
	if level != "cluster" {
		out = append(out, jsonout.KV{"indices", per})
	}
	c.reply(w, r, 200, out)
}

// handleNodesInfo answers GET /_nodes (NodesInfoResponse) for the emulation's nodes.
func (c *Cluster) handleNodesInfo(w http.ResponseWriter, r *http.Request) {
	nodes := jsonout.Obj{}
	for i := 0; i < c.nodes; i++ {
		id := nodeID
		if i > 0 {
			id = "sandbox-node-" + itoa(i+1)
		}
		addr := "127.0.0.1:" + itoa(9300+i)
		nodes = append(nodes, jsonout.KV{id, jsonout.Obj{{"name", id}, {"transport_address", addr}, {"host", "127.0.0.1"}, {"ip", "127.0.0.1"},
			{"version", engineVersion}, {"build_type", "tar"}, {"build_hash", "sandbox"},
			{"total_indexing_buffer", 53687091}, {"roles", []string{"cluster_manager", "data", "ingest", "remote_cluster_client"}},
			{"attributes", jsonout.Obj{{"shard_indexing_pressure_enabled", "true"}}},
			{"http", jsonout.Obj{{"bound_address", []string{"127.0.0.1:9200"}}, {"publish_address", "127.0.0.1:9200"}, {"max_content_length_in_bytes", c.maxBody}}},
			{"plugins", []jsonout.Obj{{{"name", "opensearch-security"}, {"version", engineVersion + ".0"}}, {{"name", "opensearch-sql"}, {"version", engineVersion + ".0"}},
				{{"name", "opensearch-index-management"}, {"version", engineVersion + ".0"}}}},
		}})
	}
	c.reply(w, r, 200, jsonout.Obj{{"_nodes", jsonout.Obj{{"total", c.nodes}, {"successful", c.nodes}, {"failed", 0}}},
		{"cluster_name", c.name}, {"nodes", nodes}})
}

// dynamicClusterPrefixes are the cluster settings namespaces that may be updated at run time.
var dynamicClusterPrefixes = []string{"cluster.", "indices.", "search.", "action.", "logger.", "plugins.", "opendistro.", "script.", "ingest.", "snapshot.", "persistent_task."}

// handleGetClusterSettings answers GET /_cluster/settings.
func (c *Cluster) handleGetClusterSettings(w http.ResponseWriter, r *http.Request) {
	c.mu.RLock()
	out := jsonout.Obj{{"persistent", renderClusterSettings(c.persistent, r)}, {"transient", renderClusterSettings(c.transient, r)}}
	c.mu.RUnlock()
	if r.URL.Query().Get("include_defaults") == "true" {
		out = append(out, jsonout.KV{"defaults", renderClusterSettings(map[string]string{
			"cluster.name": c.name, "search.max_buckets": itoa(aggs.MaxBuckets), "action.auto_create_index": "true",
			"search.max_open_scroll_context": itoa(maxOpenContexts), "http.max_content_length": "100mb",
		}, r)})
	}
	c.reply(w, r, 200, out)
}

func renderClusterSettings(m map[string]string, r *http.Request) jsonout.Obj {
	if r.URL.Query().Get("flat_settings") == "true" {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := jsonout.Obj{}
		for _, k := range keys {
			o = append(o, jsonout.KV{k, m[k]})
		}
		return o
	}
	n := nestSettings(m)
	if len(n) == 1 && n[0].K == "index" {
		return n[0].V.(jsonout.Obj) // nestSettings roots under "index"; cluster settings have no root
	}
	return n
}

// handlePutClusterSettings answers PUT /_cluster/settings: {"persistent":{..},"transient":{..}},
// a null resetting a setting; ClusterUpdateSettingsResponse echoes what changed.
func (c *Cluster) handlePutClusterSettings(w http.ResponseWriter, r *http.Request, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	type change struct {
		set   map[string]string
		reset []string
	}
	changes := map[string]*change{"persistent": {set: map[string]string{}}, "transient": {set: map[string]string{}}}
	for k, x := range m {
		ch, ok := changes[k]
		if !ok {
			c.fail(w, r, apierr.WithLocation(apierr.Parsing("[cluster_update_settings_request] unknown field [%s]", k), body))
			return
		}
		var walk func(prefix string, v any) *apierr.Error
		walk = func(prefix string, v any) *apierr.Error {
			switch t := v.(type) {
			case map[string]any:
				for kk, vv := range t {
					if err := walk(prefix+kk+".", vv); err != nil {
						return err
					}
				}
				return nil
			}
			key := strings.TrimSuffix(prefix, ".")
			known := false
			for _, p := range dynamicClusterPrefixes {
				known = known || strings.HasPrefix(key, p)
			}
			if !known {
				return apierr.BadRequest("%s setting [%s], not recognized", k, key)
			}
			if v == nil {
				ch.reset = append(ch.reset, key)
				return nil
			}
			s, _ := jsonval.String(v)
			if l, isList := v.([]any); isList {
				parts := make([]string, len(l))
				for i, e := range l {
					parts[i], _ = jsonval.String(e)
				}
				s = strings.Join(parts, ",")
			}
			ch.set[key] = s
			return nil
		}
		if err := walk("", x); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	c.mu.Lock()
	for name, target := range map[string]map[string]string{"persistent": c.persistent, "transient": c.transient} {
		ch := changes[name]
		for k, s := range ch.set {
			target[k] = s
		}
		for _, k := range ch.reset {
			for tk := range target {
				if tk == k || strings.HasPrefix(tk, k+".") || strings.HasSuffix(k, "*") && strings.HasPrefix(tk, strings.TrimSuffix(k, "*")) {
					delete(target, tk)
				}
			}
		}
	}
	c.mu.Unlock()
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}, {"persistent", renderClusterSettings(changes["persistent"].set, r)},
		{"transient", renderClusterSettings(changes["transient"].set, r)}})
}
