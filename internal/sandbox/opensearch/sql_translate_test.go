package opensearch

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// sqlRows runs a statement and returns its schema ("name:type") and rows, as decoded JSON.
func sqlRows(t *testing.T, h interface {
	ServeHTTP(w http.ResponseWriter, r *http.Request)
}, query string) ([]string, [][]any) {
	t.Helper()
	code, m := doJSON(t, h, "POST", "/_plugins/_sql", `{"query":`+string(jsonout.Marshal(query))+`}`)
	mustStatus(t, 200, code, m)
	var schema []string
	for _, c := range m["schema"].([]any) {
		cm := c.(map[string]any)
		schema = append(schema, cm["name"].(string)+":"+cm["type"].(string))
	}
	rows := [][]any{}
	for _, r := range m["datarows"].([]any) {
		rows = append(rows, r.([]any))
	}
	return schema, rows
}

// TestSQLFollowsMappings covers the translation: each statement's rows come from the query DSL
// and aggregations the plugin would send, so text, keyword and date fields behave as in OpenSearch.
func TestSQLFollowsMappings(t *testing.T) {
	_, h := loadFixture(t)
	cases := []struct {
		name, query string
		rows        [][]any
	}{
		{"= on a text field uses its keyword sub-field", `SELECT title FROM docs WHERE title = 'Fox news'`, [][]any{{"Fox news"}}},
		{"keyword match is exact", `SELECT title FROM docs WHERE title = 'fox'`, [][]any{}},
		{"= on a text field without keyword is a term on its tokens", `SELECT title FROM docs WHERE body = 'fox' ORDER BY qty`, [][]any{{"Quick brown fox"}, {"Fox news"}}},
		{"MATCH scores", `SELECT title FROM docs WHERE MATCH(body, 'fox')`, [][]any{{"Fox news"}, {"Quick brown fox"}}},
		{"MATCH with an option", `SELECT title FROM docs WHERE MATCH(body, 'brown butter', operator='AND')`, [][]any{{"Brown bread"}}},
		{"MATCH_PHRASE", `SELECT title FROM docs WHERE MATCH_PHRASE(body, 'brown bread')`, [][]any{{"Brown bread"}}},
		{"QUERY", `SELECT title FROM docs WHERE QUERY('category:food') ORDER BY qty`, [][]any{{"Cooking with butter"}, {"Brown bread"}}},
		{"MULTI_MATCH", `SELECT title FROM docs WHERE MULTI_MATCH(['title', 'body'], 'butter') ORDER BY qty`, [][]any{{"Cooking with butter"}, {"Brown bread"}}},
		{"LIKE is case-insensitive", `SELECT title FROM docs WHERE title LIKE 'brown%'`, [][]any{{"Brown bread"}}},
		{"NOT LIKE", `SELECT title FROM docs WHERE title NOT LIKE '%FOX%' ORDER BY qty`, [][]any{{"Lazy dog"}, {"Cooking with butter"}, {"Brown bread"}}},
		{"LIKE keeps ? literal", `SELECT title FROM docs WHERE title LIKE 'fox?news'`, [][]any{}},
		{"LIKE with _", `SELECT category FROM docs WHERE category LIKE 'f__d' LIMIT 1`, [][]any{{"food"}}},
		{"constant conditions", `SELECT COUNT(*) FROM docs WHERE 1 = 1 AND NOT 2 < 1`, [][]any{{5.0}}},
		{"IN", `SELECT qty FROM docs WHERE qty IN (1, 9) ORDER BY qty`, [][]any{{1.0}, {9.0}}},
		{"BETWEEN", `SELECT qty FROM docs WHERE qty BETWEEN 3 AND 7 ORDER BY qty DESC`, [][]any{{7.0}, {5.0}, {3.0}}},
		{"IS NULL", `SELECT title FROM docs WHERE price IS NULL`, [][]any{{"Brown bread"}}},
		{"IS NOT NULL", `SELECT COUNT(*) FROM docs WHERE price IS NOT NULL`, [][]any{{4.0}}},
		{"!= leaves out missing values", `SELECT COUNT(*) FROM docs WHERE price != 20`, [][]any{{3.0}}},
		{"NOT, OR, booleans", `SELECT qty FROM docs WHERE NOT (category = 'food' OR active = false) ORDER BY qty`, [][]any{{5.0}, {9.0}}},
		{"ascending puts NULL first", `SELECT title, price FROM docs ORDER BY price LIMIT 2`, [][]any{{"Brown bread", nil}, {"Quick brown fox", 10.0}}},
		{"NULLS LAST", `SELECT title FROM docs ORDER BY price NULLS LAST LIMIT 1`, [][]any{{"Quick brown fox"}}},
		{"LIMIT OFFSET", `SELECT qty FROM docs ORDER BY qty LIMIT 2 OFFSET 1`, [][]any{{3.0}, {5.0}}},
		{"LIMIT offset, count", `SELECT qty FROM docs ORDER BY qty LIMIT 1, 2`, [][]any{{3.0}, {5.0}}},
		{"ORDER BY position", `SELECT qty FROM docs ORDER BY 1 DESC LIMIT 1`, [][]any{{9.0}}},
		{"ORDER BY alias of a text field sorts its keyword", `SELECT title AS t FROM docs ORDER BY t LIMIT 1`, [][]any{{"Brown bread"}}},
		{"a keyword sub-field reads its parent", `SELECT title.keyword FROM docs WHERE title.keyword = 'Lazy dog'`, [][]any{{"Lazy dog"}}},
		{"table alias", `SELECT title FROM docs d WHERE d.qty = 9`, [][]any{{"Fox news"}}},
		{"timestamps compare as SQL literals", `SELECT published FROM docs WHERE published BETWEEN '2024-03-01 12:00:00' AND '2024-03-04 08:00:00' ORDER BY published`,
			[][]any{{"2024-03-01 18:30:00"}, {"2024-03-02 09:15:00"}, {"2024-03-04 08:00:00"}}},
		{"date math goes to the engine", `SELECT COUNT(*) FROM docs WHERE published > 'now-12d'`, [][]any{{2.0}}},
		{"arrays read as JSON text", `SELECT tags FROM docs WHERE tags = 'a' ORDER BY qty`, [][]any{{`["a","b"]`}, {"a"}}},
		{"two GROUP BY fields", `SELECT category, active, COUNT(*) FROM docs GROUP BY category, active`,
			[][]any{{"animals", false, 1.0}, {"animals", true, 1.0}, {"food", false, 1.0}, {"food", true, 1.0}, {"news", true, 1.0}}},
		{"HAVING and ORDER BY an aggregate alias", `SELECT category, COUNT(*) AS n FROM docs GROUP BY category HAVING COUNT(*) > 1 ORDER BY n DESC, category DESC`,
			[][]any{{"food", 2.0}, {"animals", 2.0}}},
		{"the NULL group comes first", `SELECT price, COUNT(*) FROM docs GROUP BY price`,
			[][]any{{nil, 1.0}, {10.0, 1.0}, {20.0, 1.0}, {55.5, 1.0}, {150.0, 1.0}}},
		{"GROUP BY a text field uses its keyword", `SELECT title, COUNT(*) FROM docs GROUP BY title LIMIT 1`, [][]any{{"Brown bread", 1.0}}},
		{"DISTINCT", `SELECT DISTINCT category FROM docs`, [][]any{{"animals"}, {"food"}, {"news"}}},
		{"grouped LIMIT", `SELECT category FROM docs GROUP BY category ORDER BY category DESC LIMIT 1 OFFSET 1`, [][]any{{"food"}}},
		{"CAST", `SELECT CAST(qty AS STRING), CAST(price AS INT), CAST('2024-03-01' AS TIMESTAMP), CAST(active AS LONG) FROM docs WHERE qty = 2 + 3`,
			[][]any{{"5", 10.0, "2024-03-01 00:00:00", 1.0}}},
		{"scalar functions and arithmetic", `SELECT UPPER(category) AS c, qty * 2, LENGTH(category) FROM docs WHERE qty > 8`, [][]any{{"NEWS", 18.0, 4.0}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, rows := sqlRows(t, h, tc.query)
			if !reflect.DeepEqual(rows, tc.rows) {
				t.Fatalf("%s\nrows = %v, want %v", tc.query, rows, tc.rows)
			}
		})
	}
	schema, rows := sqlRows(t, h, `SELECT COUNT(DISTINCT category), MIN(published), MAX(price), SUM(price), AVG(qty) FROM docs`)
	wantSchema := []string{"COUNT(DISTINCT category):long", "MIN(published):timestamp", "MAX(price):float", "SUM(price):double", "AVG(qty):double"}
	if !reflect.DeepEqual(schema, wantSchema) || !reflect.DeepEqual(rows, [][]any{{3.0, "2024-03-01 10:00:00", 150.0, 235.5, 5.0}}) {
		t.Fatalf("aggregates: %v %v", schema, rows)
	}
}

