// Package clipboard copies values for the UI by the way that reaches the person's
// clipboard where svcui runs: the native clipboard (atotto) on a desktop; inside tmux
// `tmux load-buffer -w -` (tmux 3.2 or later; raw OSC 52 for older tmux); GNU screen's
// DCS wrapper inside screen; raw OSC 52 over plain SSH. SVCUI_CLIPBOARD / the config's
// clipboard = auto|native|osc52|off overrides the choice. Every copy returns a Result
// whose sentence says what was done and what it depends on, and never the value.
package clipboard

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	native "github.com/atotto/clipboard"

	"github.com/svcui/svcui/internal/ui/safe"
)

// Mode selects how values are copied.
type Mode string

// Modes accepted by SVCUI_CLIPBOARD and the config.
const (
	Auto   Mode = "auto"   // native on a local desktop, else through the terminal
	Native Mode = "native" // the system clipboard only
	OSC52  Mode = "osc52"  // through the terminal only: tmux load-buffer, screen, or raw OSC 52
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
	goos   string

	// Seams for tests: the native clipboard, the terminal OSC 52 is written to, and how
	// the tmux command is found.
	nativeWrite     func(string) error
	nativeAvailable func() bool
	openTerminal    func() (io.WriteCloser, error)
	lookPath        func(string) (string, error)

	detectOnce sync.Once
	env        Env

	mu sync.Mutex // one copy at a time: terminal writes and tmux buffers do not interleave
}

// New builds a clipboard for mode; getenv is os.Getenv when nil. It runs nothing: the
// environment is detected on the first Detect or Copy.
func New(mode Mode, getenv func(string) string) *Clipboard {
	if getenv == nil {
		getenv = os.Getenv
	}
	return &Clipboard{
		mode:            mode,
		getenv:          getenv,
		goos:            runtime.GOOS,
		nativeWrite:     native.WriteAll,
		nativeAvailable: func() bool { return !native.Unsupported },
		openTerminal:    openTTY,
		lookPath:        exec.LookPath,
	}
}

// Mode returns the configured mode.
func (c *Clipboard) Mode() Mode { return c.mode }

// SetTerminal replaces where OSC 52 sequences are written (tests, or a program that
// owns its output).
func (c *Clipboard) SetTerminal(open func() (io.WriteCloser, error)) { c.openTerminal = open }

// SetNative replaces the native clipboard (tests).
func (c *Clipboard) SetNative(write func(string) error, available func() bool) {
	c.nativeWrite, c.nativeAvailable = write, available
}

// Copy copies value and says what it did; label names the value ("password"). It may
// run helper commands (tmux, xclip) and wait for them: call it from a tea.Cmd.
//
// Outside text carries no control character to the clipboard: escape sequences and
// controls other than newline and tab are removed first, and the result says how many.
func (c *Clipboard) Copy(label, value string) Result {
	value, removed := safe.Copy(value)
	r := c.copy(label, value)
	if removed > 0 {
		// Next to what was copied, not at the end: a footer at 80 columns cuts the end.
		what := "the " + label
		if label == "" {
			what = "the value"
		}
		note := fmt.Sprintf("%s (%d control characters removed)", what, removed)
		if strings.Contains(r.Text, what) {
			r.Text = strings.Replace(r.Text, what, note, 1)
		} else {
			r.Text = strings.TrimSuffix(r.Text, ".") + fmt.Sprintf(" (%d control characters removed).", removed)
		}
	}
	return r
}

