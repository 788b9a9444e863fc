package watch

import (
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

// root stands in for the app: it hands every message to the watch model first and
// keeps the footer's notices.
type root struct {
	m       *Model
	notices []string
}

func (r *root) Init() tea.Cmd { return nil }
func (r *root) View() string  { return "" }
func (r *root) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if cmd, ok := r.m.Update(msg); ok {
		return r, cmd
	}
	if n, ok := msg.(common.Notify); ok {
		r.notices = append(r.notices, n.Text)
	}
	return r, nil
}

func setup(t *testing.T, p *fake.API) (*uitest.Driver, *root, *[]string) {
	t.Helper()
	ctx := common.NewContext()
	clock := uitest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	ctx.Now, ctx.After, ctx.API = clock.Now, clock.After, p
	var mu sync.Mutex
	var rung []string
	m := New(ctx)
	m.Ring = func(text string) { mu.Lock(); rung = append(rung, text); mu.Unlock() }
	r := &root{m: m}
	return &uitest.Driver{Model: r, Clock: clock}, r, &rung
}

// Each transition to RUNNING or POWEROFF, and a disappearance, rings exactly once,
// however many looks see the same state; a watch a change started ends with it.
func TestWatchesFireOncePerTransition(t *testing.T) {
	R, O, B := models.StateRunning, models.StatePowerOff, models.StateRebuilding
	p := fake.New()
	p.Script("acme", "pg-main", B, B, R, R, R, O, O, R, R, "")
	p.Script("acme", "kafka-events", models.StateRebalancing, R, R, R, R, R, R, R, R, R)
	d, r, rung := setup(t, p)
	d.Send(Toggle{Project: "acme", Service: "pg-main", State: B})
	d.Send(Start{Project: "acme", Service: "kafka-events", Reason: "plan change", State: models.StateRebalancing})
	if got := ansi.Strip(r.m.Header(0)); got != "watching 2" {
		t.Fatalf("header %q", got)
	}
	var timeline []string
	looks := 0
	for ; d.Clock.Pending() > 0; looks++ {
		if n := d.Clock.Pending(); n != 1 || looks > 20 {
			t.Fatalf("look %d: %d timers pending, want one", looks, n)
		}
		before := len(*rung)
		d.Advance(SlowPoll) // the one timer fires, whichever interval it has
		timeline = append(timeline, (*rung)[before:]...)
	}
	want := []string{
		"kafka-events is RUNNING after its plan change",
		"pg-main is RUNNING",
		"pg-main is POWEROFF",
		"pg-main is RUNNING",
		"pg-main in acme is gone",
	}
	if strings.Join(timeline, "|") != strings.Join(want, "|") {
		t.Fatalf("rang\n %q\nwant\n %q", timeline, want)
	}
	for _, w := range want {
		if !strings.Contains(strings.Join(r.notices, "\n"), w) {
			t.Errorf("the footer was not told %q: %q", w, r.notices)
		}
	}
	if looks != 10 {
		t.Errorf("%d looks, want 10 (one per scripted state)", looks)
	}
	if len(r.m.List()) != 0 || d.Clock.Pending() != 0 {
		t.Fatalf("watches %v and %d timers left after every watched service settled or went", r.m.List(), d.Clock.Pending())
	}
}

// Looks that fail say nothing and keep the watch; w again stops it; a failed change
// rings once.
func TestWatchesQuietOnFailureAndStopWithW(t *testing.T) {
	p := fake.New()
	p.Script("acme", "pg", models.StateRunning)
	p.On(fake.ListServices).Fail(errors.New("connection refused"))
	d, r, rung := setup(t, p)
	d.Send(Toggle{Project: "acme", Service: "pg", State: models.StateRebuilding})
	d.Advance(FastPoll)
	d.Advance(FastPoll)
	if len(*rung) != 0 || len(r.m.List()) != 1 {
		t.Fatalf("failed looks rang %q or lost the watch", *rung)
	}
	d.Send(Toggle{Project: "acme", Service: "pg"})
	if len(r.m.List()) != 0 {
		t.Fatal("w again did not stop the watch")
	}
	calls := p.Count(fake.ListServices)
	d.Advance(time.Minute)
	if p.Count(fake.ListServices) != calls {
		t.Fatal("still looking after the last watch stopped")
	}
	d.Send(Failed{Project: "acme", Service: "pg", Reason: "cloud migration", Text: "Cloud not available"})
	if strings.Join(*rung, "|") != "Cloud migration of pg failed: Cloud not available" {
		t.Fatalf("rang %q", *rung)
	}
}

