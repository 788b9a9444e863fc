package opensearch

import (
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

func (c *Cluster) handleInfo(w http.ResponseWriter, r *http.Request, _ []byte) {
	c.reply(w, r, 200, jsonout.Obj{
		{"name", nodeID},
		{"cluster_name", c.name},
		{"cluster_uuid", c.uuid},
		{"version", jsonout.Obj{
			{"distribution", "opensearch"},
			{"number", engineVersion},
			{"build_type", "tar"},
			{"build_hash", "9b1e3f0fd6d4e0c2a0a3b4c1f0e6f8b5d2c7a9e1"},
			{"build_date", "2024-10-01T12:00:00.000000Z"},
			{"build_snapshot", false},
			{"lucene_version", luceneVersion},
			{"minimum_wire_compatibility_version", "7.10.0"},
			{"minimum_index_compatibility_version", "7.0.0"},
		}},
		{"tagline", "The OpenSearch Project: https://opensearch.org/"},
	})
}

func (c *Cluster) handleCreateIndex(w http.ResponseWriter, r *http.Request, name string, body []byte) {
	v, err := parseBody(body, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	c.mu.Lock()
	_, err = c.createIndex(name, m)
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}, {"shards_acknowledged", true}, {"index", name}})
}

// replyPerIndex answers a GET on an index expression with one entry per matching index,
// rendered under the read lock.
func (c *Cluster) replyPerIndex(w http.ResponseWriter, r *http.Request, expr string, render func(*index.Index) jsonout.Obj) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	list, err := c.resolve(expr, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	o := jsonout.Obj{}
	for _, ix := range list {
		o = append(o, jsonout.KV{ix.Name, render(ix)})
	}
	c.reply(w, r, 200, o)
}

func (c *Cluster) handleGetIndex(w http.ResponseWriter, r *http.Request, expr string) {
	c.replyPerIndex(w, r, expr, func(ix *index.Index) jsonout.Obj {
		return jsonout.Obj{{"aliases", renderAliases(ix)}, {"mappings", c.renderMapping(ix)}, {"settings", settingsView(ix)}}
	})
}

func (c *Cluster) handleHeadIndex(w http.ResponseWriter, r *http.Request, expr string) {
	c.mu.RLock()
	list, err := c.resolve(expr, false)
	c.mu.RUnlock()
	status := 200
	if err != nil || len(list) == 0 {
		status = 404
	}
	w.WriteHeader(status)
}

func (c *Cluster) handleDeleteIndex(w http.ResponseWriter, r *http.Request, expr string) {
	c.mu.Lock()
	for _, part := range splitNames(expr) {
		if _, isIndex := c.indices[part]; !isIndex && c.isAlias(part) {
			c.mu.Unlock()
			c.fail(w, r, apierr.BadRequest("The provided expression [%s] matches an alias, specify the corresponding concrete indices instead.", part))
			return
		}
	}
	// Wildcards reach closed indices too; a data stream is deleted through _data_stream, and its
	// write index only with it (MetadataDeleteIndexService).
	list, err := c.resolveReq(r, expr, resolveOpts{wildcards: expandOpenClosed, noStreams: true})
	for _, ix := range list {
		if ds := c.streamOfWriteIndex(ix); ds != nil && err == nil {
			err = apierr.BadRequest("index [%s] is the write index for data stream [%s] and cannot be deleted", ix.Name, ds.name)
		}
	}
	if err == nil {
		for _, ix := range list {
			delete(c.indices, ix.Name)
			delete(c.closed, ix)
			if ds := c.streamOf(ix); ds != nil {
				ds.indices = slices.DeleteFunc(ds.indices, func(b *index.Index) bool { return b == ix })
			}
		}
	}
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}

func (c *Cluster) handleGetMapping(w http.ResponseWriter, r *http.Request, expr string) {
	c.replyPerIndex(w, r, expr, func(ix *index.Index) jsonout.Obj {
		return jsonout.Obj{{"mappings", c.renderMapping(ix)}}
	})
}

