package sql

import (
	"encoding/json"
	"strings"
	"testing"
)

// fakeEngine is an Engine with one index and a canned answer; it records the request.
type fakeEngine struct {
	tables []*Table
	answer string
	sent   string
}

func (f *fakeEngine) Tables(from string) ([]*Table, *EngineError) {
	for _, t := range f.tables {
		if t.name == from {
			return []*Table{t}, nil
		}
	}
	return nil, &EngineError{Status: 404, Type: "index_not_found_exception", Reason: "no such index [" + from + "]"}
}

func (f *fakeEngine) Search(_ []*Table, body []byte) ([]byte, *EngineError) {
	f.sent = string(body)
	return []byte(f.answer), nil
}

func logsTable() *Table {
	return NewTable("logs", map[string]*Field{
		"status":       NewField("status", "integer", Long, "", false),
		"path":         NewField("path", "text", Text, "", false),
		"path.keyword": NewField("path.keyword", "keyword", Keyword, "", true),
		"@timestamp":   NewField("@timestamp", "date", Date, "", false),
	}, nil)
}

// The translation follows the plugin (opensearch-project/sql): = on a text field with a keyword
// sub-field is a term on the sub-field; GROUP BY is terms (plus a missing bucket) per field; rows
// are built from the engine's answer, typed like the plugin's columns.
func TestRunThroughAnEngine(t *testing.T) {
	f := &fakeEngine{tables: []*Table{logsTable()}, answer: `{"hits":{"total":{"value":3,"relation":"eq"},"hits":[]},
		"aggregations":{"status":{"buckets":[{"key":200,"doc_count":2},{"key":404,"doc_count":1}]},"status#missing":{"doc_count":0}}}`}
	res, err := Run(f, "SELECT status, COUNT(*) AS n FROM logs WHERE path = '/login' GROUP BY status")
	if err != nil {
		t.Fatal(err)
	}
	var sent map[string]any
	if json.Unmarshal([]byte(f.sent), &sent) != nil || !strings.Contains(f.sent, `"term":{"path.keyword":{"value":"/login"}}`) ||
		sent["aggregations"] == nil && sent["aggs"] == nil {
		t.Fatalf("request sent: %s", f.sent)
	}
	got, _ := json.Marshal(res.Rows)
	if string(got) != `[[200,2],[404,1]]` || strings.Join(res.Names, ",") != "status,n" || strings.Join(res.Types, ",") != "integer,long" {
		t.Fatalf("result: %s %v %v", got, res.Names, res.Types)
	}
	if csv := res.Delimited(",", true); csv != "status,n\n200,2\n404,1\n" {
		t.Fatalf("csv: %q", csv)
	}
	f.answer = `{"hits":{"total":{"value":1,"relation":"eq"},"hits":[{"_index":"logs","_id":"1","_score":null,"_source":{"path":"/a","@timestamp":"2024-03-15T12:00:00Z"}}]}}`
	res, err = Run(f, "SELECT path, `@timestamp` FROM logs")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(res.Rows); string(got) != `[["/a","2024-03-15 12:00:00"]]` {
		t.Fatalf("hit rows: %s", got)
	}
	if _, err := Run(f, "SELEC path FROM logs"); err == nil || err.Type != "SyntaxCheckException" || err.Status != 400 {
		t.Fatalf("syntax error: %+v", err)
	}
	if _, err := Run(f, "SELECT path FROM nope"); err == nil || err.Type != "IndexNotFoundException" || err.Status != 404 {
		t.Fatalf("missing index: %+v", err)
	}
	plan, err := Explain(f, "SELECT path FROM logs LIMIT 5")
	if err != nil || !strings.Contains(string(plan), `"name":"ProjectOperator"`) || !strings.Contains(string(plan), "OpenSearchQueryRequest(indexName=logs") {
		t.Fatalf("explain: %s %v", plan, err)
	}
}

// PPL pipelines translate to the SQL they mean (the plugin runs both languages on one engine).
func TestPPLTranslation(t *testing.T) {
	cases := map[string]string{
		`search source=logs`: "SELECT * FROM `logs`",
		`source=logs | where status >= 500 and path != "/health" | sort - status, path | head 5 | fields path, status`: "SELECT path, status FROM `logs` WHERE (status >= 500 and path != '/health') ORDER BY status DESC, path LIMIT 5",
		`source=logs | stats count() as n, dc(path) by status | sort - n`:                                              "SELECT COUNT(*) AS `n`, COUNT(DISTINCT path) AS `dc(path)`, status FROM `logs` GROUP BY status ORDER BY `n` DESC",
	}
	for in, want := range cases {
		p, err := parsePPL(in)
		if err != nil {
			t.Fatalf("%s: %+v", in, err)
		}
		if got := p.statement(); got != want {
			t.Errorf("%s\n got %s\nwant %s", in, got, want)
		}
	}
	for _, bad := range []string{"source logs", "source=logs | dedup path", "source=logs | head 2 | where x = 1", "source=logs | stats count() | fields n"} {
		if _, err := parsePPL(bad); err == nil || err.Type != "SyntaxCheckException" {
			t.Errorf("%q: %+v", bad, err)
		}
	}
}
