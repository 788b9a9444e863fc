package opensearch

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the SQL engine the _plugins/_sql emulation runs on
)

// defaultSQLRows is the engine's plugins.query.size_limit: rows returned without a LIMIT.
const defaultSQLRows = 200

const sqlTimeout = 10 * time.Second

// sqlCache keeps one in-memory SQLite database with a table per queried index (or pattern),
// reloaded only when an index changed since it was loaded.
type sqlCache struct {
	mu     sync.Mutex
	db     *sql.DB
	tables map[string]*sqlTable
}

type sqlTable struct {
	sig  string // uuid:generation of every index loaded into it
	cols []sqlCol
	src  []string // index names it was loaded from
}

type sqlCol struct {
	name string
	typ  string // OpenSearch SQL type name: keyword, text, long, integer, float, double, timestamp, boolean
	fd   *fieldDef
}

func (s *sqlCache) forget(index string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, t := range s.tables {
		for _, src := range t.src {
			if src == index {
				if s.db != nil {
					_, _ = s.db.Exec(`DROP TABLE IF EXISTS ` + quoteIdent(name))
				}
				delete(s.tables, name)
				break
			}
		}
	}
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

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

// sqlToken is one lexical token of a statement.
type sqlToken struct {
	kind byte // w word, s string, q quoted identifier, ' ' space, p punctuation
	text string
}

func lexSQL(s string) ([]sqlToken, *sqlErr) {
	var out []sqlToken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			j := i
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
				j++
			}
			out = append(out, sqlToken{' ', s[i:j]})
			i = j
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			out = append(out, sqlToken{' ', " "})
			i += j
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return nil, sqlSyntax("unterminated comment")
			}
			out = append(out, sqlToken{' ', " "})
			i += j + 4
		case c == '\'':
			j := i + 1
			for {
				if j >= len(s) {
					return nil, sqlSyntax("unterminated string literal")
				}
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			out = append(out, sqlToken{'s', s[i : j+1]})
			i = j + 1
		case c == '"' || c == '`':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, sqlSyntax("unterminated quoted identifier")
			}
			out = append(out, sqlToken{'q', s[i+1 : i+1+j]})
			i += j + 2
		case isSQLWordByte(c):
			j := i
			for j < len(s) && isSQLWordByte(s[j]) {
				j++
			}
			out = append(out, sqlToken{'w', s[i:j]})
			i = j
		default:
			out = append(out, sqlToken{'p', s[i : i+1]})
			i++
		}
	}
	return out, nil
}

func isSQLWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '@' || c == '$' || c == '.' || c >= 0x80
}

var sqlClauseWords = map[string]bool{"WHERE": true, "GROUP": true, "ORDER": true, "LIMIT": true, "JOIN": true, "INNER": true,
	"LEFT": true, "RIGHT": true, "CROSS": true, "ON": true, "HAVING": true, "UNION": true, "OFFSET": true, "NATURAL": true,
	"FULL": true, "OUTER": true, "WINDOW": true, "EXCEPT": true, "INTERSECT": true, "USING": true}

// tableRef is an index expression found after FROM or JOIN: tokens [start,end) form its name.
type tableRef struct {
	name       string
	start, end int
}

// findTables locates index names after FROM/JOIN, joining unquoted pieces like logs-2024-*.
func findTables(toks []sqlToken) []tableRef {
	var refs []tableRef
	skipSpace := func(i int) int {
		for i < len(toks) && toks[i].kind == ' ' {
			i++
		}
		return i
	}
	for i := 0; i < len(toks); i++ {
		if toks[i].kind != 'w' {
			continue
		}
		kw := strings.ToUpper(toks[i].text)
		if kw != "FROM" && kw != "JOIN" {
			continue
		}
		j := skipSpace(i + 1)
		for j < len(toks) {
			if toks[j].kind == 'p' && toks[j].text == "(" {
				break
			}
			start := j
			var name strings.Builder
			for j < len(toks) && (toks[j].kind == 'w' || toks[j].kind == 'q' ||
				toks[j].kind == 'p' && (toks[j].text == "-" || toks[j].text == "*")) {
				if toks[j].kind == 'w' && j > start && sqlClauseWords[strings.ToUpper(toks[j].text)] {
					break
				}
				name.WriteString(toks[j].text)
				j++
			}
			if j == start {
				break
			}
			refs = append(refs, tableRef{name: name.String(), start: start, end: j})
			// Optional alias, then a comma continues the FROM list.
			k := skipSpace(j)
			if k < len(toks) && toks[k].kind == 'w' && strings.EqualFold(toks[k].text, "AS") {
				k = skipSpace(k + 1)
			}
			if k < len(toks) && (toks[k].kind == 'w' || toks[k].kind == 'q') && !sqlClauseWords[strings.ToUpper(toks[k].text)] {
				k = skipSpace(k + 1)
			}
			if kw == "FROM" && k < len(toks) && toks[k].kind == 'p' && toks[k].text == "," {
				j = skipSpace(k + 1)
				i = j - 1
				continue
			}
			i = k - 1
			break
		}
	}
	return refs
}

