package sql

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
)

// Result is a finished query: typed columns, rows, and the engine's own answer (format=json).
type Result struct {
	Names  []string
	Types  []string
	Rows   [][]any
	Engine json.RawMessage
}

// prepare parses a statement and translates it against the indices it names.
func prepare(e Engine, stmt string) (*sqlPlan, *sqlErr) {
	sel, err := parseSQL(strings.TrimSpace(stmt))
	if err != nil {
		return nil, err
	}
	targets, aerr := e.Tables(sel.from)
	if aerr == nil && len(targets) == 0 {
		aerr = &EngineError{Status: 404, Type: "index_not_found_exception", Reason: "no such index [" + sel.from + "]"}
	}
	if aerr != nil {
		return nil, &sqlErr{aerr.Status, "Error occurred in OpenSearch engine: " + aerr.Reason,
			"org.opensearch.index.IndexNotFoundException: " + aerr.Reason + "\nFor more details, please send request for Json format to see the raw response from OpenSearch engine.",
			"IndexNotFoundException"}
	}
	return planSQL(sel, targets)
}

// Run runs one statement through the engine's search and aggregations.
func Run(e Engine, stmt string) (*Result, *Error) {
	p, err := prepare(e, stmt)
	if err != nil {
		return nil, err
	}
	// The request goes through JSON, exactly as _explain shows it and as a user could paste it.
	raw, aerr := e.Search(p.targets, mustJSON(p.body))
	if aerr != nil {
		return nil, engineSQLErr(aerr)
	}
	v, derr := decodeJSON(raw)
	out, _ := v.(map[string]any)
	if derr != nil || out == nil {
		return nil, &sqlErr{500, "Error occurred in OpenSearch engine", "the engine's answer is not a JSON object", "IllegalStateException"}
	}
	res := &Result{Engine: raw}
	for _, col := range p.cols {
		res.Names = append(res.Names, col.name)
		res.Types = append(res.Types, col.typ)
	}
	var rows []map[string]any
	if p.grouped {
		rows = p.groupRows(out)
	} else {
		rows = p.hitRows(out)
	}
	for _, r := range rows {
		vals := make([]any, len(p.cols))
		for i, col := range p.cols {
			vals[i] = sqlOut(evalSQL(col.expr, r), col.typ)
		}
		res.Rows = append(res.Rows, vals)
	}
	if res.Rows == nil {
		res.Rows = [][]any{}
	}
	return res, nil
}

// engineSQLErr reports an engine failure the way the plugin wraps OpenSearch exceptions.
func engineSQLErr(e *EngineError) *sqlErr {
	return &sqlErr{e.Status, "Error occurred in OpenSearch engine: " + e.Reason,
		e.Reason + "\nFor more details, please send request for Json format to see the raw response from OpenSearch engine.",
		javaExceptionName(e.Type)}
}

