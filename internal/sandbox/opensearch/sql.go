package opensearch

import (
	"net/http"
	"strings"
)

// The _plugins/_sql emulation works like the plugin itself: a statement is parsed (sql_parse.go),
// translated into a search request with query DSL and aggregations that follow the index
// mappings (sql_plan.go, sql_where.go), run by this engine's own search, and turned into rows
// (sql_exec.go, sql_eval.go).

// sqlErr is the SQL plugin's error shape.
type sqlErr struct {
	status  int
	reason  string
	details string
	typ     string
}

func (e *sqlErr) body() obj {
	return obj{{"error", obj{{"reason", e.reason}, {"details", e.details}, {"type", e.typ}}}, {"status", e.status}}
}

func sqlSyntax(details string) *sqlErr {
	return &sqlErr{400, "Invalid SQL query", details, "SyntaxCheckException"}
}

// sqlStatement reads the request's {"query": "..."}.
func sqlStatement(body []byte) (string, *sqlErr) {
	v, perr := parseBody(body, true)
	if perr != nil {
		return "", &sqlErr{400, "Invalid SQL query", perr.reason, "IllegalArgumentException"}
	}
	m, _ := asMap(v)
	stmt, ok := m["query"].(string)
	if !ok || strings.TrimSpace(stmt) == "" {
		return "", &sqlErr{400, "Invalid SQL query", "Failed to parse request payload: [query] is required", "IllegalArgumentException"}
	}
	return stmt, nil
}

func (c *Cluster) handleSQL(w http.ResponseWriter, r *http.Request, body []byte) {
	format := strings.ToLower(r.URL.Query().Get("format"))
	if format == "" {
		format = "jdbc"
	}
	fail := func(e *sqlErr) { c.reply(w, r, e.status, e.body()) }
	switch format {
	case "jdbc", "csv", "raw", "json":
	default:
		fail(&sqlErr{400, "Invalid SQL query", "Failed to create executor due to unknown response format: " + format, "IllegalArgumentException"})
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
		writeText(w, r, 200, "text/plain; charset=UTF-8", res.delimited(",", true))
	case "raw":
		writeText(w, r, 200, "text/plain; charset=UTF-8", res.delimited("|", false))
	case "json":
		// The plugin's json format is the engine's own search answer.
		c.reply(w, r, 200, res.engine)
	default:
		schema := make([]obj, len(res.names))
		for i, n := range res.names {
			schema[i] = obj{{"name", n}, {"type", res.types[i]}}
		}
		c.reply(w, r, 200, obj{{"schema", schema}, {"datarows", res.rows}, {"total", len(res.rows)}, {"size", len(res.rows)}, {"status", 200}})
	}
}

func (s *sqlResult) delimited(sep string, quote bool) string {
	var b strings.Builder
	cell := func(v any) string {
		var str string
		switch t := v.(type) {
		case nil:
			return ""
		case string:
			str = t
		default:
			str = strings.TrimSpace(string(mustJSON(t)))
		}
		if quote && strings.ContainsAny(str, sep+"\"\n\r") {
			str = `"` + strings.ReplaceAll(str, `"`, `""`) + `"`
		}
		return str
	}
	line := func(vals []any) {
		for i, v := range vals {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(cell(v))
		}
		b.WriteByte('\n')
	}
	names := make([]any, len(s.names))
	for i, n := range s.names {
		names[i] = n
	}
	line(names)
	for _, row := range s.rows {
		line(row)
	}
	return b.String()
}

func sqlTypeOf(fd *fieldDef) string {
	if fd == nil {
		return "keyword"
	}
	switch fd.kind {
	case kindDate:
		return "timestamp"
	case kindText:
		return "text"
	case kindBool:
		return "boolean"
	case kindKeyword:
		if fd.typ == "ip" {
			return "ip"
		}
		return "keyword"
	case kindLong:
		switch fd.typ {
		case "integer", "short", "byte":
			return fd.typ
		}
		return "long"
	case kindFloat:
		switch fd.typ {
		case "double", "scaled_float":
			return "double"
		}
		return "float"
	}
	return "keyword"
}
