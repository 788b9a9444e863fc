package clipboard

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

type buf struct{ bytes.Buffer }

func (b *buf) Close() error { return nil }

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

// fakeTmux is a tmux command that records how it was called: argv of load-buffer in
// argv, its standard input in stdin, each -V in calls. It prints version for -V and
// fails with the text of fail when fail is set.
type fakeTmux struct{ dir string }

const fakeTmuxScript = `#!/bin/sh
dir=$(dirname "$0")
if [ "$1" = -V ]; then echo x >> "$dir/calls"; cat "$dir/version"; exit 0; fi
printf '%s\n' "$@" > "$dir/argv"
cat > "$dir/stdin"
if [ -f "$dir/fail" ]; then cat "$dir/fail" >&2; exit 1; fi
`

func newFakeTmux(t *testing.T, version, fail string) *fakeTmux {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake tmux is a shell script")
	}
	f := &fakeTmux{dir: t.TempDir()}
	f.write(t, "tmux", fakeTmuxScript, 0o755)
	f.write(t, "version", "tmux "+version+"\n", 0o644)
	if fail != "" {
		f.write(t, "fail", fail, 0o644)
	}
	return f
}

func (f *fakeTmux) write(t *testing.T, name, content string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, name), []byte(content), perm); err != nil {
		t.Fatal(err)
	}
}

func (f *fakeTmux) read(name string) string {
	b, _ := os.ReadFile(filepath.Join(f.dir, name))
	return string(b)
}

type setup struct {
	mode      Mode
	env       map[string]string
	goos      string
	nativeOK  bool  // a native clipboard command exists
	nativeErr error // what it returns
	tmux      *fakeTmux
}

type run struct {
	c      *Clipboard
	term   *buf
	native []string
}

func (s setup) build() *run {
	r := &run{term: &buf{}}
	c := New(s.mode, env(s.env))
	c.goos = s.goos
	if c.goos == "" {
		c.goos = "linux"
	}
	c.SetTerminal(func() (io.WriteCloser, error) { return r.term, nil })
	c.SetNative(func(v string) error {
		if s.nativeErr != nil {
			return s.nativeErr
		}
		r.native = append(r.native, v)
		return nil
	}, func() bool { return s.nativeOK })
	c.lookPath = func(string) (string, error) {
		if s.tmux == nil {
			return "", errors.New("not found")
		}
		return filepath.Join(s.tmux.dir, "tmux"), nil
	}
	r.c = c
	return r
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Auto, "AUTO": Auto, "native": Native, " osc52 ": OSC52, "off": Off} {
		if m, err := ParseMode(in); err != nil || m != want {
			t.Errorf("ParseMode(%q) = %v, %v", in, m, err)
		}
	}
	if _, err := ParseMode("xclip"); err == nil {
		t.Error("unknown mode accepted")
	}
}

const secret = "s3cret-Ünïcode"

var (
	raw    = "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(secret)) + "\x07"
	screen = "\x1bP" + raw + "\x1b\\"
)

const tmuxEnv = "/tmp/tmux-1000/default,1234,0"

