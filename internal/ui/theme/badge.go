package theme

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/svcui/svcui/internal/ui/safe"
)

// Level is the severity of a footer message.
type Level int

// Message levels.
const (
	LevelInfo Level = iota
	LevelSuccess
	LevelWarn
	LevelError
)

// LevelGlyph is the glyph carrying a level's meaning without colour.
func LevelGlyph(l Level) string {
	switch l {
	case LevelSuccess:
		return "✓"
	case LevelWarn:
		return "!"
	case LevelError:
		return "✗"
	}
	return "·"
}

// LevelStyle is the style of a level.
func (t *Theme) LevelStyle(l Level) lipgloss.Style {
	switch l {
	case LevelSuccess:
		return t.OK
	case LevelWarn:
		return t.Warn
	case LevelError:
		return t.Danger
	}
	return t.Info
}

// InProgressGlyph marks a state on its way somewhere (REBUILDING, a topic being
// configured). It stays still: one spinner per screen says that something is moving
// (Spinner), so a row costs the link nothing while it waits.
const InProgressGlyph = "◐"

// spinnerFrames and asciiSpinnerFrames are the frames of the screen's one spinner.
var (
	spinnerFrames      = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
	asciiSpinnerFrames = []string{"|", "/", "-", "\\"}
)

// Spinner is the spinner's glyph at frame (any integer): ASCII without a UTF-8 locale.
func (t *Theme) Spinner(frame int) string {
	frames := spinnerFrames
	if t.ASCII {
		frames = asciiSpinnerFrames
	}
	n := len(frames)
	return frames[((frame%n)+n)%n]
}

// StateBadge renders a service state as glyph + word, always: RUNNING ●, POWEROFF ○,
// REBUILDING/REBALANCING ◐, anything else as it comes with a neutral glyph. Colour only
// reinforces the glyph.
func (t *Theme) StateBadge(state string) string {
	state = safe.Text(state)
	up := strings.ToUpper(state)
	switch up {
	case "RUNNING":
		return t.OK.Render("● " + state)
	case "POWEROFF":
		return t.Muted.Render("○ " + state)
	case "REBUILDING", "REBALANCING":
		return t.Warn.Render(InProgressGlyph + " " + state)
	case "":
		return t.Muted.Render("? unknown")
	}
	return t.Info.Render("◆ " + state)
}
