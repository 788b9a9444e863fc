package search

import (
	"sort"
	"strings"
)

// SuggestKind says what a suggestion completes.
type SuggestKind int

const (
	SuggestMethod SuggestKind = iota // GET, POST, ...
	SuggestPath                      // a whole request path
	SuggestKey                       // a JSON key of the request shape (query, match, terms, ...)
	SuggestField                     // a field name of the target index
	SuggestValue                     // a value with a fixed set (asc, day, ...)
)

// Suggestion is one completion.
type Suggestion struct {
	// Text replaces Suggestions.Start..End of the buffer. Keys and string values typed
	// outside quotes come with their quotes.
	Text string
	// Label is what the menu shows; Detail a few words (a field's type, what a key does).
	Label  string
	Detail string
	Kind   SuggestKind
}

// SuggestInput is the editor's state.
type SuggestInput struct {
	Text   string // the whole console buffer
	Cursor int    // byte offset of the cursor in Text
	// Indices are the service's index names; Fields the fields of the index the
	// request under the cursor targets (see FieldsFor), with their mapping types.
	Indices []string
	Fields  []Field
}

// Suggestions are the completions at the cursor, best first.
type Suggestions struct {
	// Start and End are the byte range of the buffer a chosen Suggestion.Text replaces.
	Start, End int
	Items      []Suggestion
}

// Suggest offers completions for the request under the cursor, by context: methods at
// the start of a request line, paths of the request shapes after the method (with
// the service's index names), and inside the JSON body the keys that fit where the
// cursor is (top-level search keys, query types inside "query" and bool clauses,
// aggregation types inside a named aggregation, their parameters), the target
// index's fields where a field goes (typed: range wants dates and numbers, match
// text, term keywords) and fixed values (calendar_interval, sort order, ...).
func Suggest(in SuggestInput) Suggestions {
	cur := max(0, min(in.Cursor, len(in.Text)))
	lineStart := strings.LastIndexByte(in.Text[:cur], '\n') + 1
	before := in.Text[lineStart:cur]
	lineNo := strings.Count(in.Text[:lineStart], "\n") + 1
	req, found := RequestAt(in.Text, lineNo)
	trimmed := strings.TrimLeft(before, " \t")
	wordStart := cur - len(trimmed)
	if found && req.StartLine == lineNo {
		method, path, spaced := strings.Cut(trimmed, " ")
		if !spaced {
			return filterMethods(trimmed, wordStart, cur)
		}
		pathStart := wordStart + len(method) + 1 + (len(path) - len(strings.TrimLeft(path, " \t")))
		return suggestPaths(strings.ToUpper(method), strings.TrimLeft(path, " \t"), pathStart, cur, in.Indices)
	}
	if isLetters(trimmed) && trimmed != "" {
		bodyStart := 0
		if found {
			bodyStart = lineOffset(in.Text, req.StartLine+1)
		}
		if bodyStart > lineStart || scanJSON(in.Text[bodyStart:lineStart]).depth() == 0 {
			return filterMethods(trimmed, wordStart, cur)
		}
	}
	if !found {
		return Suggestions{Start: cur, End: cur}
	}
	bodyStart := lineOffset(in.Text, req.StartLine+1)
	if bodyStart > cur {
		return Suggestions{Start: cur, End: cur}
	}
	st := scanJSON(in.Text[bodyStart:cur])
	return suggestInBody(req, st, bodyStart, cur, in)
}

