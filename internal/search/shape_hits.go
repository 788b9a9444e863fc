package search

import (
	"encoding/json"
	"errors"
	"fmt"
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
	v, err := decodeOrdered(body)
	if err != nil {
		return nil, fmt.Errorf("search answer is not JSON: %v", err)
	}
	top, ok := v.(*object)
	if !ok {
		return nil, errors.New("search answer is not a JSON object")
	}
	hitsV, _ := top.get("hits")
	hits, ok := hitsV.(*object)
	if !ok {
		return nil, ErrNoHits
	}
	t := &HitsTable{}
	if took, ok := top.get("took"); ok {
		if n, ok := asInt64(took); ok {
			t.Took = &n
		}
	}
	if to, ok := top.get("timed_out"); ok {
		t.TimedOut = to == true
	}
	switch tot, _ := hits.get("total"); tt := tot.(type) {
	case *object:
		if val, ok := tt.get("value"); ok {
			if n, ok := asInt64(val); ok {
				t.Total = &n
				t.TotalRelation = "eq"
				if rel, ok := tt.get("relation"); ok {
					if s, ok := rel.(string); ok {
						t.TotalRelation = s
					}
				}
			}
		}
	case json.Number:
		if n, ok := asInt64(tt); ok {
			t.Total = &n
			t.TotalRelation = "eq"
		}
	}
	if ms, ok := hits.get("max_score"); ok {
		if f, ok := asFloat(ms); ok {
			t.MaxScore = &f
		}
	}
	list, _ := hits.get("hits")
	arr, _ := list.([]any)
	cols := newColumnSet("_id", "_score")
	maps := make([]map[string]string, 0, len(arr))
	for _, h := range arr {
		hit, ok := h.(*object)
		if !ok {
			continue
		}
		row := map[string]string{}
		if id, ok := hit.get("_id"); ok {
			row["_id"] = cellText(id)
		}
		if sc, ok := hit.get("_score"); ok && sc != nil {
			row["_score"] = cellText(sc)
		}
		if src, ok := hit.get("_source"); ok {
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
		t.Hits = append(t.Hits, json.RawMessage(compactJSON(hit)))
		t.LastSort = nil
		if s, ok := hit.get("sort"); ok {
			if sa, ok := s.([]any); ok {
				t.LastSort = json.RawMessage(compactJSON(sa))
			}
		}
	}
	t.Columns = cols.names
	t.Rows = cols.rows(maps)
	return t, nil
}
