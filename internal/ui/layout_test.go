package ui

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// driver drives a root model synchronously with its timers on a test clock and its
// state in the test's own directory.
func driver(t *testing.T, m *safeModel) *uitest.Driver {
	clk := uitest.NewClock(time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC))
	ctx := m.inner.Context()
	ctx.Now, ctx.After = clk.Now, clk.After
	ctx.StateDir = stateDir(t)
	return &uitest.Driver{Model: m, Clock: clk}
}

func TestLayoutFitsTheScreen(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	for _, size := range [][2]int{{80, 24}, {119, 30}, {160, 50}} {
		w, h := size[0], size[1]
		m := newRoot(settings(e, e.admin), theme.New(theme.Dark, false), slog.New(slog.NewTextHandler(io.Discard, nil)), client(t, e.url, e.admin), nil)
		d := driver(t, m)
		d.Send(tea.WindowSizeMsg{Width: w, Height: h})
		d.Send(uitest.Run(m.Init())...)
		screens := map[string]string{"list": m.View()}
		d.Send(tea.KeyMsg{Type: tea.KeyEnter})
		screens["detail"] = m.View()
		d.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
		screens["help"] = m.View()
		for name, v := range screens {
			lines := strings.Split(v, "\n")
			if len(lines) != h {
				t.Errorf("%dx%d %s: %d lines", w, h, name, len(lines))
			}
			for i, l := range lines {
				if lw := ansi.StringWidth(l); lw > w {
					t.Errorf("%dx%d %s: line %d is %d wide: %q", w, h, name, i, lw, ansi.Strip(l))
				}
			}
		}
		if !strings.Contains(ansi.Strip(screens["list"]), "acme-staging") || !strings.Contains(ansi.Strip(screens["detail"]), "Tech e-mails") {
			t.Errorf("%dx%d: content missing", w, h)
		}
		compact := !strings.Contains(ansi.Strip(screens["list"]), "Billing group")
		if compact != (w < 120) {
			t.Errorf("%dx%d: compact layout = %v", w, h, compact)
		}
	}
}
