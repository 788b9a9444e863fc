package opensearch

import (
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// shardFailure wraps a per-shard failure the way a search reports it: search_phase_execution_exception
// on top, the real cause as root_cause and caused_by.
func shardFailure(cause *apierr.Error, index string) *apierr.Error {
	top := apierr.New(cause.Status, "search_phase_execution_exception", "all shards failed")
	inner := *cause
	if inner.Index == "" {
		inner.Index = index
	}
	top.Root = &inner
	top.CausedBy = cause
	top.Extra = jsonout.Obj{
		{"phase", "query"},
		{"grouped", true},
		{"failed_shards", []jsonout.Obj{{{"shard", 0}, {"index", index}, {"node", nodeID}, {"reason", cause.Body()}}}},
	}
	return top
}