// TestCopyChoosesByEnvironment: each environment gets the way that reaches the user, at
// the level svcui can vouch for, with a sentence that says what it depends on.
func TestCopyChoosesByEnvironment(t *testing.T) {
	desktop := map[string]string{"DISPLAY": ":0"}
	for _, tc := range []struct {
		name     string
		setup    setup
		tmux     string // fake tmux version; "" for none
		method   Method
		level    Level
		terminal string   // what the terminal receives
		native   bool     // the native clipboard got the value
		says     []string // the sentence contains each
	}{
		{name: "desktop", setup: setup{mode: Auto, env: desktop, nativeOK: true},
			method: NativeCopy, level: Copied, native: true, says: []string{"Copied the password to the system clipboard"}},
		{name: "macOS without DISPLAY", setup: setup{mode: Auto, goos: "darwin", nativeOK: true},
			method: NativeCopy, level: Copied, native: true},
		{name: "tmux 3.3a", setup: setup{mode: Auto, env: map[string]string{"TMUX": tmuxEnv}}, tmux: "3.3a",
			method: TmuxBuffer, level: Copied, says: []string{"Copied the password to tmux's buffer", "accepts OSC 52"}},
		{name: "tmux in osc52 mode", setup: setup{mode: OSC52, env: map[string]string{"TMUX": tmuxEnv}, nativeOK: true}, tmux: "next-3.6",
			method: TmuxBuffer, level: Copied},
		{name: "tmux over SSH on a desktop-like host", setup: setup{mode: Auto, env: map[string]string{"TMUX": tmuxEnv, "DISPLAY": ":10", "SSH_CONNECTION": "1 2 3 4"}, nativeOK: true}, tmux: "3.2",
			method: TmuxBuffer, level: Copied},
		{name: "tmux 3.1c", setup: setup{mode: Auto, env: map[string]string{"TMUX": tmuxEnv}}, tmux: "3.1c",
			method: RawOSC52, level: Sent, terminal: raw, says: []string{"This tmux (3.1c) predates load-buffer -w", "set-clipboard on"}},
		{name: "tmux not on PATH", setup: setup{mode: Auto, env: map[string]string{"TMUX": tmuxEnv}},
			method: RawOSC52, level: Sent, terminal: raw, says: []string{"not on PATH", "set-clipboard on"}},
		{name: "GNU screen", setup: setup{mode: Auto, env: map[string]string{"STY": "123.pts-0.host", "TERM": "screen"}},
			method: ScreenOSC52, level: Sent, terminal: screen, says: []string{"GNU screen", "accepts OSC 52"}},
		{name: "screen or tmux across SSH", setup: setup{mode: Auto, env: map[string]string{"TERM": "screen-256color", "SSH_TTY": "/dev/pts/3"}},
			method: FarOSC52, level: Sent, terminal: screen + raw, says: []string{"screen-256color", "set-clipboard on"}},
		{name: "plain SSH", setup: setup{mode: Auto, env: map[string]string{"SSH_CONNECTION": "1 2 3 4", "DISPLAY": ":10", "TERM": "xterm-256color"}, nativeOK: true},
			method: RawOSC52, level: Sent, terminal: raw, says: []string{"Sent the password to your terminal as OSC 52", "accepts OSC 52"}},
		{name: "console without a display", setup: setup{mode: Auto, nativeOK: true},
			method: RawOSC52, level: Sent, terminal: raw},
		{name: "desktop, native fails", setup: setup{mode: Auto, env: desktop, nativeOK: true, nativeErr: errors.New("exit status 1")},
			method: RawOSC52, level: Sent, terminal: raw, says: []string{"The system clipboard failed (exit status 1), so sent"}},
		{name: "native mode without a tool", setup: setup{mode: Native},
			method: None, level: Failed, says: []string{"Could not copy", "SVCUI_CLIPBOARD=osc52"}},
		{name: "off", setup: setup{mode: Off, env: desktop, nativeOK: true},
			method: None, level: Failed, says: []string{"clipboard is off"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.tmux != "" {
				tc.setup.tmux = newFakeTmux(t, tc.tmux, "")
			}
			r := tc.setup.build()
			res := r.c.Copy("password", secret)
			if res.Method != tc.method || res.Level != tc.level || res.OK != (tc.level == Copied) {
				t.Fatalf("got %s/%s ok=%v, want %s/%s: %q", res.Method, res.Level, res.OK, tc.method, tc.level, res.Text)
			}
			if r.term.String() != tc.terminal {
				t.Errorf("terminal received %q, want %q", r.term.String(), tc.terminal)
			}
			if got := len(r.native) == 1 && r.native[0] == secret; got != tc.native {
				t.Errorf("native clipboard got %q", r.native)
			}
			if tc.setup.tmux != nil {
				if got := tc.setup.tmux.read("stdin"); (tc.method == TmuxBuffer) != (got == secret) {
					t.Errorf("tmux load-buffer read %q", got)
				}
			}
			for _, s := range tc.says {
				if !strings.Contains(res.Text, s) {
					t.Errorf("sentence %q does not say %q", res.Text, s)
				}
			}
			if strings.Contains(res.Text, secret) {
				t.Errorf("sentence contains the value: %q", res.Text)
			}
			if res.Level != Copied && strings.HasPrefix(res.Text, "Copied") {
				t.Errorf("a %s copy claims to be copied: %q", res.Level, res.Text)
			}
		})
	}
}

