package opensearch

import (
	"net/http"
	"strings"

	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/sql"
)

// handlePPL answers POST /_plugins/_ppl (sql.RunPPL) with the plugin's SimpleJsonResponseFormatter
// shape: schema (PPL type names), datarows, total, size.
func (c *Cluster) handlePPL(w http.ResponseWriter, r *http.Request, body []byte) {
	fail := func(e *sqlErr) { c.reply(w, r, e.Status, sqlErrBody(e)) }
	format := strings.ToLower(r.URL.Query().Get("format"))
	switch format {
	case "", "jdbc", "json", "csv", "raw":
	default:
		fail(&sqlErr{Status: 400, Reason: "Invalid Query", Details: "response in " + format + " format is not supported.", Type: "IllegalArgumentException"})
		return
	}
	stmt, serr := sqlStatement(body)
	if serr != nil {
		serr.Reason = "Invalid Query"
		fail(serr)
		return
	}
	c.mu.RLock()
	res, serr := sql.RunPPL(sqlEngine{c}, stmt)
	c.mu.RUnlock()
	if serr != nil {
		fail(serr)
		return
	}
	switch format {
	case "csv":
		writeText(w, r, 200, "text/plain; charset=UTF-8", res.Delimited(",", true))
		return
	case "raw":
		writeText(w, r, 200, "text/plain; charset=UTF-8", res.Delimited("|", false))
		return
	}
	schema := make([]jsonout.Obj, len(res.Names))
	for i, n := range res.Names {
		schema[i] = jsonout.Obj{{"name", n}, {"type", sql.PPLType(res.Types[i])}}
	}
	c.reply(w, r, 200, jsonout.Obj{{"schema", schema}, {"datarows", res.Rows}, {"total", len(res.Rows)}, {"size", len(res.Rows)}})
}
