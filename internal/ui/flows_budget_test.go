package ui

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/sandbox"
)

// Large accounts inside the platform's rate limit (issue 26), against the sandbox.

func startScaleSandbox(t *testing.T, services int, faults string) env {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{Data: "scale:" + itoa(services), Seed: 1, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() { srv.Close(); _ = sb.Close() })
	return env{url: srv.URL, admin: sb.AdminToken(), dev: sb.DeveloperToken(), sb: sb}
}

func itoa(n int) string {
	var b []byte
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// Six visits to all-services (enter on a row, esc) at 200 ms latency: coming back
// shows the list from memory and reads only the rolling refresh's share, so the
// platform's budget stays above half, the header never says failing, and the list shows
// states on every return. Today's main spends 200 requests per return and runs dry.
func TestFlowSixVisitsToAllServicesKeepHalfTheBudget(t *testing.T) {
	t.Parallel() // waits on the sandbox's latency and the clock, not the CPU
	if testing.Short() {
		t.Skip("10,000 services at 200 ms latency")
	}
	e := startScaleSandbox(t, 10_000, "seed=1,latency=1:200ms")
	c := client(t, e.url, e.admin)
	st := settings(e, e.admin)
	st.Refresh = 10 * time.Second
	s := start(t, st, c, 120, 40)
	s.waitForLine(`scale-00001`, 20*time.Second)
	s.mark()
	s.keys("2")
	s.waitForLine(`RUNNING`, 20*time.Second)
	s.mark()
	s.keys("a")
	s.waitForLine(`Services \(all projects\) · oldest read`, 30*time.Second)
	check := func(when string) {
		t.Helper()
		b := c.Budget().State()
		if b.Known && b.Remaining < b.Limit/2 {
			t.Fatalf("%s: the budget fell to %d/%d", when, b.Remaining, b.Limit)
		}
	}
	check("after the first load")
	s.drain()
	visits := s.buf.Len()
	for i := range 6 {
		s.mark()
		s.keys("enter")
		s.waitForLine(`Overview`, 10*time.Second)
		check("in a service's detail")
		s.mark()
		s.keys("esc")
		// From memory: the rows are there at once, with their states.
		s.waitForLine(`Services \(all projects\).*\n(.*\n)*.*RUNNING`, 3*time.Second)
		check("back on all services, visit " + itoa(i+1))
		time.Sleep(time.Second)
	}
	s.drain()
	out := ansi.Strip(s.buf.String()[visits:])
	for _, bad := range []string{"failing (", "timed out", "0/200 projects"} {
		if strings.Contains(out, bad) {
			t.Errorf("the screen said %q during the visits", bad)
		}
	}
	t.Logf("budget after six visits: %+v", c.Budget().State())
}

// With a platform that refuses 30% of requests with 429, the all-services list of
// 1,000 services (20 projects) becomes whole by itself (the projects refused are read again when
// the platform said), and the session's messages name the rate limit.
func TestFlowRateLimitedAllServicesBecomeWhole(t *testing.T) {
	t.Parallel() // waits on the sandbox's latency and the clock, not the CPU
	if testing.Short() {
		t.Skip("1,000 services through a storm of 429s")
	}
	e := startScaleSandbox(t, 1_000, "seed=3,429=0.3")
	c := client(t, e.url, e.admin)
	st := settings(e, e.admin)
	st.Refresh = 10 * time.Second
	s := start(t, st, c, 120, 40)
	s.waitForLine(`scale-00001`, 20*time.Second)
	s.mark()
	s.keys("2")
	s.waitForLine(`RUNNING`, 20*time.Second)
	s.mark()
	s.keys("a")
	// Whole: every project read (the breadcrumb no longer counts unread ones) and the
	// table holds all 1,000 rows.
	s.waitForLine(`Services \(all projects\) · oldest read`, 90*time.Second)
	s.waitForLine(`/1000`, 5*time.Second)
	s.drain()
	out := ansi.Strip(s.buf.String()[s.from:])
	if strings.Contains(out, "failing (") {
		t.Errorf("the header counted the platform's waits as failures")
	}
	s.mark()
	s.keys(":")
	s.keys("messages", "enter")
	s.waitFor("rate limited by the platform; retrying at")
}