// javaExceptionName turns search_phase_execution_exception into SearchPhaseExecutionException.
func javaExceptionName(typ string) string {
	var b strings.Builder
	for _, part := range strings.Split(typ, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func objGet(o any, k string) any {
	m, _ := o.(map[string]any)
	return m[k]
}

// asInt reads a count of the engine's answer.
func asCount(v any) int {
	f, _ := jsonval.Float(v)
	return int(f)
}

// hitRows reads each hit's fields from its _source, typed by its index's mapping.
func (p *sqlPlan) hitRows(out map[string]any) []map[string]any {
	list, _ := objGet(objGet(out, "hits"), "hits").([]any)
	byName := map[string]*Table{}
	for _, ix := range p.targets {
		byName[ix.name] = ix
	}
	var fields []string
	for _, col := range p.cols {
		walkSQL(col.expr, func(x sqlExpr) {
			if r, ok := x.(*sqlColRef); ok && !slices.Contains(fields, r.name) {
				fields = append(fields, r.name)
			}
		})
	}
	rows := make([]map[string]any, 0, len(list))
	for _, h := range list {
		name, _ := objGet(h, "_index").(string)
		id, _ := objGet(h, "_id").(string)
		ix := byName[name]
		if ix == nil {
			continue
		}
		src, _ := objGet(h, "_source").(map[string]any)
		row := map[string]any{}
		for _, f := range fields {
			switch f {
			case "_id":
				row[f] = id
			case "_index":
				row[f] = name
			case "_score":
				row[f] = objGet(h, "_score")
			default:
				row[f] = sqlValue(ix, src, f)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// groupRows walks the nested terms (and missing) buckets into one row per group, then applies
// HAVING, ORDER BY and LIMIT, which the plugin also runs over the aggregated rows.
func (p *sqlPlan) groupRows(out map[string]any) []map[string]any {
	var rows []map[string]any
	var walk func(level any, depth int, keys []any, count int)
	walk = func(level any, depth int, keys []any, count int) {
		if depth == len(p.groups) {
			row := map[string]any{}
			for i, g := range p.groups {
				row[g] = keys[i]
			}
			for _, a := range p.aggs {
				row[a.key] = p.aggValue(a, level, count)
			}
			rows = append(rows, row)
			return
		}
		// The NULL group comes first, like the plugin's composite buckets (missing_order first).
		g := p.groups[depth]
		if m := objGet(level, g+"#missing"); m != nil {
			if n := asCount(objGet(m, "doc_count")); n > 0 {
				walk(m, depth+1, append(keys[:depth:depth], nil), n)
			}
		}
		buckets, _ := objGet(objGet(level, g), "buckets").([]any)
		for _, b := range buckets {
			n := asCount(objGet(b, "doc_count"))
			walk(b, depth+1, append(keys[:depth:depth], p.bucketKey(g, b)), n)
		}
	}
	aggs := objGet(out, "aggregations")
	n := asCount(objGet(objGet(objGet(out, "hits"), "total"), "value"))
	if len(p.groups) > 0 || len(p.aggs) > 0 {
		walk(aggs, 0, nil, n)
	}
	if p.having != nil {
		kept := rows[:0]
		for _, r := range rows {
			if truthy(evalSQL(p.having, r)) {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	if len(p.order) > 0 {
		sortSQLRows(rows, p.order)
	}
	from := min(p.sel.offset, len(rows))
	rows = rows[from:]
	limit := defaultSQLRows
	if p.sel.limit >= 0 {
		limit = p.sel.limit
	}
	return rows[:min(limit, len(rows))]
}

func (p *sqlPlan) bucketKey(field string, b any) any {
	key := objGet(b, "key")
	f, _ := jsonval.Float(key)
	switch fd := p.fields[field]; fd.kind {
	case kindDate:
		return sqlTimestamp(int64(f))
	case kindBool:
		return f != 0
	case kindLong:
		return int64(f)
	case kindFloat:
		return f
	}
	return key
}

// aggValue reads one aggregate from a bucket (or the top level), typed like the plugin's.
func (p *sqlPlan) aggValue(a *sqlAgg, level any, count int) any {
	if a.star {
		return int64(count)
	}
	v := objGet(objGet(level, a.key), "value")
	if v == nil {
		return nil
	}
	f, _ := jsonval.Float(v)
	switch {
	case a.fn == "COUNT":
		return int64(f)
	case a.fn == "AVG":
		return f
	case a.fd != nil && a.fd.kind == kindDate:
		return sqlTimestamp(int64(f))
	case a.fd != nil && a.fd.kind == kindLong:
		return int64(f)
	}
	return f
}

func sqlTimestamp(ms int64) string {
	t := time.UnixMilli(ms).UTC()
	if ms%1000 != 0 {
		return t.Format("2006-01-02 15:04:05.000")
	}
	return t.Format("2006-01-02 15:04:05")
}

// sqlValue reads a document's field as the column's value: the first value for numbers, dates
// and booleans; text and keyword arrays as their JSON text.
func sqlValue(ix *Table, src map[string]any, field string) any {
	fd := ix.fields[field]
	if fd == nil {
		return nil
	}
	var vals []any
	for _, v := range jsonval.SourceValues(src, sourcePath(fd)) {
		if v != nil {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return nil
	}
	v := vals[0]
	switch fd.kind {
	case kindText, kindKeyword:
		if len(vals) > 1 {
			return string(mustJSON(jsonval.Plain(vals)))
		}
		s, _ := jsonval.String(v)
		return s
	case kindLong:
		f, err := index.ParseLong(v, fd.typ)
		if err != nil {
			return nil
		}
		return int64(f)
	case kindFloat:
		if f, ok := jsonval.Float(v); ok {
			return f
		}
	case kindDate:
		s, _ := jsonval.String(v)
		if ms, ok := dates.ParseFormat(s, fd.format); ok {
			return sqlTimestamp(ms)
		}
	case kindBool:
		if b, ok := jsonval.Bool(v); ok {
			return b
		}
	}
	return nil
}

// sqlOut renders a value for its column type: floats as 32-bit numbers, like the plugin.
func sqlOut(v any, typ string) any {
	switch t := v.(type) {
	case int64:
		switch typ {
		case "float", "double":
			return float64(t)
		}
	case float64:
		switch typ {
		case "float":
			return json.Number(strconv.FormatFloat(t, 'g', -1, 32))
		case "long", "integer", "short", "byte":
			return int64(t)
		}
	case float32:
		return json.Number(strconv.FormatFloat(float64(t), 'g', -1, 32))
	}
	return v
}
