package index

import "github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"

// AliasDef is one alias of one index, as added by _aliases, _alias or a create-index body.
type AliasDef struct {
	FilterRaw any // the filter as given, shown back by GET
	// Filter is the parsed filter query, kept so searches need not parse it again; nil: the alias
	// shows every document. It is an any because package query imports this one, so this package
	// cannot name the query type.
	Filter        any
	IndexRouting  string
	SearchRouting string
	IsWrite       *bool // nil: not set (a single-index alias still takes writes)
	IsHidden      *bool
}

// Render is the alias as GET /_alias shows it: {} when nothing was set (not is_write_index:false,
// which only newer Elasticsearch prints).
func (a *AliasDef) Render() jsonout.Obj {
	o := jsonout.Obj{}
	if a.FilterRaw != nil {
		o = append(o, jsonout.KV{"filter", a.FilterRaw})
	}
	if a.IndexRouting != "" {
		o = append(o, jsonout.KV{"index_routing", a.IndexRouting})
	}
	if a.SearchRouting != "" {
		o = append(o, jsonout.KV{"search_routing", a.SearchRouting})
	}
	if a.IsWrite != nil {
		o = append(o, jsonout.KV{"is_write_index", *a.IsWrite})
	}
	if a.IsHidden != nil {
		o = append(o, jsonout.KV{"is_hidden", *a.IsHidden})
	}
	return o
}
