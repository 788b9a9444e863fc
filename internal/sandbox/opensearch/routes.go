package opensearch

import (
	"net/http"
	"sort"
	"strings"
)

// pathArgs are the variable segments of a matched route.
type pathArgs struct {
	index string // {index}: an index expression (names, patterns, aliases)
	id    string // {id}: a document id, template, policy, role or scroll id
	name  string // {name}: an alias name, or a sub-path such as the health index
}

type routeFunc func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, body []byte)

// route is one REST endpoint: a path pattern, the methods it answers, and the URL parameters
// it accepts besides the common ones (the engine refuses any other parameter with a 400).
type route struct {
	pattern string // "/{index}/_doc/{id}"; "{index}" does not match a segment starting with "_" other than "_all"
	methods string // "GET,POST"
	params  []string
	h       routeFunc
	segs    []string
}

// commonParams are accepted by every endpoint (RestRequest's response params).
var commonParams = []string{"pretty", "human", "error_trace", "filter_path", "source", "source_content_type"}

var (
	pSearch = []string{"allow_no_indices", "allow_partial_search_results", "analyze_wildcard", "analyzer",
		"batched_reduce_size", "ccs_minimize_roundtrips", "default_operator", "df", "docvalue_fields",
		"expand_wildcards", "explain", "from", "ignore_throttled", "ignore_unavailable", "lenient",
		"max_concurrent_shard_requests", "pre_filter_shard_size", "preference", "q", "request_cache",
		"rest_total_hits_as_int", "routing", "scroll", "search_type", "seq_no_primary_term", "size", "sort",
		"_source", "_source_excludes", "_source_includes", "stats", "stored_fields", "suggest_field",
		"suggest_mode", "suggest_size", "suggest_text", "terminate_after", "timeout", "track_scores",
		"track_total_hits", "typed_keys", "version", "include_named_queries_score", "phase_took",
		"search_pipeline", "cancel_after_time_interval"}
	pCount = []string{"allow_no_indices", "analyze_wildcard", "analyzer", "default_operator", "df",
		"expand_wildcards", "ignore_throttled", "ignore_unavailable", "lenient", "min_score", "preference",
		"q", "routing", "terminate_after"}
	pIndexDoc = []string{"if_primary_term", "if_seq_no", "op_type", "pipeline", "refresh", "require_alias",
		"routing", "timeout", "version", "version_type", "wait_for_active_shards"}
	pGetDoc = []string{"_source", "_source_excludes", "_source_includes", "preference", "realtime",
		"refresh", "routing", "stored_fields", "version", "version_type"}
	pDeleteDoc = []string{"if_primary_term", "if_seq_no", "refresh", "routing", "timeout", "version",
		"version_type", "wait_for_active_shards"}
	pUpdate = []string{"_source", "_source_excludes", "_source_includes", "if_primary_term", "if_seq_no",
		"lang", "refresh", "require_alias", "retry_on_conflict", "routing", "timeout", "wait_for_active_shards"}
	pBulk = []string{"_source", "_source_excludes", "_source_includes", "pipeline", "refresh", "require_alias",
		"routing", "timeout", "type", "wait_for_active_shards", "batch_size"}
	pMaster  = []string{"cluster_manager_timeout", "master_timeout", "timeout"}
	pIndices = []string{"allow_no_indices", "expand_wildcards", "ignore_unavailable", "flat_settings",
		"include_defaults", "local", "cluster_manager_timeout", "master_timeout", "timeout", "preserve_existing",
		"wait_for_active_shards", "write_index_only", "include_type_name"}
	pCat = []string{"format", "h", "help", "s", "v", "bytes", "local", "cluster_manager_timeout",
		"master_timeout", "expand_wildcards", "health", "include_unloaded_segments", "pri", "time", "ts"}
	pHealth = []string{"awareness_attribute", "cluster_manager_timeout", "expand_wildcards", "level", "local",
		"master_timeout", "timeout", "wait_for_active_shards", "wait_for_events",
		"wait_for_no_initializing_shards", "wait_for_no_relocating_shards", "wait_for_nodes", "wait_for_status"}
	pReindex = []string{"max_docs", "refresh", "requests_per_second", "scroll", "slices", "timeout",
		"wait_for_active_shards", "wait_for_completion", "require_alias"}
	pByQuery = []string{"_source", "_source_excludes", "_source_includes", "allow_no_indices", "analyze_wildcard",
		"analyzer", "conflicts", "default_operator", "df", "expand_wildcards", "from", "ignore_unavailable",
		"lenient", "max_docs", "preference", "q", "refresh", "request_cache", "requests_per_second", "routing",
		"scroll", "scroll_size", "search_timeout", "search_type", "size", "slices", "sort", "stats",
		"terminate_after", "timeout", "version", "version_type", "wait_for_active_shards",
		"wait_for_completion", "pipeline"}
	pTemplate = []string{"cluster_manager_timeout", "master_timeout", "create", "cause", "flat_settings",
		"local", "order"}
	pMget    = []string{"_source", "_source_excludes", "_source_includes", "preference", "realtime", "refresh", "routing", "stored_fields"}
	pMsearch = []string{"ccs_minimize_roundtrips", "max_concurrent_searches", "max_concurrent_shard_requests",
		"pre_filter_shard_size", "rest_total_hits_as_int", "search_type", "typed_keys"}
	pScroll = []string{"scroll", "scroll_id", "rest_total_hits_as_int"}
	pPIT    = []string{"keep_alive", "preference", "routing", "expand_wildcards", "allow_partial_pit_creation"}
	pSeqNo  = []string{"if_seq_no", "if_primary_term"}
	pStats  = []string{"completion_fields", "expand_wildcards", "fielddata_fields", "fields", "forbid_closed_indices",
		"groups", "include_segment_file_sizes", "include_unloaded_segments", "level"}
	pNodes     = []string{"flat_settings", "timeout", "include_segment_file_sizes", "level", "completion_fields", "fielddata_fields", "fields", "groups", "types"}
	pCSet      = []string{"flat_settings", "include_defaults", "cluster_manager_timeout", "master_timeout", "timeout"}
	pAnalyze   = []string{"index"}
	pFieldCaps = []string{"fields", "allow_no_indices", "expand_wildcards", "ignore_unavailable", "include_unmapped"}
	pRollover  = []string{"dry_run", "wait_for_active_shards", "timeout", "master_timeout", "cluster_manager_timeout"}
	// RestExplainAction's parameters (the ISM plugin).
	pISMExplain = []string{"show_policy", "validate_action", "queryString", "from", "size", "sortField", "sortOrder", "show_applied_policy"}
)

