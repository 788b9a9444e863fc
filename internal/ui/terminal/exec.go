package terminal

import (
	"io"
	"os/exec"

	tea "github.com/charmbracelet/bubbletea"
)

// Exec is a program run with the terminal while the console is suspended (psql,
// $EDITOR). Bubble Tea hands it the program's input and output, which are Keys and
// Delta here; given those, os/exec would put pipes between the child and the terminal,
// and psql on a pipe is not interactive (no prompt). So the child gets the terminal
// files they wrap.
type Exec struct{ tea.ExecCommand }

// SetStdin implements tea.ExecCommand.
func (e Exec) SetStdin(r io.Reader) {
	if k, ok := r.(Keys); ok {
		r = k.File
	}
	e.ExecCommand.SetStdin(r)
}

// SetStdout implements tea.ExecCommand.
func (e Exec) SetStdout(w io.Writer) {
	if d, ok := w.(*Delta); ok {
		d.forget() // the child draws on the screen Delta remembers
		w = d.File
	}
	e.ExecCommand.SetStdout(w)
}

// Command is Exec for an *exec.Cmd (what tea.ExecProcess runs).
func Command(c *exec.Cmd) Exec { return Exec{cmd{c}} }

// cmd is an *exec.Cmd as a tea.ExecCommand, each stream set unless already set.
type cmd struct{ *exec.Cmd }

func (c cmd) SetStdin(r io.Reader) {
	if c.Stdin == nil {
		c.Stdin = r
	}
}

func (c cmd) SetStdout(w io.Writer) {
	if c.Stdout == nil {
		c.Stdout = w
	}
}

func (c cmd) SetStderr(w io.Writer) {
	if c.Stderr == nil {
		c.Stderr = w
	}
}
