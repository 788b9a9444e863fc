package opensearch

import (
	"encoding/json"
)

// sourceFilter is the _source option of a search or get.
type sourceFilter struct {
	disabled bool
	includes []string
	excludes []string
}

func parseSourceFilter(v any) (sourceFilter, *apiError) {
	var f sourceFilter
	switch t := v.(type) {
	case nil:
	case bool:
		f.disabled = !t
	case string:
		f.includes = []string{t}
	case []any:
		for _, x := range t {
			s, ok := x.(string)
			if !ok {
				return f, parsingErr("[_source] entries must be strings")
			}
			f.includes = append(f.includes, s)
		}
	case map[string]any:
		for k, x := range t {
			var dst *[]string
			switch k {
			case "includes", "include":
				dst = &f.includes
			case "excludes", "exclude":
				dst = &f.excludes
			default:
				return f, parsingErr("Unknown key for a START_ARRAY in [%s].", k)
			}
			for _, y := range asList(x) {
				s, ok := y.(string)
				if !ok {
					return f, parsingErr("[_source] %s entries must be strings", k)
				}
				*dst = append(*dst, s)
			}
		}
	default:
		return f, parsingErr("[_source] must be a boolean, a string, an array or an object")
	}
	return f, nil
}

// apply returns what a hit shows as _source, and whether to show it at all.
func (f sourceFilter) apply(d *document) (any, bool) {
	if f.disabled {
		return nil, false
	}
	if len(f.includes) == 0 && len(f.excludes) == 0 {
		return json.RawMessage(d.raw), true
	}
	return f.filterMap(d.src, "", len(f.includes) == 0), true
}

func matchesAny(patterns []string, path string) bool {
	for _, p := range patterns {
		if p == path || globMatch(p, path) || p == "*" {
			return true
		}
	}
	return false
}

func (f sourceFilter) filterMap(m map[string]any, prefix string, included bool) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		path := prefix + k
		if matchesAny(f.excludes, path) {
			continue
		}
		inc := included || matchesAny(f.includes, path)
		if r, keep := f.filterValue(v, path, inc); keep {
			out[k] = r
		}
	}
	return out
}

func (f sourceFilter) filterValue(v any, path string, included bool) (any, bool) {
	switch t := v.(type) {
	case map[string]any:
		r := f.filterMap(t, path+".", included)
		if len(r) == 0 && !included {
			return nil, false
		}
		return r, true
	case []any:
		var out []any
		objects := false
		for _, x := range t {
			if _, isObj := x.(map[string]any); isObj {
				objects = true
				if r, keep := f.filterValue(x, path, included); keep {
					out = append(out, r)
				}
			} else if included {
				out = append(out, x)
			}
		}
		if !included && (!objects || len(out) == 0) {
			return nil, false
		}
		if out == nil {
			out = []any{}
		}
		return out, true
	}
	return v, included
}
