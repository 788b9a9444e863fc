package opensearch

import (
	"bytes"
	"net/http"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// getView is a found document as GET /{index}/_doc/{id} shows it.
func getView(ix *index.Index, d *index.Document, filter sourceFilter) jsonout.Obj {
	out := jsonout.Obj{{"_index", ix.Name}, {"_id", d.ID}, {"_version", d.Version}, {"_seq_no", d.SeqNo}, {"_primary_term", 1}, {"found", true}}
	if src, include := filter.apply(d); include {
		out = append(out, jsonout.KV{"_source", src})
	}
	return out
}

// handleMget answers GET/POST /_mget and /{index}/_mget: {"docs":[...]} or, with an index in
// the path, {"ids":[...]}; each document is answered on its own (a missing index is that item's
// error, not the request's).
func (c *Cluster) handleMget(w http.ResponseWriter, r *http.Request, defaultIndex string, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	urlFilter, err := parseSourceFilter(sourceParamFromQuery(r))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	type item struct {
		index, id string
		filter    sourceFilter
	}
	var items []item
	for k, x := range m {
		switch k {
		case "docs":
			for i, e := range jsonval.List(x) {
				dm, ok := e.(map[string]any)
				if !ok {
					c.fail(w, r, apierr.Parsing("docs array element should include an object"))
					return
				}
				it := item{index: defaultIndex, filter: urlFilter}
				for dk, dv := range dm {
					switch dk {
					case "_index":
						it.index, _ = jsonval.String(dv)
					case "_id":
						it.id, _ = jsonval.String(dv)
					case "_source":
						if it.filter, err = parseSourceFilter(dv); err != nil {
							c.fail(w, r, err)
							return
						}
					case "routing", "_routing", "stored_fields", "version", "version_type":
					default:
						c.fail(w, r, apierr.WithLocation(apierr.Parsing("unknown parameter [%s] in doc", dk), body))
						return
					}
				}
				if it.index == "" {
					c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: index is missing for doc %d;", i))
					return
				}
				if it.id == "" {
					c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: id is missing for doc %d;", i))
					return
				}
				items = append(items, it)
			}
		case "ids":
			if defaultIndex == "" {
				c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: index is missing for doc 0;"))
				return
			}
			for _, e := range jsonval.List(x) {
				id, _ := jsonval.String(e)
				items = append(items, item{index: defaultIndex, id: id, filter: urlFilter})
			}
		default:
			c.fail(w, r, apierr.WithLocation(apierr.Parsing("unknown parameter [%s], expected one of [docs, ids]", k), body))
			return
		}
	}
	if len(items) == 0 {
		c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: no documents to get;"))
		return
	}
	c.mu.RLock()
	docs := make([]jsonout.Obj, 0, len(items))
	for _, it := range items {
		ix, err := c.docTarget(it.index)
		if err != nil {
			if err.Type == "index_not_found_exception" {
				err = apierr.IndexExprNotFound(it.index)
			}
			docs = append(docs, jsonout.Obj{{"_index", it.index}, {"_id", it.id}, {"error", err.Response()[0].V}})
			continue
		}
		d := ix.Get(it.id)
		if d == nil {
			docs = append(docs, jsonout.Obj{{"_index", ix.Name}, {"_id", it.id}, {"found", false}})
			continue
		}
		docs = append(docs, getView(ix, d, it.filter))
	}
	c.mu.RUnlock()
	c.reply(w, r, 200, jsonout.Obj{{"docs", docs}})
}

// msearchHeaderKeys are the members a header line of _msearch may have.
var msearchHeaderKeys = map[string]bool{"index": true, "indices": true, "search_type": true, "preference": true,
	"routing": true, "request_cache": true, "ignore_unavailable": true, "allow_no_indices": true,
	"expand_wildcards": true, "allow_partial_search_results": true, "ccs_minimize_roundtrips": true,
	"cancel_after_time_interval": true, "phase_took": true}

// handleMsearch answers GET/POST /_msearch and /{index}/_msearch: NDJSON pairs of a header and
// a search body; each search answers on its own, with its status.
func (c *Cluster) handleMsearch(w http.ResponseWriter, r *http.Request, defaultIndex string, body []byte) {
	start := time.Now()
	if err := checkNDJSON(r); err != nil {
		c.fail(w, r, err)
		return
	}
	// MultiSearchRequest.readMultiLineFormat: lines pair up as header and body; an empty header
	// line means no header.
	lines := bytes.Split(body, []byte("\n"))
	for len(lines) > 0 && len(bytes.TrimSpace(lines[len(lines)-1])) == 0 {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: no requests added;"))
		return
	}
	type pair struct {
		expr      string
		ignore    bool
		wildcards string
		body      map[string]any
		raw       []byte
	}
	var pairs []pair
	for i := 0; i < len(lines); i += 2 {
		var hv any = map[string]any{}
		if len(bytes.TrimSpace(lines[i])) > 0 {
			var err error
			if hv, err = apierr.DecodeJSON(lines[i]); err != nil {
				c.fail(w, r, apierr.BadRequest("Failed to parse header of msearch request %d", i/2))
				return
			}
		}
		hm, ok := hv.(map[string]any)
		if !ok {
			c.fail(w, r, apierr.BadRequest("Failed to parse header of msearch request %d", i/2))
			return
		}
		p := pair{expr: defaultIndex}
		for k, x := range hm {
			if !msearchHeaderKeys[k] {
				c.fail(w, r, apierr.BadRequest("key [%s] is not supported in the metadata section", k))
				return
			}
			switch k {
			case "index", "indices":
				var names []string
				for _, e := range jsonval.List(x) {
					if s, ok := e.(string); ok {
						names = append(names, s)
					}
				}
				p.expr = joinComma(names)
			case "ignore_unavailable":
				p.ignore, _ = jsonval.Bool(x)
			case "expand_wildcards":
				p.wildcards, _ = x.(string)
			}
		}
		if i+1 >= len(lines) {
			c.fail(w, r, apierr.BadRequest("The msearch request must be terminated by a newline [\\n]"))
			return
		}
		p.raw = lines[i+1]
		bv, perr := parseBody(p.raw, false)
		if perr != nil {
			c.fail(w, r, perr)
			return
		}
		p.body, _ = jsonval.Map(bv)
		pairs = append(pairs, p)
	}
	base := searchParamsOf(r.URL.Query())
	responses := make([]jsonout.Obj, 0, len(pairs))
	for _, p := range pairs {
		sp := searchParams{totalAsInt: base.totalAsInt, typedKeys: base.typedKeys, ignoreUnavail: p.ignore, wildcards: p.wildcards}
		out, err := c.search(nil, p.expr, p.body, p.raw, sp)
		if err != nil {
			e := err.Response()
			responses = append(responses, e)
			continue
		}
		responses = append(responses, append(out, jsonout.KV{"status", 200}))
	}
	c.reply(w, r, 200, jsonout.Obj{{"took", time.Since(start).Milliseconds()}, {"responses", responses}})
}

func joinComma(l []string) string {
	var b bytes.Buffer
	for i, s := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s)
	}
	return b.String()
}
