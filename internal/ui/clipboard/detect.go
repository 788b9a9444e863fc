package clipboard

import (
	"context"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Env is what detection found about where svcui runs; it decides how auto copies.
type Env struct {
	// Tmux: $TMUX is set, so svcui runs inside a tmux pane on this machine.
	Tmux bool
	// TmuxPath is the tmux command found on PATH ("" when there is none).
	TmuxPath string
	// TmuxVersion is the version `tmux -V` printed ("3.3a", "next-3.4"; "" when unknown).
	TmuxVersion string
	// TmuxLoadBuffer: `tmux load-buffer -w -` is worth trying (tmux 3.2 or later, or a
	// version svcui cannot read; a refusal falls back to OSC 52).
	TmuxLoadBuffer bool
	// Screen: $STY is set, so svcui runs inside GNU screen on this machine.
	Screen bool
	// FarMultiplexer is $TERM when it names screen or tmux but neither runs here: a
	// multiplexer on the other side of an SSH connection ("" otherwise).
	FarMultiplexer string
	// SSH: SSH_CONNECTION, SSH_CLIENT or SSH_TTY is set.
	SSH bool
	// Desktop: a display to copy to (DISPLAY or WAYLAND_DISPLAY, macOS, Windows).
	Desktop bool
	// NativeTool: a native clipboard command was found (pbcopy, xclip, xsel, wl-copy, …).
	NativeTool bool
}

// tmuxVersionTimeout bounds `tmux -V`, which does not contact the server.
const tmuxVersionTimeout = 2 * time.Second

// Detect looks at the environment once and remembers it. Inside tmux it runs `tmux -V`:
// call it from a tea.Cmd or before the program starts, never in Update. Copy calls it
// itself, so calling it first only moves that work earlier.
func (c *Clipboard) Detect() Env {
	c.detectOnce.Do(func() { c.env = c.detect() })
	return c.env
}

func (c *Clipboard) detect() Env {
	e := Env{
		Tmux:       c.getenv("TMUX") != "",
		Screen:     c.getenv("STY") != "",
		SSH:        c.getenv("SSH_CONNECTION") != "" || c.getenv("SSH_CLIENT") != "" || c.getenv("SSH_TTY") != "",
		Desktop:    c.goos == "darwin" || c.goos == "windows" || c.getenv("DISPLAY") != "" || c.getenv("WAYLAND_DISPLAY") != "",
		NativeTool: c.nativeAvailable(),
	}
	if term := c.getenv("TERM"); !e.Tmux && !e.Screen && (strings.HasPrefix(term, "screen") || strings.HasPrefix(term, "tmux")) {
		e.FarMultiplexer = term
	}
	if e.Tmux {
		if path, err := c.lookPath("tmux"); err == nil {
			e.TmuxPath = path
			e.TmuxVersion = tmuxVersion(path)
			e.TmuxLoadBuffer = loadBufferSupported(e.TmuxVersion)
		}
	}
	return e
}

// tmuxVersion runs `tmux -V` ("tmux 3.3a") and returns what follows "tmux ".
func tmuxVersion(path string) string {
	ctx, cancel := context.WithTimeout(context.Background(), tmuxVersionTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "-V").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "tmux"))
}

var versionNumber = regexp.MustCompile(`(\d+)\.(\d+)`)

// loadBufferSupported reports whether tmux version v has `load-buffer -w` (added in 3.2).
// Versions without a readable number ("master", "") are tried, and so is OpenBSD's
// "openbsd-7.4" (its releases since 6.9 carry tmux 3.2 or later): a tmux that refuses -w
// fails the command, and the copy falls back to OSC 52.
func loadBufferSupported(v string) bool {
	m := versionNumber.FindStringSubmatch(v)
	if m == nil {
		return true
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	return major > 3 || major == 3 && minor >= 2
}
