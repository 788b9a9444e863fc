package index

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// Kind groups field types by how they are indexed.
type Kind int

const (
	KindNone    Kind = iota
	KindText         // analyzed, inverted index
	KindKeyword      // exact strings, doc values
	KindLong         // integers, doc values
	KindFloat        // floating point, doc values
	KindDate         // epoch millis, doc values
	KindBool         // 0/1, doc values
	KindObject       // object or nested container
)

var TypeKinds = map[string]Kind{
	"text": KindText, "match_only_text": KindText,
	"keyword": KindKeyword, "ip": KindKeyword, "constant_keyword": KindKeyword, "wildcard": KindKeyword,
	"long": KindLong, "integer": KindLong, "short": KindLong, "byte": KindLong, "unsigned_long": KindLong,
	"float": KindFloat, "double": KindFloat, "half_float": KindFloat, "scaled_float": KindFloat,
	"date": KindDate, "date_nanos": KindDate,
	"boolean": KindBool,
	"object":  KindObject, "nested": KindObject,
}

// FieldMapping is one node of a mapping tree.
type FieldMapping struct {
	typ         string
	props       map[string]*FieldMapping // object / nested children
	fields      map[string]*FieldMapping // multi-fields (name.keyword)
	IgnoreAbove int
	Format      string
	params      map[string]any // other parameters, kept for display
}

func (f *FieldMapping) kind() Kind {
	if f.typ == "" {
		return KindObject
	}
	return TypeKinds[f.typ]
}

// Mapping is an index's mappings: dynamic setting and root properties.
type Mapping struct {
	dynamic string // "true" (default), "false", "strict"
	props   map[string]*FieldMapping
	meta    map[string]any // _meta, _source and other root parameters kept verbatim
}

func newMapping() *Mapping { return &Mapping{dynamic: "true", props: map[string]*FieldMapping{}} }

// Clone is a deep copy, for side indices that must not add fields to the index's own mapping.
func (m *Mapping) Clone() *Mapping {
	b, _ := json.Marshal(m.Render())
	var v any
	_ = json.Unmarshal(b, &v)
	c, err := ParseMappings(ToNumbers(v))
	if err != nil {
		return newMapping()
	}
	return c
}

// ToNumbers re-creates json.Number values after a round trip through float64.
func ToNumbers(v any) any {
	switch t := v.(type) {
	case float64:
		b, _ := json.Marshal(t)
		return json.Number(b)
	case map[string]any:
		for k, x := range t {
			t[k] = ToNumbers(x)
		}
	case []any:
		for i, x := range t {
			t[i] = ToNumbers(x)
		}
	}
	return v
}

