package opensearch

import (
	"net/http"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// statsMetrics are the index stats this emulation knows; the others of IndicesStatsResponse
// (merges, segments, fielddata, ...) have nothing to report here and are left out.
var statsMetrics = []string{"docs", "store", "indexing", "search"}

func (ix *index) statsSection(metrics []string) obj {
	o := obj{}
	for _, m := range metrics {
		switch m {
		case "docs":
			o = append(o, kv{"docs", obj{{"count", ix.liveCount()}, {"deleted", ix.ndeleted}}})
		case "store":
			o = append(o, kv{"store", obj{{"size_in_bytes", ix.storeSize()}, {"reserved_in_bytes", 0}}})
		case "indexing":
			o = append(o, kv{"indexing", obj{{"index_total", ix.indexTotal}, {"index_time_in_millis", 0}, {"index_current", 0},
				{"index_failed", 0}, {"delete_total", ix.deleteTotal}, {"delete_time_in_millis", 0}, {"delete_current", 0},
				{"noop_update_total", 0}, {"is_throttled", false}, {"throttle_time_in_millis", 0}}})
		case "search":
			o = append(o, kv{"search", obj{{"open_contexts", 0}, {"query_total", ix.queryTotal.Load()}, {"query_time_in_millis", 0},
				{"query_current", 0}, {"fetch_total", ix.queryTotal.Load()}, {"fetch_time_in_millis", 0}, {"fetch_current", 0},
				{"scroll_total", 0}, {"scroll_time_in_millis", 0}, {"scroll_current", 0}}})
		}
	}
	return o
}

// sumSections adds up per-index stats sections (numbers only).
func sumSections(parts []obj) obj {
	if len(parts) == 0 {
		return obj{}
	}
	out := make(obj, len(parts[0]))
	for i, m := range parts[0] {
		sub := make(obj, len(m.v.(obj)))
		for j, f := range m.v.(obj) {
			var total any = f.v
			switch f.v.(type) {
			case int, int64:
				var n int64
				for _, p := range parts {
					switch x := p[i].v.(obj)[j].v.(type) {
					case int:
						n += int64(x)
					case int64:
						n += x
					}
				}
				total = n
			}
			sub[j] = kv{f.k, total}
		}
		out[i] = kv{m.k, sub}
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
				c.fail(w, r, badRequest("request [%s] contains unrecognized metric: [%s]", r.URL.Path, m))
				return
			}
			metrics = append(metrics, m)
		}
	}
	level := r.URL.Query().Get("level")
	c.mu.RLock()
	defer c.mu.RUnlock()
	targets, err := c.resolve(expr, r.URL.Query().Get("ignore_unavailable") == "true")
	if err != nil {
		c.fail(w, r, err)
		return
	}
	var prim, tot []obj
	per := obj{}
	shards, ok := 0, 0
	for _, ix := range targets {
		p := ix.statsSection(metrics)
		reps := c.assignedReplicas(ix)
		copies := make([]obj, 1+reps)
		for i := range copies {
			copies[i] = p
		}
		t := sumSections(copies)
		prim, tot = append(prim, p), append(tot, t)
		shards += ix.shards * (1 + ix.replicas)
		ok += ix.shards * (1 + reps)
		if level != "cluster" {
			per = append(per, kv{ix.name, obj{{"uuid", ix.uuid}, {"primaries", p}, {"total", t}}})
		}
	}
	out := obj{{"_shards", obj{{"total", shards}, {"successful", ok}, {"failed", 0}}},
		{"_all", obj{{"primaries", sumSections(prim)}, {"total", sumSections(tot)}}}}
	if level != "cluster" {
		out = append(out, kv{"indices", per})
	}
	c.reply(w, r, 200, out)
}

// handleNodesInfo answers GET /_nodes (NodesInfoResponse) for the emulation's nodes.
func (c *Cluster) handleNodesInfo(w http.ResponseWriter, r *http.Request) {
	nodes := obj{}
	for i := 0; i < c.nodes; i++ {
		id := nodeID
		if i > 0 {
			id = "sandbox-node-" + itoa(i+1)
		}
		addr := "127.0.0.1:" + itoa(9300+i)
		nodes = append(nodes, kv{id, obj{{"name", id}, {"transport_address", addr}, {"host", "127.0.0.1"}, {"ip", "127.0.0.1"},
			{"version", engineVersion}, {"build_type", "tar"}, {"build_hash", "sandbox"},
			{"total_indexing_buffer", 53687091}, {"roles", []string{"cluster_manager", "data", "ingest", "remote_cluster_client"}},
			{"attributes", obj{{"shard_indexing_pressure_enabled", "true"}}},
			{"http", obj{{"bound_address", []string{"127.0.0.1:9200"}}, {"publish_address", "127.0.0.1:9200"}, {"max_content_length_in_bytes", maxBodyBytes}}},
			{"plugins", []obj{{{"name", "opensearch-security"}, {"version", engineVersion + ".0"}}, {{"name", "opensearch-sql"}, {"version", engineVersion + ".0"}},
				{{"name", "opensearch-index-management"}, {"version", engineVersion + ".0"}}}},
		}})
	}
	c.reply(w, r, 200, obj{{"_nodes", obj{{"total", c.nodes}, {"successful", c.nodes}, {"failed", 0}}},
		{"cluster_name", c.name}, {"nodes", nodes}})
}

// dynamicClusterPrefixes are the cluster settings namespaces that may be updated at run time.
var dynamicClusterPrefixes = []string{"cluster.", "indices.", "search.", "action.", "logger.", "plugins.", "opendistro.", "script.", "ingest.", "snapshot.", "persistent_task."}

// handleGetClusterSettings answers GET /_cluster/settings.
func (c *Cluster) handleGetClusterSettings(w http.ResponseWriter, r *http.Request) {
	c.mu.RLock()
	out := obj{{"persistent", renderClusterSettings(c.persistent, r)}, {"transient", renderClusterSettings(c.transient, r)}}
	c.mu.RUnlock()
	if r.URL.Query().Get("include_defaults") == "true" {
		out = append(out, kv{"defaults", renderClusterSettings(map[string]string{
			"cluster.name": c.name, "search.max_buckets": itoa(maxBuckets), "action.auto_create_index": "true",
			"search.max_open_scroll_context": itoa(maxOpenContexts), "http.max_content_length": "100mb",
		}, r)})
	}
	c.reply(w, r, 200, out)
}

func renderClusterSettings(m map[string]string, r *http.Request) obj {
	if r.URL.Query().Get("flat_settings") == "true" {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := obj{}
		for _, k := range keys {
			o = append(o, kv{k, m[k]})
		}
		return o
	}
	n := nestSettings(m)
	if len(n) == 1 && n[0].k == "index" {
		return n[0].v.(obj) // nestSettings roots under "index"; cluster settings have no root
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
	m, _ := asMap(v)
	type change struct {
		set   map[string]string
		reset []string
	}
	changes := map[string]*change{"persistent": {set: map[string]string{}}, "transient": {set: map[string]string{}}}
	for k, x := range m {
		ch, ok := changes[k]
		if !ok {
			c.fail(w, r, withLocation(parsingErr("[cluster_update_settings_request] unknown field [%s]", k), body))
			return
		}
		var walk func(prefix string, v any) *apiError
		walk = func(prefix string, v any) *apiError {
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
				return badRequest("%s setting [%s], not recognized", k, key)
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
	c.reply(w, r, 200, obj{{"acknowledged", true}, {"persistent", renderClusterSettings(changes["persistent"].set, r)},
		{"transient", renderClusterSettings(changes["transient"].set, r)}})
}
