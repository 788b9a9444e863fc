package opensearch

import (
	"net/http"
	"strconv"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/painless"
	"github.com/svcui/svcui/internal/sandbox/opensearch/query"
)

// handleByQuery answers POST /{index}/_delete_by_query and /{index}/_update_by_query: the
// matching documents are deleted, or rewritten (through the script when there is one), and the
// answer is BulkByScrollResponse's shape.
func (c *Cluster) handleByQuery(w http.ResponseWriter, r *http.Request, expr string, body []byte, update bool) {
	start := time.Now()
	api := "delete_by_query"
	if update {
		api = "update_by_query"
	}
	v, err := parseBody(body, !update)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	q := r.URL.Query()
	var match query.Query = &query.MatchAllQuery{Boost: 1}
	var sc *painless.Script
	maxDocs := -1
	proceed := q.Get("conflicts") == "proceed"
	if _, has := m["query"]; !has && !update && q.Get("q") == "" {
		c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: query is missing;"))
		return
	}
	for k, x := range m {
		switch k {
		case "query":
			if match, err = query.Parse(x); err != nil {
				c.fail(w, r, apierr.WithLocation(err, body))
				return
			}
		case "max_docs", "size":
			n, ok := jsonval.Int(x)
			if !ok || n < 0 {
				c.fail(w, r, apierr.BadRequest("[max_docs] parameter cannot be negative, found [%v]", x))
				return
			}
			maxDocs = n
		case "conflicts":
			s, _ := jsonval.String(x)
			if s != "proceed" && s != "abort" {
				c.fail(w, r, apierr.BadRequest("conflicts may only be \"proceed\" or \"abort\" but was [%s]", s))
				return
			}
			proceed = s == "proceed"
		case "script":
			if !update {
				c.fail(w, r, apierr.Parsing("[%s] unknown field [script]", api))
				return
			}
			if sc, err = parseScript(x); err != nil {
				c.fail(w, r, err)
				return
			}
		case "slice":
			c.fail(w, r, apierr.BadRequest("[slice] is not supported by this emulation: %s runs as one slice", api))
			return
		default:
			c.fail(w, r, apierr.WithLocation(apierr.Parsing("[%s] unknown field [%s]", api, k), body))
			return
		}
	}
	if s := q.Get("max_docs"); s != "" {
		n, perr := strconv.Atoi(s)
		if perr != nil || n < 0 {
			c.fail(w, r, apierr.BadRequest("[max_docs] parameter cannot be negative, found [%s]", s))
			return
		}
		maxDocs = n
	}
	if s := q.Get("q"); s != "" {
		if match, err = query.ParseQueryString("query_string", map[string]any{"query": s}); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	forced, err := forcedRefresh(r)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	_ = forced // every write is visible at once; refresh changes nothing in the answer

	c.mu.Lock()
	defer c.mu.Unlock()
	targets, err := c.resolveReq(r, expr, searchOpts)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	type target struct {
		ix *index.Index
		d  *index.Document
	}
	var docs []target
	now := c.now()
	filters := c.aliasFilters(expr)
	for _, ix := range targets {
		qc := &query.Context{Index: ix, Now: now}
		ms, err := match.Eval(qc)
		if err == nil {
			err = applyAliasFilter(qc, ms, filters)
		}
		if err != nil {
			c.fail(w, r, shardFailure(err, ix.Name))
			return
		}
		index.ForEach(query.AndBits(ms.Bits, ix.Live), func(s int32) {
			if maxDocs < 0 || len(docs) < maxDocs {
				docs = append(docs, target{ix, ix.Docs[s]})
			}
		})
	}
	updated, deleted, noops := 0, 0, 0
	failures := []jsonout.Obj{}
	for _, t := range docs {
		if !update {
			if t.ix.Remove(t.d.ID).Result == "deleted" {
				deleted++
			}
			continue
		}
		var res index.WriteResult
		var werr *apierr.Error
		if sc != nil {
			res, _, werr = applyScript(t.ix, t.d, sc)
		} else {
			res, werr = t.ix.Put(t.d.ID, t.d.Raw, t.d.Src, false)
		}
		if werr != nil {
			if werr.Type == "script_exception" {
				c.fail(w, r, werr)
				return
			}
			failures = append(failures, jsonout.Obj{{"index", t.ix.Name}, {"id", t.d.ID}, {"cause", werr.Body()}, {"status", werr.Status}})
			if !proceed {
				break
			}
			continue
		}
		switch res.Result {
		case "noop":
			noops++
		case "deleted":
			deleted++
		default:
			updated++
		}
	}
	batches := 0
	if len(docs) > 0 {
		batches = (len(docs) + 999) / 1000
	}
	out := jsonout.Obj{{"took", time.Since(start).Milliseconds()}, {"timed_out", false}, {"total", len(docs)}}
	if update {
		out = append(out, jsonout.KV{"updated", updated})
	}
	out = append(out, jsonout.KV{"deleted", deleted}, jsonout.KV{"batches", batches}, jsonout.KV{"version_conflicts", 0}, jsonout.KV{"noops", noops},
		jsonout.KV{"retries", jsonout.Obj{{"bulk", 0}, {"search", 0}}}, jsonout.KV{"throttled_millis", 0}, jsonout.KV{"requests_per_second", jsonout.JavaNumber(-1)},
		jsonout.KV{"throttled_until_millis", 0}, jsonout.KV{"failures", failures})
	c.reply(w, r, 200, out)
}
