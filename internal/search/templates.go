package search

// Template is ready-to-run console text for one request shape.
type Template struct {
	Name        string
	Description string
	Text        string
}

// Templates returns console text for every request shape the editor knows, in menu
// order. They share the example index "weblogs" (created by "Create index") so they
// can be run one after another on an empty service.
func Templates() []Template {
	return []Template{
		{"Cluster health", "Status (green, yellow, red), nodes and shard counts",
			"GET /_cluster/health?pretty\n"},
		{"List indices", "Every index with health, status, document count and size",
			"GET /_cat/indices?format=json\n"},
		{"Create index", "An index with shard settings and explicit field mappings",
			`PUT /weblogs
{
  "settings": {
    "number_of_shards": 1,
    "number_of_replicas": 1
  },
  "mappings": {
    "properties": {
      "ts":      { "type": "date" },
      "level":   { "type": "keyword" },
      "service": { "type": "keyword" },
      "message": { "type": "text" },
      "latency": { "type": "float" }
    }
  }
}
`},
		{"Index a document", "Store one JSON document; the answer carries its _id",
			`POST /weblogs/_doc
{
  "ts": "2026-01-15T10:00:00Z",
  "level": "info",
  "service": "checkout",
  "message": "order placed",
  "latency": 42.5
}
`},
		{"Bulk index (NDJSON)", "Action line, then document line, one JSON per line",
			`POST /_bulk?refresh=true
{"index": {"_index": "weblogs", "_id": "1"}}
{"ts": "2026-01-15T10:01:00Z", "level": "info", "service": "checkout", "message": "payment accepted", "latency": 120.0}
{"index": {"_index": "weblogs", "_id": "2"}}
{"ts": "2026-01-15T10:02:00Z", "level": "error", "service": "checkout", "message": "payment gateway timeout", "latency": 3000.0}
{"index": {"_index": "weblogs", "_id": "3"}}
{"ts": "2026-01-16T09:30:00Z", "level": "warn", "service": "search", "message": "slow query", "latency": 850.0}
{"index": {"_index": "weblogs", "_id": "4"}}
{"ts": "2026-01-16T11:45:00Z", "level": "info", "service": "search", "message": "query served", "latency": 35.0}
`},
		{"Get document", "Fetch one document by its _id",
			"GET /weblogs/_doc/1\n"},
		{"Search (all options)", "query, aggs, size, from, sort, _source and track_total_hits together",
			`GET /weblogs/_search
{
  "query": { "match_all": {} },
  "size": 10,
  "from": 0,
  "sort": [ { "ts": "desc" } ],
  "_source": ["ts", "level", "service", "message"],
  "track_total_hits": true,
  "aggs": {
    "levels": { "terms": { "field": "level" } }
  }
}
`},
		{"Search: next page (search_after)", "Continue after the last hit's sort values",
			`GET /weblogs/_search
{
  "size": 2,
  "query": { "match_all": {} },
  "sort": [ { "ts": "desc" }, { "level": "asc" } ],
  "search_after": [1768557900000, "info"]
}
`},
		{"Search: match", "Full-text match on an analysed field",
			`GET /weblogs/_search
{
  "query": {
    "match": { "message": "payment timeout" }
  }
}
`},
		{"Search: bool", "must, filter, should and must_not combined",
			`GET /weblogs/_search
{
  "query": {
    "bool": {
      "must":     [ { "match": { "message": "payment" } } ],
      "filter":   [ { "term": { "service": "checkout" } } ],
      "should":   [ { "term": { "level": "error" } } ],
      "must_not": [ { "term": { "level": "debug" } } ]
    }
  }
}
`},
		{"Search: range", "Documents in a time window with a numeric bound",
			`GET /weblogs/_search
{
  "query": {
    "bool": {
      "filter": [
        { "range": { "ts": { "gte": "2026-01-15T00:00:00Z", "lt": "2026-01-16T00:00:00Z" } } },
        { "range": { "latency": { "gte": 100 } } }
      ]
    }
  }
}
`},
		{"Search: terms", "Documents whose keyword field is one of several values",
			`GET /weblogs/_search
{
  "query": {
    "terms": { "level": ["warn", "error"] }
  }
}
`},
		{"Aggregations", "terms with a metric, date_histogram, range and stats",
			`GET /weblogs/_search
{
  "size": 0,
  "aggs": {
    "by_service": {
      "terms": { "field": "service", "size": 10 },
      "aggs": { "avg_latency": { "avg": { "field": "latency" } } }
    },
    "per_day": {
      "date_histogram": { "field": "ts", "calendar_interval": "day" }
    },
    "latency_ranges": {
      "range": { "field": "latency", "ranges": [ { "to": 100 }, { "from": 100, "to": 1000 }, { "from": 1000 } ] }
    },
    "latency_stats": { "stats": { "field": "latency" } }
  }
}
`},
		{"SQL query", "SQL plugin, tabular answer (add ?format=csv for text)",
			`POST /_plugins/_sql
{
  "query": "SELECT service, COUNT(*) AS requests, AVG(latency) AS avg_latency FROM weblogs GROUP BY service"
}
`},
		{"Index template", "Settings and mappings applied to new indices matching a pattern",
			`PUT /_index_template/weblogs-template
{
  "index_patterns": ["weblogs-*"],
  "template": {
    "settings": { "number_of_shards": 1, "number_of_replicas": 1 },
    "mappings": {
      "properties": {
        "ts":    { "type": "date" },
        "level": { "type": "keyword" }
      }
    }
  }
}
`},
		{"Reindex", "Copy the matching documents of one index into another",
			`POST /_reindex
{
  "max_docs": 1000,
  "source": {
    "index": "weblogs",
    "query": { "term": { "level": "error" } }
  },
  "dest": { "index": "weblogs-errors" }
}
`},
		{"ISM policy (hot → delete)", "Index State Management: keep 30 days, then delete",
			`PUT /_plugins/_ism/policies/weblogs-retention
{
  "policy": {
    "description": "Hot for 30 days, then delete",
    "default_state": "hot",
    "states": [
      {
        "name": "hot",
        "actions": [],
        "transitions": [ { "state_name": "delete", "conditions": { "min_index_age": "30d" } } ]
      },
      {
        "name": "delete",
        "actions": [ { "delete": {} } ],
        "transitions": []
      }
    ],
    "ism_template": { "index_patterns": ["weblogs-*"], "priority": 100 }
  }
}
`},
		{"Security role", "A role that may read the weblogs indices",
			`PUT /_plugins/_security/api/roles/weblogs_reader
{
  "cluster_permissions": ["cluster_composite_ops_ro"],
  "index_permissions": [
    {
      "index_patterns": ["weblogs*"],
      "allowed_actions": ["read"]
    }
  ]
}
`},
		{"Mapping", "Field names and types of an index",
			"GET /weblogs/_mapping\n"},
		{"Delete index", "Remove an index and all its documents (cannot be undone)",
			"DELETE /weblogs-errors\n"},
	}
}
