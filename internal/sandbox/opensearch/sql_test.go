package opensearch

import (
	"reflect"
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

func TestSQLJdbc(t *testing.T) {
	_, h := loadFixture(t)
	cases := []struct {
		name   string
		query  string
		schema []string
		rows   [][]any
	}{
		{"group by with aggregates",
			`SELECT category, COUNT(*), AVG(price) FROM docs GROUP BY category ORDER BY category`,
			[]string{"category:keyword", "COUNT(*):long", "AVG(price):double"},
			[][]any{{"animals", 2.0, 32.75}, {"food", 2.0, 20.0}, {"news", 1.0, 150.0}}},
		{"where and limit with typed columns",
			`SELECT title, qty, price, active, published FROM docs WHERE qty > 4 ORDER BY qty DESC LIMIT 2`,
			[]string{"title:text", "qty:long", "price:float", "active:boolean", "published:timestamp"},
			[][]any{{"Fox news", 9.0, 150.0, true, "2024-03-04 08:00:00"}, {"Brown bread", 7.0, nil, false, "2024-03-02 09:15:00"}}},
		{"min max sum alias",
			`SELECT MIN(qty) AS lo, MAX(qty) AS hi, SUM(qty) AS total FROM docs`,
			[]string{"lo:long", "hi:long", "total:long"},
			[][]any{{1.0, 9.0, 25.0}}},
		{"timestamp comparison",
			`SELECT COUNT(*) FROM docs WHERE published >= '2024-03-02'`,
			[]string{"COUNT(*):long"},
			[][]any{{3.0}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, m := doJSON(t, h, "POST", "/_plugins/_sql", `{"query":`+string(jsonout.Marshal(tc.query))+`}`)
			mustStatus(t, 200, code, m)
			var schema []string
			for _, c := range m["schema"].([]any) {
				cm := c.(map[string]any)
				schema = append(schema, cm["name"].(string)+":"+cm["type"].(string))
			}
			if !reflect.DeepEqual(schema, tc.schema) {
				t.Fatalf("schema = %v, want %v", schema, tc.schema)
			}
			var rows [][]any
			for _, r := range m["datarows"].([]any) {
				rows = append(rows, r.([]any))
			}
			if !reflect.DeepEqual(rows, tc.rows) {
				t.Fatalf("rows = %v, want %v", rows, tc.rows)
			}
			if m["total"] != float64(len(tc.rows)) || m["size"] != float64(len(tc.rows)) || m["status"] != 200.0 {
				t.Fatalf("total/size/status: %v", m)
			}
		})
	}
}

func TestSQLFormatsAndNames(t *testing.T) {
	_, h := loadFixture(t)
	do(t, h, "POST", "/logs-2024/_doc/1", `{"level":"ERROR","msg":"a, \"quoted\" value","@timestamp":"2024-01-01T00:00:00Z","user":{"name":"ann"}}`)
	do(t, h, "POST", "/logs-2024/_doc/2", `{"level":"INFO","msg":"plain","@timestamp":"2024-01-02T00:00:00Z","user":{"name":"bob"}}`)
	q := `{"query":"SELECT level, msg FROM logs-2024 ORDER BY level"}`
	code, raw := do(t, h, "POST", "/_plugins/_sql?format=csv", q)
	if code != 200 || string(raw) != "level,msg\nERROR,\"a, \"\"quoted\"\" value\"\nINFO,plain\n" {
		t.Fatalf("csv: %d %q", code, raw)
	}
	code, raw = do(t, h, "POST", "/_plugins/_sql?format=raw", q)
	if code != 200 || string(raw) != "level|msg\nERROR|a, \"quoted\" value\nINFO|plain\n" {
		t.Fatalf("raw: %d %q", code, raw)
	}
	_, m := doJSON(t, h, "POST", "/_plugins/_sql", `{"query":"SELECT user.name, @timestamp FROM logs-2024 WHERE user.name = 'bob'"}`)
	if get(m, "datarows.0.0") != "bob" || get(m, "datarows.0.1") != "2024-01-02 00:00:00" || get(m, "schema.1.type") != "timestamp" {
		t.Fatalf("dotted and @ columns: %v", m)
	}
	_, m = doJSON(t, h, "POST", "/_plugins/_sql?format=json", q)
	if get(m, "hits.total.value") != 2.0 || get(m, "hits.hits.0._source.level") != "ERROR" {
		t.Fatalf("json: %v", m)
	}
	// The cache follows writes.
	do(t, h, "POST", "/logs-2024/_doc/3", `{"level":"WARN"}`)
	_, m = doJSON(t, h, "POST", "/_plugins/_sql", `{"query":"SELECT COUNT(*) FROM logs-2024"}`)
	if get(m, "datarows.0.0") != 3.0 {
		t.Fatalf("stale SQL cache: %v", m)
	}
	do(t, h, "DELETE", "/logs-2024/_doc/3", ``)
	_, m = doJSON(t, h, "POST", "/_plugins/_sql", `{"query":"SELECT COUNT(*) FROM logs-2024"}`)
	if get(m, "datarows.0.0") != 2.0 {
		t.Fatalf("stale SQL cache after delete: %v", m)
	}
	// Index patterns become one table.
	_, m = doJSON(t, h, "POST", "/_plugins/_sql", `{"query":"SELECT COUNT(*) FROM logs-*"}`)
	if get(m, "datarows.0.0") != 2.0 {
		t.Fatalf("pattern: %v", m)
	}
}

func TestSQLErrors(t *testing.T) {
	_, h := loadFixture(t)
	cases := []struct {
		query, typ string
		status     int
		detail     string
	}{
		{`DELETE FROM docs`, "SyntaxCheckException", 400, "offending symbol [DELETE] at: 'DELETE' <--- HERE... More details: only SELECT"},
		{`SELECT * FROM docs; DROP TABLE docs`, "SyntaxCheckException", 400, "offending symbol [;] at: 'SELECT * FROM docs;' <--- HERE... More details: multiple statements"},
		{`SELECT nope FROM docs`, "SemanticCheckException", 400, "can't resolve Symbol(namespace=FIELD_NAME, name=nope) in type env"},
		{`SELECT * FROM docs WHERE nope = 1`, "SemanticCheckException", 400, "name=nope"},
		{`SELECT * FROM missing`, "IndexNotFoundException", 404, "no such index [missing]"},
		{`SELEC * FROM docs`, "SyntaxCheckException", 400, "offending symbol [SELEC]"},
		{`SELECT * FROM docs WHERE`, "SyntaxCheckException", 400, "offending symbol [<EOF>] at: 'SELECT * FROM docs WHERE' <--- HERE"},
		{`SELECT title FROM docs WHERE qty > 1 ORDER`, "SyntaxCheckException", 400, "expecting BY"},
		{`SELECT qty AS FROM docs`, "SyntaxCheckException", 400, "offending symbol [FROM] at: 'SELECT qty AS FROM' <--- HERE... More details: expecting an alias"},
		{`SELECT qty FROM docs AS`, "SyntaxCheckException", 400, "offending symbol [<EOF>]"},
		{`SELECT 'open FROM docs`, "SyntaxCheckException", 400, "string literal is not closed"},
		{`SELECT * FROM docs JOIN docs d2 ON docs.qty = d2.qty`, "SyntaxCheckException", 400, "joins are not supported"},
		{`SELECT * FROM (SELECT * FROM docs)`, "SyntaxCheckException", 400, "subqueries are not supported"},
		{`SELECT COUNT(*) FROM docs GROUP BY category, price, qty, published, active, tags, title, _id, _index`, "SemanticCheckException", 400, "GROUP BY accepts fields"},
		{`SELECT COUNT(*) FROM docs GROUP BY title, title.keyword, category, price, qty, published, active, tags, body`, "SemanticCheckException", 400, "groups by at most 8 fields"},
		{`SELECT COUNT(*) FROM docs GROUP BY 1`, "SemanticCheckException", 400, "GROUP BY accepts fields"},
		{`SELECT category FROM docs GROUP BY category ORDER BY qty`, "SemanticCheckException", 400, "expression [qty] contains non-aggregated column"},
		{`SELECT category FROM docs WHERE COUNT(*) > 1 GROUP BY category`, "SemanticCheckException", 400, "not allowed in WHERE"},
		{`SELECT title, COUNT(*) FROM docs GROUP BY category`, "SemanticCheckException", 400, "expression [title] contains non-aggregated column"},
		{`SELECT * FROM docs WHERE qty > price`, "SemanticCheckException", 400, "would need a script"},
		{`SELECT load_extension('x') FROM docs`, "SemanticCheckException", 400, "Unsupported function [LOAD_EXTENSION]"},
		// The engine refuses to aggregate a text field without a keyword sub-field, as OpenSearch does.
		{`SELECT body, COUNT(*) FROM docs GROUP BY body`, "SearchPhaseExecutionException", 400, "Text fields are not optimised"},
	}
	for _, tc := range cases {
		code, m := doJSON(t, h, "POST", "/_plugins/_sql", `{"query":`+string(jsonout.Marshal(tc.query))+`}`)
		if code != tc.status || get(m, "error.type") != tc.typ || m["status"] != float64(tc.status) ||
			!strings.Contains(get(m, "error.details").(string), tc.detail) || get(m, "error.reason") == nil {
			t.Errorf("%s: %d %v", tc.query, code, m)
		}
	}
}
