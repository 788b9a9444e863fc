package opensearch

import (
	"net/http"
	"strings"

	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// handleGetFieldMapping answers GET /_mapping/field/{fields} and /{index}/_mapping/field/{fields}
// (opensearch-api-specification tests/default/indices/mapping/field.yaml): per index, each mapped
// field whose full dotted name matches one of the comma-separated names or patterns, as
// {"full_name": path, "mapping": {leaf: definition}}. Fields that match nothing are left out, and
// an index with none answers "mappings": {} (the per-index answer of
// TransportGetFieldMappingsIndexAction is there even when empty).
func (c *Cluster) handleGetFieldMapping(w http.ResponseWriter, r *http.Request, expr, fields string) {
	patterns := strings.Split(fields, ",")
	c.replyPerIndex(w, r, expr, func(ix *index.Index) jsonout.Obj {
		return jsonout.Obj{{"mappings", ix.Mapping.FieldMappings(patterns)}}
	})
}
