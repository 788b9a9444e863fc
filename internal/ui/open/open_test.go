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
	o, _ := fake("darwin", nil, "open")
	o.Run = func(_ context.Context, _, target string) error { return errors.New("exit status 4 for " + target) }
	err := o.Open("https://x/a.pdf?token=secret")
	if err == nil || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "open could not open it") {
		t.Fatalf("error: %v", err)
	}
}

func TestCmdReportsThroughOnDone(t *testing.T) {
	o, ran := fake("darwin", nil, "open")
	type done struct{ err error }
	msg := o.Cmd("https://x/a.pdf", func(err error) tea.Msg { return done{err} })
	if len(*ran) != 0 {
		t.Fatal("the opener ran before the command did")
	}
	if d, ok := msg().(done); !ok || d.err != nil || len(*ran) != 1 {
		t.Fatalf("got %#v, ran %q", d, *ran)
	}
}

// Only https:// addresses, and http:// ones to this machine, reach an opener: `o` on an
// invoice once ran xdg-open with file:///etc/passwd, ./--help and a .desktop file, and
// said the invoice was opened.
func TestOpenRefusesWhatIsNotAWebAddress(t *testing.T) {
	refused := []string{
		"file:///etc/passwd",
		"FILE:///etc/passwd",
		"./--help",
		"--help",
		"-n",
		"/usr/share/applications/evil.desktop",
		"evil.desktop",
		"../invoice.pdf",
		"http://example.com/a.pdf",
		"http://127.0.0.1.example.com/a.pdf",
		"javascript:alert(1)",
		"data:text/html,<script>",
		"smb://host/share",
		"https:///etc/passwd",
		"https:evil",
		"https://user:secret@x/a.pdf",
		"https://x/a b.pdf",
		"https://x/a.pdf\n--help",
		"https://x/\x1b]52;c;aGk=\x07",
		"",
		"   ",
	}
	for _, target := range refused {
		o, ran := fake("linux", map[string]string{"DISPLAY": ":0"}, "xdg-open")
		err := o.Open(target)
		if !errors.Is(err, ErrRefused) || len(*ran) != 0 {
			t.Errorf("%q: err %v, ran %q; want it refused and nothing run", target, err, *ran)
			continue
		}
		if len(target) > 3 && strings.Contains(err.Error(), target) {
			t.Errorf("%q: the refusal quotes the target: %v", target, err)
		}
	}
	allowed := []string{
		"https://x/a.pdf?token=secret",
		"HTTPS://X/a.pdf",
		"https://grafana-abc.example.com:443/",
		"http://127.0.0.1:8080/files/invoices/INV-1.pdf?token=t",
		"http://localhost/a.pdf",
		"http://[::1]:9000/a.pdf",
	}
	for _, target := range allowed {
		o, ran := fake("linux", map[string]string{"DISPLAY": ":0"}, "xdg-open")
		if err := o.Open(target); err != nil || len(*ran) != 1 || (*ran)[0] != "/usr/bin/xdg-open "+target {
			t.Errorf("%q: err %v, ran %q", target, err, *ran)
		}
	}
	if err := Check("gopher://x/"); err == nil || !strings.Contains(err.Error(), "gopher: address") {
		t.Errorf("the refusal does not name the scheme: %v", err)
	}
}
