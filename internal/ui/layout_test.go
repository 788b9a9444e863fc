package ui

import (
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/theme"
)

// settleModel runs a message and every command it leads to (ticks excluded) synchronously.
func settleModel(m tea.Model, msg tea.Msg) {
	queue := []tea.Msg{msg}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		_, cmd := m.Update(next)
		queue = append(queue, runCmd(cmd)...)
	}
}

func runCmd(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		switch msg := msg.(type) {
		case nil, tea.QuitMsg:
			return nil
		case tea.BatchMsg:
			var out []tea.Msg
			for _, c := range msg {
				out = append(out, runCmd(c)...)
			}
			return out
		case tea.Cmd:
			return runCmd(msg)
		default:
			// tea.Sequence produces an unexported slice of commands: run them in order.
			if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
				var out []tea.Msg
				for i := 0; i < v.Len(); i++ {
					out = append(out, runCmd(v.Index(i).Interface().(tea.Cmd))...)
				}
				return out
			}
			return []tea.Msg{msg}
		}
	case <-time.After(300 * time.Millisecond):
		return nil // a tick or a blink: not part of settling
	}
}

func TestLayoutFitsTheScreen(t *testing.T) {
	e := startSandbox(t)
	for _, size := range [][2]int{{80, 24}, {119, 30}, {160, 50}} {
		w, h := size[0], size[1]
		m := newRoot(settings(e, e.admin), theme.New(theme.Dark, false), slog.New(slog.NewTextHandler(io.Discard, nil)), client(t, e.url, e.admin), nil)
		settleModel(m, tea.WindowSizeMsg{Width: w, Height: h})
		for _, msg := range runCmd(m.Init()) {
			settleModel(m, msg)
		}
		screens := map[string]string{"list": m.View()}
		settleModel(m, tea.KeyMsg{Type: tea.KeyEnter})
		screens["detail"] = m.View()
		settleModel(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
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
