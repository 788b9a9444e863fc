package watch

import (
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/ui/safe"
)

// Ring alerts the person outside the screen: the terminal's bell, OSC 9 (a desktop
// notification) where the terminal is known to show it, and inside tmux a
// display-message, which tmux shows on the status line of every client attached.
// It runs in a command, never in Update.
func Ring(text string) {
	ring(text, os.Getenv, openTTY, runTmux)
}

// ring is Ring with its seams: the environment, the terminal and tmux.
func ring(text string, getenv func(string) string, tty func() (io.WriteCloser, error), tmux func(args ...string) error) {
	text = safe.Text(text)
	seq := "\a"
	if osc9(getenv) {
		// The notification's text must not end the sequence early.
		seq = "\x1b]9;svcui: " + strings.NewReplacer("\a", "", "\x1b", "").Replace(text) + "\a"
	}
	if w, err := tty(); err == nil {
		_, _ = io.WriteString(w, seq) // one write: not interleaved with a frame
		_ = w.Close()
	}
	if getenv("TMUX") != "" {
		// display-message expands #{...} formats: the text stays text.
		_ = tmux("display-message", "--", "svcui: "+strings.ReplaceAll(text, "#", "##"))
	}
}

// osc9 reports a terminal known to turn OSC 9 into a notification, reached directly
// (not through tmux or screen, which would swallow it).
func osc9(getenv func(string) string) bool {
	if getenv("TMUX") != "" || getenv("STY") != "" {
		return false
	}
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "ghostty":
		return true
	}
	return false
}

func openTTY() (io.WriteCloser, error) { return os.OpenFile("/dev/tty", os.O_WRONLY, 0) }

func runTmux(args ...string) error {
	path, err := exec.LookPath("tmux")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, path, args...).Run()
}
