package search

import (
	"strings"
	"testing"
)

func TestMergeHitsUnitesColumnsAndKeepsTheNewest(t *testing.T) {
	a, _ := ShapeHits([]byte(`{"hits":{"hits":[{"_id":"1","_source":{"x":"a1"}},{"_id":"2","_source":{"x":"a2"}}]}}`))
	b, _ := ShapeHits([]byte(`{"hits":{"hits":[{"_id":"3","_source":{"y":"b3","x":"b3x"}}]}}`))
	m := MergeHits(a, b, 10)
	if strings.Join(m.Columns, ",") != "_id,_score,x,y" || len(m.Rows) != 3 || *m.Total != 3 {
		t.Fatalf("merged: %v %v", m.Columns, m.Rows)
	}
	if strings.Join(m.Rows[0], "|") != "1||a1|" || strings.Join(m.Rows[2], "|") != "3||b3x|b3" || !strings.Contains(string(m.Hits[2]), `"_id":"3"`) {
		t.Fatalf("rows: %q", m.Rows)
	}
	if len(a.Rows[0]) != 3 {
		t.Fatal("the input was changed")
	}
	k := MergeHits(a, b, 2)
	if len(k.Rows) != 2 || k.Rows[0][0] != "2" || k.Rows[1][0] != "3" || len(k.Hits) != 2 {
		t.Fatalf("kept: %q", k.Rows)
	}
	if k := MergeHits(a, b, 1); len(k.Rows) != 1 || k.Rows[0][0] != "3" {
		t.Fatalf("kept one: %q", k.Rows)
	}
	// Merging equals shaping the whole: what the tail relies on.
	whole, _ := ShapeHits([]byte(`{"hits":{"hits":[{"_id":"1","_source":{"x":"a1"}},{"_id":"2","_source":{"x":"a2"}},{"_id":"3","_source":{"y":"b3","x":"b3x"}}]}}`))
	if strings.Join(whole.Columns, ",") != strings.Join(m.Columns, ",") {
		t.Fatalf("columns %v vs %v", whole.Columns, m.Columns)
	}
	for i := range whole.Rows {
		if strings.Join(whole.Rows[i], "|") != strings.Join(m.Rows[i], "|") {
			t.Fatalf("row %d: %q vs %q", i, whole.Rows[i], m.Rows[i])
		}
	}
}

// A late document goes where its place says, not at the end.
func TestInterleaveHitsPlacesRowsAmongTheOthers(t *testing.T) {
	a, _ := ShapeHits([]byte(`{"hits":{"hits":[{"_id":"1","_source":{"x":"a1"}},{"_id":"3","_source":{"x":"a3"}}]}}`))
	b, _ := ShapeHits([]byte(`{"hits":{"hits":[{"_id":"2","_source":{"y":"b2"}},{"_id":"4","_source":{"x":"b4"}}]}}`))
	m := InterleaveHits(a, b, []bool{false, true, false, true}, 10)
	var ids []string
	for _, r := range m.Rows {
		ids = append(ids, r[0])
	}
	if strings.Join(ids, ",") != "1,2,3,4" || len(m.Hits) != 4 || !strings.Contains(string(m.Hits[1]), `"_id":"2"`) {
		t.Fatalf("rows %v", m.Rows)
	}
	if strings.Join(m.Rows[1], "|") != "2|||b2" || strings.Join(m.Rows[2], "|") != "3||a3|" {
		t.Fatalf("cells %q", m.Rows)
	}
	if k := InterleaveHits(a, b, []bool{false, true, false, true}, 3); len(k.Rows) != 3 || k.Rows[0][0] != "2" {
		t.Fatalf("kept %q", k.Rows)
	}
}
