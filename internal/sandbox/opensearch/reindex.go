package opensearch

import (
	"net/http"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/painless"
	"github.com/svcui/svcui/internal/sandbox/opensearch/query"
)

func (c *Cluster) handleReindex(w http.ResponseWriter, r *http.Request, body []byte) {
	start := time.Now()
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := jsonval.Map(v)
	var sc *painless.Script
	if sv, ok := m["script"]; ok {
		if sc, err = parseScript(sv); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	src, _ := jsonval.Map(m["source"])
	dst, _ := jsonval.Map(m["dest"])
	var srcExpr []string
	for _, x := range jsonval.List(src["index"]) {
		s, _ := jsonval.String(x)
		if s != "" {
			srcExpr = append(srcExpr, s)
		}
	}
	destName, _ := dst["index"].(string)
	var problems []string
	if len(srcExpr) == 0 {
		problems = append(problems, "use _all if you really want to copy from all existing indexes")
	}
	if destName == "" {
		problems = append(problems, "index must be specified")
	}
	if len(problems) > 0 {
		reason := "Validation Failed: "
		for i, p := range problems {
			reason += itoa(i+1) + ": " + p + ";"
		}
		c.fail(w, r, apierr.New(400, "action_request_validation_exception", reason))
		return
	}
	for k := range m {
		switch k {
		case "source", "dest", "max_docs", "size", "conflicts", "script":
		default:
			c.fail(w, r, apierr.Parsing("[reindex] unknown field [%s]", k))
			return
		}
	}
	maxDocs := -1
	for _, k := range []string{"max_docs", "size"} {
		if x, ok := m[k]; ok {
			n, ok := jsonval.Int(x)
			if !ok || n < 0 {
				c.fail(w, r, apierr.BadRequest("[max_docs] parameter cannot be negative, found [%v]", x))
				return
			}
			maxDocs = n
		}
	}
	if s := r.URL.Query().Get("max_docs"); s != "" {
		if n, ok := jsonval.Int(s); ok && n >= 0 {
			maxDocs = n
		}
	}
	proceed := m["conflicts"] == "proceed"
	var q query.Query = &query.MatchAllQuery{Boost: 1}
	if qv, ok := src["query"]; ok {
		if q, err = query.Parse(qv); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	filter, err := parseSourceFilter(src["_source"])
	if err != nil {
		c.fail(w, r, err)
		return
	}
	batch := 1000
	if n, ok := jsonval.Int(src["size"]); ok && n > 0 {
		batch = n
	}
	opCreate := dst["op_type"] == "create"

	c.mu.Lock()
	defer c.mu.Unlock()
	sources, err := c.resolveWith(strings.Join(srcExpr, ","), searchOpts)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	for _, ix := range sources {
		if ix.Name == destName {
			c.fail(w, r, apierr.Errf(400, "action_request_validation_exception", "Validation Failed: 1: reindex cannot write into an index its reading from [%s];", destName))
			return
		}
	}
	type pending struct {
		id  string
		raw []byte
	}
	var docs []pending
	now := c.now()
	for _, ix := range sources {
		ms, err := q.Eval(&query.Context{Index: ix, Now: now})
		if err != nil {
			c.fail(w, r, shardFailure(err, ix.Name))
			return
		}
		index.ForEach(query.AndBits(ms.Bits, ix.Live), func(s int32) {
			if maxDocs >= 0 && len(docs) >= maxDocs {
				return
			}
			d := ix.Docs[s]
			raw := d.Raw
			if len(filter.includes) > 0 || len(filter.excludes) > 0 {
				raw = filter.filterRaw(d.Raw)
			}
			docs = append(docs, pending{d.ID, raw})
		})
	}
	created, updated, conflicts, noops, deleted := 0, 0, 0, 0, 0
	failures := []jsonout.Obj{}
	for _, d := range docs {
		if sc != nil {
			// The script sees ctx._source and may set ctx.op to noop or delete (in the destination).
			v, _ := apierr.DecodeJSON(d.raw)
			src, _ := v.(map[string]any)
			op, serr := runScript(sc, src)
			if serr != nil {
				c.fail(w, r, serr)
				return
			}
			switch op {
			case "noop":
				noops++
				continue
			case "delete":
				if dst, ok := c.indices[destName]; ok && dst.Remove(d.id).Result == "deleted" {
					deleted++
				}
				continue
			}
			d.raw = jsonout.Marshal(src)
		}
		res, _, werr := c.indexDoc(destName, d.id, d.raw, opCreate)
		if werr != nil {
			if werr.Status == 409 {
				conflicts++
				if proceed {
					continue
				}
			}
			failures = append(failures, jsonout.Obj{{"index", destName}, {"id", d.id}, {"cause", werr.Body()}, {"status", werr.Status}})
			break
		}
		if res.Result == "created" {
			created++
		} else {
			updated++
		}
	}
	batches := 0
	if len(docs) > 0 {
		batches = (len(docs) + batch - 1) / batch
	}
	c.reply(w, r, 200, jsonout.Obj{
		{"took", time.Since(start).Milliseconds()}, {"timed_out", false}, {"total", len(docs)},
		{"updated", updated}, {"created", created}, {"deleted", deleted}, {"batches", batches},
		{"version_conflicts", conflicts}, {"noops", noops}, {"retries", jsonout.Obj{{"bulk", 0}, {"search", 0}}},
		{"throttled_millis", 0}, {"requests_per_second", jsonout.JavaNumber(-1)}, {"throttled_until_millis", 0},
		{"failures", failures},
	})
}
