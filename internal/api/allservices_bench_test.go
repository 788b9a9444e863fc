package api

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
)

// BenchmarkStreamAllServices is issue 18's measure: every service of the 200 projects
// of scale:10000 data, through the fan-out, against the in-process sandbox with every
// answer delayed (latency=1:200ms) and without delay, with the sandbox's default rate
// limit. first-ms is when the first project's services arrived, all-ms when the last
// did. "fixed8" pins the window at the client's MaxConcurrent, which is what the
// fan-out did before it adapted (8 requests at a time, whatever the link).
// Each iteration gets a fresh sandbox and client: a cold window and a full budget.
//
//	go test ./internal/api -run XXX -bench StreamAllServices -benchtime 3x
func BenchmarkStreamAllServices(b *testing.B) {
	for _, lat := range []string{"200ms", "0ms"} {
		for _, mode := range []string{"adaptive", "fixed8"} {
			b.Run(lat+"/"+mode, func(b *testing.B) {
				var first, all time.Duration
				var n int
				for b.Loop() {
					b.StopTimer()
					sb, err := sandbox.New(sandbox.Options{Data: "scale:10000", Seed: 1, Faults: "seed=1,latency=1:" + lat})
					if err != nil {
						b.Fatal(err)
					}
					srv := httptest.NewServer(sb.Handler())
					c, err := New(Options{BaseURL: srv.URL, Token: sb.AdminToken()})
					if err != nil {
						b.Fatal(err)
					}
					if mode == "fixed8" {
						c.fan.max = c.fan.min
					}
					ctx := context.Background()
					pl, err := c.ListProjects(ctx)
					if err != nil {
						b.Fatal(err)
					}
					projects := make([]string, len(pl.Projects))
					for i, p := range pl.Projects {
						projects[i] = p.ProjectName
					}
					b.StartTimer()

					start := time.Now()
					var got, services int
					c.StreamServicesAcrossProjects(ctx, projects, func(project string, svcs []models.Service, err error) {
						if err != nil {
							b.Errorf("%s: %v", project, err)
						}
						if got == 0 {
							first += time.Since(start)
						}
						got++
						services += len(svcs)
					})
					all += time.Since(start)
					n++

					b.StopTimer()
					if got != 200 || services != 10000 {
						b.Fatalf("%d projects, %d services", got, services)
					}
					srv.Close()
					_ = sb.Close()
					b.StartTimer()
				}
				b.ReportMetric(float64(first.Milliseconds())/float64(n), "first-ms")
				b.ReportMetric(float64(all.Milliseconds())/float64(n), "all-ms")
			})
		}
	}
}
