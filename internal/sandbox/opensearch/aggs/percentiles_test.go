package aggs

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// percentilesOf selects instead of sorting; it must give what interpolating over sorted values gives.
func TestPercentilesOfMatchesSortedReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(300)
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(rng.IntN(50)) // many duplicates, as in real fields
		}
		percents := []float64{0, 1, 5, 25, 50, 75, 95, 99, 99.9, 100, float64(rng.IntN(101))}
		sorted := slices.Clone(vals)
		slices.Sort(sorted)
		got := percentilesOf(vals, percents)
		for i, p := range percents {
			pos := p/100*float64(n) - 0.5
			lo := int(math.Floor(pos))
			var want float64
			switch {
			case pos <= 0:
				want = sorted[0]
			case lo >= n-1:
				want = sorted[n-1]
			default:
				want = sorted[lo] + (pos-float64(lo))*(sorted[lo+1]-sorted[lo])
			}
			if math.Abs(got[i]-want) > 1e-9 {
				t.Fatalf("n=%d p=%v: got %v, want %v", n, p, got[i], want)
			}
		}
	}
}
