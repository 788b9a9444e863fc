package opensearch

import (
	"bytes"
	"encoding/json"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
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

// apply returns what a hit shows as _source, and whether to show it at all. Filtering walks the
// stored JSON so the kept fields stay in the document's own order, like the engine's.
func (f sourceFilter) apply(d *document) (any, bool) {
	if f.disabled {
		return nil, false
	}
	if len(f.includes) == 0 && len(f.excludes) == 0 {
		return json.RawMessage(d.raw), true
	}
	return json.RawMessage(f.filterRaw(d.raw)), true
}

func matchesAny(patterns []string, path string) bool {
	for _, p := range patterns {
		if p == path || rest.GlobMatch(p, path) || p == "*" {
			return true
		}
	}
	return false
}

// filterRaw returns the filtered copy of a stored source object.
func (f sourceFilter) filterRaw(raw []byte) []byte {
	var b bytes.Buffer
	if _, err := f.writeObject(&b, raw, "", len(f.includes) == 0); err != nil {
		return []byte("{}") // stored sources are validated objects; this is only a guard
	}
	return b.Bytes()
}

// writeObject writes the kept members of an object and reports how many there were.
func (f sourceFilter) writeObject(b *bytes.Buffer, raw []byte, prefix string, included bool) (int, error) {
	start := b.Len()
	b.WriteByte('{')
	kept := 0
	err := forEachMember(raw, func(key string, val json.RawMessage) {
		path := prefix + key
		if matchesAny(f.excludes, path) {
			return
		}
		mark := b.Len()
		if kept > 0 {
			b.WriteByte(',')
		}
		jsonval.AppendString(b, key)
		b.WriteByte(':')
		if f.writeValue(b, val, path, included || matchesAny(f.includes, path)) {
			kept++
		} else {
			b.Truncate(mark)
		}
	})
	if err != nil {
		b.Truncate(start)
		return 0, err
	}
	b.WriteByte('}')
	return kept, nil
}

// writeValue writes a member's filtered value, or nothing (false) when the filter drops it:
// objects and arrays of objects stay when something inside them is kept.
func (f sourceFilter) writeValue(b *bytes.Buffer, raw json.RawMessage, path string, included bool) bool {
	mark := b.Len()
	switch rawKind(raw) {
	case '{':
		n, err := f.writeObject(b, raw, path+".", included)
		if err != nil || (n == 0 && !included) {
			b.Truncate(mark)
			return false
		}
		return true
	case '[':
		b.WriteByte('[')
		kept, objects := 0, false
		err := forEachElement(raw, func(el json.RawMessage) {
			elMark := b.Len()
			if kept > 0 {
				b.WriteByte(',')
			}
			if rawKind(el) == '{' {
				objects = true
				if f.writeValue(b, el, path, included) {
					kept++
					return
				}
			} else if included {
				b.Write(el)
				kept++
				return
			}
			b.Truncate(elMark)
		})
		if err != nil || (!included && (!objects || kept == 0)) {
			b.Truncate(mark)
			return false
		}
		b.WriteByte(']')
		return true
	}
	if included {
		b.Write(raw)
	}
	return included
}