// routes is the REST layer: every endpoint the emulation answers.
var routes = []*route{
	{pattern: "/", methods: "GET", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) { c.handleInfo(w, r, b) }},

	{pattern: "/_cluster/health", methods: "GET", params: pHealth, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleHealth(w, r, "")
	}},
	{pattern: "/_cluster/health/{name}", methods: "GET", params: pHealth, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleHealth(w, r, p.name)
	}},
	{pattern: "/_cat/indices", methods: "GET", params: pCat, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleCatIndices(w, r, "")
	}},
	{pattern: "/_cat/indices/{name}", methods: "GET", params: pCat, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleCatIndices(w, r, p.name)
	}},
	{pattern: "/_cat/aliases", methods: "GET", params: pCat, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleCatAliases(w, r, "")
	}},
	{pattern: "/_cat/aliases/{name}", methods: "GET", params: pCat, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleCatAliases(w, r, p.name)
	}},
	{pattern: "/_cat/health", methods: "GET", params: pCat, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleCatHealth(w, r, b)
	}},
	{pattern: "/_cat/count", methods: "GET", params: pCat, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleCatCount(w, r, "")
	}},
	{pattern: "/_cat/count/{name}", methods: "GET", params: pCat, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleCatCount(w, r, p.name)
	}},

	{pattern: "/_aliases", methods: "POST", params: pMaster, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleUpdateAliases(w, r, b)
	}},
	{pattern: "/_aliases", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleGetAlias(w, r, "", "")
	}},
	{pattern: "/_alias", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleGetAlias(w, r, "", "")
	}},
	{pattern: "/_alias/{name}", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleGetAlias(w, r, "", p.name)
	}},
	{pattern: "/_aliases/{name}", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleGetAlias(w, r, "", p.name)
	}},
	{pattern: "/_alias/{name}", methods: "PUT,POST", params: pMaster, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handlePutAlias(w, r, "", p.name, b)
	}},
	{pattern: "/_aliases/{name}", methods: "PUT,POST", params: pMaster, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handlePutAlias(w, r, "", p.name, b)
	}},

	{pattern: "/_search", methods: "GET,POST", params: pSearch, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleSearch(w, r, "", b)
	}},
	{pattern: "/_search/scroll", methods: "GET,POST", params: pScroll, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleScroll(w, r, "", b)
	}},
	{pattern: "/_search/scroll/{id}", methods: "GET,POST", params: pScroll, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleScroll(w, r, p.id, b)
	}},
	{pattern: "/_search/scroll", methods: "DELETE", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleClearScroll(w, r, "", b)
	}},
	{pattern: "/_search/scroll/{id}", methods: "DELETE", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleClearScroll(w, r, p.id, b)
	}},
	{pattern: "/_search/point_in_time", methods: "DELETE", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleDeletePIT(w, r, false, b)
	}},
	{pattern: "/_search/point_in_time/_all", methods: "DELETE", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleDeletePIT(w, r, true, b)
	}},
	{pattern: "/_search/point_in_time/_all", methods: "GET", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) { c.handleListPITs(w, r) }},
	{pattern: "/{index}/_search/point_in_time", methods: "POST", params: pPIT, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleCreatePIT(w, r, p.index)
	}},
	{pattern: "/_mget", methods: "GET,POST", params: pMget, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleMget(w, r, "", b)
	}},
	{pattern: "/{index}/_mget", methods: "GET,POST", params: pMget, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleMget(w, r, p.index, b)
	}},
	{pattern: "/_msearch", methods: "GET,POST", params: pMsearch, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleMsearch(w, r, "", b)
	}},
	{pattern: "/{index}/_msearch", methods: "GET,POST", params: pMsearch, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleMsearch(w, r, p.index, b)
	}},
	{pattern: "/_count", methods: "GET,POST", params: pCount, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleCount(w, r, "", b)
	}},
	{pattern: "/_mapping", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleGetMapping(w, r, "")
	}},
	{pattern: "/_bulk", methods: "POST,PUT", params: pBulk, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleBulk(w, r, "", b)
	}},
	{pattern: "/_reindex", methods: "POST", params: pReindex, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleReindex(w, r, b)
	}},
	{pattern: "/_refresh", methods: "POST,GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleRefresh(w, r, "")
	}},
	{pattern: "/_flush", methods: "POST,GET", params: append([]string{"force", "wait_if_ongoing"}, pIndices...), h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleRefresh(w, r, "")
	}},

	{pattern: "/_index_template", methods: "GET", params: pTemplate, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.getTemplates(w, r, "")
	}},
	{pattern: "/_index_template/{id}", methods: "PUT,POST", params: pTemplate, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.putTemplate(w, r, p.id, b)
	}},
	{pattern: "/_index_template/{id}", methods: "GET", params: pTemplate, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.getTemplates(w, r, p.id)
	}},
	{pattern: "/_index_template/{id}", methods: "DELETE", params: pTemplate, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.deleteTemplate(w, r, p.id)
	}},

	{pattern: "/_template", methods: "GET", params: pTemplate, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.getLegacyTemplates(w, r, "")
	}},
	{pattern: "/_template/{id}", methods: "PUT,POST", params: pTemplate, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.putLegacyTemplate(w, r, p.id, b)
	}},
	{pattern: "/_template/{id}", methods: "GET", params: pTemplate, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.getLegacyTemplates(w, r, p.id)
	}},
	{pattern: "/_template/{id}", methods: "DELETE", params: pTemplate, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.deleteLegacyTemplate(w, r, p.id)
	}},

	{pattern: "/_stats", methods: "GET", params: pStats, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleStats(w, r, "", "")
	}},
	{pattern: "/_stats/{name}", methods: "GET", params: pStats, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleStats(w, r, "", p.name)
	}},
	{pattern: "/{index}/_stats", methods: "GET", params: pStats, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleStats(w, r, p.index, "")
	}},
	{pattern: "/{index}/_stats/{name}", methods: "GET", params: pStats, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleStats(w, r, p.index, p.name)
	}},
	{pattern: "/_analyze", methods: "GET,POST", params: pAnalyze, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleAnalyze(w, r, r.URL.Query().Get("index"), b)
	}},
	{pattern: "/{index}/_analyze", methods: "GET,POST", params: pAnalyze, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleAnalyze(w, r, p.index, b)
	}},
	{pattern: "/_field_caps", methods: "GET,POST", params: pFieldCaps, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleFieldCaps(w, r, "", b)
	}},
	{pattern: "/{index}/_field_caps", methods: "GET,POST", params: pFieldCaps, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleFieldCaps(w, r, p.index, b)
	}},
	{pattern: "/{index}/_rollover", methods: "POST", params: pRollover, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleRollover(w, r, p.index, "", b)
	}},
	{pattern: "/{index}/_rollover/{name}", methods: "POST", params: pRollover, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleRollover(w, r, p.index, p.name, b)
	}},
	{pattern: "/_nodes", methods: "GET", params: pNodes, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleNodesInfo(w, r)
	}},
	{pattern: "/_cluster/settings", methods: "GET", params: pCSet, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleGetClusterSettings(w, r)
	}},
	{pattern: "/_cluster/settings", methods: "PUT", params: pCSet, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handlePutClusterSettings(w, r, b)
	}},

	{pattern: "/_plugins/_ism/policies", methods: "GET", params: []string{"from", "size", "sortField", "sortOrder", "queryString"}, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) { c.getPolicy(w, r, "") }},
	{pattern: "/_plugins/_ism/policies/{id}", methods: "PUT", params: pSeqNo, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.putPolicy(w, r, p.id, b)
	}},
	{pattern: "/_plugins/_ism/policies/{id}", methods: "GET", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.getPolicy(w, r, p.id)
	}},
	{pattern: "/_plugins/_ism/policies/{id}", methods: "DELETE", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.deletePolicy(w, r, p.id)
	}},

	{pattern: "/_plugins/_ism/add", methods: "POST", params: []string{"index"}, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleISMAdd(w, r, "", b)
	}},
	{pattern: "/_plugins/_ism/add/{index}", methods: "POST", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleISMAdd(w, r, p.index, b)
	}},
	{pattern: "/_plugins/_ism/remove", methods: "POST", params: []string{"index"}, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleISMRemove(w, r, "")
	}},
	{pattern: "/_plugins/_ism/remove/{index}", methods: "POST", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleISMRemove(w, r, p.index)
	}},
	{pattern: "/_plugins/_ism/explain", methods: "GET,POST", params: pISMExplain, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleISMExplain(w, r, "")
	}},
	{pattern: "/_plugins/_ism/explain/{index}", methods: "GET,POST", params: pISMExplain, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleISMExplain(w, r, p.index)
	}},

	{pattern: "/_plugins/_security/api/roles", methods: "GET", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) { c.getRoles(w, r, "") }},
	{pattern: "/_plugins/_security/api/roles/{id}", methods: "PUT", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.putRole(w, r, p.id, b)
	}},
	{pattern: "/_plugins/_security/api/roles/{id}", methods: "GET", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) { c.getRoles(w, r, p.id) }},
	{pattern: "/_plugins/_security/api/roles/{id}", methods: "DELETE", h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.deleteRole(w, r, p.id)
	}},

	{pattern: "/_plugins/_sql", methods: "POST", params: []string{"format", "sanitize"}, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) { c.handleSQL(w, r, b) }},
	{pattern: "/_plugins/_ppl", methods: "POST", params: []string{"format", "sanitize"}, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) { c.handlePPL(w, r, b) }},
	{pattern: "/_plugins/_sql/_explain", methods: "POST", params: []string{"format", "sanitize"}, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handleSQLExplain(w, r, b)
	}},

	{pattern: "/{index}", methods: "PUT", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleCreateIndex(w, r, p.index, b)
	}},
	{pattern: "/{index}", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleGetIndex(w, r, p.index)
	}},
	{pattern: "/{index}", methods: "HEAD", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleHeadIndex(w, r, p.index)
	}},
	{pattern: "/{index}", methods: "DELETE", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleDeleteIndex(w, r, p.index)
	}},

	{pattern: "/{index}/_doc", methods: "POST", params: pIndexDoc, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleIndexDoc(w, r, p.index, "", b, false)
	}},
	{pattern: "/{index}/_doc/{id}", methods: "PUT,POST", params: pIndexDoc, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleIndexDoc(w, r, p.index, p.id, b, r.URL.Query().Get("op_type") == "create")
	}},
	{pattern: "/{index}/_doc/{id}", methods: "GET", params: pGetDoc, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleGetDoc(w, r, p.index, p.id, false)
	}},
	{pattern: "/{index}/_doc/{id}", methods: "DELETE", params: pDeleteDoc, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleDeleteDoc(w, r, p.index, p.id)
	}},
	{pattern: "/{index}/_create/{id}", methods: "PUT,POST", params: pIndexDoc, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleIndexDoc(w, r, p.index, p.id, b, true)
	}},
	{pattern: "/{index}/_source/{id}", methods: "GET", params: pGetDoc, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleGetDoc(w, r, p.index, p.id, true)
	}},
	{pattern: "/{index}/_update/{id}", methods: "POST", params: pUpdate, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleUpdate(w, r, p.index, p.id, b)
	}},
	{pattern: "/{index}/_search", methods: "GET,POST", params: pSearch, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleSearch(w, r, p.index, b)
	}},
	{pattern: "/{index}/_count", methods: "GET,POST", params: pCount, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleCount(w, r, p.index, b)
	}},
	{pattern: "/{index}/_bulk", methods: "POST,PUT", params: pBulk, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleBulk(w, r, p.index, b)
	}},
	{pattern: "/{index}/_mapping", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleGetMapping(w, r, p.index)
	}},
	{pattern: "/{index}/_mapping", methods: "PUT,POST", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handlePutMapping(w, r, p.index, b)
	}},
	{pattern: "/{index}/_alias", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleGetAlias(w, r, p.index, "")
	}},
	{pattern: "/{index}/_aliases", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleGetAlias(w, r, p.index, "")
	}},
	{pattern: "/{index}/_alias/{name}", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleGetAlias(w, r, p.index, p.name)
	}},
	{pattern: "/{index}/_aliases/{name}", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleGetAlias(w, r, p.index, p.name)
	}},
	{pattern: "/{index}/_alias/{name}", methods: "PUT,POST", params: pMaster, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handlePutAlias(w, r, p.index, p.name, b)
	}},
	{pattern: "/{index}/_aliases/{name}", methods: "PUT,POST", params: pMaster, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handlePutAlias(w, r, p.index, p.name, b)
	}},
	{pattern: "/{index}/_alias/{name}", methods: "DELETE", params: pMaster, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleDeleteAlias(w, r, p.index, p.name)
	}},
	{pattern: "/{index}/_aliases/{name}", methods: "DELETE", params: pMaster, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleDeleteAlias(w, r, p.index, p.name)
	}},
	{pattern: "/{index}/_delete_by_query", methods: "POST", params: pByQuery, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleByQuery(w, r, p.index, b, false)
	}},
	{pattern: "/{index}/_update_by_query", methods: "POST", params: pByQuery, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handleByQuery(w, r, p.index, b, true)
	}},
	{pattern: "/{index}/_settings", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleGetSettings(w, r, p.index)
	}},
	{pattern: "/{index}/_settings", methods: "PUT", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, b []byte) {
		c.handlePutSettings(w, r, p.index, b)
	}},
	{pattern: "/_settings", methods: "PUT", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, b []byte) {
		c.handlePutSettings(w, r, "", b)
	}},
	{pattern: "/_settings", methods: "GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ pathArgs, _ []byte) {
		c.handleGetSettings(w, r, "_all")
	}},
	{pattern: "/{index}/_refresh", methods: "POST,GET", params: pIndices, h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleRefresh(w, r, p.index)
	}},
	{pattern: "/{index}/_flush", methods: "POST,GET", params: append([]string{"force", "wait_if_ongoing"}, pIndices...), h: func(c *Cluster, w http.ResponseWriter, r *http.Request, p pathArgs, _ []byte) {
		c.handleRefresh(w, r, p.index)
	}},
}

