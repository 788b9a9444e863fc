package opensearch

import (
	"net/http"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/sql"
)

// The _plugins/_sql emulation is package sql: it parses a statement, translates it into a search
// request following the index mappings, runs it through this engine (sqlEngine) and builds rows.

// sqlErr is the SQL plugin's error shape.
type sqlErr = sql.Error

func sqlErrBody(e *sqlErr) jsonout.Obj {
	return jsonout.Obj{{"error", jsonout.Obj{{"reason", e.Reason}, {"details", e.Details}, {"type", e.Type}}}, {"status", e.Status}}
}

// sqlEngine is the cluster as the SQL translation sees it; the caller holds the read lock.
type sqlEngine struct{ c *Cluster }

func (e sqlEngine) Tables(from string) ([]*sql.Table, *sql.EngineError) {
	targets, err := e.c.resolveWith(from, searchOpts)
	if err != nil {
		return nil, &sql.EngineError{Status: err.Status, Type: err.Type, Reason: err.Reason}
	}
	out := make([]*sql.Table, len(targets))
	for i, ix := range targets {
		fields := make(map[string]*sql.Field, len(ix.Fields))
		for p, fd := range ix.Fields {
			format := ""
			if fd.Mapping != nil {
				format = fd.Mapping.Format
			}
			fields[p] = sql.NewField(fd.Path, fd.Type, sqlKinds[fd.Kind], format, fd.Multi)
		}
		out[i] = sql.NewTable(ix.Name, fields, ix)
	}
	return out, nil
}

var sqlKinds = map[index.Kind]sql.Kind{index.KindNone: sql.None, index.KindText: sql.Text, index.KindKeyword: sql.Keyword, index.KindLong: sql.Long,
	index.KindFloat: sql.Float, index.KindDate: sql.Date, index.KindBool: sql.Bool, index.KindObject: sql.Object}

func (e sqlEngine) Search(tables []*sql.Table, body []byte) ([]byte, *sql.EngineError) {
	fail := func(err *apierr.Error) *sql.EngineError {
		cause := err
		if err.Root != nil {
			cause = err.Root
		}
		return &sql.EngineError{Status: err.Status, Type: err.Type, Reason: cause.Reason}
	}
	v, derr := apierr.DecodeJSON(body)
	if derr != nil {
		return nil, &sql.EngineError{Status: 500, Type: "illegal_state_exception", Reason: "the translated request is not valid JSON"}
	}
	m, _ := jsonval.Map(v)
	req, err := parseSearch(m, nil)
	if err != nil {
		return nil, fail(err)
	}
	targets := make([]*index.Index, len(tables))
	for i, t := range tables {
		targets[i] = t.Handle.(*index.Index)
	}
	out, err := e.c.execSearch(targets, req)
	if err != nil {
		return nil, fail(err)
	}
	b, merr := out.MarshalJSON()
	if merr != nil {
		return nil, &sql.EngineError{Status: 500, Type: "exception", Reason: "failed to render the search answer"}
	}
	return b, nil
}

// runSQL runs one statement under the read lock.
func (c *Cluster) runSQL(stmt string) (*sql.Result, *sqlErr) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return sql.Run(sqlEngine{c}, stmt)
}

// sqlStatement reads the request's {"query": "..."}.
func sqlStatement(body []byte) (string, *sqlErr) {
	v, perr := parseBody(body, true)
	if perr != nil {
		return "", &sqlErr{Status: 400, Reason: "Invalid SQL query", Details: perr.Reason, Type: "IllegalArgumentException"}
	}
	m, _ := jsonval.Map(v)
	stmt, ok := m["query"].(string)
	if !ok || strings.TrimSpace(stmt) == "" {
		return "", &sqlErr{Status: 400, Reason: "Invalid SQL query", Details: "Failed to parse request payload: [query] is required", Type: "IllegalArgumentException"}
	}
	return stmt, nil
}

func (c *Cluster) handleSQL(w http.ResponseWriter, r *http.Request, body []byte) {
	format := strings.ToLower(r.URL.Query().Get("format"))
	if format == "" {
		format = "jdbc"
	}
	fail := func(e *sqlErr) { c.reply(w, r, e.Status, sqlErrBody(e)) }
	switch format {
	case "jdbc", "csv", "raw", "json":
	default:
		fail(&sqlErr{Status: 400, Reason: "Invalid SQL query", Details: "Failed to create executor due to unknown response format: " + format, Type: "IllegalArgumentException"})
		return
	}
	stmt, serr := sqlStatement(body)
	if serr != nil {
		fail(serr)
		return
	}
	res, serr := c.runSQL(stmt)
	if serr != nil {
		fail(serr)
		return
	}
	switch format {
	case "csv":
		writeText(w, r, 200, "text/plain; charset=UTF-8", res.Delimited(",", true))
	case "raw":
		writeText(w, r, 200, "text/plain; charset=UTF-8", res.Delimited("|", false))
	case "json":
		// The plugin's json format is the engine's own search answer.
		c.reply(w, r, 200, res.Engine)
	default:
		schema := make([]jsonout.Obj, len(res.Names))
		for i, n := range res.Names {
			schema[i] = jsonout.Obj{{"name", n}, {"type", res.Types[i]}}
		}
		c.reply(w, r, 200, jsonout.Obj{{"schema", schema}, {"datarows", res.Rows}, {"total", len(res.Rows)}, {"size", len(res.Rows)}, {"status", 200}})
	}
}

// handleSQLExplain answers POST /_plugins/_sql/_explain with the plan (sql.Explain).
func (c *Cluster) handleSQLExplain(w http.ResponseWriter, r *http.Request, body []byte) {
	stmt, serr := sqlStatement(body)
	if serr == nil {
		c.mu.RLock()
		plan, err := sql.Explain(sqlEngine{c}, stmt)
		c.mu.RUnlock()
		if err == nil {
			c.reply(w, r, 200, jsonout.Obj{{"root", plan}})
			return
		}
		serr = err
	}
	c.reply(w, r, serr.Status, sqlErrBody(serr))
}