func (c *Clipboard) copy(label, value string) Result {
	if label == "" {
		label = "value"
	}
	what := "the " + label
	if c.mode == Off {
		return result(Failed, None, "Nothing copied: the clipboard is off (SVCUI_CLIPBOARD=off or clipboard: off in the config).")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	env := c.Detect()
	switch c.mode {
	case Native:
		if err := c.copyNative(value); err != nil {
			return result(Failed, None, fmt.Sprintf("Could not copy %s: the system clipboard failed (%v); SVCUI_CLIPBOARD=osc52 copies through the terminal instead.", what, err))
		}
		return result(Copied, NativeCopy, fmt.Sprintf("Copied %s to the system clipboard.", what))
	case OSC52:
		return c.copyTerminal(env, what, value, "")
	}
	// Auto: the system clipboard is the user's only on their own desktop; over SSH it is
	// the remote host's (or absent), so the copy goes through the terminal.
	if env.Desktop && !env.SSH && env.NativeTool {
		err := c.copyNative(value)
		if err == nil {
			return result(Copied, NativeCopy, fmt.Sprintf("Copied %s to the system clipboard.", what))
		}
		return c.copyTerminal(env, what, value, fmt.Sprintf("the system clipboard failed (%v), so ", err))
	}
	return c.copyTerminal(env, what, value, "")
}

func (c *Clipboard) copyNative(value string) error {
	if !c.nativeAvailable() {
		return fmt.Errorf("no clipboard command found (pbcopy, xclip, xsel or wl-copy)")
	}
	// The helper's error text never contains the value.
	return c.nativeWrite(value)
}

// Why a raw OSC 52 may not arrive, by where it goes.
const (
	dependsTerminal = "it arrives only if your terminal accepts OSC 52"
	dependsTmux     = "it arrives only if tmux has set-clipboard on and your terminal accepts OSC 52"
)

// copyTerminal copies through the terminal by the way the environment allows; why
// explains an earlier failure and starts the sentence.
func (c *Clipboard) copyTerminal(env Env, what, value, why string) Result {
	switch {
	case env.Tmux && env.TmuxLoadBuffer:
		err := tmuxLoadBuffer(env.TmuxPath, value)
		if err == nil {
			return result(Copied, TmuxBuffer, capitalise(why+"copied "+what+" to tmux's buffer and asked tmux to pass it to your terminal (needs a terminal that accepts OSC 52)."))
		}
		why += fmt.Sprintf("copying through tmux load-buffer failed (%v), so ", err)
		return c.send(RawOSC52, rawSequence(value), why+"sent "+what+" to tmux as OSC 52; "+dependsTmux+".", what)
	case env.Tmux:
		if env.TmuxPath == "" {
			why += "the tmux command is not on PATH, so "
		} else {
			why += "this tmux (" + env.TmuxVersion + ") predates load-buffer -w (3.2), so "
		}
		return c.send(RawOSC52, rawSequence(value), why+"sent "+what+" to tmux as OSC 52; "+dependsTmux+".", what)
	case env.Screen:
		return c.send(ScreenOSC52, screenSequence(value), why+"sent "+what+" to your terminal as OSC 52 through GNU screen; "+dependsTerminal+".", what)
	case env.FarMultiplexer != "":
		// TERM names screen or tmux but neither runs here: one is on the other side of
		// SSH. Screen passes only its wrapper (and drops raw OSC 52); tmux with
		// set-clipboard on takes the raw form, but reads the wrapper's first chunk as an
		// OSC 52 of its own, so the raw form goes last and is the one that stays.
		return c.send(FarOSC52, screenSequence(value)+rawSequence(value), why+"sent "+what+" as OSC 52 for the "+env.FarMultiplexer+
			" multiplexer across the connection; it arrives only through GNU screen or a tmux with set-clipboard on, to a terminal that accepts OSC 52.", what)
	}
	return c.send(RawOSC52, rawSequence(value), why+"sent "+what+" to your terminal as OSC 52; "+dependsTerminal+".", what)
}

// send writes seq to the terminal and, when that worked, reports text.
func (c *Clipboard) send(method Method, seq, text, what string) Result {
	if err := c.writeTerminal(seq); err != nil {
		return result(Failed, None, fmt.Sprintf("Could not copy %s: %v.", what, err))
	}
	return result(Sent, method, capitalise(text))
}

// capitalise upper-cases the first letter of a sentence assembled from clauses.
func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