// The header's gap takes the summary; the header's own parts keep their places.
func TestIntoHeader(t *testing.T) {
	p := fake.New()
	d, r, _ := setup(t, p)
	d.Send(Toggle{Project: "acme", Service: "pg-main", State: models.StateRunning})
	h := "svcui [default]" + strings.Repeat(" ", 60) + "API 10/20"
	got := ansi.Strip(r.m.IntoHeader(h))
	if !strings.HasPrefix(got, "svcui [default] ") || !strings.HasSuffix(got, " API 10/20") || len(got) != len(h)+len("●")-1 && ansi.StringWidth(got) != ansi.StringWidth(h) {
		t.Fatalf("header %q", got)
	}
	if !strings.Contains(got, "watching 1 · pg-main ● RUNNING") {
		t.Fatalf("no summary: %q", got)
	}
	if tight := "svcui" + strings.Repeat(" ", 16) + "x"; ansi.Strip(r.m.IntoHeader(tight)) != "svcui"+strings.Repeat(" ", 2)+"watching 1 ●  x" {
		t.Fatalf("tight header: %q", ansi.Strip(r.m.IntoHeader("svcui"+strings.Repeat(" ", 16)+"x")))
	}
	if short := "svcui" + strings.Repeat(" ", 14) + "x"; ansi.Strip(r.m.IntoHeader(short)) != "svcui  watching 1  x" {
		t.Fatalf("short header: %q", ansi.Strip(r.m.IntoHeader(short)))
	}
	if none := "svcui x"; r.m.IntoHeader(none) != none {
		t.Fatal("a header without room changed")
	}
	// The room it asks the header to keep is what the count alone needs.
	if room := r.m.HeaderRoom(); ansi.Strip(r.m.IntoHeader("svcui"+strings.Repeat(" ", room)+"x")) != "svcui  watching 1  x" {
		t.Fatalf("a gap of HeaderRoom (%d) does not take the count", room)
	}
}

func TestRingRingsTmuxAndOSC9OnlyWhereTheyWork(t *testing.T) {
	var wrote strings.Builder
	var tmux [][]string
	tty := func() (io.WriteCloser, error) { return nopCloser{&wrote}, nil }
	run := func(args ...string) error { tmux = append(tmux, args); return nil }
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

	ring("pg is RUNNING", env(map[string]string{"TMUX": "/tmp/tmux-0/default,1,0", "TERM_PROGRAM": "iTerm.app"}), tty, run)
	if wrote.String() != "\a" || len(tmux) != 1 || tmux[0][len(tmux[0])-1] != "svcui: pg is RUNNING" {
		t.Fatalf("inside tmux: wrote %q, tmux %q", wrote.String(), tmux)
	}
	wrote.Reset()
	ring("pg #{is} \x1b]0;x\a gone", env(map[string]string{"TERM_PROGRAM": "WezTerm"}), tty, run)
	if got := wrote.String(); !strings.HasPrefix(got, "\x1b]9;svcui: pg #{is} ") || strings.Count(got, "\a") != 1 || strings.Count(got, "\x1b") != 1 {
		t.Fatalf("OSC 9: %q", got)
	}
	if len(tmux) != 1 {
		t.Fatal("tmux outside tmux")
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Watch a service, then power it off: the answer is already POWEROFF, so no transition
// will ever be seen; the watch ends there and says so, and the header is empty again.
func TestAWatchEndsAtItsTargetWhoeverReachedIt(t *testing.T) {
	R, O := models.StateRunning, models.StatePowerOff
	p := fake.New()
	p.Script("acme", "pg", R, O, O, O)
	d, r, rung := setup(t, p)
	d.Send(Toggle{Project: "acme", Service: "pg", State: R})
	d.Advance(SlowPoll)
	d.Send(Start{Project: "acme", Service: "pg", Reason: "power off", State: O, Target: O})
	if got := r.m.Header(1); got != "" || len(r.m.List()) != 0 {
		t.Fatalf("the watch stayed after its target: header %q, %v", ansi.Strip(got), r.m.List())
	}
	if strings.Join(*rung, "|") != "pg is POWEROFF after its power off" {
		t.Fatalf("rang %q", *rung)
	}
	// A change another console made: the power on's target is seen at the next look,
	// whatever the state the watch last saw.
	p.Script("acme", "pg", R)
	d.Send(Start{Project: "acme", Service: "pg", Reason: "power on", State: R, Target: R})
	d.Send(Start{Project: "acme", Service: "pg", Reason: "power on", State: models.StateRebuilding, Target: R})
	d.Advance(SlowPoll)
	if len(r.m.List()) != 0 || d.Clock.Pending() != 0 {
		t.Fatalf("the watch did not end at RUNNING: %v", r.m.List())
	}
}
