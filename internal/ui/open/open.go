// Package open opens a URL or a file with the desktop's opener (xdg-open, open, wslview)
// for the whole UI. Everything it does, looking the opener up included, runs inside the
// command it returns, never in Update; the target is one argument, never a shell line.
package open

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// ErrNoOpener is what errors.Is finds when this machine has no desktop opener or no
// desktop session to open in (a server reached over SSH); the error itself says which,
// briefly (it ends up in an 80-column footer).
var ErrNoOpener = errors.New("no desktop opener here")

type noOpener struct{ why string }

func (e noOpener) Error() string        { return e.why }
func (e noOpener) Is(target error) bool { return target == ErrNoOpener }

// timeout bounds the opener: it hands the target to the desktop and returns.
const timeout = 10 * time.Second

// Opener finds and starts the desktop's opener. The zero value is not usable; take
// Default() and replace what a test must not do for real.
type Opener struct {
	// GOOS picks the candidates (runtime.GOOS).
	GOOS string
	// Getenv reads the environment (is there a desktop session?).
	Getenv func(string) string
	// LookPath finds a program on PATH.
	LookPath func(string) (string, error)
	// Run starts path with the target as its only argument and waits for it.
	Run func(ctx context.Context, path, target string) error
}

// Default is the opener of this machine.
func Default() Opener {
	return Opener{GOOS: runtime.GOOS, Getenv: os.Getenv, LookPath: exec.LookPath, Run: run}
}

// Cmd opens target with the default opener; see Opener.Cmd.
func Cmd(target string, onDone func(error) tea.Msg) tea.Cmd { return Default().Cmd(target, onDone) }

// Cmd returns a command that opens target (a URL, or a file path) and reports with
// onDone(nil) once the opener accepted it, or onDone(err): ErrNoOpener (errors.Is) when
// there is none, else why the opener failed. The error never contains the target (an
// invoice link is a capability).
func (o Opener) Cmd(target string, onDone func(error) tea.Msg) tea.Cmd {
	return func() tea.Msg { return onDone(o.Open(target)) }
}

// Open opens target now, blocking until the opener returns. Call it only inside a command.
func (o Opener) Open(target string) error {
	if strings.TrimSpace(target) == "" {
		return errors.New("nothing to open")
	}
	if strings.HasPrefix(target, "-") {
		// An opener would read it as an option.
		if !filepath.IsAbs(target) {
			target = "." + string(filepath.Separator) + target
		}
	}
	path, name, err := o.find()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := o.Run(ctx, path, target); err != nil {
		return fmt.Errorf("%s could not open it: %w", name, scrub(err, target))
	}
	return nil
}

// find picks the first opener that can work here.
func (o Opener) find() (path, name string, err error) {
	type candidate struct{ name, needs string }
	var cs []candidate
	switch o.GOOS {
	case "darwin":
		cs = []candidate{{"open", ""}}
	case "windows":
		return "", "", noOpener{"opening from the console is not supported on Windows"}
	default:
		// WSL first: its xdg-open, when present, usually has no desktop to talk to.
		cs = []candidate{{"wslview", "WSL_DISTRO_NAME"}, {"xdg-open", "DISPLAY"}, {"xdg-open", "WAYLAND_DISPLAY"}}
	}
	var looked []string
	for _, c := range cs {
		if c.needs != "" && o.Getenv(c.needs) == "" {
			continue
		}
		if p, err := o.LookPath(c.name); err == nil {
			return p, c.name, nil
		}
		looked = append(looked, c.name)
	}
	if len(looked) == 0 {
		return "", "", noOpener{"no desktop session here (DISPLAY unset)"}
	}
	return "", "", noOpener{strings.Join(dedupe(looked), " or ") + " not found"}
}

func dedupe(s []string) []string {
	out := s[:0:0]
	seen := map[string]bool{}
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// run starts the opener with its output discarded (it would draw over the UI) and no
// terminal input, and waits for it.
func run(ctx context.Context, path, target string) error {
	cmd := exec.CommandContext(ctx, path, target)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
	return cmd.Run()
}

// scrub keeps the target out of an error (exec errors may quote their arguments).
func scrub(err error, target string) error {
	if strings.Contains(err.Error(), target) {
		return errors.New(strings.ReplaceAll(err.Error(), target, "…"))
	}
	return err
}
