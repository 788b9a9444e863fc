package ui

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/sandbox/sandboxtest"
	"github.com/svcui/svcui/internal/ui/theme"
)

func startSandboxWith(tb testing.TB, opts sandbox.Options) env {
	tb.Helper()
	opts.Data, opts.Seed = "demo", 1
	sb, err := sandbox.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	tb.Cleanup(func() { srv.Close(); _ = sb.Close() })
	return env{url: srv.URL, admin: sb.AdminToken(), dev: sb.DeveloperToken(), sb: sb}
}

// servicesFilteredTo opens the Services tab and filters it to name (keys are handled
// in order: the next key acts on the filtered row).
func (s *screen) servicesFilteredTo(name string) {
	s.keys("2")
	s.waitFor(name)
	s.keys("/")
	s.typeText(name)
	s.keys("enter")
}

func (s *screen) ctrlR() { s.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlR}) }

// waitForLine waits for a screen line matching re (the renderer redraws whole lines).
func (s *screen) waitForLine(re string, within time.Duration) {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(within)
	for {
		s.drain()
		if rx.MatchString(s.buf.String()[s.from:]) {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for a line matching %q; output since mark:\n%s", re, ansi.Strip(s.buf.String()[s.from:]))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestFlowServicesCreateBecomesRunning(t *testing.T) {
	t.Parallel()
	clock := sandboxtest.NewManualClock(time.Now())
	e := startSandboxWith(t, sandbox.Options{Clock: clock, ProvisionDelay: time.Minute})
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.mark()
	s.keys("2")
	s.waitFor("pg-main", "● RUNNING", "⛨ on")
	s.mark()
	s.keys("c")
	s.waitFor("Create service in acme-prod (1/2)", "┃ Service type")
	s.advance("Cloud", "enter") // caching, the first type
	s.mark()
	s.keys("enter") // the project's default cloud
	s.waitFor("Create caching in acme-prod (2/2)", "/month", "┃ Plan")
	s.advance("Name", "enter") // first plan
	s.typeText("pg-main")
	s.waitFor("already exists")
	for range 4 {
		s.tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	s.typeText("cache")
	s.waitFor("pg-cache")
	for _, f := range []string{"Disk size in GB", "Termination protection", "Project VPC id", "IP filter"} {
		s.advance(f, "enter")
	}
	s.mark()
	s.keys("enter")
	// The review shows what is created and its cost; nothing is sent before enter.
	s.waitFor("Create pg-cache: review", "Nothing is sent until you press enter", "Name", "pg-cache", "Plan", "Cloud", "Monthly cost", "/month")
	s.mark()
	s.keys("enter")
	s.waitFor("Created pg-cache")
	s.waitForLine(`pg-cache .*REBUILDING`, 5*time.Second)
	svc, err := c.GetService(context.Background(), "acme-prod", "pg-cache")
	if err != nil || svc.State != models.StateRebuilding {
		t.Fatalf("platform: %v %v", svc.State, err)
	}
	// The platform finishes provisioning; the next refresh shows RUNNING.
	clock.Advance(2 * time.Minute)
	s.mark()
	s.ctrlR()
	s.waitForLine(`pg-cache .*● RUNNING`, 5*time.Second)
}

func TestFlowServicesDeleteWithTypedName(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.servicesFilteredTo("caching-sessions")
	s.mark()
	s.keys("d")
	s.waitFor("Delete service", "irreversible")
	s.typeText("caching-session")
	s.keys("enter") // not the full name: nothing happens, and it says so
	s.waitFor("keep typing")
	s.never("Deleting caching-sessions…")
	s.typeText("s")
	s.keys("enter")
	s.waitFor("Deleted service caching-sessions")
	if _, err := c.GetService(context.Background(), "acme-prod", "caching-sessions"); err == nil {
		t.Fatal("service still exists on the platform")
	}
}

// editPGMain opens the edit form of acme-prod's pg-main as an admin.
func editPGMain(t *testing.T) (*screen, *api.Client) {
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.servicesFilteredTo("pg-main")
	s.waitForLine(`1/1`, 5*time.Second)
	s.mark()
	s.keys("e")
	s.waitFor("Edit pg-main", "┃ Plan")
	return s, c
}

// The maintenance day shows the current day with its neighbours one key away; a huh
// select of fixed height scrolled the current day to its top, so a late day (sunday)
// stood alone above blank lines, as if it were the only choice. The review shows the
// new day before anything is sent.
func TestFlowServicesMaintenanceDayIsChosenInPlace(t *testing.T) {
	t.Parallel()
	s, c := editPGMain(t)
	before, err := c.GetService(context.Background(), "acme-prod", "pg-main")
	if err != nil || before.Maintenance == nil || before.Maintenance.DOW != "sunday" {
		t.Fatalf("pg-main's maintenance is not on sunday: %+v (%v)", before.Maintenance, err)
	}
	s.advance("Cloud", "enter")
	s.advance("Disk size in GB", "enter")
	s.advance("Power", "enter")
	s.advance("Termination protection", "enter")
	s.mark()
	s.keys("enter")
	s.waitFor("┃ Maintenance day", "← "+before.Maintenance.DOW+" →", "IP filter")
	s.mark()
	s.keys("left")
	s.waitFor("← saturday →")
	s.advance("Maintenance time", "enter")
	s.advance("IP filter", "enter")
	s.mark()
	s.keys("enter")
	s.waitFor("Edit pg-main: review", "Maintenance", "sunday 03:00 UTC → saturday 03:00 UTC")
}

// Issue 8 §2: power off under termination protection is refused in the form; with the
// protection removed in the same edit, the review lists both changes and the service's
// name must be typed before anything is sent.
func TestFlowServicesPowerOffIsReviewedAndNeedsTheName(t *testing.T) {
	t.Parallel()
	s, c := editPGMain(t)
	s.advance("Cloud", "enter")
	s.advance("Disk size in GB", "enter")
	s.advance("Power", "enter")
	s.mark()
	s.keys("down")
	s.waitFor("> off")
	s.advance("Termination protection", "enter")
	s.waitFor("power off needs termination protection off")
	s.mark()
	s.keys("n") // protection off, on to the next page
	s.waitFor("┃ Maintenance day")
	s.advance("Maintenance time", "enter")
	s.advance("IP filter", "enter")
	s.mark()
	s.keys("enter")
	s.waitFor("Edit pg-main: review", "Nothing is sent until you press enter", "Power", "Termination protection", "data without a backup is lost")
	if svc, _ := c.GetService(context.Background(), "acme-prod", "pg-main"); svc.State != models.StateRunning || !svc.TerminationProtection {
		t.Fatalf("changed before the review was confirmed: %v %v", svc.State, svc.TerminationProtection)
	}
	s.mark()
	s.keys("enter")
	s.waitFor("Power off pg-main", "Type pg-main to confirm")
	s.typeText("pg-mai")
	s.keys("enter")
	s.waitFor("keep typing")
	s.never("Saving pg-main…")
	s.typeText("n")
	s.keys("enter")
	// The answer is POWEROFF: the power off's watch ends there and says so (its target
	// reached), after the save.
	s.waitFor("pg-main is POWEROFF after its power off")
	svc, err := c.GetService(context.Background(), "acme-prod", "pg-main")
	if err != nil || svc.State != models.StatePowerOff || svc.TerminationProtection {
		t.Fatalf("platform: %v %v %v", svc.State, svc.TerminationProtection, err)
	}
}

// A plan change is reviewed with its monthly price before, after and the difference
// (esc back to the form is tested on the flow itself, in package services).
func TestFlowServicesPlanChangeShowsThePrice(t *testing.T) {
	t.Parallel()
	s, c := editPGMain(t)
	before, err := c.GetService(context.Background(), "acme-prod", "pg-main")
	if err != nil {
		t.Fatal(err)
	}
	s.mark()
	s.keys("down")
	s.waitForLine(`> \S+ +\$[0-9.,]+/month \([+-]\$`, 5*time.Second)
	for _, f := range []string{"Cloud", "Disk size in GB", "Power", "Termination protection", "Maintenance day", "Maintenance time", "IP filter"} {
		s.advance(f, "enter")
	}
	s.mark()
	s.keys("enter")
	s.waitFor("Edit pg-main: review", before.Plan)
	s.waitForLine(`\$[0-9.,]+/month → \$[0-9.,]+/month \([+-]\$[0-9.,]+/month\)`, 5*time.Second)
	s.mark()
	s.keys("enter")
	s.waitFor("Saved pg-main")
	after, err := c.GetService(context.Background(), "acme-prod", "pg-main")
	if err != nil || after.Plan == before.Plan {
		t.Fatalf("plan still %s (%v)", after.Plan, err)
	}
}

// Issue 8 §4: opening a row of the all-projects view makes its project current,
// visibly: the footer says so and the header shows the role in that project.
func TestFlowServicesOpenFromAllProjectsMakesItsProjectCurrent(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.keys("2")
	s.waitFor("pg-main")
	s.mark()
	s.keys("a")
	s.waitFor("Services (all projects)", "pg-analytics")
	s.keys("/")
	s.typeText("pg-analytics")
	s.keys("enter")
	s.waitForLine(`1/1`, 5*time.Second)
	s.mark()
	s.keys("enter")
	s.waitFor("Current project: acme-analytics", "as developer", "pg-analytics", "Connection")
}

func TestFlowServicesFaultStormLeavesUIUsable(t *testing.T) {
	t.Parallel() // waits on the sandbox's latency and the clock, not the CPU
	e := startSandboxWith(t, sandbox.Options{Faults: "seed=3,500=0.3,429=0.2"})
	// No retries in the client, so loads fail outright and the UI has to cope: the error
	// is shown, ctrl+r (and the refresh backoff) try again until the data comes.
	c, err := api.New(api.Options{BaseURL: e.url, Token: e.admin, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	s := start(t, settings(e, e.admin), c, 120, 40)
	// Retry as an operator would, with ctrl+r (the refresh backoff retries too): first the
	// projects, which make a project current, then that project's services until both an error
	// and the data have been shown on the services tab.
	storm := func(tab string, done func(out string) bool) {
		t.Helper()
		s.mark()
		deadline := time.Now().Add(20 * time.Second)
		for step := 0; ; step++ {
			s.drain()
			out := s.buf.String()[s.from:]
			if done(out) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("tab %s: not done in 20 s of retries:\n%s", tab, ansi.Strip(out[max(0, len(out)-4000):]))
			}
			if step%20 == 0 {
				s.keys(tab)
				s.ctrlR()
			}
			time.Sleep(25 * time.Millisecond)
		}
	}
	storm("1", func(out string) bool { return strings.Contains(out, "acme-analytics") })
	storm("2", func(out string) bool {
		return strings.Contains(out, "✗") && strings.Contains(out, "pg-main") && strings.Contains(out, "● RUNNING")
	})
	// Keys still work: help opens and closes, the all-projects mode toggles.
	s.mark()
	s.keys("?")
	s.waitFor("this project / all")
	s.mark()
	s.keys("esc")
	s.waitFor("Prot.") // the table's header again: help closed
	s.mark()
	s.keys("a")
	s.waitFor("Services (all projects)")
}

// countingModel counts the messages the program delivers, by type.
type countingModel struct {
	tea.Model
	mu    *sync.Mutex
	count map[string]int
}

func (m countingModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.mu.Lock()
	m.count[strings.TrimPrefix(typeName(msg), "*")]++
	m.mu.Unlock()
	inner, cmd := m.Model.Update(msg)
	m.Model = inner
	return m, cmd
}

// snapshot is how many messages of each type arrived so far, and their total.
func (m countingModel) snapshot() (map[string]int, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, total := make(map[string]int, len(m.count)), 0
	for k, v := range m.count {
		c[k] = v
		total += v
	}
	return c, total
}

func typeName(v any) string {
	return strings.Replace(strings.Replace(fmtType(v), "github.com/svcui/svcui/internal/", "", 1), " ", "", -1)
}

// TestIdleServicesUseNoCPU: with every service settled and the default 10 s interval,
// two seconds of idling on the services table deliver no message at all (no spinner
// tick, no polling); only the refresh tick would, once per interval.
func TestIdleServicesUseNoCPU(t *testing.T) {
	t.Parallel() // waits on the sandbox's latency and the clock, not the CPU
	if testing.Short() {
		t.Skip("idles for 2 s")
	}
	e := startSandboxWith(t, sandbox.Options{ProvisionDelay: time.Millisecond})
	st := settings(e, e.admin)
	st.Refresh = 10 * time.Second
	th := theme.New(theme.Dark, true)
	root := newRoot(st, th, slog.New(slog.NewTextHandler(io.Discard, nil)), client(t, e.url, e.admin), nil)
	cm := countingModel{Model: root, mu: &sync.Mutex{}, count: map[string]int{}}
	tm := teatest.NewTestModel(t, cm, teatest.WithInitialTermSize(120, 40))
	t.Cleanup(func() { _ = tm.Quit() })
	s := &screen{t: t, tm: tm}
	s.waitFor("acme-prod", "as admin")
	s.keys("2")
	s.waitFor("pg-main", "mysql-orders-legacy")
	// Let the load's follow-ups land: the journal's first round (its next is an
	// interval away), then half a second without a message. Under load that takes longer.
	before, total0 := cm.snapshot()
	for quiet, deadline := time.Now(), time.Now().Add(8*time.Second); before["changes.round"] == 0 || time.Since(quiet) < 500*time.Millisecond; {
		if time.Now().After(deadline) {
			t.Fatal("messages never stopped after the load")
		}
		time.Sleep(50 * time.Millisecond)
		if b, n := cm.snapshot(); n != total0 {
			before, total0, quiet = b, n, time.Now()
		}
	}
	time.Sleep(2 * time.Second)
	cm.mu.Lock()
	defer cm.mu.Unlock()
	total := 0
	var extra []string
	for k, v := range cm.count {
		total += v
		if v != before[k] {
			extra = append(extra, k)
		}
	}
	if total != total0 {
		t.Errorf("%d messages while idle (types %v): something polls", total-total0, extra)
	}
}

func fmtType(v any) string { return fmt.Sprintf("%T", v) }

// BenchmarkStartToFirstFrame measures what a user waits for: from building the client
// and the root model (what Run does) against a local sandbox to the first frame showing
// service data in the Services tab.
func BenchmarkStartToFirstFrame(b *testing.B) {
	e := startSandboxWith(b, sandbox.Options{})
	st := settings(e, e.admin)
	th := theme.New(theme.Dark, true)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	for i := 0; i < b.N; i++ {
		start := time.Now()
		c, err := api.New(api.Options{BaseURL: e.url, Token: e.admin})
		if err != nil {
			b.Fatal(err)
		}
		root := newRoot(st, th, logger, c, nil)
		tm := teatest.NewTestModel(b, root, teatest.WithInitialTermSize(120, 40))
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
		var buf strings.Builder
		for {
			chunk, _ := io.ReadAll(tm.Output())
			buf.Write(chunk)
			if strings.Contains(buf.String(), "pg-main") {
				break
			}
			if time.Since(start) > 10*time.Second {
				b.Fatalf("no service data after 10 s:\n%s", ansi.Strip(buf.String()))
			}
			time.Sleep(500 * time.Microsecond)
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000, "ms-to-data")
		_ = tm.Quit()
	}
}
