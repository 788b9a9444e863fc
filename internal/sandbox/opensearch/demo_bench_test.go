package opensearch

import "testing"

// BenchmarkLoadDemo is the cost of the demo data (about 9,200 documents), which `svcui
// --sandbox` pays at start and every engine-backed test pays once per sandbox.
func BenchmarkLoadDemo(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		c := newTestCluster(b)
		if err := c.LoadDemo(42); err != nil {
			b.Fatal(err)
		}
	}
}
