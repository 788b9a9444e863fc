package clipboard

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The end-to-end test runs this test binary as a probe inside a real tmux or GNU screen
// whose client is attached through script(1). The probe copies a value through this
// package as svcui would; the typescript holds what the client's terminal received,
// and the test decodes the OSC 52 in it.

// probeEnv names the file holding the value to copy; set only in the probe's environment.
const probeEnv = "SVCUI_CLIPBOARD_PROBE"

// requireEnv=1 turns a missing tmux, screen or script(1) into a failure (CI sets it).
const requireEnv = "SVCUI_CLIPBOARD_E2E"

func TestMain(m *testing.M) {
	if path := os.Getenv(probeEnv); path != "" {
		os.Exit(probe(path))
	}
	os.Exit(m.Run())
}

// probeResult is what the probe reports to the test.
type probeResult struct {
	Text   string
	Level  Level
	Method Method
}

// probe copies the value in path, writes the Result to path.result, prints the marker
// from path.mark (after the copy, so the copy's escapes precede it in the typescript),
// then waits for path.done so that the window stays until the test has seen the marker.
func probe(path string) int {
	value, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	mode, err := ParseMode(os.Getenv("SVCUI_CLIPBOARD"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	r := New(mode, nil).Copy("probe value", string(value))
	out, _ := json.Marshal(probeResult{Text: r.Text, Level: r.Level, Method: r.Method})
	if err := os.WriteFile(path+".result", out, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	mark, _ := os.ReadFile(path + ".mark")
	fmt.Printf("\r\n%s\r\n", mark)
	for i := 0; i < 300; i++ {
		if _, err := os.Stat(path + ".done"); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return 0
}

// arrival is what the attached terminal should receive.
type arrival int

const (
	arrives     arrival = iota // the value, in OSC 52, exactly once
	arrivesLast                // the last OSC 52 holds the value (the clipboard keeps the last)
	nothing                    // no OSC 52 at all
	observed                   // recorded in the log; not svcui's contract
)

type scenario struct {
	name    string
	host    string   // "tmux", "screen" or "" (no multiplexer)
	options []string // tmux options, as "name value"
	oldTmux bool     // a tmux on PATH that says it is 3.1c, then runs the real one
	env     []string // the probe's environment: "-NAME" unsets, "NAME=value" sets
	method  Method
	level   Level
	arrival arrival
}

func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts tmux and screen servers")
	}
	need(t, "script", "script(1) from util-linux (Debian: bsdutils)")
	noDesktop := []string{"-DISPLAY", "-WAYLAND_DISPLAY", "-SSH_CONNECTION", "-SSH_CLIENT", "-SSH_TTY", "-SVCUI_CLIPBOARD"}
	with := func(extra ...string) []string { return append(append([]string{}, noDesktop...), extra...) }
	for _, sc := range []scenario{
		// tmux's defaults (set-clipboard external, allow-passthrough off): load-buffer -w
		// makes tmux send OSC 52 to the attached terminal.
		{name: "tmux defaults", host: "tmux", env: with(), method: TmuxBuffer, level: Copied, arrival: arrives},
		{name: "tmux set-clipboard on", host: "tmux", options: []string{"set-clipboard on"}, env: with(), method: TmuxBuffer, level: Copied, arrival: arrives},
		// tmux's manual says off stops it setting the terminal clipboard; load-buffer -w
		// does not consult the option. svcui's sentence does not depend on either.
		{name: "tmux set-clipboard off", host: "tmux", options: []string{"set-clipboard off"}, env: with(), method: TmuxBuffer, level: Copied, arrival: observed},
		// A tmux before 3.2 gets raw OSC 52: tmux ignores it with its defaults…
		{name: "tmux 3.1 defaults", host: "tmux", oldTmux: true, env: with(), method: RawOSC52, level: Sent, arrival: nothing},
		// …and forwards it with set-clipboard on.
		{name: "tmux 3.1 set-clipboard on", host: "tmux", oldTmux: true, options: []string{"set-clipboard on"}, env: with(), method: RawOSC52, level: Sent, arrival: arrives},
		// svcui across SSH from the tmux: no $TMUX, TERM=screen (tmux's default-terminal).
		{name: "tmux across SSH, set-clipboard on", host: "tmux", options: []string{"set-clipboard on"}, env: with("-TMUX", "-TMUX_PANE", "TERM=screen", "SSH_TTY=/dev/pts/9"), method: FarOSC52, level: Sent, arrival: arrivesLast},
		{name: "GNU screen", host: "screen", env: with(), method: ScreenOSC52, level: Sent, arrival: arrives},
		{name: "GNU screen across SSH", host: "screen", env: with("-STY", "TERM=screen", "SSH_TTY=/dev/pts/9"), method: FarOSC52, level: Sent, arrival: arrives},
		{name: "plain SSH", env: with("SSH_CONNECTION=192.0.2.1 50000 192.0.2.2 22", "TERM=xterm-256color"), method: RawOSC52, level: Sent, arrival: arrives},
	} {
		t.Run(sc.name, func(t *testing.T) { runScenario(t, sc) })
	}
}

// need skips (or, with SVCUI_CLIPBOARD_E2E=1, fails) when a command is missing.
func need(t *testing.T, command, what string) {
	t.Helper()
	if _, err := exec.LookPath(command); err == nil {
		return
	}
	if os.Getenv(requireEnv) == "1" {
		t.Fatalf("%s is not installed (needed by the clipboard end-to-end test)", what)
	}
	t.Skipf("%s is not installed; the clipboard end-to-end test needs it (SVCUI_CLIPBOARD_E2E=1 makes this a failure)", what)
}

// lab is one scenario's private directory, environment and processes.
type lab struct {
	t      *testing.T
	dir    string
	env    []string // for every process started: servers, clients, the probe
	value  string
	ts     string // the typescript
	script *exec.Cmd
}

func newLab(t *testing.T, sc scenario) *lab {
	// A short directory: tmux and screen keep their sockets in it.
	dir, err := os.MkdirTemp("", "cbe2e")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	l := &lab{t: t, dir: dir, ts: filepath.Join(dir, "typescript")}
	path := os.Getenv("PATH")
	if sc.oldTmux {
		real, err := exec.LookPath("tmux")
		if err != nil {
			t.Fatal(err)
		}
		shim := "#!/bin/sh\nif [ \"$1\" = -V ]; then echo 'tmux 3.1c'; exit 0; fi\nexec " + real + " \"$@\"\n"
		l.write("bin/tmux", shim, 0o755)
		path = filepath.Join(dir, "bin") + string(os.PathListSeparator) + path
	}
	screenDir := filepath.Join(dir, "screen")
	if err := os.Mkdir(screenDir, 0o700); err != nil {
		t.Fatal(err)
	}
	// The outer terminal is script(1)'s pseudo-terminal, described as xterm-256color: tmux's
	// default terminal-features give xterm* the clipboard feature (Ms), so nothing is added.
	l.env = []string{"PATH=" + path, "HOME=" + dir, "TERM=xterm-256color", "SHELL=/bin/sh", "LANG=C.UTF-8",
		"TMUX_TMPDIR=" + dir, "SCREENDIR=" + screenDir}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	// Long enough for several of screen's 76-byte chunks, and not ASCII only.
	l.value = "pässwörd-" + hex.EncodeToString(b) + "-" + strings.Repeat("0123456789", 30)
	l.write("value", l.value, 0o600)
	l.write("value.mark", "probe-done-"+hex.EncodeToString(b), 0o600)
	return l
}

func (l *lab) write(name, content string, perm os.FileMode) {
	l.t.Helper()
	p := filepath.Join(l.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		l.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), perm); err != nil {
		l.t.Fatal(err)
	}
}

// probeCommand is the shell command that runs the probe with the scenario's environment.
func (l *lab) probeCommand(sc scenario) string {
	args := []string{"env"}
	for _, e := range sc.env {
		if name, ok := strings.CutPrefix(e, "-"); ok {
			args = append(args, "-u", name)
		} else {
			args = append(args, e)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		l.t.Fatal(err)
	}
	args = append(args, probeEnv+"="+filepath.Join(l.dir, "value"), exe, "-test.run=^$")
	for i, a := range args {
		args[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(args, " ")
}

func (l *lab) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = l.env
	return cmd
}

// run runs a command to completion and fails the test on error.
func (l *lab) run(name string, args ...string) string {
	l.t.Helper()
	out, err := l.command(name, args...).CombinedOutput()
	if err != nil {
		l.t.Fatalf("%s %s: %v: %s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// attach starts script(1) recording a terminal that runs command.
//
// script's standard input stays open until the test ends: at its end of file script hands
// the terminal an EOF, and the shell GNU screen starts would exit at once (with the test's
// input at /dev/null, as under CI, screen ended before it could be attached).
func (l *lab) attach(command string) {
	l.script = l.command("script", "-q", "-f", "-c", command, l.ts)
	in, keepOpen, err := os.Pipe()
	if err != nil {
		l.t.Fatal(err)
	}
	l.script.Stdin = in
	if err := l.script.Start(); err != nil {
		l.t.Fatal(err)
	}
	_ = in.Close() // script has its own copy
	l.t.Cleanup(func() { _ = keepOpen.Close() })
	l.t.Cleanup(func() {
		done := make(chan struct{})
		go func() { _ = l.script.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = l.script.Process.Kill()
			<-done
		}
	})
}

// waitFor polls cond for up to d and fails with what when it never holds.
func (l *lab) waitFor(d time.Duration, what string, cond func() bool) {
	l.t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	ts, _ := os.ReadFile(l.ts)
	l.t.Fatalf("timed out waiting for %s; typescript ends %q", what, tail(ts, 600))
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

func runScenario(t *testing.T, sc scenario) {
	if sc.host != "" {
		need(t, sc.host, sc.host)
	}
	l := newLab(t, sc)
	switch sc.host {
	case "tmux":
		tm := func(args ...string) string {
			return l.run("tmux", append([]string{"-L", "e2e", "-f", "/dev/null"}, args...)...)
		}
		tm("new-session", "-d", "-s", "main", "-x", "120", "-y", "40", "sleep 600")
		for _, o := range sc.options {
			tm(append([]string{"set-option", "-g"}, strings.Fields(o)...)...)
		}
		l.attach("tmux -L e2e attach -t main")
		// Cleanups run last first: the server goes, then the detached client's script ends.
		t.Cleanup(func() { _ = l.command("tmux", "-L", "e2e", "kill-server").Run() })
		l.waitFor(10*time.Second, "the tmux client to attach", func() bool {
			return strings.Contains(tm("list-clients"), "attached")
		})
		tm("new-window", "-t", "main", l.probeCommand(sc))
	case "screen":
		l.attach("screen -c /dev/null -S e2e")
		t.Cleanup(func() { _ = l.command("screen", "-S", "e2e", "-X", "quit").Run() })
		l.waitFor(10*time.Second, "GNU screen to attach", func() bool {
			out, _ := l.command("screen", "-ls", "e2e").CombinedOutput()
			return strings.Contains(string(out), "Attached")
		})
		l.run("screen", "-S", "e2e", "-X", "screen", "/bin/sh", "-c", l.probeCommand(sc))
	default:
		l.attach(l.probeCommand(sc))
	}
	var res probeResult
	l.waitFor(30*time.Second, "the probe's result", func() bool {
		b, err := os.ReadFile(filepath.Join(l.dir, "value.result"))
		return err == nil && json.Unmarshal(b, &res) == nil
	})
	mark, _ := os.ReadFile(filepath.Join(l.dir, "value.mark"))
	l.waitFor(10*time.Second, "the probe's marker in the typescript", func() bool {
		ts, _ := os.ReadFile(l.ts)
		return bytes.Contains(ts, mark)
	})
	l.write("value.done", "", 0o600)
	ts, _ := os.ReadFile(l.ts)

	t.Logf("%s: %s", res.Level, res.Text)
	if res.Method != sc.method || res.Level != sc.level {
		t.Errorf("copied by %q at level %s, want %q at %s", res.Method, res.Level, sc.method, sc.level)
	}
	if strings.Contains(res.Text, l.value) || bytes.Contains(ts, []byte(l.value)) {
		t.Error("the value appears in the sentence or on the screen")
	}
	if res.Method == TmuxBuffer {
		if got, err := l.command("tmux", "-L", "e2e", "save-buffer", "-").Output(); err != nil || string(got) != l.value {
			t.Errorf("tmux's buffer should hold the value: %q (%v)", got, err)
		}
	}
	got := osc52Payloads(ts[:bytes.Index(ts, mark)])
	t.Logf("the terminal received %d OSC 52 sequence(s)", len(got))
	switch sc.arrival {
	case arrives:
		if len(got) != 1 || got[0] != l.value {
			t.Errorf("the terminal should receive the value once in OSC 52; it received %q", got)
		}
	case arrivesLast:
		if len(got) == 0 || got[len(got)-1] != l.value {
			t.Errorf("the last OSC 52 the terminal receives should hold the value; it received %q", got)
		}
	case nothing:
		if len(got) != 0 {
			t.Errorf("the terminal should receive no OSC 52; it received %q", got)
		}
	case observed:
		t.Logf("observed: value arrived = %v", len(got) == 1 && got[0] == l.value)
	}
}

// osc52Pattern matches a clipboard-setting OSC 52 ending in BEL or ST; tmux sends an empty
// selection ("52;;"), applications send "c".
var osc52Pattern = regexp.MustCompile(`\x1b\]52;([a-z0-9]*);([A-Za-z0-9+/=]*)(?:\x07|\x1b\\)`)

// osc52Payloads decodes every OSC 52 in a typescript.
func osc52Payloads(ts []byte) []string {
	var out []string
	for _, m := range osc52Pattern.FindAllSubmatch(ts, -1) {
		v, err := base64.StdEncoding.DecodeString(string(m[2]))
		if err != nil {
			out = append(out, "undecodable: "+string(m[2]))
			continue
		}
		out = append(out, string(v))
	}
	return out
}