// TestTmuxLoadBufferKeepsTheValueOutOfArgv: the value goes to tmux on standard input, so
// `ps` never shows it.
func TestTmuxLoadBufferKeepsTheValueOutOfArgv(t *testing.T) {
	tm := newFakeTmux(t, "3.3a", "")
	r := setup{mode: Auto, env: map[string]string{"TMUX": tmuxEnv}, tmux: tm}.build()
	if res := r.c.Copy("password", secret); res.Method != TmuxBuffer {
		t.Fatalf("not copied through tmux: %+v", res)
	}
	if argv := tm.read("argv"); argv != "load-buffer\n-w\n-\n" {
		t.Errorf("tmux argv = %q, want load-buffer -w -", argv)
	}
	if stdin := tm.read("stdin"); stdin != secret {
		t.Errorf("tmux stdin = %q", stdin)
	}
	if r.term.Len() != 0 {
		t.Errorf("the terminal got an escape as well: %q", r.term.String())
	}
}

// TestTmuxRefusalFallsBack: a tmux that refuses load-buffer -w (its error printed) gets
// raw OSC 52, and the sentence says why and what that depends on.
func TestTmuxRefusalFallsBack(t *testing.T) {
	tm := newFakeTmux(t, "master", "command load-buffer: unknown flag -w\n")
	r := setup{mode: Auto, env: map[string]string{"TMUX": tmuxEnv}, tmux: tm}.build()
	res := r.c.Copy("uri", secret)
	if res.Level != Sent || res.Method != RawOSC52 || r.term.String() != raw {
		t.Fatalf("fallback: %+v, terminal %q", res, r.term.String())
	}
	for _, s := range []string{"Copying through tmux load-buffer failed (command load-buffer: unknown flag -w)", "so sent the uri to tmux as OSC 52", "set-clipboard on"} {
		if !strings.Contains(res.Text, s) {
			t.Errorf("sentence %q does not say %q", res.Text, s)
		}
	}
}

// TestDetectRunsTmuxOnce: detection execs `tmux -V` once, then copies reuse it.
func TestDetectRunsTmuxOnce(t *testing.T) {
	tm := newFakeTmux(t, "3.4", "")
	r := setup{mode: Auto, env: map[string]string{"TMUX": tmuxEnv}, tmux: tm}.build()
	if tm.read("calls") != "" {
		t.Fatal("New ran tmux")
	}
	e := r.c.Detect()
	if !e.Tmux || e.TmuxVersion != "3.4" || !e.TmuxLoadBuffer || e.TmuxPath != filepath.Join(tm.dir, "tmux") {
		t.Fatalf("Detect = %+v", e)
	}
	r.c.Copy("a", "1")
	r.c.Copy("b", "2")
	if calls := strings.Count(tm.read("calls"), "x"); calls != 1 {
		t.Errorf("tmux -V ran %d times", calls)
	}
}

func TestLoadBufferSupported(t *testing.T) {
	for v, want := range map[string]bool{
		"3.3a": true, "3.2": true, "3.2-rc3": true, "next-3.4": true, "4.0": true, "openbsd-7.4": true, "master": true, "": true,
		"3.1c": false, "3.0": false, "2.9a": false, "1.8": false,
	} {
		if got := loadBufferSupported(v); got != want {
			t.Errorf("loadBufferSupported(%q) = %v", v, got)
		}
	}
}

func TestCommandErrorNeverEchoesTheValue(t *testing.T) {
	if got := commandError(errors.New("exit status 1"), "bad input "+secret, secret); got != "exit status 1" {
		t.Errorf("commandError = %q", got)
	}
	long := strings.Repeat("é", 300)
	if got := commandError(errors.New("x"), long, secret); len([]rune(got)) != 100 || !strings.HasSuffix(got, "…") {
		t.Errorf("long error not cut: %d runes", len([]rune(got)))
	}
}