func hasTopLevelLimit(toks []sqlToken) bool {
	depth := 0
	for _, t := range toks {
		switch {
		case t.kind == 'p' && t.text == "(":
			depth++
		case t.kind == 'p' && t.text == ")":
			depth--
		case t.kind == 'w' && depth == 0 && strings.EqualFold(t.text, "LIMIT"):
			return true
		}
	}
	return false
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
	v, perr := parseBody(body, true)
	if perr != nil {
		fail(&sqlErr{400, "Invalid SQL query", perr.reason, "IllegalArgumentException"})
		return
	}
	m, _ := asMap(v)
	stmt, ok := m["query"].(string)
	if !ok || strings.TrimSpace(stmt) == "" {
		fail(&sqlErr{400, "Invalid SQL query", "Failed to parse request payload: [query] is required", "IllegalArgumentException"})
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
		c.reply(w, r, 200, res.searchShape())
	default:
		schema := make([]obj, len(res.names))
		for i, n := range res.names {
			schema[i] = obj{{"name", n}, {"type", res.types[i]}}
		}
		c.reply(w, r, 200, obj{{"schema", schema}, {"datarows", res.rows}, {"total", len(res.rows)}, {"size", len(res.rows)}, {"status", 200}})
	}
}

// sqlResult is a finished query.
type sqlResult struct {
	names []string
	types []string
	rows  [][]any
	index string
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
	for i, n := range s.names {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(cell(n))
	}
	b.WriteByte('\n')
	for _, row := range s.rows {
		for i, v := range row {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(cell(v))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (s *sqlResult) searchShape() obj {
	hits := make([]obj, 0, len(s.rows))
	for _, row := range s.rows {
		src := obj{}
		for i, n := range s.names {
			src = append(src, kv{n, row[i]})
		}
		hits = append(hits, obj{{"_index", s.index}, {"_id", nil}, {"_score", nil}, {"_source", src}})
	}
	return obj{{"took", 0}, {"timed_out", false}, {"_shards", obj{{"total", 1}, {"successful", 1}, {"skipped", 0}, {"failed", 0}}},
		{"hits", obj{{"total", obj{{"value", len(s.rows)}, {"relation", "eq"}}}, {"max_score", nil}, {"hits", hits}}}}
}

// runSQL executes one SELECT statement over SQLite tables loaded from the referenced indices.
func (c *Cluster) runSQL(stmt string) (*sqlResult, *sqlErr) {
	stmt = strings.TrimSpace(stmt)
	stmt = strings.TrimSpace(strings.TrimSuffix(stmt, ";"))
	toks, lerr := lexSQL(stmt)
	if lerr != nil {
		return nil, lerr
	}
	first := ""
	for _, t := range toks {
		if t.kind != ' ' {
			first = strings.ToUpper(t.text)
			break
		}
	}
	if first != "SELECT" {
		return nil, sqlSyntax(fmt.Sprintf("Only SELECT statements are supported by this emulation, got [%s]", first))
	}
	for _, t := range toks {
		if t.kind == 'p' && t.text == ";" {
			return nil, sqlSyntax("Multiple statements are not supported")
		}
	}
	refs := findTables(toks)
	if len(refs) == 0 {
		return nil, sqlSyntax("A FROM clause naming an index is required")
	}

	c.mu.RLock()
	c.sql.mu.Lock()
	defer c.sql.mu.Unlock()
	tables := map[string]*sqlTable{}
	indexName := ""
	for _, ref := range refs {
		if _, done := tables[ref.name]; done {
			continue
		}
		list, err := c.resolve(ref.name, false)
		if err == nil && len(list) == 0 {
			err = indexNotFound(ref.name)
		}
		if err != nil {
			c.mu.RUnlock()
			return nil, &sqlErr{404, "Error occurred in OpenSearch engine: " + err.reason,
				"org.opensearch.index.IndexNotFoundException: " + err.reason + "\nFor more details, please send request for Json format to see the raw response from OpenSearch engine.",
				"IndexNotFoundException"}
		}
		t, serr := c.sql.load(ref.name, list)
		if serr != nil {
			c.mu.RUnlock()
			return nil, serr
		}
		tables[ref.name] = t
		if indexName == "" {
			indexName = list[0].name
		}
	}
	c.mu.RUnlock()

	// Rewrite: quote index names and dotted or @-prefixed column names for SQLite.
	colNames := map[string]bool{}
	for _, t := range tables {
		for _, col := range t.cols {
			colNames[strings.ToLower(col.name)] = true
		}
	}
	var b strings.Builder
	ri := 0
	for i := 0; i < len(toks); i++ {
		if ri < len(refs) && i == refs[ri].start {
			b.WriteString(quoteIdent(refs[ri].name))
			i = refs[ri].end - 1
			ri++
			continue
		}
		t := toks[i]
		switch t.kind {
		case 'q':
			b.WriteString(quoteIdent(t.text))
		case 'w':
			if (strings.Contains(t.text, ".") || strings.HasPrefix(t.text, "@")) && colNames[strings.ToLower(t.text)] {
				b.WriteString(quoteIdent(t.text))
			} else {
				b.WriteString(t.text)
			}
		default:
			b.WriteString(t.text)
		}
	}
	limit := -1
	if !hasTopLevelLimit(toks) {
		limit = defaultSQLRows
	}
	res, serr := c.sql.query(b.String(), tables, limit)
	if serr != nil {
		return nil, serr
	}
	res.index = indexName
	return res, nil
}

func (s *sqlCache) open() *sqlErr {
	if s.db != nil {
		return nil
	}
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return &sqlErr{500, "Error occurred in OpenSearch engine", "cannot open SQL engine", "SQLEngineException"}
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	s.db = db
	s.tables = map[string]*sqlTable{}
	return nil
}

var sqliteDecl = map[string]string{
	"keyword": "KEYWORD_TEXT", "text": "TEXT_TEXT", "long": "LONG_INTEGER", "integer": "INTEGER_INTEGER",
	"short": "SHORT_INTEGER", "byte": "BYTE_INTEGER", "float": "FLOAT_REAL", "double": "DOUBLE_REAL",
	"half_float": "FLOAT_REAL", "scaled_float": "DOUBLE_REAL", "timestamp": "TIMESTAMP_TEXT", "boolean": "BOOLEAN_INTEGER",
	"ip": "IP_TEXT",
}

func sqlTypeOf(fd *fieldDef) string {
	switch fd.kind {
	case kindDate:
		return "timestamp"
	case kindKeyword:
		if fd.typ == "ip" {
			return "ip"
		}
		return "keyword"
	case kindLong:
		if fd.typ == "unsigned_long" {
			return "long"
		}
	}
	if _, ok := sqliteDecl[fd.typ]; ok {
		return fd.typ
	}
	return "keyword"
}

// load makes sure table `name` holds the current documents of the given indices.
func (s *sqlCache) load(name string, list []*index) (*sqlTable, *sqlErr) {
	if err := s.open(); err != nil {
		return nil, err
	}
	var sig strings.Builder
	for _, ix := range list {
		sig.WriteString(ix.uuid + ":" + strconv.FormatUint(ix.gen, 10) + ";")
	}
	if t, ok := s.tables[name]; ok && t.sig == sig.String() {
		return t, nil
	}
	t := &sqlTable{sig: sig.String()}
	seen := map[string]bool{}
	for _, ix := range list {
		t.src = append(t.src, ix.name)
		for _, p := range sortedKeys(ix.fields) {
			fd := ix.fields[p]
			if fd.kind == kindObject || fd.multi || seen[strings.ToLower(p)] {
				continue
			}
			seen[strings.ToLower(p)] = true
			t.cols = append(t.cols, sqlCol{name: p, typ: sqlTypeOf(fd), fd: fd})
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), sqlTimeout)
	defer cancel()
	engineErr := func(err error) *sqlErr {
		return &sqlErr{500, "Error occurred in OpenSearch engine", cleanSQLiteErr(err), "SQLEngineException"}
	}
	if _, err := s.db.ExecContext(ctx, `DROP TABLE IF EXISTS `+quoteIdent(name)); err != nil {
		return nil, engineErr(err)
	}
	delete(s.tables, name)
	defs := make([]string, 0, len(t.cols))
	for _, col := range t.cols {
		defs = append(defs, quoteIdent(col.name)+" "+sqliteDecl[col.typ])
	}
	if len(defs) == 0 {
		defs = append(defs, `"_id" KEYWORD_TEXT`)
	}
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE `+quoteIdent(name)+` (`+strings.Join(defs, ", ")+`)`); err != nil {
		return nil, engineErr(err)
	}
	if len(t.cols) > 0 {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return nil, engineErr(err)
		}
		marks := strings.TrimSuffix(strings.Repeat("?,", len(t.cols)), ",")
		ins, err := tx.PrepareContext(ctx, `INSERT INTO `+quoteIdent(name)+` VALUES (`+marks+`)`)
		if err != nil {
			_ = tx.Rollback()
			return nil, engineErr(err)
		}
		args := make([]any, len(t.cols))
		for _, ix := range list {
			for _, d := range ix.docs {
				if d == nil {
					continue
				}
				for i, col := range t.cols {
					args[i] = sqlValue(ix, d, col)
				}
				if _, err := ins.ExecContext(ctx, args...); err != nil {
					_ = ins.Close()
					_ = tx.Rollback()
					return nil, engineErr(err)
				}
			}
		}
		_ = ins.Close()
		if err := tx.Commit(); err != nil {
			return nil, engineErr(err)
		}
	}
	s.tables[name] = t
	return t, nil
}

func sqlTimestamp(ms int64) string {
	t := time.UnixMilli(ms).UTC()
	if ms%1000 != 0 {
		return t.Format("2006-01-02 15:04:05.000")
	}
	return t.Format("2006-01-02 15:04:05")
}

// sqlValue converts a document's field into the column's SQLite value.
func sqlValue(ix *index, d *document, col sqlCol) any {
	fd := ix.fields[col.name]
	if fd == nil {
		return nil
	}
	vals := sourceValues(d.src, col.name)
	var nonNil []any
	for _, v := range vals {
		if v != nil {
			nonNil = append(nonNil, v)
		}
	}
	if len(nonNil) == 0 {
		return nil
	}
	v := nonNil[0]
	switch fd.kind {
	case kindText, kindKeyword:
		if len(nonNil) > 1 {
			return string(mustJSON(toPlain(nonNil)))
		}
		s, _ := asString(v)
		return s
	case kindLong:
		f, err := parseLong(v, fd.typ)
		if err != nil {
			return nil
		}
		return int64(f)
	case kindFloat:
		f, ok := asFloat(v)
		if !ok {
			return nil
		}
		return f
	case kindDate:
		s, _ := asString(v)
		ms, ok := parseDateFormat(s, fd.fm.format)
		if !ok {
			return nil
		}
		return sqlTimestamp(ms)
	case kindBool:
		b, ok := asBool(v)
		if !ok {
			return nil
		}
		if b {
			return int64(1)
		}
		return int64(0)
	}
	return nil
}

func cleanSQLiteErr(err error) string {
	msg := err.Error()
	for _, p := range []string{"SQL logic error: ", "sqlite: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
		msg = msg[:i]
	}
	return msg
}

func (s *sqlCache) query(q string, tables map[string]*sqlTable, limit int) (*sqlResult, *sqlErr) {
	ctx, cancel := context.WithTimeout(context.Background(), sqlTimeout)
	defer cancel()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, &sqlErr{500, "Error occurred in OpenSearch engine", "SQL engine unavailable", "SQLEngineException"}
	}
	defer conn.Close()
	// The user's statement runs read-only, whatever it contains.
	if _, err := conn.ExecContext(ctx, `PRAGMA query_only = ON`); err != nil {
		return nil, &sqlErr{500, "Error occurred in OpenSearch engine", cleanSQLiteErr(err), "SQLEngineException"}
	}
	defer func() { _, _ = conn.ExecContext(context.Background(), `PRAGMA query_only = OFF`) }()
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return nil, classifySQLErr(err)
	}
	defer rows.Close()
	names, _ := rows.Columns()
	ctypes, _ := rows.ColumnTypes()
	res := &sqlResult{names: names, types: make([]string, len(names))}
	declared := make([]string, len(names))
	for i, ct := range ctypes {
		decl := strings.ToUpper(ct.DatabaseTypeName())
		if j := strings.LastIndexByte(decl, '_'); j > 0 {
			declared[i] = strings.ToLower(decl[:j])
		}
	}
	for rows.Next() {
		if limit >= 0 && len(res.rows) >= limit {
			break
		}
		raw := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range raw {
			ptrs[i] = &raw[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, classifySQLErr(err)
		}
		res.rows = append(res.rows, raw)
	}
	if err := rows.Err(); err != nil {
		return nil, classifySQLErr(err)
	}
	for i, n := range names {
		res.types[i] = declared[i]
		if res.types[i] == "" {
			res.types[i] = inferSQLType(n, res.rows, i, tables)
		}
	}
	for _, row := range res.rows {
		for i, v := range row {
			row[i] = sqlOut(v, res.types[i])
		}
	}
	if res.rows == nil {
		res.rows = [][]any{}
	}
	return res, nil
}

func classifySQLErr(err error) *sqlErr {
	msg := cleanSQLiteErr(err)
	switch {
	case strings.Contains(msg, "syntax error"), strings.Contains(msg, "incomplete input"), strings.Contains(msg, "unrecognized token"):
		return sqlSyntax(msg)
	case strings.Contains(msg, "interrupted"), strings.Contains(msg, "context deadline"):
		return &sqlErr{500, "Error occurred in OpenSearch engine", "query timed out", "SQLEngineException"}
	}
	return &sqlErr{400, "Invalid SQL query", msg, "SemanticCheckException"}
}

// inferSQLType types an expression column: aggregates by function, otherwise by value.
func inferSQLType(name string, rows [][]any, i int, tables map[string]*sqlTable) string {
	up := strings.ToUpper(strings.TrimSpace(name))
	switch {
	case strings.HasPrefix(up, "COUNT("):
		return "long"
	case strings.HasPrefix(up, "AVG("):
		return "double"
	case strings.HasPrefix(up, "MIN(") || strings.HasPrefix(up, "MAX(") || strings.HasPrefix(up, "SUM("):
		inner := strings.Trim(strings.TrimSpace(name[4:len(name)-min(1, len(name)-4)]), "\"`")
		for _, t := range tables {
			for _, col := range t.cols {
				if strings.EqualFold(col.name, inner) {
					if strings.HasPrefix(up, "SUM(") {
						if col.fd.kind == kindLong {
							return "long"
						}
						return "double"
					}
					return col.typ
				}
			}
		}
	}
	for _, row := range rows {
		switch row[i].(type) {
		case int64:
			return "long"
		case float64:
			return "double"
		case string, []byte:
			return "keyword"
		}
	}
	return "keyword"
}

func sqlOut(v any, typ string) any {
	switch t := v.(type) {
	case []byte:
		return string(t)
	case int64:
		switch typ {
		case "boolean":
			return t != 0
		case "float", "double":
			return float64(t)
		}
	case float64:
		if typ == "float" {
			return json.Number(strconv.FormatFloat(t, 'g', -1, 32))
		}
		if typ == "long" || typ == "integer" {
			return int64(t)
		}
	}
	return v
}
