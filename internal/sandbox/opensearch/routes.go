package opensearch

import (
	"net/http"

	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

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

// routes is the REST layer: every endpoint the emulation answers, in order of precedence.
var routes = rest.NewRouter(commonParams, []*rest.Route[*Cluster]{
	{Pattern: "/", Methods: "GET", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) { c.handleInfo(w, r, b) }},

	{Pattern: "/_cluster/health", Methods: "GET", Params: pHealth, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleHealth(w, r, "")
	}},
	{Pattern: "/_cluster/health/{name}", Methods: "GET", Params: pHealth, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleHealth(w, r, p.Name)
	}},
	{Pattern: "/_cat/indices", Methods: "GET", Params: pCat, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleCatIndices(w, r, "")
	}},
	{Pattern: "/_cat/indices/{name}", Methods: "GET", Params: pCat, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleCatIndices(w, r, p.Name)
	}},
	{Pattern: "/_cat/aliases", Methods: "GET", Params: pCat, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleCatAliases(w, r, "")
	}},
	{Pattern: "/_cat/aliases/{name}", Methods: "GET", Params: pCat, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleCatAliases(w, r, p.Name)
	}},
	{Pattern: "/_cat/health", Methods: "GET", Params: pCat, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleCatHealth(w, r, b)
	}},
	{Pattern: "/_cat/count", Methods: "GET", Params: pCat, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleCatCount(w, r, "")
	}},
	{Pattern: "/_cat/count/{name}", Methods: "GET", Params: pCat, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleCatCount(w, r, p.Name)
	}},

	{Pattern: "/_aliases", Methods: "POST", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleUpdateAliases(w, r, b)
	}},
	{Pattern: "/_aliases", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleGetAlias(w, r, "", "")
	}},
	{Pattern: "/_alias", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleGetAlias(w, r, "", "")
	}},
	{Pattern: "/_alias/{name}", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetAlias(w, r, "", p.Name)
	}},
	{Pattern: "/_aliases/{name}", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetAlias(w, r, "", p.Name)
	}},
	{Pattern: "/_alias/{name}", Methods: "PUT,POST", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handlePutAlias(w, r, "", p.Name, b)
	}},
	{Pattern: "/_aliases/{name}", Methods: "PUT,POST", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handlePutAlias(w, r, "", p.Name, b)
	}},

	{Pattern: "/_search", Methods: "GET,POST", Params: pSearch, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleSearch(w, r, "", b)
	}},
	{Pattern: "/_search/scroll", Methods: "GET,POST", Params: pScroll, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleScroll(w, r, "", b)
	}},
	{Pattern: "/_search/scroll/{id}", Methods: "GET,POST", Params: pScroll, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleScroll(w, r, p.ID, b)
	}},
	{Pattern: "/_search/scroll", Methods: "DELETE", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleClearScroll(w, r, "", b)
	}},
	{Pattern: "/_search/scroll/{id}", Methods: "DELETE", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleClearScroll(w, r, p.ID, b)
	}},
	{Pattern: "/_search/point_in_time", Methods: "DELETE", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleDeletePIT(w, r, false, b)
	}},
	{Pattern: "/_search/point_in_time/_all", Methods: "DELETE", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleDeletePIT(w, r, true, b)
	}},
	{Pattern: "/_search/point_in_time/_all", Methods: "GET", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleListPITs(w, r)
	}},
	{Pattern: "/{index}/_search/point_in_time", Methods: "POST", Params: pPIT, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleCreatePIT(w, r, p.Index)
	}},
	{Pattern: "/_mget", Methods: "GET,POST", Params: pMget, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleMget(w, r, "", b)
	}},
	{Pattern: "/{index}/_mget", Methods: "GET,POST", Params: pMget, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleMget(w, r, p.Index, b)
	}},
	{Pattern: "/_msearch", Methods: "GET,POST", Params: pMsearch, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleMsearch(w, r, "", b)
	}},
	{Pattern: "/{index}/_msearch", Methods: "GET,POST", Params: pMsearch, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleMsearch(w, r, p.Index, b)
	}},
	{Pattern: "/_count", Methods: "GET,POST", Params: pCount, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleCount(w, r, "", b)
	}},
	{Pattern: "/_mapping", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleGetMapping(w, r, "")
	}},
	{Pattern: "/_mapping/field/{name}", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetFieldMapping(w, r, "", p.Name)
	}},
	{Pattern: "/_bulk", Methods: "POST,PUT", Params: pBulk, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleBulk(w, r, "", b)
	}},
	{Pattern: "/_reindex", Methods: "POST", Params: pReindex, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.maybeTask(w, r, "indices:data/write/reindex", reindexDescription(b), func(w http.ResponseWriter, r *http.Request) { c.handleReindex(w, r, b) })
	}},
	{Pattern: "/_data_stream", Methods: "GET", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleGetDataStream(w, r, "")
	}},
	{Pattern: "/_data_stream/_stats", Methods: "GET", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleDataStreamStats(w, r, "")
	}},
	{Pattern: "/_data_stream/{name}", Methods: "GET", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetDataStream(w, r, p.Name)
	}},
	{Pattern: "/_data_stream/{name}", Methods: "PUT", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handlePutDataStream(w, r, p.Name)
	}},
	{Pattern: "/_data_stream/{name}", Methods: "DELETE", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleDeleteDataStream(w, r, p.Name)
	}},
	{Pattern: "/_data_stream/{name}/_stats", Methods: "GET", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleDataStreamStats(w, r, p.Name)
	}},
	{Pattern: "/_tasks", Methods: "GET", Params: []string{"actions", "detailed", "group_by", "nodes", "parent_task_id", "timeout", "wait_for_completion"}, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleListTasks(w, r)
	}},
	{Pattern: "/_tasks/{id}", Methods: "GET", Params: []string{"wait_for_completion", "timeout"}, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetTask(w, r, p.ID)
	}},
	{Pattern: "/_refresh", Methods: "POST,GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleRefresh(w, r, "")
	}},
	{Pattern: "/_flush", Methods: "POST,GET", Params: append([]string{"force", "wait_if_ongoing"}, pIndices...), H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleRefresh(w, r, "")
	}},

	{Pattern: "/_index_template", Methods: "GET", Params: pTemplate, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.getTemplates(w, r, "")
	}},
	{Pattern: "/_index_template/{id}", Methods: "PUT,POST", Params: pTemplate, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.putTemplate(w, r, p.ID, b)
	}},
	{Pattern: "/_index_template/{id}", Methods: "GET", Params: pTemplate, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.getTemplates(w, r, p.ID)
	}},
	{Pattern: "/_index_template/{id}", Methods: "DELETE", Params: pTemplate, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.deleteTemplate(w, r, p.ID)
	}},

	{Pattern: "/_template", Methods: "GET", Params: pTemplate, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.getLegacyTemplates(w, r, "")
	}},
	{Pattern: "/_template/{id}", Methods: "PUT,POST", Params: pTemplate, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.putLegacyTemplate(w, r, p.ID, b)
	}},
	{Pattern: "/_template/{id}", Methods: "GET", Params: pTemplate, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.getLegacyTemplates(w, r, p.ID)
	}},
	{Pattern: "/_template/{id}", Methods: "DELETE", Params: pTemplate, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.deleteLegacyTemplate(w, r, p.ID)
	}},

	{Pattern: "/_stats", Methods: "GET", Params: pStats, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleStats(w, r, "", "")
	}},
	{Pattern: "/_stats/{name}", Methods: "GET", Params: pStats, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleStats(w, r, "", p.Name)
	}},
	{Pattern: "/{index}/_stats", Methods: "GET", Params: pStats, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleStats(w, r, p.Index, "")
	}},
	{Pattern: "/{index}/_stats/{name}", Methods: "GET", Params: pStats, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleStats(w, r, p.Index, p.Name)
	}},
	{Pattern: "/_analyze", Methods: "GET,POST", Params: pAnalyze, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleAnalyze(w, r, r.URL.Query().Get("index"), b)
	}},
	{Pattern: "/{index}/_analyze", Methods: "GET,POST", Params: pAnalyze, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleAnalyze(w, r, p.Index, b)
	}},
	{Pattern: "/_field_caps", Methods: "GET,POST", Params: pFieldCaps, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleFieldCaps(w, r, "", b)
	}},
	{Pattern: "/{index}/_field_caps", Methods: "GET,POST", Params: pFieldCaps, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleFieldCaps(w, r, p.Index, b)
	}},
	{Pattern: "/{index}/_rollover", Methods: "POST", Params: pRollover, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleRollover(w, r, p.Index, "", b)
	}},
	{Pattern: "/{index}/_rollover/{name}", Methods: "POST", Params: pRollover, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleRollover(w, r, p.Index, p.Name, b)
	}},
	{Pattern: "/_nodes", Methods: "GET", Params: pNodes, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleNodesInfo(w, r)
	}},
	{Pattern: "/_cluster/settings", Methods: "GET", Params: pCSet, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleGetClusterSettings(w, r)
	}},
	{Pattern: "/_cluster/settings", Methods: "PUT", Params: pCSet, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handlePutClusterSettings(w, r, b)
	}},

	{Pattern: "/_plugins/_ism/policies", Methods: "GET", Params: []string{"from", "size", "sortField", "sortOrder", "queryString"}, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) { c.getPolicy(w, r, "") }},
	{Pattern: "/_plugins/_ism/policies/{id}", Methods: "PUT", Params: pSeqNo, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.putPolicy(w, r, p.ID, b)
	}},
	{Pattern: "/_plugins/_ism/policies/{id}", Methods: "GET", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.getPolicy(w, r, p.ID)
	}},
	{Pattern: "/_plugins/_ism/policies/{id}", Methods: "DELETE", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.deletePolicy(w, r, p.ID)
	}},

	{Pattern: "/_plugins/_ism/add", Methods: "POST", Params: []string{"index"}, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleISMAdd(w, r, "", b)
	}},
	{Pattern: "/_plugins/_ism/add/{index}", Methods: "POST", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleISMAdd(w, r, p.Index, b)
	}},
	{Pattern: "/_plugins/_ism/remove", Methods: "POST", Params: []string{"index"}, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleISMRemove(w, r, "")
	}},
	{Pattern: "/_plugins/_ism/remove/{index}", Methods: "POST", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleISMRemove(w, r, p.Index)
	}},
	{Pattern: "/_plugins/_ism/explain", Methods: "GET,POST", Params: pISMExplain, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleISMExplain(w, r, "")
	}},
	{Pattern: "/_plugins/_ism/explain/{index}", Methods: "GET,POST", Params: pISMExplain, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleISMExplain(w, r, p.Index)
	}},

	{Pattern: "/_plugins/_security/api/roles", Methods: "GET", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) { c.getRoles(w, r, "") }},
	{Pattern: "/_plugins/_security/api/roles/{id}", Methods: "PUT", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.putRole(w, r, p.ID, b)
	}},
	{Pattern: "/_plugins/_security/api/roles/{id}", Methods: "GET", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.getRoles(w, r, p.ID)
	}},
	{Pattern: "/_plugins/_security/api/roles/{id}", Methods: "DELETE", H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.deleteRole(w, r, p.ID)
	}},

	{Pattern: "/_plugins/_sql", Methods: "POST", Params: []string{"format", "sanitize"}, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) { c.handleSQL(w, r, b) }},
	{Pattern: "/_plugins/_ppl", Methods: "POST", Params: []string{"format", "sanitize"}, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) { c.handlePPL(w, r, b) }},
	{Pattern: "/_plugins/_sql/_explain", Methods: "POST", Params: []string{"format", "sanitize"}, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handleSQLExplain(w, r, b)
	}},

	{Pattern: "/{index}", Methods: "PUT", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleCreateIndex(w, r, p.Index, b)
	}},
	{Pattern: "/{index}", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetIndex(w, r, p.Index)
	}},
	{Pattern: "/{index}", Methods: "HEAD", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleHeadIndex(w, r, p.Index)
	}},
	{Pattern: "/{index}", Methods: "DELETE", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleDeleteIndex(w, r, p.Index)
	}},

	// An id the engine generates makes the write a create unless op_type says otherwise
	// (RestIndexAction.AutoIdHandler), so it reaches data streams.
	{Pattern: "/{index}/_doc", Methods: "POST", Params: pIndexDoc, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleIndexDoc(w, r, p.Index, "", b, r.URL.Query().Get("op_type") != "index")
	}},
	{Pattern: "/{index}/_doc/{id}", Methods: "PUT,POST", Params: pIndexDoc, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleIndexDoc(w, r, p.Index, p.ID, b, r.URL.Query().Get("op_type") == "create")
	}},
	{Pattern: "/{index}/_doc/{id}", Methods: "GET", Params: pGetDoc, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetDoc(w, r, p.Index, p.ID, false)
	}},
	{Pattern: "/{index}/_doc/{id}", Methods: "DELETE", Params: pDeleteDoc, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleDeleteDoc(w, r, p.Index, p.ID)
	}},
	{Pattern: "/{index}/_create/{id}", Methods: "PUT,POST", Params: pIndexDoc, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleIndexDoc(w, r, p.Index, p.ID, b, true)
	}},
	{Pattern: "/{index}/_source/{id}", Methods: "GET", Params: pGetDoc, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetDoc(w, r, p.Index, p.ID, true)
	}},
	{Pattern: "/{index}/_update/{id}", Methods: "POST", Params: pUpdate, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleUpdate(w, r, p.Index, p.ID, b)
	}},
	{Pattern: "/{index}/_search", Methods: "GET,POST", Params: pSearch, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleSearch(w, r, p.Index, b)
	}},
	{Pattern: "/{index}/_count", Methods: "GET,POST", Params: pCount, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleCount(w, r, p.Index, b)
	}},
	{Pattern: "/{index}/_bulk", Methods: "POST,PUT", Params: pBulk, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handleBulk(w, r, p.Index, b)
	}},
	{Pattern: "/{index}/_mapping", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetMapping(w, r, p.Index)
	}},
	{Pattern: "/{index}/_mapping/field/{name}", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetFieldMapping(w, r, p.Index, p.Name)
	}},
	{Pattern: "/{index}/_mapping", Methods: "PUT,POST", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handlePutMapping(w, r, p.Index, b)
	}},
	{Pattern: "/{index}/_alias", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetAlias(w, r, p.Index, "")
	}},
	{Pattern: "/{index}/_aliases", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetAlias(w, r, p.Index, "")
	}},
	{Pattern: "/{index}/_alias/{name}", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetAlias(w, r, p.Index, p.Name)
	}},
	{Pattern: "/{index}/_aliases/{name}", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetAlias(w, r, p.Index, p.Name)
	}},
	{Pattern: "/{index}/_alias/{name}", Methods: "PUT,POST", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handlePutAlias(w, r, p.Index, p.Name, b)
	}},
	{Pattern: "/{index}/_aliases/{name}", Methods: "PUT,POST", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handlePutAlias(w, r, p.Index, p.Name, b)
	}},
	{Pattern: "/{index}/_alias/{name}", Methods: "DELETE", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleDeleteAlias(w, r, p.Index, p.Name)
	}},
	{Pattern: "/{index}/_aliases/{name}", Methods: "DELETE", Params: pMaster, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleDeleteAlias(w, r, p.Index, p.Name)
	}},
	{Pattern: "/{index}/_delete_by_query", Methods: "POST", Params: pByQuery, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.maybeTask(w, r, "indices:data/write/delete/byquery", "delete-by-query ["+p.Index+"]", func(w http.ResponseWriter, r *http.Request) { c.handleByQuery(w, r, p.Index, b, false) })
	}},
	{Pattern: "/{index}/_update_by_query", Methods: "POST", Params: pByQuery, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.maybeTask(w, r, "indices:data/write/update/byquery", "update-by-query ["+p.Index+"]", func(w http.ResponseWriter, r *http.Request) { c.handleByQuery(w, r, p.Index, b, true) })
	}},
	{Pattern: "/{index}/_close", Methods: "POST", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleClose(w, r, p.Index)
	}},
	{Pattern: "/{index}/_open", Methods: "POST", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleOpen(w, r, p.Index)
	}},
	{Pattern: "/{index}/_settings", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleGetSettings(w, r, p.Index)
	}},
	{Pattern: "/{index}/_settings", Methods: "PUT", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, b []byte) {
		c.handlePutSettings(w, r, p.Index, b)
	}},
	{Pattern: "/_settings", Methods: "PUT", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, b []byte) {
		c.handlePutSettings(w, r, "", b)
	}},
	{Pattern: "/_settings", Methods: "GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.handleGetSettings(w, r, "_all")
	}},
	{Pattern: "/{index}/_refresh", Methods: "POST,GET", Params: pIndices, H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleRefresh(w, r, p.Index)
	}},
	{Pattern: "/{index}/_flush", Methods: "POST,GET", Params: append([]string{"force", "wait_if_ongoing"}, pIndices...), H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.handleRefresh(w, r, p.Index)
	}},
	// A force merge has no segments to merge here; it answers BroadcastResponse's shards as refresh does
	// (indices/forcemerge.yaml), or a task with wait_for_completion=false (2.7 and later).
	{Pattern: "/_forcemerge", Methods: "POST", Params: append([]string{"flush", "max_num_segments", "only_expunge_deletes", "primary_only", "wait_for_completion"}, pIndices...), H: func(c *Cluster, w http.ResponseWriter, r *http.Request, _ rest.Args, _ []byte) {
		c.maybeTask(w, r, "indices:admin/forcemerge", "Force-merge indices [_all]", func(w http.ResponseWriter, r *http.Request) { c.handleRefresh(w, r, "") })
	}},
	{Pattern: "/{index}/_forcemerge", Methods: "POST", Params: append([]string{"flush", "max_num_segments", "only_expunge_deletes", "primary_only", "wait_for_completion"}, pIndices...), H: func(c *Cluster, w http.ResponseWriter, r *http.Request, p rest.Args, _ []byte) {
		c.maybeTask(w, r, "indices:admin/forcemerge", "Force-merge indices ["+p.Index+"]", func(w http.ResponseWriter, r *http.Request) { c.handleRefresh(w, r, p.Index) })
	}},
})
