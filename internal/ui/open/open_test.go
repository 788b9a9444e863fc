package open

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// fake is an opener that records what would have run.
func fake(goos string, env map[string]string, onPath ...string) (Opener, *[]string) {
	var ran []string
	return Opener{
		GOOS:   goos,
		Getenv: func(k string) string { return env[k] },
		LookPath: func(name string) (string, error) {
			for _, p := range onPath {
				if p == name {
					return "/usr/bin/" + name, nil
				}
			}
			return "", errors.New("not found")
		},
		Run: func(_ context.Context, path, target string) error {
			ran = append(ran, path+" "+target)
			return nil
		},
	}, &ran
}

func TestOpenPicksTheOpenerOfTheDesktop(t *testing.T) {
	cases := []struct {
		name, goos string
		env        map[string]string
		onPath     []string
		want       string
	}{
		{"linux desktop", "linux", map[string]string{"DISPLAY": ":0"}, []string{"xdg-open"}, "/usr/bin/xdg-open https://x/a.pdf"},
		{"wayland", "linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, []string{"xdg-open"}, "/usr/bin/xdg-open https://x/a.pdf"},
		{"wsl", "linux", map[string]string{"WSL_DISTRO_NAME": "Ubuntu"}, []string{"wslview", "xdg-open"}, "/usr/bin/wslview https://x/a.pdf"},
		{"mac", "darwin", nil, []string{"open"}, "/usr/bin/open https://x/a.pdf"},
	}
	for _, c := range cases {
		o, ran := fake(c.goos, c.env, c.onPath...)
		if err := o.Open("https://x/a.pdf"); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(*ran) != 1 || (*ran)[0] != c.want {
			t.Fatalf("%s: ran %q, want %q", c.name, *ran, c.want)
		}
	}
}

func TestOpenWithoutDesktopSaysWhyAndRunsNothing(t *testing.T) {
	o, ran := fake("linux", nil, "xdg-open") // over SSH: xdg-open installed, no display
	err := o.Open("https://x/a.pdf?token=secret")
	if !errors.Is(err, ErrNoOpener) || !strings.Contains(err.Error(), "DISPLAY") || len(*ran) != 0 {
		t.Fatalf("err %v, ran %q", err, *ran)
	}
	o, _ = fake("linux", map[string]string{"DISPLAY": ":0"})
	if err := o.Open("https://x/a.pdf"); !errors.Is(err, ErrNoOpener) || err.Error() != "xdg-open not found" {
		t.Fatalf("not installed: %v", err)
	}
}

func TestOpenKeepsTheTargetOneArgumentAndOutOfErrors(t *testing.T) {
	o, ran := fake("darwin", nil, "open")
	if err := o.Open("-n"); err != nil || (*ran)[0] != "/usr/bin/open ./-n" {
		t.Fatalf("option-like target: %v %q", err, *ran)
	}
	o.Run = func(_ context.Context, _, target string) error { return errors.New("exit status 4 for " + target) }
	err := o.Open("https://x/a.pdf?token=secret")
	if err == nil || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "open could not open it") {
		t.Fatalf("error: %v", err)
	}
}

func TestCmdReportsThroughOnDone(t *testing.T) {
	o, ran := fake("darwin", nil, "open")
	type done struct{ err error }
	msg := o.Cmd("/tmp/a.pdf", func(err error) tea.Msg { return done{err} })
	if len(*ran) != 0 {
		t.Fatal("the opener ran before the command did")
	}
	if d, ok := msg().(done); !ok || d.err != nil || len(*ran) != 1 {
		t.Fatalf("got %#v, ran %q", d, *ran)
	}
}
