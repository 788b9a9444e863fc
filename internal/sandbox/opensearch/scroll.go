package opensearch

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/aggs"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/timevalue"
)

// maxOpenContexts mirrors search.max_open_scroll_context and the PIT limit (500 each).
const maxOpenContexts = 500

// maxScrollHits bounds the hits all open scrolls keep together. The engine keeps a cursor per
// shard; the emulation keeps each scroll's ordered hits, so without a bound a client that opens
// scrolls over large indices and never clears them could exhaust the sandbox's memory.
var maxScrollHits = 2_000_000 // a variable so tests can lower it

// scrollCtx is an open scroll: the ordered hits of the search, as they were when it started.
type scrollCtx struct {
	targets []*index.Index
	hits    []hit
	pos     int
	size    int
	view    *hitView
	total   int
	shards  int
	expires time.Time
}

// pitCtx is an open point in time: one pin per index (pit.go).
type pitCtx struct {
	pins    []*index.Pin
	created int64
	keep    time.Duration
	expires time.Time
}

func (p *pitCtx) close() {
	for _, pin := range p.pins {
		pin.Closed.Store(true)
	}
}

// contexts holds open scrolls and points in time.
type contexts struct {
	mu      sync.Mutex
	scrolls map[string]*scrollCtx
	pits    map[string]*pitCtx
	hits    int // hits kept by open scrolls
}

func (x *contexts) purge(now time.Time) {
	for id, s := range x.scrolls {
		if now.After(s.expires) {
			x.dropScroll(id)
		}
	}
	for id, p := range x.pits {
		if now.After(p.expires) {
			p.close()
			delete(x.pits, id)
		}
	}
}

func (x *contexts) dropScroll(id string) {
	if s, ok := x.scrolls[id]; ok {
		x.hits -= len(s.hits)
		delete(x.scrolls, id)
	}
}

// parseTimeValue reads a time value ("30s", "1m", "500ms", "2h", "1d") as the engine does,
// answering its reason when the value is not one.
func parseTimeValue(setting, s string) (time.Duration, *apierr.Error) {
	d, err := timevalue.Parse(s)
	if err != nil {
		return 0, apierr.BadRequest("%s", timevalue.Reason(err, setting, s))
	}
	return d, nil
}

func contextMissing(id string) *apierr.Error {
	cause := apierr.Errf(404, "search_context_missing_exception", "No search context found for id [%s]", id)
	top := apierr.New(404, "search_phase_execution_exception", "all shards failed")
	top.Root = cause
	top.CausedBy = cause
	top.Extra = jsonout.Obj{{"phase", "query"}, {"grouped", true}, {"failed_shards", []jsonout.Obj{{{"shard", -1}, {"index", nil}, {"reason", cause.Body()}}}}}
	return top
}

// newContextID is an opaque base64 id, like the engine's scroll and PIT ids.
func newContextID(kind string) string {
	return base64.URLEncoding.EncodeToString([]byte(kind + ":" + randomID(24)))
}

// searchParams are the URL parameters of a search that shape its answer.
type searchParams struct {
	scroll        string
	totalAsInt    bool
	typedKeys     bool
	ignoreUnavail bool
	wildcards     string // expand_wildcards
}

func searchParamsOf(q url.Values) searchParams {
	return searchParams{
		scroll:        q.Get("scroll"),
		totalAsInt:    q.Get("rest_total_hits_as_int") == "true" || (q.Has("rest_total_hits_as_int") && q.Get("rest_total_hits_as_int") == ""),
		typedKeys:     q.Get("typed_keys") == "true" || (q.Has("typed_keys") && q.Get("typed_keys") == ""),
		ignoreUnavail: q.Get("ignore_unavailable") == "true",
		wildcards:     q.Get("expand_wildcards"),
	}
}

