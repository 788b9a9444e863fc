package search

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/svcui/svcui/internal/jsonval"
)

// HitsTable is a search answer shaped as a table.
type HitsTable struct {
	// Total is hits.total.value (or a bare number from older engines); nil when absent
	// (track_total_hits:false).
	Total *int64
	// TotalRelation is "eq" or "gte" ("gte" means at least Total); "" when absent.
	TotalRelation string
	MaxScore      *float64
	Took          *int64
	TimedOut      bool
	// Columns are "_id", "_score", then flattened _source paths in order of first appearance.
	Columns []string
	Rows    [][]string
	// Hits are the raw hit objects, one per row, for detail views and copying.
	Hits []json.RawMessage
	// LastSort is the last hit's "sort" array (for search_after); nil without one.
	LastSort json.RawMessage
}

// ErrNoHits means the answer has no hits section (not a search answer).
var ErrNoHits = errors.New("the answer has no hits")

// ShapeHits reads a _search answer into a table. Cells: strings as written, numbers
// exactly as the engine wrote them, arrays of scalars joined with ", ", arrays of
// objects as compact JSON, absent fields empty.
func ShapeHits(body []byte) (*HitsTable, error) {
	v, err := jsonval.Decode(body)
	if err != nil {
		return nil, fmt.Errorf("search answer is not JSON: %v", err)
	}
	top, ok := v.(*jsonval.Object)
	if !ok {
		return nil, errors.New("search answer is not a JSON object")
	}
	hitsV, _ := top.Get("hits")
	hits, ok := hitsV.(*jsonval.Object)
	if !ok {
		return nil, ErrNoHits
	}
	t := &HitsTable{}
	if took, ok := top.Get("took"); ok {
		if n, ok := jsonval.Int64(took); ok {
			t.Took = &n
		}
	}
	if to, ok := top.Get("timed_out"); ok {
		t.TimedOut = to == true
	}
	switch tot, _ := hits.Get("total"); tt := tot.(type) {
	case *jsonval.Object:
		if val, ok := tt.Get("value"); ok {
			if n, ok := jsonval.Int64(val); ok {
				t.Total = &n
				t.TotalRelation = "eq"
				if rel, ok := tt.Get("relation"); ok {
					if s, ok := rel.(string); ok {
						t.TotalRelation = s
					}
				}
			}
		}
	case json.Number:
		if n, ok := jsonval.Int64(tt); ok {
			t.Total = &n
			t.TotalRelation = "eq"
		}
	}
	if ms, ok := hits.Get("max_score"); ok {
		if f, ok := jsonval.Float(ms); ok {
			t.MaxScore = &f
		}
	}
	list, _ := hits.Get("hits")
	arr, _ := list.([]any)
	cols := newColumnSet("_id", "_score")
	maps := make([]map[string]string, 0, len(arr))
	for _, h := range arr {
		hit, ok := h.(*jsonval.Object)
		if !ok {
			continue
		}
		row := map[string]string{}
		if id, ok := hit.Get("_id"); ok {
			row["_id"] = cellText(id)
		}
		if sc, ok := hit.Get("_score"); ok && sc != nil {
			row["_score"] = cellText(sc)
		}
		if src, ok := hit.Get("_source"); ok {
			flatten("", src, func(path, text string) {
				switch path {
				case "":
					path = "_source" // a _source that is not an object
				case "_id", "_score":
					path = "_source." + path // keep the hit's own columns intact
				}
				cols.add(path)
				row[path] = text
			})
		}
		maps = append(maps, row)
		t.Hits = append(t.Hits, json.RawMessage(jsonval.Compact(hit)))
		t.LastSort = nil
		if s, ok := hit.Get("sort"); ok {
			if sa, ok := s.([]any); ok {
				t.LastSort = json.RawMessage(jsonval.Compact(sa))
			}
		}
	}
	t.Columns = cols.names
	t.Rows = cols.rows(maps)
	return t, nil
}
