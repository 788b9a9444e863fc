package search

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Field is one field path of a mapping with its type ("text", "keyword", "object", ...).
type Field struct {
	Path string
	Type string
}

// IndexMapping is the mapping of one index.
type IndexMapping struct {
	Index  string
	Fields []Field // sorted by path
}

// Mapping is the answer of GET /{index}/_mapping (one entry per index, sorted by name).
type Mapping struct {
	Indices []IndexMapping
}

// ParseMapping reads {"idx":{"mappings":{"properties":{...}}}}. Multi-fields become
// "name.keyword"; object and nested fields contribute their own path and their children's.
func ParseMapping(body []byte) (Mapping, error) {
	var top map[string]struct {
		Mappings json.RawMessage `json:"mappings"`
	}
	if err := json.Unmarshal(body, &top); err != nil {
		return Mapping{}, fmt.Errorf("mapping: unexpected body: %w", err)
	}
	var m Mapping
	for name, idx := range top {
		var props struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if len(idx.Mappings) > 0 {
			_ = json.Unmarshal(idx.Mappings, &props) // odd shapes give no fields, not an error
		}
		im := IndexMapping{Index: name}
		collectFields(props.Properties, "", &im.Fields, 0)
		sort.Slice(im.Fields, func(i, j int) bool { return im.Fields[i].Path < im.Fields[j].Path })
		m.Indices = append(m.Indices, im)
	}
	sort.Slice(m.Indices, func(i, j int) bool { return m.Indices[i].Index < m.Indices[j].Index })
	return m, nil
}

// maxMappingDepth bounds recursion over hostile or absurd mappings.
const maxMappingDepth = 64

func collectFields(props map[string]json.RawMessage, prefix string, out *[]Field, depth int) {
	if depth > maxMappingDepth {
		return
	}
	for name, raw := range props {
		var def struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Fields     map[string]json.RawMessage `json:"fields"`
		}
		if json.Unmarshal(raw, &def) != nil {
			continue
		}
		path := prefix + name
		typ := def.Type
		if typ == "" && def.Properties != nil {
			typ = "object"
		}
		*out = append(*out, Field{Path: path, Type: typ})
		for sub, sraw := range def.Fields {
			var sdef struct {
				Type string `json:"type"`
			}
			_ = json.Unmarshal(sraw, &sdef)
			*out = append(*out, Field{Path: path + "." + sub, Type: sdef.Type})
		}
		if def.Properties != nil {
			collectFields(def.Properties, path+".", out, depth+1)
		}
	}
}

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
