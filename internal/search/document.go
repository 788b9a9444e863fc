package search

import (
	"errors"
	"fmt"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// DocField is one field of a hit as the document view lists it.
type DocField struct {
	// Name is "_index", "_id", "_score", or a dotted _source path ("http.request.method").
	Name string
	// Value is display text, never cut: strings as they are (newlines kept), numbers
	// as written, null as "null", arrays joined with ", ", empty arrays "[]" and empty
	// objects "{}".
	Value string
	// Highlights are the hit's highlight fragments for this field, tags included
	// (see SplitHighlight); nil when the query asked for none.
	Highlights []string
}

// ArrayJoin separates the elements of an array in DocField.Value and table cells.
const ArrayJoin = ", "

// FlattenHit lists one hit (an element of hits.hits, e.g. HitsTable.Hits[i]): _index,
// _id and _score (when present), then every _source field in document order. Arrays
// of objects give one field per path, values joined in element order ("tags.name":
// "a, b"). Highlight fragments are attached to their field; a highlighted field that
// is not in _source (a multi-field, or a filtered _source) is appended with the
// fragments joined by " … " as its value.
func FlattenHit(hit []byte) ([]DocField, error) {
	v, err := jsonval.Decode(hit)
	if err != nil {
		return nil, fmt.Errorf("hit is not JSON: %v", err)
	}
	h, ok := v.(*jsonval.Object)
	if !ok {
		return nil, errors.New("hit is not a JSON object")
	}
	var out []DocField
	for _, meta := range []string{"_index", "_id", "_score"} {
		if mv, ok := h.Get(meta); ok {
			out = append(out, DocField{Name: meta, Value: cellText(mv)})
		}
	}
	if src, ok := h.Get("_source"); ok {
		if so, isObj := src.(*jsonval.Object); isObj {
			out = appendFlat(out, "", so)
		} else {
			out = append(out, DocField{Name: "_source", Value: cellText(src)})
		}
	}
	hl, _ := h.Get("highlight")
	return attachHighlights(out, hl), nil
}

// appendFlat adds the leaves of o under prefix.
func appendFlat(out []DocField, prefix string, o *jsonval.Object) []DocField {
	if o.Len() == 0 && prefix != "" {
		return append(out, DocField{Name: prefix, Value: "{}"})
	}
	for _, m := range o.Members() {
		p := joinPath(prefix, m.K)
		switch t := m.V.(type) {
		case *jsonval.Object:
			out = appendFlat(out, p, t)
		case []any:
			out = appendArray(out, p, t)
		default:
			out = append(out, DocField{Name: p, Value: cellText(t)})
		}
	}
	return out
}

// appendArray flattens an array: scalars join into one field; objects contribute
// their paths, each path's values joined across elements in order.
func appendArray(out []DocField, path string, arr []any) []DocField {
	if len(arr) == 0 {
		return append(out, DocField{Name: path, Value: "[]"})
	}
	var order []string
	vals := map[string][]string{}
	var collect func(prefix string, v any)
	collect = func(prefix string, v any) {
		switch t := v.(type) {
		case []any:
			for _, e := range t {
				collect(prefix, e)
			}
		case *jsonval.Object:
			for _, f := range appendFlat(nil, prefix, t) {
				if _, seen := vals[f.Name]; !seen {
					order = append(order, f.Name)
				}
				vals[f.Name] = append(vals[f.Name], f.Value)
			}
		default:
			if _, seen := vals[prefix]; !seen {
				order = append(order, prefix)
			}
			vals[prefix] = append(vals[prefix], cellText(t))
		}
	}
	collect(path, arr)
	for _, name := range order {
		out = append(out, DocField{Name: name, Value: strings.Join(vals[name], ArrayJoin)})
	}
	return out
}

func joinPath(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// attachHighlights puts the fragments of hit.highlight ({"field": ["…"]}) on their fields.
func attachHighlights(fields []DocField, hl any) []DocField {
	o, ok := hl.(*jsonval.Object)
	if !ok {
		return fields
	}
	at := make(map[string]int, len(fields))
	for i, f := range fields {
		at[f.Name] = i
	}
	for _, m := range o.Members() {
		name := m.K
		var frags []string
		switch t := m.V.(type) {
		case []any:
			for _, e := range t {
				frags = append(frags, cellText(e))
			}
		default:
			frags = []string{cellText(t)}
		}
		if i, ok := at[name]; ok {
			fields[i].Highlights = frags
			continue
		}
		fields = append(fields, DocField{Name: name, Value: strings.Join(frags, " … "), Highlights: frags})
	}
	return fields
}

// Default highlight tags of the engine.
const (
	DefaultPreTag  = "<em>"
	DefaultPostTag = "</em>"
)

// TextSpan is a run of text, marked when it is a match.
type TextSpan struct {
	Text  string
	Match bool
}

// SplitHighlight cuts a highlight fragment into plain and matched runs, removing the
// tags (pre and post; "" means the engine's default <em> and </em>). An unclosed tag
// marks the rest of the fragment.
func SplitHighlight(fragment, pre, post string) []TextSpan {
	if pre == "" {
		pre = DefaultPreTag
	}
	if post == "" {
		post = DefaultPostTag
	}
	var out []TextSpan
	add := func(s string, m bool) {
		if s == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Match == m {
			out[n-1].Text += s
			return
		}
		out = append(out, TextSpan{Text: s, Match: m})
	}
	rest := fragment
	for rest != "" {
		i := strings.Index(rest, pre)
		if i < 0 {
			add(rest, false)
			break
		}
		add(rest[:i], false)
		rest = rest[i+len(pre):]
		j := strings.Index(rest, post)
		if j < 0 {
			add(rest, true)
			break
		}
		add(rest[:j], true)
		rest = rest[j+len(post):]
	}
	return out
}

// HighlightTags reads the first pre_tags and post_tags of a search body's
// "highlight" ("" for each when absent, meaning the defaults).
func HighlightTags(body string) (pre, post string) {
	v, err := jsonval.Decode([]byte(body))
	if err != nil {
		return "", ""
	}
	top, _ := v.(*jsonval.Object)
	hv, _ := top.Get("highlight")
	h, _ := hv.(*jsonval.Object)
	first := func(k string) string {
		v, _ := h.Get(k)
		switch t := v.(type) {
		case []any:
			if len(t) > 0 {
				s, _ := t[0].(string)
				return s
			}
		case string:
			return t
		}
		return ""
	}
	return first("pre_tags"), first("post_tags")
}
