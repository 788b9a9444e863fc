package search

import (
	"strings"
)

// bodyRole names what a JSON object of a request body is ("search" for a _search
// body, "query" inside "query", "agg" for a named aggregation, "aggp:terms" inside
// "terms", "fields:range" where field names are keys, ...); "" is unknown.
type bodyRole string

// rootRole is the role of a request body by its path.
func rootRole(r ParsedRequest) bodyRole {
	segs := strings.Split(strings.Trim(r.Base(), "/"), "/")
	has := func(s string) bool {
		for _, x := range segs {
			if x == s {
				return true
			}
		}
		return false
	}
	switch {
	case has("_search") || has("_msearch"):
		return "search"
	case has("_count") || has("_delete_by_query"):
		return "count"
	case has("_sql"):
		return "sql"
	case has("_index_template"):
		return "template"
	case has("_ism"):
		return "ism"
	case has("_aliases"):
		return "aliases"
	case has("_reindex"):
		return "reindex"
	case has("_bulk"):
		return "bulk"
	case has("_mapping"):
		return "mappings"
	case has("_settings"):
		return "settings"
	case r.Method == "PUT" && len(segs) == 1 && segs[0] != "" && !strings.HasPrefix(segs[0], "_"):
		return "index"
	}
	return ""
}

// queryTypes are the query clauses offered inside "query" and bool clauses.
var queryTypePairs = []string{
	"match", "full-text match on a text field",
	"match_phrase", "words in this order",
	"term", "exact value of a keyword field",
	"terms", "one of several exact values",
	"range", "dates or numbers between bounds",
	"bool", "combine with must, should, filter, must_not",
	"exists", "the field has a value",
	"query_string", "Lucene syntax: level:ERROR AND service:auth",
	"wildcard", "pattern with * and ?",
	"prefix", "value starts with",
	"match_all", "every document",
	"multi_match", "full-text over several fields",
	"match_phrase_prefix", "phrase, last word as a prefix",
	"simple_query_string", "forgiving query syntax",
	"regexp", "regular expression",
	"fuzzy", "close spellings",
	"ids", "documents by _id",
	"nested", "query nested objects",
}

func queryTypes() []Suggestion {
	return keyList(queryTypePairs...)
}

// aggTypes are the aggregations offered inside a named aggregation.
var aggTypePairs = []string{
	"terms", "buckets per value",
	"date_histogram", "buckets per time interval",
	"histogram", "buckets per numeric interval",
	"range", "buckets per numeric range",
	"avg", "average", "sum", "sum", "min", "minimum", "max", "maximum",
	"cardinality", "approximate distinct count",
	"percentiles", "p50, p95, p99...",
	"top_hits", "the top documents of each bucket",
	"stats", "count, min, max, avg, sum",
	"value_count", "number of values",
	"date_range", "buckets per date range",
	"filter", "one bucket of matching documents",
	"extended_stats", "stats with variance",
	"aggs", "sub-aggregations",
}

func aggTypes() []Suggestion {
	return keyList(aggTypePairs...)
}

// keyList builds key suggestions from name, detail pairs.
func keyList(pairs ...string) []Suggestion {
	out := make([]Suggestion, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Suggestion{Text: pairs[i], Label: pairs[i], Detail: pairs[i+1], Kind: SuggestKey})
	}
	return out
}

func valueList(vals ...string) []Suggestion {
	out := make([]Suggestion, 0, len(vals))
	for _, v := range vals {
		out = append(out, Suggestion{Text: v, Label: v, Kind: SuggestValue})
	}
	return out
}

