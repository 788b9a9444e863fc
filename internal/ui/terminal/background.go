package terminal

import (
	"os"

	"github.com/muesli/termenv"
)

// DarkBackground returns how to learn whether the terminal's background is dark. Outside
// a multiplexer that is termenv's question (OSC 11). termenv never asks when TERM is
// screen* or tmux*, and so took every tmux pane for dark; tmux answers the question
// itself (from window-style, or the outer terminal's colours it learned), so inside tmux
// it is asked with TERM set aside. GNU screen does not answer: there the answer is dark,
// and --theme light is the way to say otherwise.
func DarkBackground(c Caps, tty *os.File, getenv Getenv) func() bool {
	ask := getenv
	if c.Multiplexer == Tmux {
		ask = func(k string) string {
			if k == "TERM" {
				return "xterm-256color"
			}
			return getenv(k)
		}
	}
	return func() bool { return termenv.NewOutput(tty, termenv.WithEnvironment(env{ask})).HasDarkBackground() }
}

// env is termenv's view of the environment.
type env struct{ get Getenv }

func (e env) Getenv(k string) string { return e.get(k) }
func (e env) Environ() []string      { return os.Environ() }
