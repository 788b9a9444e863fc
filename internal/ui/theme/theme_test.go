package theme

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// colourSGR matches SGR colour parameters: 30-37, 38;…, 39-47, 48;…, 90-97, 100-107.
var colourSGR = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])(;[0-9;]*)?m`)

func TestNoColorHasNoColourCodesButKeepsGlyphs(t *testing.T) {
	prev := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(prev)

	th := New(Dark, true)
	out := strings.Join([]string{
		th.StateBadge("RUNNING"), th.StateBadge("POWEROFF"), th.StateBadge("REBUILDING"),
		th.StateBadge("MIGRATING"), th.Selected.Render("row"), th.TabActive.Render("tab"),
		th.LevelStyle(LevelError).Render(LevelGlyph(LevelError) + " failed"), th.ReadOnlyBadge.Render("READ-ONLY"),
	}, "\n")
	if colourSGR.MatchString(out) {
		t.Fatalf("NO_COLOR output has colour codes: %q", out)
	}
	for _, want := range []string{"● RUNNING", "○ POWEROFF", InProgressGlyph + " REBUILDING", "MIGRATING", "✗ failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in %q", want, out)
		}
	}
	// Selection is still visible without colour (reverse video).
	if !strings.Contains(th.Selected.Render("row"), "\x1b[") {
		t.Error("selection has no attribute without colour")
	}

	coloured := New(Dark, false)
	if !colourSGR.MatchString(coloured.StateBadge("RUNNING")) {
		t.Error("coloured theme should colour badges")
	}
	light := New(Light, false)
	if light.Palette.Warn == coloured.Palette.Warn {
		t.Error("light theme should pick a darker warning colour")
	}
}

func TestUnknownStateShownAsItComes(t *testing.T) {
	th := New(Dark, true)
	if got := th.StateBadge("weird-State"); !strings.Contains(got, "weird-State") {
		t.Errorf("got %q", got)
	}
	if got := th.StateBadge(""); !strings.Contains(got, "unknown") {
		t.Errorf("empty state: %q", got)
	}
	if got := th.Spinner(-7); got == "" {
		t.Errorf("negative frame: %q", got)
	}
}
