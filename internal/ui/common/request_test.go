package common

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

var (
	kindList   = NewKind("list")
	kindDetail = NewKind("detail")
	kindSlow   = NewKind("slow")
)

func TestStaleResultsAreDropped(t *testing.T) {
	r := NewRequests()
	release := make(chan struct{})
	slowA := Fetch(r, kindList, func(ctx context.Context) (string, error) {
		<-release
		return "project A", ctx.Err()
	})
	fastB := Fetch(r, kindList, func(ctx context.Context) (string, error) { return "project B", nil })
	b := fastB().(Result[string])
	if !r.Current(b.Addr) || b.Value != "project B" {
		t.Fatalf("latest result not current: %+v", b)
	}
	close(release)
	a := slowA().(Result[string])
	if r.Current(a.Addr) {
		t.Fatal("a late answer for A must be stale once B was asked")
	}
	if !errors.Is(a.Err, context.Canceled) {
		t.Fatalf("superseded request should be cancelled, got %v", a.Err)
	}
	// Another view's results are never current here.
	other := NewRequests()
	if r.Current(Addr{View: other.ID, Kind: kindList, Gen: b.Gen}) {
		t.Fatal("result of another view accepted")
	}
	// Kinds are independent.
	c := Fetch(r, kindDetail, func(context.Context) (int, error) { return 1, nil })().(Result[int])
	if !r.Current(c.Addr) || !r.Current(b.Addr) {
		t.Fatal("a request of another kind must not make list stale")
	}
	r.Forget(kindList)
	if r.Current(b.Addr) {
		t.Fatal("Forget should make list results stale")
	}
}

func TestCancelAllAndTimeout(t *testing.T) {
	r := NewRequests()
	started := make(chan struct{})
	cmd := Fetch(r, kindSlow, func(ctx context.Context) (bool, error) {
		close(started)
		<-ctx.Done()
		_, hasDeadline := ctx.Deadline()
		return hasDeadline, ctx.Err()
	})
	done := make(chan Result[bool])
	go func() { done <- cmd().(Result[bool]) }()
	<-started
	if r.InFlight() != 1 {
		t.Fatalf("in flight %d", r.InFlight())
	}
	r.CancelAll()
	select {
	case res := <-done:
		if !res.Value || !errors.Is(res.Err, context.Canceled) || r.Current(res.Addr) {
			t.Fatalf("after CancelAll: %+v", res)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("CancelAll did not cancel")
	}
	if r.InFlight() != 0 {
		t.Fatal("cancel funcs leaked")
	}
}

func TestCommandLookup(t *testing.T) {
	c := NewCommands()
	c.Register(Command{Name: "services"}, Command{Name: "services all"}, Command{Name: "project", Arg: ProjectArg})
	if cmd, arg, ok := c.Lookup("services all"); !ok || cmd.Name != "services all" || arg != "" {
		t.Fatalf("services all: %v %q %v", cmd.Name, arg, ok)
	}
	if cmd, arg, ok := c.Lookup("  project   acme-prod "); !ok || cmd.Name != "project" || arg != "acme-prod" {
		t.Fatalf("project: %v %q %v", cmd.Name, arg, ok)
	}
	if _, _, ok := c.Lookup("services bogus"); ok {
		t.Fatal("a no-arg command must not take an argument")
	}
	c.Register(Command{Name: "services", Help: "replaced"})
	if cmd, _, _ := c.Lookup("services"); cmd.Help != "replaced" {
		t.Fatal("registering again should replace")
	}
}

func TestRelativeTimes(t *testing.T) {
	cases := map[string]string{
		Ago(500 * time.Millisecond): "just now", Ago(12 * time.Second): "12s ago", Ago(3 * time.Minute): "3m ago",
		Ago(5 * time.Hour): "5h ago", Ago(96 * time.Hour): "4d ago",
		For(130 * time.Second): "for 2m 10s", For(-time.Second): "for 0s", For(26 * time.Hour): "for 1d 2h",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("got %q want %q", got, want)
		}
	}
	now := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	if Age(now, time.Time{}) != "—" || Age(now, now.Add(-90*time.Minute)) != "1h" || Age(now, now.Add(-72*time.Hour)) != "3d" {
		t.Errorf("Age: %q", Age(now, now.Add(-90*time.Minute)))
	}
}

func TestPanicInRequestBecomesError(t *testing.T) {
	r := NewRequests()
	res := Fetch(r, kindList, func(context.Context) ([]int, error) { panic("decoder bug") })().(Result[[]int])
	var pe *PanicError
	if !errors.As(res.Err, &pe) || pe.Value != "decoder bug" || len(pe.Stack) == 0 || r.InFlight() != 0 {
		t.Fatalf("err %v, in flight %d", res.Err, r.InFlight())
	}
}

func TestErrorTextLogsTheDetail(t *testing.T) {
	var logged strings.Builder
	c := NewContext()
	c.Log = slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c.Platform.Message = func(error) string { return "The platform sent an unreadable answer" }
	c.Platform.Detail = func(error) string { return "GET /v1/project: 200 text/html, projects[3].name is a number" }
	if got := c.ErrorText(errors.New("x")); got != "The platform sent an unreadable answer" {
		t.Fatalf("sentence %q", got)
	}
	if !strings.Contains(logged.String(), "projects[3].name is a number") {
		t.Fatalf("detail not logged: %s", logged.String())
	}
}

// Reply reads a result's address and error whatever its value type, a write's answer
// too, and tells messages that are not results.
func TestReplyReadsEveryResult(t *testing.T) {
	kind := NewKind("read")
	boom := errors.New("boom")
	for _, c := range []struct {
		msg  tea.Msg
		addr Addr
		err  error
		ok   bool
	}{
		{Result[[]int]{Addr: Addr{View: 7, Kind: kind, Gen: 3}, Err: boom}, Addr{View: 7, Kind: kind, Gen: 3}, boom, true},
		{Result[string]{Addr: Addr{View: 8}, Value: "x"}, Addr{View: 8}, nil, true},
		{writeAnswer[int]{Result[written[int]]{Addr: Addr{View: 9, Kind: kind}, Err: boom}}, Addr{View: 9, Kind: kind}, boom, true},
		{struct{ Addr Addr }{Addr{View: 1}}, Addr{}, nil, false},
		{struct {
			Addr Addr
			Err  string
		}{Addr{View: 1}, "no"}, Addr{}, nil, false},
		{Addr{View: 2}, Addr{}, nil, false},
		{&Result[int]{Addr: Addr{View: 3}}, Addr{}, nil, false},
		{nil, Addr{}, nil, false},
	} {
		addr, err, ok := Reply(c.msg)
		if addr != c.addr || err != c.err || ok != c.ok {
			t.Errorf("Reply(%T) = %+v, %v, %v; want %+v, %v, %v", c.msg, addr, err, ok, c.addr, c.err, c.ok)
		}
	}
}