// search runs one search: the body of a _search, or one pair of lines of an _msearch (r nil).
func (c *Cluster) search(r *http.Request, expr string, m map[string]any, raw []byte, sp searchParams) (jsonout.Obj, *apierr.Error) {
	req, err := parseSearch(m, r)
	if err != nil {
		return nil, apierr.WithLocation(err, raw)
	}
	if len(req.aggs) > 0 {
		aggs.SortByRequest(req.aggs, aggs.ReadOrder(raw))
	}
	if sp.totalAsInt {
		if req.explicitTotal && req.totalCap != -1 {
			return nil, apierr.BadRequest("[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got %d", req.totalCap)
		}
		req.totalCap = -1
	}
	var keep time.Duration
	if sp.scroll != "" {
		if keep, err = parseTimeValue("scroll", sp.scroll); err != nil {
			return nil, err
		}
		if req.pit != nil {
			return nil, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: using [point in time] is not allowed in a scroll context;")
		}
		if req.from > 0 {
			return nil, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: using [from] is not allowed in a scroll context;")
		}
		if req.explicitTotal && req.totalCap == 0 {
			return nil, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: disabling [track_total_hits] is not allowed in a scroll context;")
		}
		req.totalCap = -1
		req.keepAll = true
	}
	var pit *pitCtx
	if req.pit != nil {
		if expr != "" {
			return nil, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: [indices] cannot be used with point in time. Do not specify any index with point in time.;")
		}
		var pk time.Duration
		if req.pit.keepAlive != "" {
			if pk, err = parseTimeValue("keep_alive", req.pit.keepAlive); err != nil {
				return nil, err
			}
		}
		now := c.now()
		c.ctxs.mu.Lock()
		c.ctxs.purge(now)
		pit = c.ctxs.pits[req.pit.id]
		if pit != nil && pk > 0 {
			pit.keep = pk
			pit.expires = now.Add(pk)
			for _, pin := range pit.pins {
				pin.Expires.Store(pit.expires.UnixNano())
			}
		}
		c.ctxs.mu.Unlock()
		if pit == nil {
			return nil, contextMissing(req.pit.id)
		}
		req.pitSeq = map[*index.Index]int64{}
		for _, pin := range pit.pins {
			req.pitSeq[pin.Index] = pin.Seq
		}
	}
	c.mu.RLock()
	var targets []*index.Index
	if pit != nil {
		for _, pin := range pit.pins {
			targets = append(targets, pin.Index)
			if side := pin.SideIndex(); side != nil {
				targets = append(targets, side)
			}
		}
	} else {
		targets, err = c.searchIndices(expr, sp.ignoreUnavail, sp.wildcards)
	}
	var out jsonout.Obj
	if err == nil {
		if pit == nil {
			req.aliasFilter = c.aliasFilters(expr)
		}
		out, err = c.execSearch(targets, req)
	}
	c.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	total := hitsTotal(out)
	if sp.typedKeys {
		typeAggKeys(out, req.aggs, targets)
	}
	if sp.totalAsInt {
		totalAsInt(out)
	}
	if pit != nil {
		out = append(jsonout.Obj{{"pit_id", req.pit.id}}, out...)
	}
	if req.keepAll {
		now := c.now()
		sc := &scrollCtx{targets: targets, hits: req.all, pos: min(req.size, len(req.all)), size: req.size,
			view: req.view, total: total, shards: req.shards, expires: now.Add(keep)}
		c.ctxs.mu.Lock()
		c.ctxs.purge(now)
		if len(c.ctxs.scrolls) >= maxOpenContexts {
			c.ctxs.mu.Unlock()
			return nil, apierr.Errf(500, "exception", "Trying to create too many scroll contexts. Must be less than or equal to: [%d]. This limit can be set by changing the [search.max_open_scroll_context] setting.", maxOpenContexts)
		}
		if c.ctxs.hits+len(sc.hits) > maxScrollHits {
			c.ctxs.mu.Unlock()
			return nil, apierr.Errf(429, "rejected_execution_exception", "open scrolls already keep %d hits; this one would exceed the sandbox's bound of %d: clear scrolls (DELETE /_search/scroll) or use search_after with a point in time", c.ctxs.hits, maxScrollHits)
		}
		id := newContextID("scroll")
		c.ctxs.scrolls[id] = sc
		c.ctxs.hits += len(sc.hits)
		c.ctxs.mu.Unlock()
		out = append(jsonout.Obj{{"_scroll_id", id}}, out...)
	}
	return out, nil
}

