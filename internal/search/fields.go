package search

import (
	"encoding/json"
	"fmt"
	"sort"
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
