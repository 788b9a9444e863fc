package opensearch

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
)

// kind groups field types by how they are indexed.
type kind int

const (
	kindNone    kind = iota
	kindText         // analyzed, inverted index
	kindKeyword      // exact strings, doc values
	kindLong         // integers, doc values
	kindFloat        // floating point, doc values
	kindDate         // epoch millis, doc values
	kindBool         // 0/1, doc values
	kindObject       // object or nested container
)

var typeKinds = map[string]kind{
	"text": kindText, "match_only_text": kindText,
	"keyword": kindKeyword, "ip": kindKeyword, "constant_keyword": kindKeyword, "wildcard": kindKeyword,
	"long": kindLong, "integer": kindLong, "short": kindLong, "byte": kindLong, "unsigned_long": kindLong,
	"float": kindFloat, "double": kindFloat, "half_float": kindFloat, "scaled_float": kindFloat,
	"date": kindDate, "date_nanos": kindDate,
	"boolean": kindBool,
	"object":  kindObject, "nested": kindObject,
}

// fieldMapping is one node of a mapping tree.
type fieldMapping struct {
	typ         string
	props       map[string]*fieldMapping // object / nested children
	fields      map[string]*fieldMapping // multi-fields (name.keyword)
	ignoreAbove int
	format      string
	params      map[string]any // other parameters, kept for display
}

func (f *fieldMapping) kind() kind {
	if f.typ == "" {
		return kindObject
	}
	return typeKinds[f.typ]
}

// mapping is an index's mappings: dynamic setting and root properties.
type mapping struct {
	dynamic string // "true" (default), "false", "strict"
	props   map[string]*fieldMapping
	meta    map[string]any // _meta, _source and other root parameters kept verbatim
}

func newMapping() *mapping { return &mapping{dynamic: "true", props: map[string]*fieldMapping{}} }

func (m *mapping) clone() *mapping {
	b, _ := json.Marshal(m.render())
	var v any
	_ = json.Unmarshal(b, &v)
	c, err := parseMappings(toNumbers(v))
	if err != nil {
		return newMapping()
	}
	return c
}

// toNumbers re-creates json.Number values after a round trip through float64.
func toNumbers(v any) any {
	switch t := v.(type) {
	case float64:
		b, _ := json.Marshal(t)
		return json.Number(b)
	case map[string]any:
		for k, x := range t {
			t[k] = toNumbers(x)
		}
	case []any:
		for i, x := range t {
			t[i] = toNumbers(x)
		}
	}
	return v
}

// parseMappings reads a "mappings" body, also accepting the legacy {"_doc":{...}} wrapper.
func parseMappings(v any) (*mapping, *apiError) {
	m := newMapping()
	if v == nil {
		return m, nil
	}
	body, ok := asMap(v)
	if !ok {
		return nil, errf(400, "mapper_parsing_exception", "Failed to parse mapping: mappings must be an object")
	}
	if inner, ok := asMap(body["_doc"]); ok && len(body) == 1 {
		body = inner
	}
	for k, x := range body {
		switch k {
		case "properties":
			pm, ok := asMap(x)
			if !ok {
				return nil, errf(400, "mapper_parsing_exception", "Failed to parse mapping: properties must be an object")
			}
			props, err := parseProps(pm, "")
			if err != nil {
				return nil, err
			}
			m.props = props
		case "dynamic":
			s, _ := jsonval.String(x)
			switch s {
			case "true", "false", "strict", "runtime":
				if s == "runtime" {
					s = "true"
				}
				m.dynamic = s
			default:
				return nil, errf(400, "mapper_parsing_exception", "Failed to parse mapping: Could not convert [dynamic] to boolean")
			}
		default:
			if m.meta == nil {
				m.meta = map[string]any{}
			}
			m.meta[k] = x
		}
	}
	return m, nil
}