func hitsTotal(out jsonout.Obj) int {
	for _, m := range out {
		if m.K == "hits" {
			for _, h := range m.V.(jsonout.Obj) {
				if h.K == "total" {
					if t, ok := h.V.(jsonout.Obj); ok {
						n, _ := t[0].V.(int)
						return n
					}
				}
			}
		}
	}
	return 0
}

// totalAsInt renders hits.total as a number (rest_total_hits_as_int, the 6.x shape).
func totalAsInt(out jsonout.Obj) {
	for _, m := range out {
		if m.K == "hits" {
			h := m.V.(jsonout.Obj)
			for i := range h {
				if h[i].K == "total" {
					if t, ok := h[i].V.(jsonout.Obj); ok {
						h[i].V = t[0].V
					}
				}
			}
		}
	}
}

// typeAggKeys prefixes aggregation names with their type ("sterms#by_status"), as typed_keys asks.
func typeAggKeys(out jsonout.Obj, specs []*aggs.Spec, targets []*index.Index) {
	for i := range out {
		if out[i].K == "aggregations" {
			if a, ok := out[i].V.(jsonout.Obj); ok {
				typeAggLevel(a, specs, targets)
			}
		}
	}
}

func typeAggLevel(res jsonout.Obj, specs []*aggs.Spec, targets []*index.Index) {
	for _, sp := range specs {
		for i := range res {
			if res[i].K != sp.Name {
				continue
			}
			res[i].K = aggTypeName(sp, targets) + "#" + sp.Name
			if len(sp.Subs) == 0 {
				break
			}
			body, _ := res[i].V.(jsonout.Obj)
			typeAggLevel(body, sp.Subs, targets)
			for _, m := range body {
				if m.K != "buckets" {
					continue
				}
				switch b := m.V.(type) {
				case []jsonout.Obj:
					for _, x := range b {
						typeAggLevel(x, sp.Subs, targets)
					}
				case jsonout.Obj:
					for _, x := range b {
						if xo, ok := x.V.(jsonout.Obj); ok {
							typeAggLevel(xo, sp.Subs, targets)
						}
					}
				}
			}
			break
		}
	}
}

func aggTypeName(sp *aggs.Spec, targets []*index.Index) string {
	switch sp.Type {
	case "terms":
		field := sp.Common.Field
		for _, ix := range targets {
			if fd := ix.Fields[field]; fd != nil {
				switch fd.Kind {
				case index.KindLong, index.KindDate, index.KindBool:
					return "lterms"
				case index.KindFloat:
					return "dterms"
				}
				return "sterms"
			}
		}
		return "umterms"
	case "percentiles":
		return "tdigest_percentiles"
	}
	return sp.Type
}

