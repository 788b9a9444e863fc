package opensearch

import (
	"net/http"
	"strconv"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/painless"
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
	m, _ := asMap(v)
	q := r.URL.Query()
	var query query = &matchAllQuery{boost: 1}
	var sc *painless.Script
	maxDocs := -1
	proceed := q.Get("conflicts") == "proceed"
	if _, has := m["query"]; !has && !update && q.Get("q") == "" {
		c.fail(w, r, errf(400, "action_request_validation_exception", "Validation Failed: 1: query is missing;"))
		return
	}
	for k, x := range m {
		switch k {
		case "query":
			if query, err = parseQuery(x); err != nil {
				c.fail(w, r, withLocation(err, body))
				return
			}
		case "max_docs", "size":
			n, ok := asInt(x)
			if !ok || n < 0 {
				c.fail(w, r, badRequest("[max_docs] parameter cannot be negative, found [%v]", x))
				return
			}
			maxDocs = n
		case "conflicts":
			s, _ := jsonval.String(x)
			if s != "proceed" && s != "abort" {
				c.fail(w, r, badRequest("conflicts may only be \"proceed\" or \"abort\" but was [%s]", s))
				return
			}
			proceed = s == "proceed"
		case "script":
			if !update {
				c.fail(w, r, parsingErr("[%s] unknown field [script]", api))
				return
			}
			if sc, err = parseScript(x); err != nil {
				c.fail(w, r, err)
				return
			}
		case "slice":
			c.fail(w, r, badRequest("[slice] is not supported by this emulation: %s runs as one slice", api))
			return
		default:
			c.fail(w, r, withLocation(parsingErr("[%s] unknown field [%s]", api, k), body))
			return
		}
	}
	if s := q.Get("max_docs"); s != "" {
		n, perr := strconv.Atoi(s)
		if perr != nil || n < 0 {
			c.fail(w, r, badRequest("[max_docs] parameter cannot be negative, found [%s]", s))
			return
		}
		maxDocs = n
	}
	if s := q.Get("q"); s != "" {
		if query, err = parseQueryString("query_string", map[string]any{"query": s}); err != nil {
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
	targets, err := c.resolve(expr, q.Get("ignore_unavailable") == "true")
	if err != nil {
		c.fail(w, r, err)
		return
	}
	type target struct {
		ix *index
		d  *document
	}
	var docs []target
	now := c.now()
	filters := c.aliasFilters(expr)
	for _, ix := range targets {
		qc := &qctx{ix: ix, now: now}
		ms, err := query.eval(qc)
		if err == nil {
			err = applyAliasFilter(qc, ms, filters)
		}
		if err != nil {
			c.fail(w, r, shardFailure(err, ix.name))
			return
		}
		forEach(andBits(ms.bits, ix.live), func(s int32) {
			if maxDocs < 0 || len(docs) < maxDocs {
				docs = append(docs, target{ix, ix.docs[s]})
			}
		})
	}
	updated, deleted, noops := 0, 0, 0
	failures := []obj{}
	for _, t := range docs {
		if !update {
			if t.ix.remove(t.d.id).result == "deleted" {
				deleted++
			}
			continue
		}
		var res writeResult
		var werr *apiError
		if sc != nil {
			res, _, werr = applyScript(t.ix, t.d, sc)
		} else {
			res, werr = t.ix.put(t.d.id, t.d.raw, t.d.src, false)
		}
		if werr != nil {
			if werr.typ == "script_exception" {
				c.fail(w, r, werr)
				return
			}
			failures = append(failures, obj{{"index", t.ix.name}, {"id", t.d.id}, {"cause", werr.body()}, {"status", werr.status}})
			if !proceed {
				break
			}
			continue
		}
		switch res.result {
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
	out := obj{{"took", time.Since(start).Milliseconds()}, {"timed_out", false}, {"total", len(docs)}}
	if update {
		out = append(out, kv{"updated", updated})
	}
	out = append(out, kv{"deleted", deleted}, kv{"batches", batches}, kv{"version_conflicts", 0}, kv{"noops", noops},
		kv{"retries", obj{{"bulk", 0}, {"search", 0}}}, kv{"throttled_millis", 0}, kv{"requests_per_second", javaNum(-1)},
		kv{"throttled_until_millis", 0}, kv{"failures", failures})
	c.reply(w, r, 200, out)
}