func parseProps(pm map[string]any, prefix string) (map[string]*fieldMapping, *apiError) {
	out := make(map[string]*fieldMapping, len(pm))
	for name, x := range pm {
		if name == "" || strings.TrimSpace(name) == "" {
			return nil, errf(400, "mapper_parsing_exception", "Failed to parse mapping: field name cannot be an empty string")
		}
		fm, err := parseField(name, prefix+name, x)
		if err != nil {
			return nil, err
		}
		// A dotted name is shorthand for nested objects.
		parts := strings.Split(name, ".")
		target := out
		for _, p := range parts[:len(parts)-1] {
			parent, ok := target[p]
			if !ok {
				parent = &fieldMapping{typ: "object", props: map[string]*fieldMapping{}}
				target[p] = parent
			}
			if parent.props == nil {
				parent.props = map[string]*fieldMapping{}
			}
			target = parent.props
		}
		target[parts[len(parts)-1]] = fm
	}
	return out, nil
}

func parseField(name, path string, x any) (*fieldMapping, *apiError) {
	def, ok := asMap(x)
	if !ok {
		return nil, errf(400, "mapper_parsing_exception", "Expected map for property [fields] on field [%s] but got a class java.lang.String", name)
	}
	fm := &fieldMapping{}
	if t, ok := def["type"]; ok {
		s, _ := jsonval.String(t)
		if _, known := typeKinds[s]; !known {
			return nil, errf(400, "mapper_parsing_exception", "No handler for type [%s] declared on field [%s]", s, name)
		}
		fm.typ = s
	}
	if p, ok := def["properties"]; ok {
		pm, ok := asMap(p)
		if !ok {
			return nil, errf(400, "mapper_parsing_exception", "Failed to parse mapping: properties of [%s] must be an object", name)
		}
		if fm.typ == "" {
			fm.typ = "object"
		}
		if fm.typ != "object" && fm.typ != "nested" {
			return nil, errf(400, "mapper_parsing_exception", "Mapping definition for [%s] has unsupported parameters:  [properties : %v]", name, "…")
		}
		props, err := parseProps(pm, path+".")
		if err != nil {
			return nil, err
		}
		fm.props = props
	}
	if fm.typ == "" {
		fm.typ = "object"
	}
	if fm.typ == "object" || fm.typ == "nested" {
		if fm.props == nil {
			fm.props = map[string]*fieldMapping{}
		}
	}
	if f, ok := def["fields"]; ok {
		fmap, ok := asMap(f)
		if !ok {
			return nil, errf(400, "mapper_parsing_exception", "Failed to parse mapping: fields of [%s] must be an object", name)
		}
		fm.fields = map[string]*fieldMapping{}
		for sub, sx := range fmap {
			sf, err := parseField(sub, path+"."+sub, sx)
			if err != nil {
				return nil, err
			}
			if sf.kind() == kindObject {
				return nil, errf(400, "mapper_parsing_exception", "Type [%s] cannot be used in multi field", sf.typ)
			}
			fm.fields[sub] = sf
		}
	}
	if v, ok := def["ignore_above"]; ok {
		n, ok := asInt(v)
		if !ok || n < 0 {
			return nil, errf(400, "mapper_parsing_exception", "Failed to parse mapping: [ignore_above] on field [%s] must be a non-negative integer", name)
		}
		fm.ignoreAbove = n
	}
	if v, ok := def["format"]; ok {
		fm.format, _ = jsonval.String(v)
	}
	for k, v := range def {
		switch k {
		case "type", "properties", "fields", "ignore_above", "format":
		default:
			if fm.params == nil {
				fm.params = map[string]any{}
			}
			fm.params[k] = v
		}
	}
	return fm, nil
}

func (m *mapping) render() obj {
	o := obj{}
	if m.dynamic != "true" {
		o = append(o, kv{"dynamic", m.dynamic})
	}
	for _, k := range jsonval.SortedKeys(m.meta) {
		o = append(o, kv{k, m.meta[k]})
	}
	if len(m.props) > 0 {
		o = append(o, kv{"properties", renderProps(m.props)})
	}
	return o
}

func renderProps(props map[string]*fieldMapping) obj {
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	o := make(obj, 0, len(names))
	for _, n := range names {
		o = append(o, kv{n, props[n].render()})
	}
	return o
}