// handleScroll answers GET/POST /_search/scroll[/{id}] with the next page of an open scroll.
func (c *Cluster) handleScroll(w http.ResponseWriter, r *http.Request, pathID string, body []byte) {
	v, err := parseBody(body, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	id, keepStr := pathID, r.URL.Query().Get("scroll")
	if s := r.URL.Query().Get("scroll_id"); s != "" {
		id = s
	}
	for k, x := range m {
		switch k {
		case "scroll_id":
			id, _ = jsonval.String(x)
		case "scroll":
			keepStr, _ = jsonval.String(x)
		default:
			c.fail(w, r, apierr.WithLocation(unknownKeyErr(k, x), body))
			return
		}
	}
	if id == "" {
		c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: scrollId is missing;"))
		return
	}
	var keep time.Duration
	if keepStr != "" {
		if keep, err = parseTimeValue("scroll", keepStr); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	if _, derr := base64.URLEncoding.DecodeString(id); derr != nil {
		c.fail(w, r, apierr.BadRequest("Cannot parse scroll id"))
		return
	}
	now := c.now()
	c.ctxs.mu.Lock()
	c.ctxs.purge(now)
	sc := c.ctxs.scrolls[id]
	var page []hit
	if sc != nil {
		end := min(sc.pos+sc.size, len(sc.hits))
		page = sc.hits[sc.pos:end]
		sc.pos = end
		if keep > 0 {
			sc.expires = now.Add(keep)
		}
	}
	c.ctxs.mu.Unlock()
	if sc == nil {
		c.fail(w, r, contextMissing(id))
		return
	}
	c.mu.RLock()
	hits := make([]jsonout.Obj, 0, len(page))
	var maxScore float32
	for i := range page {
		hits = append(hits, sc.view.render(sc.targets[page[i].ord], &page[i]))
		if i == 0 || page[i].score > maxScore {
			maxScore = page[i].score
		}
	}
	c.mu.RUnlock()
	var ms any
	if len(page) > 0 && !sc.view.order.nullScores {
		ms = maxScore
	}
	var total any = jsonout.Obj{{"value", sc.total}, {"relation", "eq"}}
	if searchParamsOf(r.URL.Query()).totalAsInt {
		total = sc.total
	}
	c.reply(w, r, 200, jsonout.Obj{{"_scroll_id", id}, {"took", 0}, {"timed_out", false},
		{"_shards", jsonout.Obj{{"total", sc.shards}, {"successful", sc.shards}, {"skipped", 0}, {"failed", 0}}},
		{"hits", jsonout.Obj{{"total", total}, {"max_score", ms}, {"hits", hits}}}})
}

// idsIn reads the ids of a clear-scroll or delete-PIT body ({key: id} or {key: [ids]});
// any other key is refused, where it stands in the body.
func idsIn(v any, key string, body []byte) ([]string, *apierr.Error) {
	m, _ := jsonval.Map(v)
	var ids []string
	for k, x := range m {
		if k != key {
			return nil, apierr.WithLocation(unknownKeyErr(k, x), body)
		}
		for _, e := range jsonval.List(x) {
			if s, ok := e.(string); ok {
				ids = append(ids, s)
			}
		}
	}
	return ids, nil
}

// handleClearScroll answers DELETE /_search/scroll[/{id}|/_all].
func (c *Cluster) handleClearScroll(w http.ResponseWriter, r *http.Request, pathID string, body []byte) {
	v, err := parseBody(body, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	var ids []string
	if pathID != "" {
		ids = strings.Split(pathID, ",")
	}
	more, aerr := idsIn(v, "scroll_id", body)
	if aerr != nil {
		c.fail(w, r, aerr)
		return
	}
	if ids = append(ids, more...); len(ids) == 0 {
		c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: no scroll ids specified;"))
		return
	}
	c.ctxs.mu.Lock()
	c.ctxs.purge(c.now())
	freed := 0
	for _, id := range ids {
		if id == "_all" {
			freed += len(c.ctxs.scrolls)
			c.ctxs.scrolls = map[string]*scrollCtx{}
			c.ctxs.hits = 0
			continue
		}
		if _, derr := base64.URLEncoding.DecodeString(id); derr != nil {
			c.ctxs.mu.Unlock()
			c.fail(w, r, apierr.BadRequest("Cannot parse scroll id"))
			return
		}
		if _, ok := c.ctxs.scrolls[id]; ok {
			c.ctxs.dropScroll(id)
			freed++
		}
	}
	c.ctxs.mu.Unlock()
	status := 200
	if freed == 0 {
		status = 404 // RestClearScrollAction: nothing freed is NOT_FOUND
	}
	c.reply(w, r, status, jsonout.Obj{{"succeeded", true}, {"num_freed", freed}})
}

// handleCreatePIT answers POST /{index}/_search/point_in_time?keep_alive=.
func (c *Cluster) handleCreatePIT(w http.ResponseWriter, r *http.Request, expr string) {
	ka := r.URL.Query().Get("keep_alive")
	if ka == "" {
		c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: keep alive not specified;"))
		return
	}
	keep, err := parseTimeValue("keep_alive", ka)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	now := c.now()
	c.mu.Lock() // pins are taken with no write in between
	targets, err := c.resolveReq(r, expr, searchOpts)
	var pins []*index.Pin
	shards := 0
	for _, ix := range targets {
		pins = append(pins, ix.Pin(c.now, now.Add(keep)))
		shards += ix.Shards
	}
	c.mu.Unlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	p := &pitCtx{pins: pins, created: now.UnixMilli(), keep: keep, expires: now.Add(keep)}
	c.ctxs.mu.Lock()
	c.ctxs.purge(now)
	if len(c.ctxs.pits) >= maxOpenContexts {
		c.ctxs.mu.Unlock()
		p.close()
		c.fail(w, r, apierr.Errf(500, "exception", "Trying to create too many Point In Time contexts. Must be less than or equal to: [%d]. This limit can be set by changing the [search.max_open_pit_context] setting.", maxOpenContexts))
		return
	}
	id := newContextID("pit")
	c.ctxs.pits[id] = p
	c.ctxs.mu.Unlock()
	c.reply(w, r, 200, jsonout.Obj{{"pit_id", id},
		{"_shards", jsonout.Obj{{"total", shards}, {"successful", shards}, {"skipped", 0}, {"failed", 0}}},
		{"creation_time", p.created}})
}

// handleDeletePIT answers DELETE /_search/point_in_time (body {"pit_id": [...]}) and
// DELETE /_search/point_in_time/_all.
func (c *Cluster) handleDeletePIT(w http.ResponseWriter, r *http.Request, all bool, body []byte) {
	var ids []string
	if !all {
		v, err := parseBody(body, true)
		if err != nil {
			c.fail(w, r, err)
			return
		}
		var aerr *apierr.Error
		if ids, aerr = idsIn(v, "pit_id", body); aerr != nil {
			c.fail(w, r, aerr)
			return
		}
		if len(ids) == 0 {
			c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: No point in time ids specified;"))
			return
		}
	}
	c.ctxs.mu.Lock()
	c.ctxs.purge(c.now())
	if all {
		for id := range c.ctxs.pits {
			ids = append(ids, id)
		}
	}
	res := make([]jsonout.Obj, 0, len(ids))
	for _, id := range ids {
		p, ok := c.ctxs.pits[id]
		if ok {
			p.close()
		}
		delete(c.ctxs.pits, id)
		res = append(res, jsonout.Obj{{"successful", ok}, {"pit_id", id}})
	}
	c.ctxs.mu.Unlock()
	c.reply(w, r, 200, jsonout.Obj{{"pits", res}})
}

// handleListPITs answers GET /_search/point_in_time/_all.
func (c *Cluster) handleListPITs(w http.ResponseWriter, r *http.Request) {
	c.ctxs.mu.Lock()
	c.ctxs.purge(c.now())
	res := make([]jsonout.Obj, 0, len(c.ctxs.pits))
	for id, p := range c.ctxs.pits {
		res = append(res, jsonout.Obj{{"pit_id", id}, {"creation_time", p.created}, {"keep_alive", p.keep.Milliseconds()}})
	}
	c.ctxs.mu.Unlock()
	c.reply(w, r, 200, jsonout.Obj{{"pits", res}})
}
