// Package open opens a web address with the desktop's opener (xdg-open, open, wslview)
// for the whole UI. Everything it does, looking the opener up included, runs inside the
// command it returns, never in Update; the target is one argument, never a shell line.
//
// The addresses come from the platform (an invoice's link, a grafana service's URI), so
// only https:// addresses are opened, and http:// ones to this machine (the sandbox):
// an opener given file:///etc/passwd, a .desktop file or "--help" would show a file,
// run a program or read an option.
package open

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
)

// ErrRefused is what errors.Is finds when the target is not an address the console
// opens; the error itself is a sentence that says why without quoting the target.
var ErrRefused = errors.New("not an address the console opens")

type refused struct{ why string }

func (e refused) Error() string        { return e.why }
func (e refused) Is(target error) bool { return target == ErrRefused }

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

// Cmd returns a command that opens target (a web address, see Check) and reports with
// onDone(nil) once the opener accepted it, or onDone(err): ErrRefused (errors.Is) for
// an address it does not open, ErrNoOpener when there is no opener, else why the opener
// failed. The error never contains the target (an invoice link is a capability).
func (o Opener) Cmd(target string, onDone func(error) tea.Msg) tea.Cmd {
	return func() tea.Msg { return onDone(o.Open(target)) }
}

// Open opens target now, blocking until the opener returns. Call it only inside a command.
func (o Opener) Open(target string) error {
	if err := Check(target); err != nil {
		return err
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

// Check reports whether target is an address the console opens: https://HOST/…, or
// http:// to a loopback host (127.0.0.0/8, ::1, localhost), written as one plain
// argument (no blanks or control characters, never starting with "-"). Anything else
// is refused with ErrRefused and a sentence that names the scheme, never the target.
func Check(target string) error {
	if strings.TrimSpace(target) == "" {
		return refused{"there is no address to open"}
	}
	if strings.HasPrefix(target, "-") {
		return refused{"the address starts with “-”, which an opener would read as an option; not opened"}
	}
	if strings.ContainsFunc(target, func(r rune) bool { return r <= ' ' || r == 0x7f || unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return refused{"the address contains blanks or control characters; not opened"}
	}
	u, err := url.Parse(target)
	if err != nil || u.Scheme == "" {
		return refused{"it is not a web address (https://…); files and programs are not opened"}
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !isLoopback(u.Hostname()) {
			return refused{"it is a plain http:// address; only https:// addresses are opened (http:// only on this machine)"}
		}
	default:
		return refused{"it is a " + safeScheme(u.Scheme) + ": address; only https:// addresses are opened"}
	}
	if u.Host == "" || u.Hostname() == "" || u.Opaque != "" {
		return refused{"the address has no host; not opened"}
	}
	if u.User != nil {
		return refused{"the address carries a user name or password; not opened"}
	}
	return nil
}

// safeScheme is a scheme fit to show: at most 16 of the characters a scheme may have.
func safeScheme(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '+' || r == '-' || r == '.') {
			return r
		}
		return -1
	}, s)
	if len(s) > 16 {
		s = s[:16] + "…"
	}
	return s
}

// isLoopback reports 127.0.0.0/8, ::1 and localhost.
func isLoopback(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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
