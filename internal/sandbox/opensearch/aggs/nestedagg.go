package aggs

import (
	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// nestedParams are a nested aggregation's own parameters.
type nestedParams struct{ path string }

func parseNested(sp *Spec, p map[string]any) (nestedParams, *apierr.Error) {
	path, _ := jsonval.String(p["path"])
	if path == "" {
		return nestedParams{}, apierr.Parsing("Missing [path] field for nested aggregation [%s]", sp.Name)
	}
	return nestedParams{path}, nil
}

// run runs sub-aggregations over the nested objects of the matching documents.
func (np nestedParams) run(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	path := np.path
	var subSegs []index.Segment
	for _, seg := range segs {
		if !index.IsNestedPath(seg.Index, path) {
			continue
		}
		nv := seg.Index.NestedDocs(path)
		in := make(map[int32]bool, len(seg.Slots))
		for _, s := range seg.Slots {
			in[s] = true
		}
		var slots []int32
		for s, p := range nv.Parent {
			if in[p] && nv.Sub.IsLive(int32(s)) {
				slots = append(slots, int32(s))
			}
		}
		subSegs = append(subSegs, index.Segment{Index: nv.Sub, Slots: slots})
	}
	if len(subSegs) == 0 && len(segs) > 0 {
		return nil, apierr.Errf(400, "aggregation_execution_exception", "[nested] nested path [%s] is not nested", path)
	}
	return bucketBody(jsonout.Obj{}, index.CountSlots(subSegs), sp, subSegs, ctx)
}
