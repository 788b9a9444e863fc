package aggs

import (
	"reflect"
	"testing"

	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
)

// A document with several values in one bucket counts once there, and once in each other
// bucket its values reach.
func TestAddPerDistinctKeyCountsDocOncePerBucket(t *testing.T) {
	ix := &index.Index{}
	buckets := map[float64]*bucket{}
	keyOf := func(v float64) float64 { return float64(int(v) / 5 * 5) }
	addPerDistinctKey(buckets, []float64{1, 2, 7, 4}, keyOf, ix, 3, true)
	addPerDistinctKey(buckets, []float64{6}, keyOf, ix, 4, true)
	if len(buckets) != 2 {
		t.Fatalf("buckets = %v, want keys 0 and 5", buckets)
	}
	if b := buckets[0]; b.count != 1 || !reflect.DeepEqual(b.segs[0].Slots, []int32{3}) {
		t.Errorf("bucket 0 = count %d segs %v, want doc 3 once", b.count, b.segs)
	}
	if b := buckets[5]; b.count != 2 || !reflect.DeepEqual(b.segs[0].Slots, []int32{3, 4}) {
		t.Errorf("bucket 5 = count %d segs %v, want docs 3 and 4", b.count, b.segs)
	}
}