// ParseMappings reads a "mappings" body, also accepting the legacy {"_doc":{...}} wrapper.
func ParseMappings(v any) (*Mapping, *apierr.Error) {
	m := newMapping()
	if v == nil {
		return m, nil
	}
	body, ok := jsonval.Map(v)
	if !ok {
		return nil, apierr.Errf(400, "mapper_parsing_exception", "Failed to parse mapping: mappings must be an object")
	}
	if inner, ok := jsonval.Map(body["_doc"]); ok && len(body) == 1 {
		body = inner
	}
	for k, x := range body {
		switch k {
		case "properties":
			pm, ok := jsonval.Map(x)
			if !ok {
				return nil, apierr.Errf(400, "mapper_parsing_exception", "Failed to parse mapping: properties must be an object")
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
				return nil, apierr.Errf(400, "mapper_parsing_exception", "Failed to parse mapping: Could not convert [dynamic] to boolean")
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

func parseProps(pm map[string]any, prefix string) (map[string]*FieldMapping, *apierr.Error) {
	out := make(map[string]*FieldMapping, len(pm))
	for name, x := range pm {
		if name == "" || strings.TrimSpace(name) == "" {
			return nil, apierr.Errf(400, "mapper_parsing_exception", "Failed to parse mapping: field name cannot be an empty string")
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
				parent = &FieldMapping{typ: "object", props: map[string]*FieldMapping{}}
				target[p] = parent
			}
			if parent.props == nil {
				parent.props = map[string]*FieldMapping{}
			}
			target = parent.props
		}
		target[parts[len(parts)-1]] = fm
	}
	return out, nil
}

func parseField(name, path string, x any) (*FieldMapping, *apierr.Error) {
	def, ok := jsonval.Map(x)
	if !ok {
		return nil, apierr.Errf(400, "mapper_parsing_exception", "Expected map for property [fields] on field [%s] but got a class java.lang.String", name)
	}
	fm := &FieldMapping{}
	if t, ok := def["type"]; ok {
		s, _ := jsonval.String(t)
		if _, known := TypeKinds[s]; !known {
			return nil, apierr.Errf(400, "mapper_parsing_exception", "No handler for type [%s] declared on field [%s]", s, name)
		}
		fm.typ = s
	}
	if p, ok := def["properties"]; ok {
		pm, ok := jsonval.Map(p)
		if !ok {
			return nil, apierr.Errf(400, "mapper_parsing_exception", "Failed to parse mapping: properties of [%s] must be an object", name)
		}
		if fm.typ == "" {
			fm.typ = "object"
		}
		if fm.typ != "object" && fm.typ != "nested" {
			return nil, apierr.Errf(400, "mapper_parsing_exception", "Mapping definition for [%s] has unsupported parameters:  [properties : %v]", name, "…")
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
			fm.props = map[string]*FieldMapping{}
		}
	}
	if f, ok := def["fields"]; ok {
		fmap, ok := jsonval.Map(f)
		if !ok {
			return nil, apierr.Errf(400, "mapper_parsing_exception", "Failed to parse mapping: fields of [%s] must be an object", name)
		}
		fm.fields = map[string]*FieldMapping{}
		for sub, sx := range fmap {
			sf, err := parseField(sub, path+"."+sub, sx)
			if err != nil {
				return nil, err
			}
			if sf.kind() == KindObject {
				return nil, apierr.Errf(400, "mapper_parsing_exception", "Type [%s] cannot be used in multi field", sf.typ)
			}
			fm.fields[sub] = sf
		}
	}
	if v, ok := def["ignore_above"]; ok {
		n, ok := jsonval.Int(v)
		if !ok || n < 0 {
			return nil, apierr.Errf(400, "mapper_parsing_exception", "Failed to parse mapping: [ignore_above] on field [%s] must be a non-negative integer", name)
		}
		fm.IgnoreAbove = n
	}
	if v, ok := def["format"]; ok {
		fm.Format, _ = jsonval.String(v)
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

// Render is the mapping as GET _mapping shows it.
func (m *Mapping) Render() jsonout.Obj {
	o := jsonout.Obj{}
	if m.dynamic != "true" {
		o = append(o, jsonout.KV{"dynamic", m.dynamic})
	}
	for _, k := range jsonval.SortedKeys(m.meta) {
		o = append(o, jsonout.KV{k, m.meta[k]})
	}
	if len(m.props) > 0 {
		o = append(o, jsonout.KV{"properties", renderProps(m.props)})
	}
	return o
}

func renderProps(props map[string]*FieldMapping) jsonout.Obj {
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	o := make(jsonout.Obj, 0, len(names))
	for _, n := range names {
		o = append(o, jsonout.KV{n, props[n].Render()})
	}
	return o
}

// Render is one field as GET _mapping shows it.
func (f *FieldMapping) Render() jsonout.Obj {
	o := jsonout.Obj{}
	if f.typ != "object" {
		o = append(o, jsonout.KV{"type", f.typ})
	}
	if f.Format != "" {
		o = append(o, jsonout.KV{"format", f.Format})
	}
	if f.IgnoreAbove > 0 {
		o = append(o, jsonout.KV{"ignore_above", f.IgnoreAbove})
	}
	for _, k := range jsonval.SortedKeys(f.params) {
		o = append(o, jsonout.KV{k, f.params[k]})
	}
	if len(f.fields) > 0 {
		o = append(o, jsonout.KV{"fields", renderProps(f.fields)})
	}
	if f.typ == "object" || f.typ == "nested" {
		o = append(o, jsonout.KV{"properties", renderProps(f.props)})
	}
	return o
}

// Merge adds src's fields into m; a changed type is the engine's illegal_argument_exception.
func (m *Mapping) Merge(src *Mapping) *apierr.Error {
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

func mergeProps(dst, src map[string]*FieldMapping, prefix string) *apierr.Error {
	for name, sf := range src {
		df, ok := dst[name]
		if !ok {
			dst[name] = sf
			continue
		}
		dObj, sObj := df.kind() == KindObject, sf.kind() == KindObject
		if dObj != sObj || (!dObj && df.typ != sf.typ) {
			return apierr.BadRequest("mapper [%s%s] cannot be changed from type [%s] to [%s]", prefix, name, df.typ, sf.typ)
		}
		if dObj {
			if err := mergeProps(df.props, sf.props, prefix+name+"."); err != nil {
				return err
			}
			continue
		}
		if sf.fields != nil {
			if df.fields == nil {
				df.fields = map[string]*FieldMapping{}
			}
			if err := mergeProps(df.fields, sf.fields, prefix+name+"."); err != nil {
				return err
			}
		}
		if sf.IgnoreAbove > 0 {
			df.IgnoreAbove = sf.IgnoreAbove
		}
		if sf.Format != "" {
			df.Format = sf.Format
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

// FieldDef is a flattened, searchable field ("user.name", "name.keyword").
type FieldDef struct {
	Path    string
	Type    string
	Kind    Kind
	Mapping *FieldMapping
	Multi   bool // a multi-field: its value comes from the parent
}

// Flatten lists every leaf field and multi-field by dotted path; objects are listed too.
func (m *Mapping) Flatten() map[string]*FieldDef {
	out := map[string]*FieldDef{}
	var walk func(props map[string]*FieldMapping, prefix string)
	walk = func(props map[string]*FieldMapping, prefix string) {
		for name, fm := range props {
			p := prefix + name
			out[p] = &FieldDef{Path: p, Type: fm.typ, Kind: fm.kind(), Mapping: fm}
			if fm.kind() == KindObject {
				walk(fm.props, p+".")
				continue
			}
			for sub, sf := range fm.fields {
				sp := p + "." + sub
				out[sp] = &FieldDef{Path: sp, Type: sf.typ, Kind: sf.kind(), Mapping: sf, Multi: true}
			}
		}
	}
	walk(m.props, "")
	return out
}

// dynamicField is the mapping the engine infers for a new field from its first value.
func dynamicField(v any) *FieldMapping {
	switch t := v.(type) {
	case string:
		if _, ok := dates.ParseISO(t); ok && len(t) >= 8 {
			return &FieldMapping{typ: "date"}
		}
		return &FieldMapping{typ: "text", fields: map[string]*FieldMapping{
			"keyword": {typ: "keyword", IgnoreAbove: 256},
		}}
	case json.Number:
		if strings.ContainsAny(t.String(), ".eE") {
			return &FieldMapping{typ: "float"}
		}
		return &FieldMapping{typ: "long"}
	case bool:
		return &FieldMapping{typ: "boolean"}
	case map[string]any:
		return &FieldMapping{typ: "object", props: map[string]*FieldMapping{}}
	case []any:
		for _, x := range t {
			if x != nil {
				return dynamicField(x)
			}
		}
	}
	return nil
}

// FielddataErr is the engine's refusal to sort or aggregate on a text field.
func FielddataErr(field string) *apierr.Error {
	return apierr.BadRequest("Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [%s] in order to load field data by uninverting the inverted index. Note that this can use significant memory.", field)
}

// FieldMappings is GET _mapping/field's answer for one index: each field (objects and
// multi-fields included) whose full dotted name matches one of the patterns, by name.
func (mp *Mapping) FieldMappings(patterns []string) jsonout.Obj {
	var paths []string
	leaves := map[string]*FieldMapping{}
	var walk func(props map[string]*FieldMapping, prefix string)
	walk = func(props map[string]*FieldMapping, prefix string) {
		for name, f := range props {
			path := prefix + name
			leaves[path] = f
			paths = append(paths, path)
			walk(f.props, path+".")
			walk(f.fields, path+".")
		}
	}
	walk(mp.props, "")
	sort.Strings(paths)
	m := jsonout.Obj{}
	for _, p := range paths {
		for _, pat := range patterns {
			if rest.GlobMatch(strings.TrimSpace(pat), p) {
				leaf := p[strings.LastIndexByte(p, '.')+1:]
				m = append(m, jsonout.KV{p, jsonout.Obj{{"full_name", p}, {"mapping", jsonout.Obj{{leaf, leaves[p].Render()}}}}})
				break
			}
		}
	}
	return m
}
