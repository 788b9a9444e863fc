// Package theme holds every colour and style of the UI in one place: semantic colours
// (accent, muted, ok, warn, danger, info, selection, border) chosen from the 16 ANSI
// colours plus a few 256-colour tones that degrade to them, so they read on dark and
// light terminals alike. With NO_COLOR the theme carries no colour at all; meaning is
// then carried by glyphs and words (see Badge) and selection by a marker plus reverse.
package theme

import (
	"os"

	"github.com/charmbracelet/lipgloss"
)

// Mode is the background the theme is tuned for.
type Mode string

// Theme modes accepted by --theme.
const (
	Auto  Mode = "auto"
	Dark  Mode = "dark"
	Light Mode = "light"
)

// Palette is the set of semantic colours. In a colourless theme every entry is
// lipgloss.NoColor{}.
type Palette struct {
	Accent, Muted, OK, Warn, Danger, Info lipgloss.TerminalColor
	SelectionFg, SelectionBg, Border      lipgloss.TerminalColor
	BadgeFg                               lipgloss.TerminalColor
}

// Theme is the resolved set of styles every component renders with.
type Theme struct {
	Mode    Mode
	NoColor bool
	// ASCII is set without a UTF-8 locale: the screen's glyphs and borders are then
	// ASCII (the spinner here; the rest by safe.ASCII over the whole frame).
	ASCII   bool
	Palette Palette

	Title, Muted, Bold, Accent   lipgloss.Style
	OK, Warn, Danger, Info       lipgloss.Style
	TableHeader, Selected, Cell  lipgloss.Style
	TabActive, TabInactive       lipgloss.Style
	Header, Footer, Breadcrumb   lipgloss.Style
	ReadOnlyBadge, FilterPrompt  lipgloss.Style
	ModalBox, ModalTitle         lipgloss.Style
	HelpKey, HelpDesc, HelpGroup lipgloss.Style
	Secret                       lipgloss.Style
}

// ResolveMode turns auto into dark or light by asking dark (the terminal's background,
// see terminal.DarkBackground); call it before the program takes over the terminal (the
// query needs the tty).
func ResolveMode(m Mode, dark func() bool) Mode {
	switch m {
	case Dark, Light:
		return m
	}
	if dark() {
		return Dark
	}
	return Light
}

// NoColorFromEnv reports whether NO_COLOR is set to a non-empty value (no-color.org).
func NoColorFromEnv() bool { return os.Getenv("NO_COLOR") != "" }

// New builds the theme for a resolved mode (auto is treated as dark; resolve it first
// with ResolveMode). noColor removes every colour.
func New(mode Mode, noColor bool) *Theme {
	if mode != Light {
		mode = Dark
	}
	var p Palette
	switch {
	case noColor:
		n := lipgloss.NoColor{}
		p = Palette{n, n, n, n, n, n, n, n, n, n}
	case mode == Light:
		p = Palette{
			Accent: lipgloss.Color("4"), Muted: lipgloss.Color("243"), OK: lipgloss.Color("2"),
			Warn: lipgloss.Color("130"), Danger: lipgloss.Color("1"), Info: lipgloss.Color("6"),
			SelectionFg: lipgloss.Color("0"), SelectionBg: lipgloss.Color("153"), Border: lipgloss.Color("245"),
			BadgeFg: lipgloss.Color("15"),
		}
	default:
		p = Palette{
			Accent: lipgloss.Color("12"), Muted: lipgloss.Color("245"), OK: lipgloss.Color("10"),
			Warn: lipgloss.Color("11"), Danger: lipgloss.Color("9"), Info: lipgloss.Color("14"),
			SelectionFg: lipgloss.Color("15"), SelectionBg: lipgloss.Color("24"), Border: lipgloss.Color("240"),
			BadgeFg: lipgloss.Color("0"),
		}
	}
	t := &Theme{Mode: mode, NoColor: noColor, Palette: p}
	s := lipgloss.NewStyle
	t.Title = s().Bold(true).Foreground(p.Accent)
	t.Muted = s().Foreground(p.Muted)
	t.Bold = s().Bold(true)
	t.Accent = s().Foreground(p.Accent)
	t.OK = s().Foreground(p.OK)
	t.Warn = s().Foreground(p.Warn)
	t.Danger = s().Foreground(p.Danger)
	t.Info = s().Foreground(p.Info)
	t.TableHeader = s().Bold(true).Foreground(p.Accent)
	t.Cell = s()
	if noColor {
		// Without colour the selected row must still stand out: reverse video and bold
		// (plus the › marker drawn by the table).
		t.Selected = s().Reverse(true).Bold(true)
		t.TabActive = s().Bold(true).Underline(true)
		t.ReadOnlyBadge = s().Bold(true).Reverse(true)
	} else {
		t.Selected = s().Bold(true).Foreground(p.SelectionFg).Background(p.SelectionBg)
		t.TabActive = s().Bold(true).Foreground(p.BadgeFg).Background(p.Accent)
		t.ReadOnlyBadge = s().Bold(true).Foreground(p.BadgeFg).Background(p.Warn)
	}
	t.TabInactive = s().Foreground(p.Muted)
	t.Header = s()
	t.Footer = s()
	t.Breadcrumb = s().Bold(true)
	t.FilterPrompt = s().Foreground(p.Accent).Bold(true)
	t.ModalBox = s().Border(lipgloss.RoundedBorder()).BorderForeground(p.Border).Padding(0, 1)
	t.ModalTitle = s().Bold(true).Foreground(p.Accent)
	t.HelpKey = s().Bold(true).Foreground(p.Accent)
	t.HelpDesc = s().Foreground(p.Muted)
	t.HelpGroup = s().Bold(true).Underline(true)
	t.Secret = s().Foreground(p.Muted)
	return t
}
