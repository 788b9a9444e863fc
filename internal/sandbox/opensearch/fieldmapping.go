package opensearch

import (
	"net/http"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// handleGetFieldMapping answers GET /_mapping/field/{fields} and /{index}/_mapping/field/{fields}
// (opensearch-api-specification tests/default/indices/mapping/field.yaml): per index, each mapped
// field whose full dotted name matches one of the comma-separated names or patterns, as
// {"full_name": path, "mapping": {leaf: definition}}. Fields that match nothing are left out, and
// an index with none answers "mappings": {} (the per-index answer of
// TransportGetFieldMappingsIndexAction is there even when empty).
func (c *Cluster) handleGetFieldMapping(w http.ResponseWriter, r *http.Request, expr, fields string) {
	patterns := strings.Split(fields, ",")
	c.replyPerIndex(w, r, expr, func(ix *index) obj {
		return obj{{"mappings", fieldMappings(ix.mapping, patterns)}}
	})
}

func fieldMappings(mp *mapping, patterns []string) obj {
	var paths []string
	leaves := map[string]*fieldMapping{}
	var walk func(props map[string]*fieldMapping, prefix string)
	walk = func(props map[string]*fieldMapping, prefix string) {
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
	m := obj{}
	for _, p := range paths {
		for _, pat := range patterns {
			if rest.GlobMatch(strings.TrimSpace(pat), p) {
				leaf := p[strings.LastIndexByte(p, '.')+1:]
				m = append(m, kv{p, obj{{"full_name", p}, {"mapping", obj{{leaf, leaves[p].render()}}}}})
				break
			}
		}
	}
	return m
}