// explainSQL asks POST /_plugins/_sql/_explain through the cluster's routes.
func explainSQL(t *testing.T, h http.Handler, stmt string) (int, map[string]any) {
	t.Helper()
	return doJSON(t, h, "POST", "/_plugins/_sql/_explain", `{"query":`+string(jsonout.Marshal(stmt))+`}`)
}

// scanRequest returns the search body inside the index scan's request description.
func scanRequest(t *testing.T, scan any) string {
	t.Helper()
	req, _ := get(scan, "description.request").(string)
	const head, tail = "OpenSearchQueryRequest(indexName=docs, sourceBuilder=", ", searchDone=false)"
	if !strings.HasPrefix(req, head) || !strings.HasSuffix(req, tail) {
		t.Fatalf("scan request: %q", req)
	}
	return strings.TrimSuffix(strings.TrimPrefix(req, head), tail)
}

func TestSQLExplain(t *testing.T) {
	_, h := loadFixture(t)
	code, m := explainSQL(t, h, `SELECT title, qty FROM docs WHERE title = 'Fox news' AND qty > 1 ORDER BY qty DESC LIMIT 5`)
	mustStatus(t, 200, code, m)
	if get(m, "root.name") != "ProjectOperator" || get(m, "root.description.fields") != "[title, qty]" ||
		get(m, "root.children.0.name") != "OpenSearchIndexScan" || len(get(m, "root.children.0.children").([]any)) != 0 {
		t.Fatalf("plan: %v", m)
	}
	src := scanRequest(t, get(m, "root.children.0"))
	var dslBody map[string]any
	if err := json.Unmarshal([]byte(src), &dslBody); err != nil {
		t.Fatalf("sourceBuilder is not JSON: %s", src)
	}
	if !strings.Contains(src, `{"term":{"title.keyword":{"value":"Fox news"}}}`) || !strings.Contains(src, `{"range":{"qty":{"gt":1}}}`) ||
		get(dslBody, "size") != 5.0 || get(dslBody, "sort.0.qty.order") != "desc" {
		t.Fatalf("sourceBuilder: %s", src)
	}
	// The DSL shown is the DSL run: pasted into _search it finds the same document.
	code, res := doJSON(t, h, "POST", "/docs/_search", src)
	if mustStatus(t, 200, code, res); !reflect.DeepEqual(hitIDs(res), []string{"3"}) {
		t.Fatalf("explained DSL: %v", res)
	}

	code, m = explainSQL(t, h, `SELECT category, COUNT(*) AS n FROM docs GROUP BY category HAVING COUNT(*) > 1 ORDER BY n DESC`)
	mustStatus(t, 200, code, m)
	var chain []string
	node := get(m, "root")
	for node != nil {
		chain = append(chain, get(node, "name").(string))
		node = get(node, "children.0")
	}
	if !reflect.DeepEqual(chain, []string{"ProjectOperator", "LimitOperator", "SortOperator", "FilterOperator", "OpenSearchIndexScan"}) ||
		get(m, "root.children.0.children.0.children.0.description.conditions") != "COUNT(*) > 1" {
		t.Fatalf("grouped plan: %v %v", chain, m)
	}
	src = scanRequest(t, get(m, "root.children.0.children.0.children.0.children.0"))
	if !strings.Contains(src, `"aggregations":{"category":{"terms":{"field":"category","order":{"_key":"asc"},"size":10000}}`) || !strings.Contains(src, `"size":0`) {
		t.Fatalf("grouped sourceBuilder: %s", src)
	}

	// Plain scans read in index order, full-text ones by score, as the plugin's requests do.
	_, m = explainSQL(t, h, `SELECT title FROM docs`)
	if src := scanRequest(t, get(m, "root.children.0")); !strings.Contains(src, `"sort":[{"_doc":{"order":"asc"}}]`) ||
		!strings.Contains(src, `"size":200`) || !strings.Contains(src, `"timeout":"1m"`) {
		t.Fatalf("plain scan: %s", src)
	}
	_, m = explainSQL(t, h, `SELECT title FROM docs WHERE MATCH(body, 'fox') AND qty > 1`)
	if src := scanRequest(t, get(m, "root.children.0")); strings.Contains(src, `"sort"`) ||
		!strings.Contains(src, `"must":[{"match":{"body":{"query":"fox"}}}]`) || !strings.Contains(src, `"filter":[{"range":{"qty":{"gt":1}}}]`) {
		t.Fatalf("scored scan: %s", src)
	}

	code, m = explainSQL(t, h, `SELECT nope FROM docs`)
	if code != 400 || get(m, "error.type") != "SemanticCheckException" || m["status"] != 400.0 {
		t.Fatalf("explain error: %d %v", code, m)
	}
}
