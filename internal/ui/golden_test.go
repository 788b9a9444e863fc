package ui

import (
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/sandbox/sandboxtest"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// TestGoldenScreens freezes the main views at 80×24 and 120×40: the demo data with a
// fixed seed, the sandbox and the console on the same fixed clock, the colour profile
// pinned to ASCII (flows_test.go). `go test ./internal/ui -run Golden -update` rewrites
// testdata/TestGoldenScreens/*.golden after a deliberate change; read the diff.
func TestGoldenScreens(t *testing.T) {
	at := time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC)
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			t.Parallel()
			sb, err := sandbox.New(sandbox.Options{Data: "demo", Seed: 1, Clock: sandboxtest.NewManualClock(at), Search: true})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(sb.Handler())
			t.Cleanup(func() { srv.Close(); _ = sb.Close() })
			e := env{url: srv.URL, admin: sb.AdminToken(), dev: sb.DeveloperToken(), sb: sb}
			m := newRoot(settings(e, e.admin), theme.New(theme.Dark, false), slog.New(slog.NewTextHandler(io.Discard, nil)), client(t, e.url, e.admin), nil)
			// The rate limit left depends on which of two concurrent answers came last.
			m.inner.Context().Platform.RateLimit = nil
			d := driver(t, m)
			d.Clock.Advance(at.Sub(d.Clock.Now()))
			d.Send(tea.WindowSizeMsg{Width: w, Height: h})
			d.Send(uitest.Run(m.Init())...)
			shots := []struct {
				name string
				keys []string
				want string
			}{
				{"projects", nil, "acme-prod"},
				{"project-detail", []string{"enter"}, "Tech e-mails"},
				{"services", []string{"esc", "2"}, "pg-main"},
				{"service-detail", []string{"enter"}, "Connection"},
				{"users", []string{"esc", "3"}, "Users"},
				{"billing", []string{"4"}, "Billing groups"},
				{"help", []string{"?"}, "Global"},
				{"search", []string{"esc", "5"}, "logs-app"},
			}
			for _, s := range shots {
				for _, k := range s.keys {
					d.Send(keyOf(k))
				}
				screen := pemBody.ReplaceAllString(ansi.Strip(m.View()), "$1    (certificate body: new keys every run)\n")
				if !strings.Contains(screen, s.want) {
					t.Fatalf("%s: %q not on screen:\n%s", s.name, s.want, screen)
				}
				t.Run(s.name, func(t *testing.T) { golden.RequireEqual(t, []byte(screen)) })
			}
		})
	}
}

// pemBody matches the base64 lines of a certificate on screen: the sandbox's CA has new
// keys on every start (crypto ignores seeded randomness), so the golden keeps only its frame.
var pemBody = regexp.MustCompile(`(?m)(-----BEGIN CERTIFICATE-----\n)(?:\s+[A-Za-z0-9+/=]+\n)+`)

// keyOf is the key message a test names: enter, esc, or runes.
func keyOf(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}
