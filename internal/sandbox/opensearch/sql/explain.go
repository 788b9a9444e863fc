package sql

import (
	"encoding/json"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// Explain answers POST /_plugins/_sql/_explain with the plan the statement runs as, in
// the shape of the plugin's v2 engine in OpenSearch 2.x (opensearch-project/sql, 2.x branch:
// docs/user/optimization/optimization.rst and docs/user/ppl/interfaces/endpoint.rst): a tree of
// operators whose leaf, OpenSearchIndexScan, carries the search request as
// "OpenSearchQueryRequest(indexName=..., sourceBuilder={...}, searchDone=false)". The
// sourceBuilder is exactly the body this emulation runs, so it can be pasted into a _search;
// GROUP BY shows as nested terms aggregations where the plugin sends a composite one, which
// this engine does not have.
func Explain(e Engine, stmt string) (json.RawMessage, *Error) {
	p, err := prepare(e, stmt)
	if err != nil {
		return nil, err
	}
	return []byte(jsonval.Compact(p.explain())), nil
}

// explain renders the operator tree: projection, then what runs over the engine's answer in
// memory (limit, sort, HAVING filter of grouped queries), then the index scan.
func (p *sqlPlan) explain() obj {
	names := make([]string, len(p.cols))
	for i, col := range p.cols {
		names[i] = col.name
	}
	indices := make([]string, len(p.targets))
	for i, ix := range p.targets {
		indices[i] = ix.name
	}
	node := obj{{"name", "OpenSearchIndexScan"}, {"description", obj{{"request",
		"OpenSearchQueryRequest(indexName=" + strings.Join(indices, ",") + ", sourceBuilder=" + string(mustJSON(p.body)) + ", searchDone=false)"}}},
		{"children", []obj{}}}
	wrap := func(name string, desc obj) {
		node = obj{{"name", name}, {"description", desc}, {"children", []obj{node}}}
	}
	if p.grouped {
		if p.having != nil {
			wrap("FilterOperator", obj{{"conditions", sqlText(p.having)}})
		}
		if len(p.order) > 0 {
			sorts := obj{}
			for _, o := range p.order {
				dir, nulls := "ASC", "NULL_FIRST"
				if o.desc {
					dir = "DESC"
				}
				if !o.nullsFirst {
					nulls = "NULL_LAST"
				}
				sorts = append(sorts, kv{sqlText(o.expr), obj{{"sortOrder", dir}, {"nullOrder", nulls}}})
			}
			wrap("SortOperator", obj{{"sortList", sorts}})
		}
		limit := defaultSQLRows
		if p.sel.limit >= 0 {
			limit = p.sel.limit
		}
		wrap("LimitOperator", obj{{"limit", limit}, {"offset", p.sel.offset}})
	}
	wrap("ProjectOperator", obj{{"fields", "[" + strings.Join(names, ", ") + "]"}})
	return node
}
