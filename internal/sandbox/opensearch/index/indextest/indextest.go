// Package indextest builds small indices for the tests of the packages that read them (index,
// query, aggs): a mapping and documents given as JSON, written as the REST layer writes them.
package indextest

import (
	"strconv"
	"testing"

	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
)

// Decode reads JSON as the engine does (numbers stay json.Number), failing the test on bad JSON.
func Decode(t testing.TB, s string) any {
	t.Helper()
	v, err := apierr.DecodeJSON([]byte(s))
	if err != nil {
		t.Fatalf("bad JSON %s: %v", s, err)
	}
	return v
}

// New is an index named "test" with the given mappings body ("" for dynamic mapping only) and
// documents, whose ids are "1", "2"… in order.
func New(t testing.TB, mappings string, docs ...string) *index.Index {
	t.Helper()
	ix := index.NewIndex("test", "test-uuid", 0)
	if mappings != "" {
		m, err := index.ParseMappings(Decode(t, mappings))
		if err != nil {
			t.Fatalf("mappings %s: %s", mappings, err.Reason)
		}
		if err := ix.Mapping.Merge(m); err != nil {
			t.Fatalf("mappings %s: %s", mappings, err.Reason)
		}
	}
	ix.Fields = ix.Mapping.Flatten()
	for i, d := range docs {
		src, _ := Decode(t, d).(map[string]any)
		if _, err := ix.Put(strconv.Itoa(i+1), []byte(d), src, false); err != nil {
			t.Fatalf("document %d %s: %s", i+1, d, err.Reason)
		}
	}
	return ix
}

// All is one segment holding every live document of ix, as a match_all search hands to the
// aggregations.
func All(ix *index.Index) index.Segment {
	var slots []int32
	index.ForEach(ix.Live, func(s int32) { slots = append(slots, s) })
	return index.Segment{Index: ix, Slots: slots}
}
