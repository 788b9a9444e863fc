package ui

import (
	"context"
	"io"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/ui/theme"
)

// The config file's warning (readable by other users, with a token in it) is shown at
// start and kept in ":messages": Config.Warnings was filled and never read.
func TestConfigFileWarningsShownAtStart(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	e := startSandboxData(t, "empty")
	warning := "/home/u/.config/svcui/config.yaml can be read by other users (mode 0644); run: chmod 600 /home/u/.config/svcui/config.yaml"
	in, inW := io.Pipe()
	defer inW.Close()
	out := &lockedBuffer{}
	// The filter runs on the program's goroutine: it looks at the message log there.
	logged := make(chan struct{})
	seen := false
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{
			Settings: config.Settings{ProfileName: "test", APIURL: e.url, Token: e.admin, Refresh: time.Minute, Theme: "dark", Clipboard: "off"},
			Input:    in, Output: out,
			File: &config.Config{Warnings: []string{warning}},
			ProgramOptions: []tea.ProgramOption{tea.WithFilter(func(m tea.Model, msg tea.Msg) tea.Msg {
				if root, ok := m.(*safeModel); ok && !seen {
					for _, l := range root.inner.Log() {
						if l.Text == warning && l.Level == theme.LevelWarn {
							seen = true
							close(logged)
						}
					}
				}
				return msg
			})},
		})
	}()
	select {
	case <-logged:
	case <-time.After(10 * time.Second):
		t.Fatal("the config file's warning was not posted at start (nor kept for :messages)")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
