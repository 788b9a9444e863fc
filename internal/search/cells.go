package search

import (
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// cellText renders a value for a table cell: strings as they are, numbers as written,
// null as "null", arrays of scalars joined with ", ", anything nested as compact JSON.
func cellText(v any) string {
	if s, ok := jsonval.String(v); ok {
		return s
	}
	switch t := v.(type) {
	case nil:
		return "null"
	case []any:
		parts := make([]string, 0, len(t))
		for _, e := range t {
			switch e.(type) {
			case *jsonval.Object, []any:
				return jsonval.Compact(t)
			}
			parts = append(parts, cellText(e))
		}
		return strings.Join(parts, ", ")
	default:
		return jsonval.Compact(t)
	}
}

// flatten emits leaf paths of v: nested objects become "a.b.c"; arrays and scalars are leaves.
func flatten(prefix string, v any, emit func(path, text string)) {
	o, ok := v.(*jsonval.Object)
	if !ok {
		emit(prefix, cellText(v))
		return
	}
	if o.Len() == 0 && prefix != "" {
		emit(prefix, "{}")
		return
	}
	for _, m := range o.Members() {
		p := m.K
		if prefix != "" {
			p = prefix + "." + m.K
		}
		flatten(p, m.V, emit)
	}
}

// columnSet collects column names in order of first appearance.
type columnSet struct {
	names []string
	index map[string]int
}

func newColumnSet(initial ...string) *columnSet {
	c := &columnSet{index: map[string]int{}}
	for _, n := range initial {
		c.add(n)
	}
	return c
}

func (c *columnSet) add(name string) int {
	if i, ok := c.index[name]; ok {
		return i
	}
	c.index[name] = len(c.names)
	c.names = append(c.names, name)
	return len(c.names) - 1
}

// rowsFromMaps builds rectangular rows from per-row column→text maps.
func (c *columnSet) rows(maps []map[string]string) [][]string {
	out := make([][]string, len(maps))
	for i, m := range maps {
		row := make([]string, len(c.names))
		for k, v := range m {
			row[c.index[k]] = v
		}
		out[i] = row
	}
	return out
}