// child is the role of the object under key.
func (r bodyRole) child(key string) bodyRole {
	switch r {
	case "search", "count", "rsource", "aggp:filter":
		switch key {
		case "query", "post_filter":
			return "query"
		case "aggs", "aggregations":
			return "aggNames"
		case "sort":
			return "sort"
		case "highlight":
			return "highlight"
		case "_source":
			return "source"
		case "collapse":
			return "collapse"
		}
		if r == "aggp:filter" {
			return bodyRole("query").child(key)
		}
	case "query":
		switch key {
		case "bool":
			return "bool"
		case "match", "match_phrase", "match_phrase_prefix", "term", "terms", "range", "prefix", "wildcard", "regexp", "fuzzy":
			return bodyRole("fields:" + key)
		case "exists", "query_string", "simple_query_string", "multi_match", "nested":
			return bodyRole(key)
		}
	case "nested":
		if key == "query" {
			return "query"
		}
	case "bool":
		switch key {
		case "must", "should", "filter", "must_not":
			return "query"
		}
	case "aggNames":
		return "agg"
	case "agg":
		if key == "aggs" || key == "aggregations" {
			return "aggNames"
		}
		return bodyRole("aggp:" + key)
	case "aggp:top_hits":
		return bodyRole("search").child(key)
	case "aggp:range", "aggp:date_range":
		if key == "ranges" {
			return "rangeBucket"
		}
	case "sort":
		return "sortp"
	case "highlight":
		if key == "fields" {
			return "fields:highlight"
		}
	case "fields:highlight":
		return "hlp"
	case "index", "template:template":
		switch key {
		case "mappings":
			return "mappings"
		case "settings":
			return "settings"
		}
	case "template":
		if key == "template" {
			return "template:template"
		}
	case "ism":
		if key == "policy" {
			return "ismpolicy"
		}
	case "aliases":
		if key == "actions" {
			return "aliasActions"
		}
	case "aliasActions":
		return "aliasp"
	case "reindex":
		switch key {
		case "source":
			return "rsource"
		case "dest":
			return "rdest"
		}
	case "bulk":
		return "bulkp"
	}
	if strings.HasPrefix(string(r), "fields:") {
		return bodyRole("params:" + strings.TrimPrefix(string(r), "fields:"))
	}
	return ""
}

// suggestCtx is what completions draw names from.
type suggestCtx struct {
	fields  []Field
	indices []string
}