func (c *Cluster) handlePutMapping(w http.ResponseWriter, r *http.Request, expr string, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, err := index.ParseMappings(v)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	list, err := c.resolve(expr, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	// Check every index first so a conflict changes nothing.
	for _, ix := range list {
		probe := ix.Mapping.Clone()
		if err := probe.Merge(m.Clone()); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	for _, ix := range list {
		_ = ix.Mapping.Merge(m.Clone())
		ix.Fields = ix.Mapping.Flatten()
		ix.Rebuild()
		ix.Gen++
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}

func (c *Cluster) handleGetSettings(w http.ResponseWriter, r *http.Request, expr string) {
	c.replyPerIndex(w, r, expr, func(ix *index.Index) jsonout.Obj {
		return jsonout.Obj{{"settings", settingsView(ix)}}
	})
}

func (c *Cluster) handleRefresh(w http.ResponseWriter, r *http.Request, expr string) {
	c.mu.RLock()
	list, err := c.resolveReq(r, expr, searchOpts) // BroadcastRequest's strictExpandOpenAndForbidClosed
	c.mu.RUnlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	total := 0
	ok := 0
	for _, ix := range list {
		total += ix.Shards * (1 + ix.Replicas)
		ok += ix.Shards * (1 + c.assignedReplicas(ix))
	}
	c.reply(w, r, 200, jsonout.Obj{{"_shards", jsonout.Obj{{"total", total}, {"successful", ok}, {"failed", 0}}}})
}

func (c *Cluster) assignedReplicas(ix *index.Index) int {
	if ix.Replicas < c.nodes-1 {
		return ix.Replicas
	}
	return c.nodes - 1
}

func (c *Cluster) indexHealth(ix *index.Index) string {
	if ix.Replicas > c.nodes-1 {
		return "yellow"
	}
	return "green"
}

func (c *Cluster) handleHealth(w http.ResponseWriter, r *http.Request, expr string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	list := c.sortedIndices()
	if expr != "" {
		var err *apierr.Error
		if list, err = c.resolveReq(r, expr, resolveOpts{wildcards: expandAll}); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	status := "green"
	primaries, active, unassigned := 0, 0, 0
	for _, ix := range list {
		primaries += ix.Shards
		active += ix.Shards * (1 + c.assignedReplicas(ix))
		unassigned += ix.Shards * (ix.Replicas - c.assignedReplicas(ix))
		if c.indexHealth(ix) == "yellow" {
			status = "yellow"
		}
	}
	pct := 100.0
	if active+unassigned > 0 {
		pct = float64(active) * 100 / float64(active+unassigned)
	}
	out := jsonout.Obj{
		{"cluster_name", c.name},
		{"status", status},
		{"timed_out", false},
		{"number_of_nodes", c.nodes},
		{"number_of_data_nodes", c.nodes},
		{"discovered_master", true},
		{"discovered_cluster_manager", true},
		{"active_primary_shards", primaries},
		{"active_shards", active},
		{"relocating_shards", 0},
		{"initializing_shards", 0},
		{"unassigned_shards", unassigned},
		{"delayed_unassigned_shards", 0},
		{"number_of_pending_tasks", 0},
		{"number_of_in_flight_fetch", 0},
		{"task_max_waiting_in_queue_millis", 0},
		{"active_shards_percent_as_number", jsonout.JavaNumber(pct)},
	}
	// level=indices adds each index's health, level=shards each index's shards too
	// (ClusterHealthResponse.toXContent).
	switch level := r.URL.Query().Get("level"); level {
	case "", "cluster":
	case "indices", "shards":
		per := jsonout.Obj{}
		for _, ix := range list {
			reps := c.assignedReplicas(ix)
			st := c.indexHealth(ix)
			io := jsonout.Obj{{"status", st}, {"number_of_shards", ix.Shards}, {"number_of_replicas", ix.Replicas},
				{"active_primary_shards", ix.Shards}, {"active_shards", ix.Shards * (1 + reps)},
				{"relocating_shards", 0}, {"initializing_shards", 0},
				{"unassigned_shards", ix.Shards * (ix.Replicas - reps)}}
			if level == "shards" {
				sh := jsonout.Obj{}
				for n := 0; n < ix.Shards; n++ {
					sh = append(sh, jsonout.KV{itoa(n), jsonout.Obj{{"status", st}, {"primary_active", true}, {"active_shards", 1 + reps},
						{"relocating_shards", 0}, {"initializing_shards", 0}, {"unassigned_shards", ix.Replicas - reps}}})
				}
				io = append(io, jsonout.KV{"shards", sh})
			}
			per = append(per, jsonout.KV{ix.Name, io})
		}
		out = append(out, jsonout.KV{"indices", per})
	default:
		c.fail(w, r, apierr.BadRequest("No enum constant org.opensearch.cluster.health.ClusterHealthRequest.Level.%s", strings.ToUpper(level)))
		return
	}
	c.reply(w, r, 200, out)
}

// humanBytes renders sizes like the _cat API ("208b", "12.3kb", "1.1mb").
func humanBytes(n int64) string {
	units := []string{"b", "kb", "mb", "gb", "tb"}
	f := float64(n)
	u := 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	if u == 0 {
		return itoa64(n) + "b"
	}
	s := strings.TrimSuffix(strings.TrimRight(strconvFloat(f, 1), "0"), ".")
	return s + units[u]
}

// staticSettings cannot change on an open index (IndexScopedSettings: not Property.Dynamic).
var staticSettings = []string{"number_of_shards", "codec", "routing_partition_size", "number_of_routing_shards",
	"uuid", "creation_date", "provided_name", "version.created", "analysis", "sort", "knn"}

// handlePutSettings updates dynamic index settings (refresh_interval, number_of_replicas, ...);
// a null value resets a setting to its default, as RestUpdateSettingsAction does.
func (c *Cluster) handlePutSettings(w http.ResponseWriter, r *http.Request, expr string, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	if inner, ok := m["settings"].(map[string]any); ok && len(m) == 1 {
		m = inner
	}
	nulls := map[string]bool{}
	var walkNulls func(prefix string, v any)
	walkNulls = func(prefix string, v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				walkNulls(prefix+k+".", x)
			}
		case nil:
			nulls[strings.TrimPrefix(strings.TrimSuffix(prefix, "."), "index.")] = true
		}
	}
	walkNulls("", m)
	flat, err := flattenSettings(m)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if len(flat) == 0 && len(nulls) == 0 {
		c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: no settings to update;"))
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if expr == "" {
		expr = "_all"
	}
	list, err := c.resolve(expr, r.URL.Query().Get("ignore_unavailable") == "true")
	if err != nil {
		c.fail(w, r, err)
		return
	}
	var static []string
	for k := range flat {
		for _, s := range staticSettings {
			if k == s || strings.HasPrefix(k, s+".") {
				static = append(static, "index."+k)
			}
		}
	}
	sort.Strings(static)
	var open []string
	for _, ix := range list {
		if !c.closed[ix] {
			open = append(open, "["+ix.Name+"/"+ix.UUID+"]")
		}
	}
	if len(static) > 0 && len(open) > 0 {
		c.fail(w, r, apierr.BadRequest("Can't update non dynamic settings [[%s]] for open indices [%s]", strings.Join(static, ", "), strings.Join(open, ", ")))
		return
	}
	// On closed indices the static settings change (analysis, codec), save those fixed at creation
	// (Property.Final) and those the engine manages (Property.PrivateIndex).
	for _, k := range static {
		switch k = strings.TrimPrefix(k, "index."); {
		case k == "uuid" || k == "creation_date" || k == "provided_name" || k == "version.created":
			c.fail(w, r, apierr.BadRequest("can not update private setting [index.%s]; this setting is managed by OpenSearch", k))
			return
		case k != "codec" && k != "analysis" && !strings.HasPrefix(k, "analysis."):
			c.fail(w, r, apierr.BadRequest("final index setting [index.%s], not updateable", k))
			return
		}
	}
	preserve := r.URL.Query().Get("preserve_existing") == "true"
	// What each index gets: with preserve_existing, only the settings it does not have yet.
	updates := make([]map[string]any, len(list))
	for i, ix := range list {
		u := map[string]any{}
		for k, v := range flat {
			if _, has := ix.Settings[k]; !(preserve && has) {
				u[k] = v
			}
		}
		probe := index.Index{Settings: map[string]any{}, Shards: ix.Shards, Replicas: ix.Replicas}
		if err := applySettings(&probe, u); err != nil {
			c.fail(w, r, err)
			return
		}
		updates[i] = u
	}
	for i, ix := range list {
		_ = applySettings(ix, updates[i])
		for k := range nulls {
			switch k {
			case "number_of_replicas":
				ix.Replicas = 1
			default:
				delete(ix.Settings, k)
			}
		}
	}
	c.reply(w, r, 200, jsonout.Obj{{"acknowledged", true}})
}
