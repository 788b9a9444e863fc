package ui

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/ui/terminal"
	"github.com/svcui/svcui/internal/ui/theme"
)

// The bytes an idle screen costs a slow link, counted as the program writes them:
// the real program, Bubble Tea's own renderer, the terminal wrapper Run puts on the
// way out, a sandbox with services that stay REBUILDING.

// countingWriter counts and keeps what the program writes.
type countingWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.Write(p)
}

func (c *countingWriter) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.Len()
}

func (c *countingWriter) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// transitionalSandbox serves the demo data plus n services in acme-prod that stay
// REBUILDING for hours (acme-prod already has one REBALANCING service).
func transitionalSandbox(tb testing.TB, n int) (url, token string) {
	tb.Helper()
	sb, err := sandbox.New(sandbox.Options{Data: "demo", Seed: 1, ProvisionDelay: 6 * time.Hour, RateLimit: 100000})
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	tb.Cleanup(func() { srv.Close(); _ = sb.Close() })
	c, err := api.New(api.Options{BaseURL: srv.URL, Token: sb.AdminToken()})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		req := models.CreateServiceRequest{ServiceName: fmt.Sprintf("spin-%02d", i), ServiceType: "pg", Plan: "startup-4", Cloud: "aws-us-east-1"}
		if _, err := c.CreateService(context.Background(), "acme-prod", req); err != nil {
			tb.Fatal(err)
		}
	}
	return srv.URL, sb.AdminToken()
}

// idleRun is the program on the Services tab of acme-prod at w×h.
type idleRun struct {
	out *countingWriter
	p   *tea.Program
}

func startIdle(tb testing.TB, url, token string, noMotion, delta bool, w, h int) *idleRun {
	tb.Helper()
	useANSI256(tb)
	s := config.Settings{ProfileName: "slow", APIURL: url, Token: token, Refresh: 10 * time.Second, DefaultProject: "acme-prod", NoMotion: noMotion}
	c, err := api.New(api.Options{BaseURL: url, Token: token})
	if err != nil {
		tb.Fatal(err)
	}
	m := newRoot(s, theme.New(theme.Dark, false), slog.New(slog.NewTextHandler(io.Discard, nil)), c, nil)
	m.inner.Context().StateDir = tb.TempDir()
	r := &idleRun{out: &countingWriter{}}
	var out io.Writer = r.out
	if delta {
		out = terminal.NewDelta(nil, r.out)
	}
	r.p = tea.NewProgram(m, tea.WithOutput(out), tea.WithInput(nil), tea.WithAltScreen(), tea.WithoutSignalHandler())
	done := make(chan struct{})
	go func() { _, _ = r.p.Run(); close(done) }()
	tb.Cleanup(func() { r.p.Quit(); <-done })
	r.p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	r.waitFor(tb, "acme-prod")
	r.p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	r.waitFor(tb, "mysql-orders-legacy")
	time.Sleep(1500 * time.Millisecond) // the first full frames and the first refresh
	return r
}

// useANSI256 renders as in a colour terminal (SGR cost counts) until tb ends. Parallel
// subtests share the profile their parent set: they neither set nor restore it.
func useANSI256(tb testing.TB) {
	if prev := lipgloss.ColorProfile(); prev != termenv.ANSI256 {
		lipgloss.SetColorProfile(termenv.ANSI256)
		tb.Cleanup(func() { lipgloss.SetColorProfile(prev) })
	}
}

func (r *idleRun) waitFor(tb testing.TB, s string) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(r.out.String(), s) {
		if time.Now().After(deadline) {
			tb.Fatalf("the screen never showed %q", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// bytesPerSecond counts what the program writes over d.
func (r *idleRun) bytesPerSecond(d time.Duration) float64 {
	from := r.out.Len()
	time.Sleep(d)
	return float64(r.out.Len()-from) / d.Seconds()
}

// BenchmarkIdleBytesPerSecond reports what an idle 160×50 Services screen with N
// transitional rows writes per second (B/s), with motion and with --no-motion, through
// the terminal wrapper Run uses and, for comparison, straight from Bubble Tea's renderer.
// Each iteration watches the screen for 3 s: run it with -benchtime=1x.
func BenchmarkIdleBytesPerSecond(b *testing.B) {
	for _, n := range []int{0, 2, 10, 40} {
		url, token := transitionalSandbox(b, n)
		for _, c := range []struct {
			name            string
			noMotion, delta bool
		}{{"motion", false, true}, {"no-motion", true, true}, {"motion-renderer-alone", false, false}} {
			b.Run(fmt.Sprintf("rows=%d/%s", n+1, c.name), func(b *testing.B) {
				r := startIdle(b, url, token, c.noMotion, c.delta, 160, 50)
				var total float64
				for b.Loop() {
					total += r.bytesPerSecond(3 * time.Second)
				}
				b.ReportMetric(total/float64(b.N), "B/s")
			})
		}
	}
}

// Idle with eleven transitional rows, no row is written again: the screen's one spinner
// turns (not with --no-motion) and only the digits of times that moved go out. Each
// spinner frame rewrote every such row before, about 200 bytes a row.
func TestIdleTransitionalRowsAreNotRepainted(t *testing.T) {
	if testing.Short() {
		t.Skip("watches the screen for seconds")
	}
	url, token := transitionalSandbox(t, 10)
	useANSI256(t) // set once here: the two runs watch the screen at the same time
	for _, noMotion := range []bool{false, true} {
		t.Run(fmt.Sprintf("no-motion=%t", noMotion), func(t *testing.T) {
			t.Parallel()
			r := startIdle(t, url, token, noMotion, true, 160, 50)
			from := r.out.Len()
			time.Sleep(2500 * time.Millisecond) // a fast refresh (2 s) included
			idle := r.out.String()[from:]
			for _, whole := range []string{"spin-", "REBUILDING", "pg  ", "aws-us-east-1"} {
				if strings.Contains(idle, whole) {
					t.Fatalf("a row went out whole (%q) while idle: %q", whole, idle)
				}
			}
			turned := strings.ContainsAny(idle, "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
			if turned == noMotion {
				t.Errorf("spinner turned: %t, with no-motion %t", turned, noMotion)
			}
			if !noMotion && !strings.Contains(idle, "\x1b[38;5;245m") {
				t.Errorf("the times in state did not move: %q", idle)
			}
			t.Logf("%d bytes in 2.5 s", len(idle))
		})
	}
}
