// Package clipboard copies values for the UI: the native clipboard (atotto) when it
// works, OSC 52 otherwise (wrapped for tmux and screen so the escape reaches the outer
// terminal), chosen by SVCUI_CLIPBOARD / the config's clipboard = auto|native|osc52|off.
// Every copy returns a sentence for the footer saying what happened.
package clipboard

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	native "github.com/atotto/clipboard"
	"github.com/aymanbagabas/go-osc52/v2"
)

// Mode selects how values are copied.
type Mode string

// Modes accepted by SVCUI_CLIPBOARD and the config.
const (
	Auto   Mode = "auto"
	Native Mode = "native"
	OSC52  Mode = "osc52"
	Off    Mode = "off"
)

// ParseMode validates a mode string; "" means auto.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return Auto, nil
	case Auto, Native, OSC52, Off:
		return m, nil
	}
	return Auto, fmt.Errorf("clipboard: unknown mode %q (use auto, native, osc52 or off)", s)
}

// Clipboard copies text. The zero value is not usable; build it with New.
type Clipboard struct {
	mode   Mode
	getenv func(string) string

	// Seams for tests: the native clipboard and the terminal OSC 52 is written to.
	nativeWrite     func(string) error
	nativeAvailable func() bool
	openTerminal    func() (io.WriteCloser, error)

	mu sync.Mutex // serialises terminal writes
}

// New builds a clipboard for mode; getenv is os.Getenv when nil.
func New(mode Mode, getenv func(string) string) *Clipboard {
	if getenv == nil {
		getenv = os.Getenv
	}
	return &Clipboard{
		mode:            mode,
		getenv:          getenv,
		nativeWrite:     native.WriteAll,
		nativeAvailable: func() bool { return !native.Unsupported },
		openTerminal:    openTTY,
	}
}

// openTTY opens the controlling terminal for writing escapes beside the Bubble Tea
// renderer. /dev/tty reaches the terminal even when stdout is redirected; the renderer
// writes whole frames to stdout, and our single Write of a complete sequence is not
// interleaved with a frame in practice (both are single write(2) calls to the tty).
func openTTY() (io.WriteCloser, error) {
	f, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return nopCloser{os.Stderr}, nil
	}
	return f, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Mode returns the configured mode.
func (c *Clipboard) Mode() Mode { return c.mode }

// SetTerminal replaces where OSC 52 sequences are written (tests, or a program that
// owns its output).
func (c *Clipboard) SetTerminal(open func() (io.WriteCloser, error)) { c.openTerminal = open }

// SetNative replaces the native clipboard (tests).
func (c *Clipboard) SetNative(write func(string) error, available func() bool) {
	c.nativeWrite, c.nativeAvailable = write, available
}

// Result says what a copy did.
type Result struct {
	// Text is the footer sentence.
	Text string
	// OK is false when nothing was copied.
	OK bool
}

// remote reports an SSH session: a native copy would land on the remote host's
// clipboard (or fail), so auto prefers OSC 52 there.
func (c *Clipboard) remote() bool {
	return c.getenv("SSH_TTY") != "" || c.getenv("SSH_CONNECTION") != "" || c.getenv("SSH_CLIENT") != ""
}

// multiplexer names the terminal multiplexer OSC 52 must be wrapped for: "tmux", "screen" or "".
func (c *Clipboard) multiplexer() string {
	if c.getenv("TMUX") != "" {
		return "tmux"
	}
	if c.getenv("STY") != "" || strings.HasPrefix(c.getenv("TERM"), "screen") {
		return "screen"
	}
	return ""
}

// Sequence returns the OSC 52 escape that copies text, wrapped for the multiplexer in use.
func (c *Clipboard) Sequence(text string) string {
	seq := osc52.New(text)
	switch c.multiplexer() {
	case "tmux":
		seq = seq.Tmux()
	case "screen":
		seq = seq.Screen()
	}
	return seq.String()
}

// Copy copies value and describes the outcome; label names the value ("password").
// It may block briefly (native clipboards run a helper process): call it from a tea.Cmd.
func (c *Clipboard) Copy(label, value string) Result {
	switch c.mode {
	case Off:
		return Result{Text: "Clipboard is off (SVCUI_CLIPBOARD=off); nothing copied"}
	case Native:
		if err := c.copyNative(value); err != nil {
			return Result{Text: fmt.Sprintf("Could not copy %s: native clipboard failed (%s); try SVCUI_CLIPBOARD=osc52", label, err)}
		}
		return Result{Text: fmt.Sprintf("Copied %s to the clipboard", label), OK: true}
	case OSC52:
		return c.copyOSC52(label, value, "")
	}
	// auto
	if !c.remote() {
		err := c.copyNative(value)
		if err == nil {
			return Result{Text: fmt.Sprintf("Copied %s to the clipboard", label), OK: true}
		}
		return c.copyOSC52(label, value, "")
	}
	return c.copyOSC52(label, value, "")
}

func (c *Clipboard) copyNative(value string) error {
	if !c.nativeAvailable() {
		return errors.New("no clipboard utility found (xclip, xsel, wl-copy or pbcopy)")
	}
	if err := c.nativeWrite(value); err != nil {
		// The helper's error text never contains the value.
		return err
	}
	return nil
}

func (c *Clipboard) copyOSC52(label, value, note string) Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	w, err := c.openTerminal()
	if err != nil {
		return Result{Text: fmt.Sprintf("Could not copy %s: no terminal to send OSC 52 to (%v)", label, err)}
	}
	defer w.Close()
	if _, err := io.WriteString(w, c.Sequence(value)); err != nil {
		return Result{Text: fmt.Sprintf("Could not copy %s: writing OSC 52 failed (%v)", label, err)}
	}
	via := "OSC 52"
	switch c.multiplexer() {
	case "tmux":
		via = "OSC 52 through tmux passthrough (tmux: set -g allow-passthrough on)"
	case "screen":
		via = "OSC 52 via screen"
	}
	return Result{Text: fmt.Sprintf("Copied %s with %s%s", label, via, note), OK: true}
}