func (f *fieldMapping) render() obj {
	o := obj{}
	if f.typ != "object" {
		o = append(o, kv{"type", f.typ})
	}
	if f.format != "" {
		o = append(o, kv{"format", f.format})
	}
	if f.ignoreAbove > 0 {
		o = append(o, kv{"ignore_above", f.ignoreAbove})
	}
	for _, k := range jsonval.SortedKeys(f.params) {
		o = append(o, kv{k, f.params[k]})
	}
	if len(f.fields) > 0 {
		o = append(o, kv{"fields", renderProps(f.fields)})
	}
	if f.typ == "object" || f.typ == "nested" {
		o = append(o, kv{"properties", renderProps(f.props)})
	}
	return o
}

// merge adds src's fields into m; a changed type is the engine's illegal_argument_exception.
func (m *mapping) merge(src *mapping) *apiError {
	if src == nil {
		return nil
	}
	if src.dynamic != "true" {
		m.dynamic = src.dynamic
	}
	for k, v := range src.meta {
		if m.meta == nil {
			m.meta = map[string]any{}
		}
		m.meta[k] = v
	}
	return mergeProps(m.props, src.props, "")
}

func mergeProps(dst, src map[string]*fieldMapping, prefix string) *apiError {
	for name, sf := range src {
		df, ok := dst[name]
		if !ok {
			dst[name] = sf
			continue
		}
		dObj, sObj := df.kind() == kindObject, sf.kind() == kindObject
		if dObj != sObj || (!dObj && df.typ != sf.typ) {
			return badRequest("mapper [%s%s] cannot be changed from type [%s] to [%s]", prefix, name, df.typ, sf.typ)
		}
		if dObj {
			if err := mergeProps(df.props, sf.props, prefix+name+"."); err != nil {
				return err
			}
			continue
		}
		if sf.fields != nil {
			if df.fields == nil {
				df.fields = map[string]*fieldMapping{}
			}
			if err := mergeProps(df.fields, sf.fields, prefix+name+"."); err != nil {
				return err
			}
		}
		if sf.ignoreAbove > 0 {
			df.ignoreAbove = sf.ignoreAbove
		}
		if sf.format != "" {
			df.format = sf.format
		}
		for k, v := range sf.params {
			if df.params == nil {
				df.params = map[string]any{}
			}
			df.params[k] = v
		}
	}
	return nil
}

// fieldDef is a flattened, searchable field ("user.name", "name.keyword").
type fieldDef struct {
	path  string
	typ   string
	kind  kind
	fm    *fieldMapping
	multi bool // a multi-field: its value comes from the parent
}

// flatten lists every leaf field and multi-field by dotted path; objects are listed too.
func (m *mapping) flatten() map[string]*fieldDef {
	out := map[string]*fieldDef{}
	var walk func(props map[string]*fieldMapping, prefix string)
	walk = func(props map[string]*fieldMapping, prefix string) {
		for name, fm := range props {
			p := prefix + name
			out[p] = &fieldDef{path: p, typ: fm.typ, kind: fm.kind(), fm: fm}
			if fm.kind() == kindObject {
				walk(fm.props, p+".")
				continue
			}
			for sub, sf := range fm.fields {
				sp := p + "." + sub
				out[sp] = &fieldDef{path: sp, typ: sf.typ, kind: sf.kind(), fm: sf, multi: true}
			}
		}
	}
	walk(m.props, "")
	return out
}

// dynamicField is the mapping the engine infers for a new field from its first value.
func dynamicField(v any) *fieldMapping {
	switch t := v.(type) {
	case string:
		if _, ok := dates.ParseISO(t); ok && len(t) >= 8 {
			return &fieldMapping{typ: "date"}
		}
		return &fieldMapping{typ: "text", fields: map[string]*fieldMapping{
			"keyword": {typ: "keyword", ignoreAbove: 256},
		}}
	case json.Number:
		if strings.ContainsAny(t.String(), ".eE") {
			return &fieldMapping{typ: "float"}
		}
		return &fieldMapping{typ: "long"}
	case bool:
		return &fieldMapping{typ: "boolean"}
	case map[string]any:
		return &fieldMapping{typ: "object", props: map[string]*fieldMapping{}}
	case []any:
		for _, x := range t {
			if x != nil {
				return dynamicField(x)
			}
		}
	}
	return nil
}
