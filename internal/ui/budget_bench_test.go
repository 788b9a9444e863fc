package ui

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// accountServer answers like the platform for an account of projects×perProject
// services shaped as the sandbox's (service URI and parameters with a password,
// maintenance), writing each answer as it goes; it counts the services lists asked.
func accountServer(tb testing.TB, projects, perProject int) (*httptest.Server, *atomic.Int64) {
	var lists atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-RateLimit-Limit", "1200")
		w.Header().Set("X-RateLimit-Remaining", "1100")
		w.Header().Set("X-RateLimit-Reset", "60")
		b := bufio.NewWriterSize(w, 32<<10)
		defer b.Flush()
		switch {
		case r.URL.Path == "/v1/project":
			b.WriteString(`{"projects":[`)
			for i := range projects {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(b, `{"project_name":"scale-%05d","account_id":"a1","default_cloud":"aws-eu-west-1","billing_currency":"EUR","estimated_balance":"1.00"}`, i+1)
			}
			b.WriteString(`],"project_membership":{}}`)
		case strings.HasSuffix(r.URL.Path, "/service"):
			lists.Add(1)
			project := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1/project/"), "/service")
			b.WriteString(`{"services":[`)
			for i := range perProject {
				if i > 0 {
					b.WriteByte(',')
				}
				name := fmt.Sprintf("pg-%04d", i)
				fmt.Fprintf(b, `{"service_name":%q,"service_type":"pg","state":"RUNNING","cloud_name":"aws-eu-west-1","plan":"business-8",`+
					`"service_uri":"postgres://avnadmin:AVNS_%s%s@%s-%s.svc.sandbox.test:5432/defaultdb","node_count":3,"disk_space_mb":358400,`+
					`"termination_protection":false,"maintenance":{"dow":"wednesday","time":"11:00:00"},`+
					`"service_uri_params":{"host":"%s-%s.svc.sandbox.test","password":"AVNS_%s%s","port":"5432","user":"avnadmin"},`+
					`"create_time":"2026-11-22T15:42:40Z","update_time":"2026-11-22T15:42:40Z"}`,
					name, project, name, name, project, name, project, project, name)
			}
			b.WriteString(`]}`)
		default:
			_, _ = io.WriteString(b, `{"services":[],"users":[],"billing_groups":[],"invoices":[],"clouds":[],"service_types":[]}`)
		}
	}))
	tb.Cleanup(srv.Close)
	return srv, &lists
}

// allServicesConsole runs the whole console on the account, opens all services (2, a)
// and returns it with its driver and clock.
func allServicesConsole(tb testing.TB, url string) (*safeModel, *uitest.Driver, *uitest.Clock) {
	c, err := api.New(api.Options{BaseURL: url, Token: "tok_budget_test"})
	if err != nil {
		tb.Fatal(err)
	}
	clock := uitest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	root := newRoot(config.Settings{ProfileName: "b", APIURL: url, Token: "tok_budget_test", Refresh: 10 * time.Second},
		theme.New(theme.Dark, true), slog.New(slog.DiscardHandler), c, nil)
	ctx := root.inner.Context()
	ctx.Now, ctx.After, ctx.StateDir = clock.Now, clock.After, tb.TempDir()
	d := &uitest.Driver{Model: root, Clock: clock, Skip: func(msg tea.Msg) bool { _, q := msg.(tea.QuitMsg); return q }}
	d.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.Send(uitest.Run(root.Init())...)
	d.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	d.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a")})
	if !strings.Contains(root.View(), "oldest read") {
		tb.Fatalf("all services did not load:\n%s", root.View())
	}
	return root, d, clock
}

// servicesMemory is the heap (MB) the console keeps with 10,000 services on screen
// after refreshes, and the process's resident memory (MB, the test binary's, so an
// upper bound of the console's share).
func servicesMemory(tb testing.TB, refreshes int) (kept, rss float64) {
	old := debug.SetGCPercent(consoleGCPercent)
	defer debug.SetGCPercent(old)
	srv, _ := accountServer(tb, 200, 50)
	runtime.GC()
	base := liveHeap()
	root, d, _ := allServicesConsole(tb, srv.URL)
	for range refreshes {
		d.Advance(10 * time.Second)
	}
	runtime.GC()
	kept = float64(liveHeap()-base) / (1 << 20)
	runtime.KeepAlive(root)
	return kept, rssMB()
}

// BenchmarkAllServicesMemory reports the heap the console keeps with 10,000 services
// on screen after six live refreshes, and the resident memory of the process.
func BenchmarkAllServicesMemory(b *testing.B) {
	for b.Loop() {
		kept, rss := servicesMemory(b, 6)
		b.ReportMetric(kept, "kept-MB")
		b.ReportMetric(rss, "rss-MB")
	}
}

// The console keeps at most 16 MB for 10,000 services on screen: the list holds no
// service URI or password it never shows (it kept 21 MB with them).
func TestAllServicesKeepAtMost16MB(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("measures the heap of 10,000 services: not with -short or -race")
	}
	kept, rss := servicesMemory(t, 3)
	t.Logf("kept %.1f MB, process RSS %.1f MB", kept, rss)
	if kept > 16 {
		t.Errorf("the console keeps %.1f MB for 10,000 services", kept)
	}
}

// BenchmarkIdleAllServicesRequests reports the requests an idle console spends per
// minute on all services (200 projects, 10 s refresh): the rolling refresh's share.
func BenchmarkIdleAllServicesRequests(b *testing.B) {
	for b.Loop() {
		srv, lists := accountServer(b, 200, 50)
		_, d, _ := allServicesConsole(b, srv.URL)
		before := lists.Load()
		for range 6 {
			d.Advance(10 * time.Second)
		}
		b.ReportMetric(float64(lists.Load()-before), "requests/min")
	}
}

// An idle console on all services spends the rolling refresh's share: 200 projects
// read once a minute, never the whole list each tick (today's main read all 200
// every 50 s, and again on every return to the list).
func TestIdleAllServicesSpendTheRollingShare(t *testing.T) {
	if raceEnabled {
		t.Skip("counts the requests of a minute over 10,000 services, CPU-bound under -race: run without it (make test does)")
	}
	srv, lists := accountServer(t, 200, 50)
	_, d, _ := allServicesConsole(t, srv.URL)
	before := lists.Load()
	for range 6 {
		n := lists.Load()
		d.Advance(10 * time.Second)
		if got := lists.Load() - n; got > 40 {
			t.Fatalf("one refresh read %d projects", got)
		}
	}
	if got := lists.Load() - before; got < 150 || got > 220 {
		t.Errorf("an idle minute read %d projects, want the rolling share (about 200)", got)
	}
}
