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

// SpinnerFrames are the frames of in-progress badges; the root advances the frame only
// while something animated is visible.
var SpinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// StateBadge renders a service state as glyph + word, always: RUNNING ●, POWEROFF ○,
// REBUILDING/REBALANCING with the current spinner frame, anything else as it comes with
// a neutral glyph. Colour only reinforces the glyph.
func (t *Theme) StateBadge(state string, frame int) string {
	state = safe.Text(state)
	up := strings.ToUpper(state)
	switch up {
	case "RUNNING":
		return t.OK.Render("● " + state)
	case "POWEROFF":
		return t.Muted.Render("○ " + state)
	case "REBUILDING", "REBALANCING":
		f := SpinnerFrames[((frame%len(SpinnerFrames))+len(SpinnerFrames))%len(SpinnerFrames)]
		return t.Warn.Render(f + " " + state)
	case "":
		return t.Muted.Render("? unknown")
	}
	return t.Info.Render("◆ " + state)
}