// keys are the keys offered inside an object of role r.
// roleKeys are the keys an object of each body role offers, as key, meaning pairs. A
// table rather than a switch of calls, and a slice rather than a map: the compiler lays
// it out as data, so it costs the binary its strings and no code.
var roleKeys = []struct {
	role  bodyRole
	pairs []string
}{
	{"search", []string{"query", "which documents", "aggs", "aggregations", "size", "hits per page", "from", "offset of the first hit", "sort", "order of the hits", "_source", "fields of each hit", "highlight", "mark the matches", "track_total_hits", "count every hit (true) or up to a number", "search_after", "continue after the last hit's sort values", "post_filter", "filter hits, not aggregations", "collapse", "one hit per value", "timeout", "time limit"}},
	{"count", []string{"query", "which documents"}},
	{"bool", []string{"must", "must match, scored", "filter", "must match, not scored", "should", "should match (boosts)", "must_not", "must not match", "minimum_should_match", "how many should clauses must match"}},
	{"aggp:terms", []string{"field", "", "size", "number of buckets (10)", "order", `{"_count": "desc"}`, "min_doc_count", "", "missing", "value for documents without it"}},
	{"aggp:date_histogram", []string{"field", "", "calendar_interval", "minute, hour, day, week, month...", "fixed_interval", "30s, 5m, 1h...", "format", "key_as_string format", "time_zone", "e.g. Europe/Berlin", "min_doc_count", "", "extended_bounds", "min and max"}},
	{"aggp:histogram", []string{"field", "", "interval", "bucket width", "min_doc_count", ""}},
	{"aggp:range", []string{"field", "", "ranges", `[{"to": 100}, {"from": 100}]`, "keyed", "", "format", ""}},
	{"aggp:date_range", []string{"field", "", "ranges", `[{"to": 100}, {"from": 100}]`, "keyed", "", "format", ""}},
	{"aggp:percentiles", []string{"field", "", "percents", "[50, 95, 99]", "keyed", ""}},
	{"aggp:top_hits", []string{"size", "documents per bucket", "sort", "", "_source", "", "from", "", "highlight", ""}},
	{"aggp:avg", []string{"field", "", "missing", "value for documents without it"}},
	{"aggp:sum", []string{"field", "", "missing", "value for documents without it"}},
	{"aggp:min", []string{"field", "", "missing", "value for documents without it"}},
	{"aggp:max", []string{"field", "", "missing", "value for documents without it"}},
	{"aggp:cardinality", []string{"field", "", "missing", "value for documents without it"}},
	{"aggp:value_count", []string{"field", "", "missing", "value for documents without it"}},
	{"aggp:stats", []string{"field", "", "missing", "value for documents without it"}},
	{"aggp:extended_stats", []string{"field", "", "missing", "value for documents without it"}},
	{"rangeBucket", []string{"from", "", "to", "", "key", ""}},
	{"params:range", []string{"gte", "at least", "gt", "more than", "lte", "at most", "lt", "less than", "format", "", "time_zone", ""}},
	{"params:match", []string{"query", "", "operator", "and, or", "fuzziness", "AUTO", "slop", ""}},
	{"params:match_phrase", []string{"query", "", "operator", "and, or", "fuzziness", "AUTO", "slop", ""}},
	{"params:match_phrase_prefix", []string{"query", "", "operator", "and, or", "fuzziness", "AUTO", "slop", ""}},
	{"params:term", []string{"value", "", "case_insensitive", "", "boost", ""}},
	{"params:prefix", []string{"value", "", "case_insensitive", "", "boost", ""}},
	{"params:wildcard", []string{"value", "", "case_insensitive", "", "boost", ""}},
	{"params:regexp", []string{"value", "", "case_insensitive", "", "boost", ""}},
	{"params:fuzzy", []string{"value", "", "case_insensitive", "", "boost", ""}},
	{"exists", []string{"field", ""}},
	{"query_string", []string{"query", "e.g. level:ERROR AND message:timeout", "default_field", "", "fields", "", "default_operator", "AND, OR"}},
	{"simple_query_string", []string{"query", "e.g. level:ERROR AND message:timeout", "default_field", "", "fields", "", "default_operator", "AND, OR"}},
	{"multi_match", []string{"query", "", "fields", "", "type", "", "operator", ""}},
	{"nested", []string{"path", "", "query", ""}},
	{"sortp", []string{"order", "asc, desc", "missing", "_last, _first", "unmapped_type", ""}},
	{"highlight", []string{"fields", "fields to highlight", "pre_tags", `["<em>"]`, "post_tags", `["</em>"]`, "fragment_size", "characters per fragment", "number_of_fragments", "", "require_field_match", ""}},
	{"hlp", []string{"fragment_size", "", "number_of_fragments", "", "type", "unified, plain"}},
	{"source", []string{"includes", "", "excludes", ""}},
	{"collapse", []string{"field", ""}},
	{"sql", []string{"query", "SELECT ... FROM index", "fetch_size", "", "filter", ""}},
	{"index", []string{"settings", "", "mappings", "", "aliases", ""}},
	{"template:template", []string{"settings", "", "mappings", "", "aliases", ""}},
	{"mappings", []string{"properties", "field definitions", "dynamic", "true, false, strict", "_source", ""}},
	{"settings", []string{"number_of_shards", "", "number_of_replicas", "", "refresh_interval", ""}},
	{"template", []string{"index_patterns", "", "template", "", "priority", "", "composed_of", "", "_meta", ""}},
	{"ism", []string{"policy", ""}},
	{"ismpolicy", []string{"description", "", "default_state", "", "states", "", "ism_template", ""}},
	{"aliases", []string{"actions", "add, remove"}},
	{"aliasActions", []string{"add", "", "remove", "", "remove_index", ""}},
	{"aliasp", []string{"index", "", "alias", "", "indices", "", "aliases", "", "filter", "", "is_write_index", ""}},
	{"reindex", []string{"source", "", "dest", "", "max_docs", "", "conflicts", "abort, proceed"}},
	{"rsource", []string{"index", "", "query", "", "size", "", "_source", ""}},
	{"rdest", []string{"index", "", "op_type", ""}},
	{"bulk", []string{"index", "", "create", "", "update", "", "delete", ""}},
	{"bulkp", []string{"_index", "", "_id", ""}},
}

