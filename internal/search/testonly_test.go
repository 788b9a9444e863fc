package search

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// Helpers only the tests use: options the console never sets, and field listings the
// editor gets another way.

// WithMaxResponseBytes sets the response body cap (default 64 MiB).
func WithMaxResponseBytes(n int64) Option { return func(c *clientConfig) { c.maxBody = n } }

// WithDefaultTimeout sets the timeout used when a context has no deadline (default 60s; 0 disables).
func WithDefaultTimeout(d time.Duration) Option {
	return func(c *clientConfig) { c.defaultTimeout = d }
}

// WithTransport uses a base transport (its TLS config is replaced by the target's).
func WithTransport(t *http.Transport) Option { return func(c *clientConfig) { c.transport = t } }

// FieldNames is the sorted, de-duplicated union of field paths over all indices.
func FieldNames(m Mapping) []string {
	seen := map[string]bool{}
	var out []string
	for _, im := range m.Indices {
		for _, f := range im.Fields {
			if !seen[f.Path] {
				seen[f.Path] = true
				out = append(out, f.Path)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Complete returns the fields matching what is typed, best first: case-insensitive
// prefix matches, then matches of a later path segment ("cit" → "address.city"),
// then substring matches. Within a group shorter paths come first. An empty prefix
// returns every field.
func Complete(fields []string, prefix string) []string {
	p := strings.ToLower(strings.TrimSpace(prefix))
	var exact, prefixed, segment, contains []string
	for _, f := range fields {
		lf := strings.ToLower(f)
		switch {
		case p == "":
			prefixed = append(prefixed, f)
		case lf == p:
			exact = append(exact, f)
		case strings.HasPrefix(lf, p):
			prefixed = append(prefixed, f)
		case strings.Contains(lf, "."+p):
			segment = append(segment, f)
		case strings.Contains(lf, p):
			contains = append(contains, f)
		}
	}
	byLen := func(s []string) {
		sort.SliceStable(s, func(i, j int) bool {
			if len(s[i]) != len(s[j]) {
				return len(s[i]) < len(s[j])
			}
			return s[i] < s[j]
		})
	}
	byLen(prefixed)
	byLen(segment)
	byLen(contains)
	out := make([]string, 0, len(exact)+len(prefixed)+len(segment)+len(contains))
	out = append(out, exact...)
	out = append(out, prefixed...)
	out = append(out, segment...)
	return append(out, contains...)
}

// CompletionPrefix finds the field-name fragment being typed at col (0-based byte
// offset) of line: the text after the opening quote of the JSON string the cursor is
// in. ok is false when the cursor is not inside a string.
func CompletionPrefix(line string, col int) (prefix string, start int, ok bool) {
	if col < 0 || col > len(line) {
		return "", 0, false
	}
	inString, open := false, -1
	for i := 0; i < col; i++ {
		switch line[i] {
		case '\\':
			if inString {
				i++
			}
		case '"':
			inString = !inString
			if inString {
				open = i
			}
		}
	}
	if !inString || open+1 > col {
		return "", 0, false
	}
	return line[open+1 : col], open + 1, true
}

// SQLFormat is the "format" query parameter of an SQL request path ("jdbc" by default).
func SQLFormat(path string) string {
	_, q, _ := strings.Cut(path, "?")
	vals, err := url.ParseQuery(q)
	if err != nil {
		return "jdbc"
	}
	if f := strings.ToLower(vals.Get("format")); f != "" {
		return f
	}
	return "jdbc"
}

// ValidateJSON checks that text is exactly one JSON document; positions count from line 1.
func ValidateJSON(text string) error {
	docs, err := scanDocuments(text, 1)
	if err != nil {
		return err
	}
	switch len(docs) {
	case 0:
		return &ValidationError{Line: 1, Col: 1, Msg: "empty body, expected a JSON document"}
	case 1:
		return nil
	}
	line, col := position(text, docs[1].start, 1)
	return &ValidationError{Line: line, Col: col, Msg: "unexpected second JSON document"}
}
