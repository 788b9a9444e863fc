package terminal

import (
	"os"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// DarkBackground returns how to learn whether the terminal's background is dark. Outside
// tmux that is lipgloss's answer: Bubble Tea's init has it ask the terminal (OSC 11)
// before any program takes the terminal, and a second question would wait for an answer
// already given. termenv never asks when TERM is screen* or tmux*, and so took every
// tmux pane for dark; tmux answers the question itself (from window-style, or the outer
// terminal's colours it learned), so inside tmux it is asked with TERM set aside. GNU
// screen does not answer: there the answer is dark, and --theme light is the way to say
// otherwise.
func DarkBackground(c Caps, tty *os.File, getenv Getenv) func() bool {
	if c.Multiplexer != Tmux {
		return lipgloss.HasDarkBackground
	}
	// termenv also takes a set CI for "not a terminal" and then never asks; this is a
	// terminal (the caller checked), so CI is set aside too.
	asXterm := func(k string) string {
		switch k {
		case "TERM":
			return "xterm-256color"
		case "CI":
			return ""
		}
		return getenv(k)
	}
	return func() bool { return termenv.NewOutput(tty, termenv.WithEnvironment(env{asXterm})).HasDarkBackground() }
}

// env is termenv's view of the environment.
type env struct{ get Getenv }

func (e env) Getenv(k string) string { return e.get(k) }
func (e env) Environ() []string      { return os.Environ() }
