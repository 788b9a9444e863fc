package ui

import (
	"errors"
	"os"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/terminal"
	"github.com/svcui/svcui/internal/ui/theme"
)

// ErrDumbTerminal is Run's answer on TERM=dumb: a sentence, not a screen of escapes
// the terminal would print as text.
var ErrDumbTerminal = errors.New("this terminal (TERM=dumb) cannot show a full-screen console; " +
	"run svcui in a terminal that can (xterm, tmux, screen), or set TERM to what yours is")

// terminalTheme fits the console to the terminal it runs in, when it runs in one (tests
// hand Run buffers, and keep the defaults): the theme (colour, attributes, ASCII), the
// colour profile, and the wrappers on the way out (only changed cells) and in
// (application-mode Home/End).
func terminalTheme(opts *Options, s config.Settings) (*theme.Theme, error) {
	mode := theme.Mode(s.Theme)
	noColor := s.NoColor || theme.NoColorFromEnv()
	if !isTerminal(opts.Output) {
		return theme.New(mode, noColor), nil
	}
	caps := terminal.Detect(os.Getenv)
	if caps.Dumb {
		return nil, ErrDumbTerminal
	}
	tty := os.Stdout
	if f, ok := opts.Output.(*os.File); ok {
		tty = f
	}
	mode = theme.ResolveMode(mode, terminal.DarkBackground(caps, tty, os.Getenv))
	// lipgloss's adaptive colours (huh's among them) follow the theme: --theme, or the
	// answer tmux gave, which lipgloss never asked for.
	lipgloss.SetHasDarkBackground(mode == theme.Dark)
	profile, colourless := caps.Profile(lipgloss.ColorProfile())
	th := theme.New(mode, noColor || colourless)
	th.ASCII = !caps.UTF8
	if th.NoColor {
		// termenv drops every attribute with its no-colour profile; the theme already
		// has no colour, so keep bold and reverse video, which mark the selection, the
		// focus and the active tab.
		profile = termenv.ANSI
	}
	lipgloss.SetColorProfile(profile)
	if opts.Output == nil || opts.Output == os.Stdout {
		opts.Output = terminal.NewDelta(tty, nil)
	}
	if opts.Input == nil && isTerminal(os.Stdin) {
		opts.Input = terminal.Keys{File: os.Stdin}
	}
	return th, nil
}

// screenText is what reaches the terminal of a frame: only what the console emits
// (safe.Frame), and ASCII without a UTF-8 locale.
func screenText(th *theme.Theme, frame string) string {
	frame = safe.Frame(frame)
	if th.ASCII {
		frame = safe.ASCII(frame)
	}
	return frame
}
