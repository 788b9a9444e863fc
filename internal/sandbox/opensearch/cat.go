package opensearch

import (
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// catTable is a _cat answer: columns and rows of strings, rendered as text or JSON.
type catTable struct {
	cols []string
	rows [][]string
	num  map[string]bool // right-aligned columns
}

func strconvFloat(f float64, prec int) string { return strconv.FormatFloat(f, 'f', prec, 64) }

func (c *Cluster) writeCat(w http.ResponseWriter, r *http.Request, t catTable) {
	q := r.URL.Query()
	cols := t.cols
	if h := q.Get("h"); h != "" {
		cols = nil
		for _, name := range strings.Split(h, ",") {
			for _, col := range t.cols {
				if col == strings.TrimSpace(name) {
					cols = append(cols, col)
				}
			}
		}
	}
	pos := map[string]int{}
	for i, col := range t.cols {
		pos[col] = i
	}
	if s := q.Get("s"); s != "" {
		key, dir, _ := strings.Cut(s, ":")
		if i, ok := pos[key]; ok {
			sort.SliceStable(t.rows, func(a, b int) bool {
				x, y := t.rows[a][i], t.rows[b][i]
				less := x < y
				if t.num[key] {
					fx, _ := strconv.ParseFloat(x, 64)
					fy, _ := strconv.ParseFloat(y, 64)
					less = fx < fy
				}
				if dir == "desc" {
					if t.num[key] {
						fx, _ := strconv.ParseFloat(x, 64)
						fy, _ := strconv.ParseFloat(y, 64)
						return fx > fy
					}
					return x > y
				}
				return less
			})
		}
	}
	if q.Get("format") == "json" {
		out := make([]jsonout.Obj, 0, len(t.rows))
		for _, row := range t.rows {
			o := jsonout.Obj{}
			for _, col := range cols {
				var v any = row[pos[col]]
				if v == "" && t.num[col] {
					v = nil // a figure the row has none of (a closed index's docs.count) is null
				}
				o = append(o, jsonout.KV{col, v})
			}
			out = append(out, o)
		}
		c.reply(w, r, 200, out)
		return
	}
	widths := make([]int, len(cols))
	header := q.Has("v") && q.Get("v") != "false"
	for i, col := range cols {
		if header {
			widths[i] = len(col)
		}
		for _, row := range t.rows {
			if l := len(row[pos[col]]); l > widths[i] {
				widths[i] = l
			}
		}
	}
	var b strings.Builder
	line := func(vals func(i int) string) {
		for i, col := range cols {
			v := vals(i)
			pad := strings.Repeat(" ", widths[i]-len(v))
			if t.num[col] && !header {
				b.WriteString(pad + v)
			} else if t.num[col] {
				b.WriteString(pad + v)
			} else {
				b.WriteString(v + pad)
			}
			if i < len(cols)-1 {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	if header {
		line(func(i int) string { return cols[i] })
	}
	for _, row := range t.rows {
		line(func(i int) string { return row[pos[cols[i]]] })
	}
	writeText(w, r, 200, "text/plain; charset=UTF-8", b.String())
}

func (c *Cluster) handleCatIndices(w http.ResponseWriter, r *http.Request, expr string) {
	c.mu.RLock()
	list, err := c.resolveReq(r, expr, resolveOpts{wildcards: expandOpenClosed}) // strictExpand
	if err != nil {
		c.mu.RUnlock()
		c.fail(w, r, err)
		return
	}
	t := catTable{
		cols: []string{"health", "status", "index", "uuid", "pri", "rep", "docs.count", "docs.deleted", "store.size", "pri.store.size"},
		num:  map[string]bool{"pri": true, "rep": true, "docs.count": true, "docs.deleted": true, "store.size": true, "pri.store.size": true},
	}
	raw := r.URL.Query().Get("bytes") == "b"
	size := func(n int64) string {
		if raw {
			return itoa64(n)
		}
		return humanBytes(n)
	}
	for _, ix := range list {
		pri := ix.StoreSize()
		total := pri * int64(1+c.assignedReplicas(ix))
		if c.closed[ix] { // a closed index has no stats to show (RestIndicesAction)
			t.rows = append(t.rows, []string{c.indexHealth(ix), "close", ix.Name, ix.UUID, itoa(ix.Shards), itoa(ix.Replicas), "", "", "", ""})
			continue
		}
		t.rows = append(t.rows, []string{c.indexHealth(ix), "open", ix.Name, ix.UUID, itoa(ix.Shards), itoa(ix.Replicas),
			itoa(ix.LiveCount()), itoa(ix.Deleted), size(total), size(pri)})
	}
	c.mu.RUnlock()
	c.writeCat(w, r, t)
}

func (c *Cluster) handleCatHealth(w http.ResponseWriter, r *http.Request, _ []byte) {
	c.mu.RLock()
	status := "green"
	shards, pri, unassigned := 0, 0, 0
	for _, ix := range c.indices {
		pri += ix.Shards
		shards += ix.Shards * (1 + c.assignedReplicas(ix))
		unassigned += ix.Shards * (ix.Replicas - c.assignedReplicas(ix))
		if c.indexHealth(ix) == "yellow" {
			status = "yellow"
		}
	}
	now := c.now()
	c.mu.RUnlock()
	pct := 100.0
	if shards+unassigned > 0 {
		pct = float64(shards) * 100 / float64(shards+unassigned)
	}
	t := catTable{
		cols: []string{"epoch", "timestamp", "cluster", "status", "node.total", "node.data", "discovered_cluster_manager", "shards", "pri", "relo", "init", "unassign", "pending_tasks", "max_task_wait_time", "active_shards_percent"},
		num:  map[string]bool{"epoch": true, "node.total": true, "node.data": true, "shards": true, "pri": true, "relo": true, "init": true, "unassign": true, "pending_tasks": true},
		rows: [][]string{{itoa64(now.Unix()), now.UTC().Format("15:04:05"), c.name, status, itoa(c.nodes), itoa(c.nodes), "true",
			itoa(shards), itoa(pri), "0", "0", itoa(unassigned), "0", "-", strconvFloat(pct, 1) + "%"}},
	}
	c.writeCat(w, r, t)
}

func (c *Cluster) handleCatCount(w http.ResponseWriter, r *http.Request, expr string) {
	c.mu.RLock()
	list, err := c.resolve(expr, false)
	n := 0
	for _, ix := range list {
		n += ix.LiveCount()
	}
	now := c.now()
	c.mu.RUnlock()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	t := catTable{cols: []string{"epoch", "timestamp", "count"}, num: map[string]bool{"epoch": true, "count": true},
		rows: [][]string{{itoa64(now.Unix()), now.UTC().Format("15:04:05"), itoa(n)}}}
	c.writeCat(w, r, t)
}
