package journal

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// BenchmarkDiff10000Services diffs a 10,000-service read against the previous one with
// 1% of the services changed, created or deleted (issue 30: ≤ 20 ms, ≤ 10 MB).
func BenchmarkDiff10000Services(b *testing.B) {
	const n = 10_000
	prev := make([]Item, n)
	next := make([]Item, n)
	for i := range n {
		s := svc(fmt.Sprintf("service-%05d", i), "business-4", models.StateRunning)
		prev[i] = FromService(s)
		switch i % 100 {
		case 1:
			s.Plan = "business-8"
		case 2:
			s.ServiceName += "-new"
		}
		next[i] = FromService(s)
	}
	old, now := NewSet(t0, prev), NewSet(t0.Add(time.Minute), next)
	scope := ServicesOf("acme")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if es := Diff(scope, old, now, t0); len(es) != 300 {
			b.Fatalf("%d entries", len(es))
		}
	}
}

// BenchmarkObserve10000Services is the whole step the reader takes per read: the new
// read made a set, diffed and kept.
func BenchmarkObserve10000Services(b *testing.B) {
	const n = 10_000
	reads := [2][]Item{}
	for v := range 2 {
		reads[v] = make([]Item, n)
		for i := range n {
			reads[v][i] = FromService(svc(fmt.Sprintf("service-%05d", i), fmt.Sprintf("plan-%d", (i+v)%7), models.StateRunning))
		}
	}
	j := New()
	j.Observe(ServicesOf("acme"), reads[0], t0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		j.Observe(ServicesOf("acme"), reads[(i+1)%2], t0.Add(time.Duration(i)*time.Second))
	}
}

// BenchmarkHeldFor10000Services reports the heap a journal holds for a whole
// 10,000-service account (200 projects of 50 services, each with 3 users): its share of
// the console's large-account memory goal.
func BenchmarkHeldFor10000Services(b *testing.B) {
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		j := New()
		for p := range 200 {
			project := fmt.Sprintf("scale-%05d", p)
			svcs := make([]Item, 50)
			for s := range 50 {
				name := fmt.Sprintf("service-%05d", p*50+s)
				svcs[s] = FromService(svc(name, "business-4", models.StateRunning))
				j.Observe(UsersOf(project, name), []Item{FromUser(models.ServiceUser{Username: "avnadmin", Type: "primary"}),
					FromUser(models.ServiceUser{Username: "app_" + name, Type: "regular"}), FromUser(models.ServiceUser{Username: "ro_" + name, Type: "regular"})}, t0)
			}
			j.Observe(ServicesOf(project), svcs, t0)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "held-MB")
		runtime.KeepAlive(j)
	}
}

// BenchmarkEncode10000Services is what a save of a whole 10,000-service account costs.
func BenchmarkEncode10000Services(b *testing.B) {
	j := New()
	for p := range 200 {
		project := fmt.Sprintf("scale-%05d", p)
		svcs := make([]Item, 50)
		for s := range 50 {
			name := fmt.Sprintf("service-%05d", p*50+s)
			svcs[s] = FromService(svc(name, "business-4", models.StateRunning))
			j.Observe(UsersOf(project, name), []Item{FromUser(models.ServiceUser{Username: "avnadmin", Type: "primary"})}, t0)
		}
		j.Observe(ServicesOf(project), svcs, t0)
	}
	b.ReportAllocs()
	for b.Loop() {
		var n countingWriter
		if _, err := j.Encode(&n, t0); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(n))
	}
}

type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