// lineOffset is the byte offset where 1-based line n starts (len(text) past the end).
func lineOffset(text string, n int) int {
	off := 0
	for i := 1; i < n; i++ {
		j := strings.IndexByte(text[off:], '\n')
		if j < 0 {
			return len(text)
		}
		off += j + 1
	}
	return off
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func filterMethods(prefix string, start, end int) Suggestions {
	out := Suggestions{Start: start, End: end}
	for _, m := range []string{"GET", "POST", "PUT", "DELETE", "HEAD"} {
		if strings.HasPrefix(m, strings.ToUpper(prefix)) && m != prefix {
			out.Items = append(out.Items, Suggestion{Text: m + " ", Label: m, Kind: SuggestMethod})
		}
	}
	return out
}

// pathShape is a request path of the spec; "{index}" is an index name.
type pathShape struct {
	methods string // space-separated
	path    string
	detail  string
}

// pathShapes are the request paths offered after a method, in menu order.
func pathShapes() []pathShape {
	return []pathShape{
		{"GET POST", "/{index}/_search", "search the index"},
		{"GET POST", "/{index}/_count", "count matching documents"},
		{"GET PUT", "/{index}/_mapping", "field names and types"},
		{"GET PUT DELETE", "/{index}/_doc/", "one document by _id"},
		{"POST", "/{index}/_doc", "index a document (new _id)"},
		{"GET", "/_cat/indices?format=json", "indices with health and counts"},
		{"GET", "/_cluster/health", "cluster status"},
		{"POST", "/_bulk", "many writes, NDJSON"},
		{"POST", "/{index}/_bulk", "many writes into the index, NDJSON"},
		{"GET POST", "/_aliases", "alias actions (add, remove)"},
		{"GET", "/_alias", "every alias"},
		{"GET PUT DELETE", "/{index}/_alias/", "an alias of the index"},
		{"POST", "/_plugins/_sql", "SQL query"},
		{"POST", "/_plugins/_sql?format=csv", "SQL query, CSV answer"},
		{"GET PUT DELETE", "/_index_template/", "index template by name"},
		{"GET PUT DELETE", "/_plugins/_ism/policies/", "ISM policy by name"},
		{"GET PUT DELETE", "/_plugins/_security/api/roles/", "security role by name"},
		{"POST", "/_reindex", "copy documents between indices"},
		{"GET POST", "/_search", "search every index"},
		{"PUT DELETE HEAD", "/{index}", "the index itself"},
		{"GET PUT", "/{index}/_settings", "index settings"},
		{"POST", "/{index}/_refresh", "make recent writes searchable"},
	}
}

const maxPathSuggestions = 60

func suggestPaths(method, typed string, start, end int, indices []string) Suggestions {
	out := Suggestions{Start: start, End: end}
	p := strings.TrimPrefix(typed, "/")
	first, _, hasSlash := strings.Cut(p, "/")
	names := indices
	if hasSlash && first != "" && !strings.HasPrefix(first, "_") {
		names = []string{first} // the index is typed: complete what follows it
	}
	seen := map[string]bool{}
	add := func(path, detail string) {
		if seen[path] || len(out.Items) >= maxPathSuggestions || !strings.HasPrefix(strings.ToLower(path), strings.ToLower("/"+p)) || path == "/"+p {
			return
		}
		seen[path] = true
		out.Items = append(out.Items, Suggestion{Text: path, Label: path, Detail: detail, Kind: SuggestPath})
	}
	for _, sh := range pathShapes() {
		if !strings.Contains(" "+sh.methods+" ", " "+method+" ") {
			continue
		}
		if !strings.Contains(sh.path, "{index}") {
			add(sh.path, sh.detail)
			continue
		}
		for _, n := range names {
			if strings.HasPrefix(n, ".") && !strings.HasPrefix(first, ".") {
				continue // system indices only when asked for
			}
			add(strings.Replace(sh.path, "{index}", PathName(n), 1), sh.detail)
		}
	}
	return out
}

// FieldsFor is the union of the fields of the indices of m that pattern names
// (comma-separated names, "*" wildcards), sorted by path; all of m's for "".
func FieldsFor(m Mapping, pattern string) []Field {
	var pats []string
	for _, p := range strings.Split(pattern, ",") {
		if p = strings.TrimSpace(p); p != "" {
			pats = append(pats, p)
		}
	}
	seen := map[string]bool{}
	var out []Field
	for _, im := range m.Indices {
		match := len(pats) == 0
		for _, p := range pats {
			match = match || wildcardMatch(p, im.Index)
		}
		if !match {
			continue
		}
		for _, f := range im.Fields {
			if !seen[f.Path] {
				seen[f.Path] = true
				out = append(out, f)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// wildcardMatch matches name against a pattern where "*" stands for any run.
func wildcardMatch(pattern, name string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == name
	}
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(name, mid)
		if i < 0 {
			return false
		}
		name = name[i+len(mid):]
	}
	return strings.HasSuffix(name, parts[len(parts)-1])
}