func (r bodyRole) keys(c suggestCtx) []Suggestion {
	for _, k := range roleKeys {
		if k.role == r {
			return keyList(k.pairs...)
		}
	}
	switch r {
	case "query":
		return queryTypes()
	case "agg":
		return aggTypes()
	case "fields:match", "fields:match_phrase", "fields:match_phrase_prefix", "fields:highlight":
		return fieldItems(c.fields, textual)
	case "fields:range":
		return fieldItems(c.fields, ranged)
	case "sort":
		return append(fieldItems(c.fields, exact), keyList("_score", "relevance")...)
	}
	if strings.HasPrefix(string(r), "fields:") {
		return fieldItems(c.fields, exact)
	}
	return nil
}

// values are the values offered for key inside an object of role r (or, for an
// array under key, its elements).
func (r bodyRole) values(key string, c suggestCtx) []Suggestion {
	switch key {
	case "field":
		switch r {
		case "aggp:date_histogram", "aggp:date_range":
			return fieldItems(c.fields, dated)
		case "aggp:avg", "aggp:sum", "aggp:min", "aggp:max", "aggp:percentiles", "aggp:histogram", "aggp:stats", "aggp:extended_stats", "aggp:range":
			return fieldItems(c.fields, numeric)
		case "aggp:terms", "aggp:cardinality", "collapse":
			return fieldItems(c.fields, exact)
		}
		return fieldItems(c.fields, anyField)
	case "calendar_interval":
		return valueList("minute", "hour", "day", "week", "month", "quarter", "year")
	case "fixed_interval":
		return valueList("30s", "1m", "5m", "15m", "1h", "12h", "1d")
	case "order":
		if r == "sortp" {
			return valueList("desc", "asc")
		}
	case "operator":
		return valueList("and", "or")
	case "default_operator":
		return valueList("AND", "OR")
	case "track_total_hits", "keyed", "case_insensitive", "require_field_match", "is_write_index":
		return valueList("true", "false")
	case "dynamic":
		return valueList("true", "false", "strict")
	case "conflicts":
		return valueList("abort", "proceed")
	case "missing":
		if r == "sortp" {
			return valueList("_last", "_first")
		}
	case "default_field":
		return fieldItems(c.fields, textual)
	case "fields", "includes", "excludes", "_source":
		if r != "highlight" {
			return fieldItems(c.fields, anyField)
		}
	case "index", "_index", "indices":
		return indexItems(c.indices)
	case "sort":
		return append(fieldItems(c.fields, exact), valueList("_score")...)
	}
	if r == "sort" { // {"@timestamp": "desc"}
		return valueList("desc", "asc")
	}
	return nil
}

// Field kinds for typed suggestions.
func textual(t string) bool {
	return t == "text" || t == "match_only_text" || t == "keyword" || t == ""
}
func numeric(t string) bool {
	switch t {
	case "long", "integer", "short", "byte", "double", "float", "half_float", "scaled_float", "unsigned_long", "":
		return true
	}
	return false
}
func dated(t string) bool  { return t == "date" || t == "date_nanos" || t == "" }
func ranged(t string) bool { return dated(t) || numeric(t) || t == "ip" }
func exact(t string) bool {
	return t != "text" && t != "match_only_text" && t != "object" && t != "nested"
}
func anyField(t string) bool { return t != "object" && t != "nested" }

func fieldItems(fields []Field, ok func(string) bool) []Suggestion {
	var out []Suggestion
	for _, f := range fields {
		if ok(f.Type) {
			out = append(out, Suggestion{Text: f.Path, Label: f.Path, Detail: f.Type, Kind: SuggestField})
		}
	}
	return out
}

func indexItems(indices []string) []Suggestion {
	out := make([]Suggestion, 0, len(indices))
	for _, n := range indices {
		if !strings.HasPrefix(n, ".") {
			out = append(out, Suggestion{Text: n, Label: n, Detail: "index", Kind: SuggestValue})
		}
	}
	return out
}