func init() {
	for _, rt := range routes {
		rt.segs = nil
		for _, s := range strings.Split(rt.pattern, "/") {
			if s != "" {
				rt.segs = append(rt.segs, s)
			}
		}
	}
}

// match binds the route's pattern to path segments.
func (rt *route) match(segs []string) (pathArgs, bool) {
	var p pathArgs
	if len(segs) != len(rt.segs) {
		return p, false
	}
	for i, want := range rt.segs {
		got := segs[i]
		switch want {
		case "{index}":
			if strings.HasPrefix(got, "_") && got != "_all" {
				return p, false
			}
			p.index = got
		case "{id}":
			p.id = got
		case "{name}":
			p.name = got
		default:
			if got != want {
				return p, false
			}
		}
	}
	return p, true
}

func (rt *route) allows(method string) bool {
	for _, m := range strings.Split(rt.methods, ",") {
		if m == method {
			return true
		}
	}
	return false
}

// lookup finds the route for a method and path; when none answers the method it returns the
// methods the path does answer (an empty list: no such endpoint).
func lookup(method string, segs []string) (*route, pathArgs, []string) {
	var allowed []string
	var headAsGet *route
	var headArgs pathArgs
	for _, rt := range routes {
		p, ok := rt.match(segs)
		if !ok {
			continue
		}
		if rt.allows(method) {
			return rt, p, nil
		}
		if method == http.MethodHead && rt.allows(http.MethodGet) && headAsGet == nil {
			headAsGet, headArgs = rt, p
		}
		allowed = append(allowed, strings.Split(rt.methods, ",")...)
	}
	if headAsGet != nil {
		return headAsGet, headArgs, nil
	}
	sort.Strings(allowed)
	return nil, pathArgs{}, allowed
}

// unknownParams lists URL parameters the route does not accept, sorted.
func (rt *route) unknownParams(r *http.Request) []string {
	var bad []string
	for k := range r.URL.Query() {
		if !containsStr(commonParams, k) && !containsStr(rt.params, k) {
			bad = append(bad, k)
		}
	}
	sort.Strings(bad)
	return bad
}

// suggest is BaseRestHandler's hint for an unrecognized parameter: the route's parameters whose
// Levenshtein similarity (Lucene's LevenshteinDistance: 1 - edits/longer length) exceeds 0.5,
// best first.
func (rt *route) suggest(bad string) string {
	type cand struct {
		name  string
		score float64
	}
	var cands []cand
	for _, p := range rt.params {
		longer := max(len([]rune(p)), len([]rune(bad)))
		d := editDistance(p, bad, longer)
		if score := 1 - float64(d)/float64(longer); score > 0.5 {
			cands = append(cands, cand{p, score})
		}
	}
	if len(cands) == 0 {
		return ""
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].name < cands[j].name
	})
	if len(cands) == 1 {
		return " -> did you mean [" + cands[0].name + "]?"
	}
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.name
	}
	return " -> did you mean any of [" + strings.Join(names, ", ") + "]?"
}
