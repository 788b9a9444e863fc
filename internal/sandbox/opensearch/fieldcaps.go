package opensearch

import (
	"net/http"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/query"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// handleFieldCaps answers GET/POST /_field_caps and /{index}/_field_caps (fields from ?fields= or
// the body): per field and mapping type, whether it is searchable and aggregatable
// (FieldCapabilitiesResponse); a field with several types (or "unmapped" in some indices, with
// include_unmapped) lists the indices of each. Only mapped fields are listed, not the metadata
// fields (_id, _index, ...).
func (c *Cluster) handleFieldCaps(w http.ResponseWriter, r *http.Request, expr string, body []byte) {
	v, err := parseBody(body, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	var patterns []string
	var filter query.Query
	for _, p := range strings.Split(r.URL.Query().Get("fields"), ",") {
		if p = strings.TrimSpace(p); p != "" {
			patterns = append(patterns, p)
		}
	}
	for k, x := range m {
		switch k {
		case "fields":
			for _, e := range jsonval.List(x) {
				if s, ok := e.(string); ok {
					patterns = append(patterns, s)
				}
			}
		case "index_filter":
			if filter, err = query.Parse(x); err != nil {
				c.fail(w, r, apierr.WithLocation(err, body))
				return
			}
		default:
			c.fail(w, r, apierr.WithLocation(apierr.Parsing("[field_caps_request] unknown field [%s]", k), body))
			return
		}
	}
	if len(patterns) == 0 {
		c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: no fields specified;"))
		return
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	targets, err := c.resolve(expr, r.URL.Query().Get("ignore_unavailable") == "true")
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if filter != nil {
		// index_filter keeps the indices where some document matches (the engine may also skip
		// an index its shards can rule out without searching; the answer is the same).
		kept := targets[:0]
		for _, ix := range targets {
			ms, qerr := filter.Eval(&query.Context{Index: ix, Now: c.now()})
			if qerr != nil {
				c.fail(w, r, shardFailure(qerr, ix.Name))
				return
			}
			if index.Popcount(query.AndBits(ms.Bits, ix.Live)) > 0 {
				kept = append(kept, ix)
			}
		}
		targets = kept
	}
	type capKey struct{ field, typ string }
	byType := map[capKey][]string{}
	var names []string
	seen := map[string]bool{}
	for _, ix := range targets {
		for path, fd := range ix.Fields {
			match := false
			for _, p := range patterns {
				match = match || rest.GlobMatch(p, path)
			}
			if !match {
				continue
			}
			typ := fd.Type
			if typ == "" {
				typ = "object"
			}
			k := capKey{path, typ}
			byType[k] = append(byType[k], ix.Name)
			if !seen[path] {
				seen[path] = true
				names = append(names, path)
			}
		}
	}
	sort.Strings(names)
	if r.URL.Query().Get("include_unmapped") == "true" {
		for _, name := range names {
			has := map[string]bool{}
			for k, list := range byType {
				if k.field == name {
					for _, n := range list {
						has[n] = true
					}
				}
			}
			for _, ix := range targets {
				if !has[ix.Name] {
					k := capKey{name, "unmapped"}
					byType[k] = append(byType[k], ix.Name)
				}
			}
		}
	}
	indices := make([]string, len(targets))
	for i, ix := range targets {
		indices[i] = ix.Name
	}
	fields := jsonout.Obj{}
	for _, name := range names {
		var types []string
		for k := range byType {
			if k.field == name {
				types = append(types, k.typ)
			}
		}
		sort.Strings(types)
		caps := jsonout.Obj{}
		for _, typ := range types {
			k := index.TypeKinds[typ]
			searchable := typ != "object" && typ != "nested" && typ != "unmapped"
			aggregatable := searchable && k != index.KindText
			o := jsonout.Obj{{"type", typ}, {"searchable", searchable}, {"aggregatable", aggregatable}}
			if len(types) > 1 {
				list := byType[capKey{name, typ}]
				sort.Strings(list)
				o = append(o, jsonout.KV{"indices", list})
			}
			caps = append(caps, jsonout.KV{typ, o})
		}
		fields = append(fields, jsonout.KV{name, caps})
	}
	c.reply(w, r, 200, jsonout.Obj{{"indices", indices}, {"fields", fields}})
}
