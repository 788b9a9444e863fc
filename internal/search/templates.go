package search

// Template is ready-to-run console text for one request shape.
type Template struct {
	Name        string
	Description string
	Text        string
}

// Templates returns console text for every request shape the editor knows, in menu
// order. Searches and aggregations read the demo's logs-app index and its fields
// (@timestamp, level, service, host, status, latency_ms, message, user_id, region,
// trace_id); writes go to logs-archive and logs-errors, which the logs-* index
// template of the demo maps like logs-app, so every template runs on the demo data
// in any order, and on any service with such an index.
func Templates() []Template {
	return []Template{
		{"Cluster health", "Status (green, yellow, red), nodes and shard counts",
			"GET /_cluster/health?pretty\n"},
		{"List indices", "Every index with health, status, document count and size",
			"GET /_cat/indices?format=json\n"},
		{"Mapping", "Field names and types of an index",
			"GET /logs-app/_mapping\n"},
		{"Search: latest logs", "The 20 newest entries, newest first",
			`GET /logs-app/_search
{
  "size": 20,
  "sort": [ { "@timestamp": "desc" } ],
  "query": { "match_all": {} }
}
`},
		{"Search (all options)", "query, aggs, size, from, sort, _source and track_total_hits together",
			`GET /logs-app/_search
{
  "query": { "term": { "level": "ERROR" } },
  "size": 10,
  "from": 0,
  "sort": [ { "@timestamp": "desc" } ],
  "_source": ["@timestamp", "level", "service", "message"],
  "track_total_hits": true,
  "aggs": {
    "services": { "terms": { "field": "service" } }
  }
}
`},
		{"Search: next page (search_after)", "Continue after the last hit's sort values",
			`GET /logs-app/_search
{
  "size": 10,
  "query": { "term": { "level": "WARN" } },
  "sort": [ { "@timestamp": "desc" }, { "trace_id": "asc" } ],
  "search_after": [4102444800000, "0"]
}
`},
		{"Search: match", "Full-text match on the message",
			`GET /logs-app/_search
{
  "query": {
    "match": { "message": "payment timeout" }
  }
}
`},
		{"Search: bool", "must, filter, should and must_not combined",
			`GET /logs-app/_search
{
  "query": {
    "bool": {
      "must":     [ { "match": { "message": "timeout" } } ],
      "filter":   [ { "term": { "service": "payments" } } ],
      "should":   [ { "term": { "level": "ERROR" } } ],
      "must_not": [ { "term": { "level": "DEBUG" } } ]
    }
  }
}
`},
		{"Search: range", "Slow requests of the last seven days",
			`GET /logs-app/_search
{
  "query": {
    "bool": {
      "filter": [
        { "range": { "@timestamp": { "gte": "now-7d/d", "lte": "now" } } },
        { "range": { "latency_ms": { "gte": 500 } } }
      ]
    }
  },
  "sort": [ { "latency_ms": "desc" } ]
}
`},
		{"Search: terms", "Entries whose level is one of several values",
			`GET /logs-app/_search
{
  "query": {
    "terms": { "level": ["WARN", "ERROR"] }
  }
}
`},
		{"Search: highlight", "Mark the words that matched in each message",
			`GET /logs-app/_search
{
  "query": { "match": { "message": "timeout" } },
  "highlight": {
    "fields": { "message": {} }
  }
}
`},
		{"Count", "How many entries match, without the hits",
			`GET /logs-app/_count
{
  "query": { "term": { "level": "ERROR" } }
}
`},
		{"Aggregations", "terms with a metric, date_histogram, range and stats",
			`GET /logs-app/_search
{
  "size": 0,
  "aggs": {
    "by_service": {
      "terms": { "field": "service", "size": 10 },
      "aggs": { "avg_latency": { "avg": { "field": "latency_ms" } } }
    },
    "per_day": {
      "date_histogram": { "field": "@timestamp", "calendar_interval": "day" }
    },
    "latency_ranges": {
      "range": { "field": "latency_ms", "ranges": [ { "to": 100 }, { "from": 100, "to": 1000 }, { "from": 1000 } ] }
    },
    "latency_stats": { "stats": { "field": "latency_ms" } }
  }
}
`},
		{"Errors over time (date_histogram)", "Errors per hour of the last two days, split by service",
			`GET /logs-app/_search
{
  "size": 0,
  "query": {
    "bool": {
      "filter": [
        { "term": { "level": "ERROR" } },
        { "range": { "@timestamp": { "gte": "now-2d" } } }
      ]
    }
  },
  "aggs": {
    "per_hour": {
      "date_histogram": { "field": "@timestamp", "fixed_interval": "1h" },
      "aggs": { "services": { "terms": { "field": "service", "size": 3 } } }
    }
  }
}
`},
		{"Latency percentiles", "p50, p95 and p99 of latency per service",
			`GET /logs-app/_search
{
  "size": 0,
  "aggs": {
    "by_service": {
      "terms": { "field": "service" },
      "aggs": {
        "latency": { "percentiles": { "field": "latency_ms", "percents": [50, 95, 99] } }
      }
    }
  }
}
`},
		{"Latest error per service (top_hits)", "The newest error of each service",
			`GET /logs-app/_search
{
  "size": 0,
  "query": { "term": { "level": "ERROR" } },
  "aggs": {
    "by_service": {
      "terms": { "field": "service" },
      "aggs": {
        "latest": {
          "top_hits": {
            "size": 1,
            "sort": [ { "@timestamp": "desc" } ],
            "_source": ["@timestamp", "host", "message"]
          }
        }
      }
    }
  }
}
`},
		{"SQL query", "SQL plugin, tabular answer (add ?format=csv for text)",
			`POST /_plugins/_sql
{
  "query": "SELECT service, COUNT(*) AS entries, AVG(latency_ms) AS avg_latency FROM logs-app GROUP BY service"
}
`},
		{"Alias: add", "Give logs-app a second name; searches through it read logs-app",
			`POST /_aliases
{
  "actions": [
    { "add": { "index": "logs-app", "alias": "logs-current" } }
  ]
}
`},
		{"Aliases: list", "Every alias and the indices behind it",
			"GET /_alias\n"},
		{"Get document", "Fetch one document by its _id",
			"GET /logs-app/_doc/log-00001\n"},
		{"Create index", "An index with shard settings and explicit field mappings",
			`PUT /logs-archive
{
  "settings": {
    "number_of_shards": 1,
    "number_of_replicas": 1
  },
  "mappings": {
    "properties": {
      "@timestamp": { "type": "date" },
      "level":      { "type": "keyword" },
      "service":    { "type": "keyword" },
      "host":       { "type": "keyword" },
      "message":    { "type": "text" },
      "latency_ms": { "type": "float" }
    }
  }
}
`},
		{"Index a document", "Store one JSON document (creates logs-archive when missing); the answer carries its _id",
			`POST /logs-archive/_doc?refresh=true
{
  "@timestamp": "2026-01-15T10:00:00.000Z",
  "level": "INFO",
  "service": "checkout",
  "host": "checkout-eu-1",
  "message": "Order ORD-100001 placed by user u-1001",
  "latency_ms": 42.5
}
`},
		{"Bulk index (NDJSON)", "Action line, then document line, one JSON per line",
			`POST /_bulk?refresh=true
{"index": {"_index": "logs-archive", "_id": "a-1"}}
{"@timestamp": "2026-01-15T10:01:00.000Z", "level": "INFO", "service": "payments", "host": "payments-eu-1", "message": "Payment authorized for order ORD-100002", "latency_ms": 120.0}
{"index": {"_index": "logs-archive", "_id": "a-2"}}
{"@timestamp": "2026-01-15T10:02:00.000Z", "level": "ERROR", "service": "payments", "host": "payments-eu-1", "message": "Payment gateway timeout for order ORD-100003", "latency_ms": 3000.0}
`},
		{"Index template", "Settings and mappings applied to new indices matching a pattern",
			`PUT /_index_template/logs-archive-template
{
  "index_patterns": ["logs-archive-*"],
  "priority": 200,
  "template": {
    "settings": { "number_of_shards": 1, "number_of_replicas": 1 },
    "mappings": {
      "properties": {
        "@timestamp": { "type": "date" },
        "level":      { "type": "keyword" },
        "message":    { "type": "text" }
      }
    }
  }
}
`},
		{"Reindex", "Copy the errors of logs-app into logs-errors",
			`POST /_reindex
{
  "max_docs": 1000,
  "source": {
    "index": "logs-app",
    "query": { "term": { "level": "ERROR" } }
  },
  "dest": { "index": "logs-errors" }
}
`},
		{"ISM policy (hot → delete)", "Index State Management: keep 90 days, then delete",
			`PUT /_plugins/_ism/policies/logs-archive-retention
{
  "policy": {
    "description": "Hot for 90 days, then delete",
    "default_state": "hot",
    "states": [
      {
        "name": "hot",
        "actions": [],
        "transitions": [ { "state_name": "delete", "conditions": { "min_index_age": "90d" } } ]
      },
      {
        "name": "delete",
        "actions": [ { "delete": {} } ],
        "transitions": []
      }
    ],
    "ism_template": { "index_patterns": ["logs-archive-*"], "priority": 200 }
  }
}
`},
		{"Security role", "A role that may read the archived logs",
			`PUT /_plugins/_security/api/roles/logs_archive_reader
{
  "cluster_permissions": ["cluster_composite_ops_ro"],
  "index_permissions": [
    {
      "index_patterns": ["logs-archive*"],
      "allowed_actions": ["read"]
    }
  ]
}
`},
		{"Delete index", "Remove an index and all its documents (cannot be undone)",
			"DELETE /logs-errors\n"},
	}
}
