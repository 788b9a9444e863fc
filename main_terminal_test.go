//go:build linux || darwin

package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// The console under the TERM and locale values of jump hosts, its bytes read from the
// pseudo-terminal as the person's terminal gets them.

// withEnv replaces or adds KEY=VALUE entries of env.
func withEnv(env []string, kv ...string) []string {
	out := append([]string(nil), env...)
	for _, e := range kv {
		k, _, _ := strings.Cut(e, "=")
		replaced := false
		for i := range out {
			if strings.HasPrefix(out[i], k+"=") {
				out[i], replaced = e, true
			}
		}
		if !replaced {
			out = append(out, e)
		}
	}
	return out
}

var demoArgs = []string{"--sandbox", "--sandbox-data", "demo"}

// sgr matches SGR sequences; attribute reads one parameter of them.
var sgr = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

func attributes(out string) map[string]bool {
	seen := map[string]bool{}
	for _, m := range sgr.FindAllStringSubmatch(out, -1) {
		for p := range strings.SplitSeq(m[1], ";") {
			seen[p] = true
		}
	}
	return seen
}

// TERM=screen (what GNU screen sets when it knows no better) and TERM=vt100 got no SGR
// at all: only "›" marked the selected row, and states had no colour.
func TestScreenAndVT100KeepSelectionAndStateMarks(t *testing.T) {
	t.Parallel() // each run is its own process on its own pseudo-terminal
	bin := svcuiBinary(t)
	for _, term := range []string{"screen", "vt100"} {
		t.Run(term, func(t *testing.T) {
			env, _ := testEnv(t)
			c := startConsole(t, bin, withEnv(env, "TERM="+term, "LANG=C.UTF-8"), demoArgs...)
			c.waitFor(t, "acme-prod", 10*time.Second)
			_, _ = c.pty.WriteString("2") // Services: states
			c.waitFor(t, "RUNNING", 10*time.Second)
			time.Sleep(300 * time.Millisecond)
			seen := attributes(c.output())
			if !seen["1"] || !seen["7"] && term == "vt100" {
				t.Errorf("no bold or reverse video: SGR parameters %v", seen)
			}
			colour := false
			for p := range seen {
				colour = colour || len(p) == 2 && (p[0] == '3' || p[0] == '4' || p[0] == '9') && p[1] <= '7'
			}
			if term == "screen" && !colour {
				t.Errorf("screen has 8/16 colours, none used: %v", seen)
			}
			if term == "vt100" && colour {
				t.Errorf("vt100 has no colour, got %v", seen)
			}
			if seen["38"] || seen["48"] {
				t.Errorf("256 or true colour on %s: %v", term, seen)
			}
		})
	}
}

// Without a UTF-8 locale (LANG not forwarded over ssh) not one byte ≥ 0x80 reaches the
// terminal: glyphs, borders, the spinner and platform text are ASCII.
func TestNoUTF8LocaleWritesOnlyASCII(t *testing.T) {
	t.Parallel() // each run is its own process on its own pseudo-terminal
	bin := svcuiBinary(t)
	for _, run := range []struct {
		data   string
		locale []string
	}{{"demo", []string{"LANG=C"}}, {"demo", []string{"LANG=en_US.UTF-8", "LC_ALL=POSIX"}}, {"hostile", []string{"LANG=C"}}} {
		t.Run(run.data+","+strings.Join(run.locale, ","), func(t *testing.T) {
			env, _ := testEnv(t)
			// The hostile data's names carry C1 controls, bidi overrides and accents.
			c := startConsole(t, bin, withEnv(env, run.locale...), "--sandbox", "--sandbox-data", run.data)
			c.waitFor(t, "acme-prod", 10*time.Second)
			_, _ = c.pty.WriteString("2") // Services: state glyphs, a REBALANCING row, the spinner
			c.waitFor(t, "REBALANCING", 10*time.Second)
			_, _ = c.pty.WriteString("?") // help: a bordered box
			c.waitFor(t, "+-", 10*time.Second)
			time.Sleep(300 * time.Millisecond)
			out := c.output()
			if i := bytes.IndexFunc([]byte(out), func(r rune) bool { return r >= 0x80 }); i >= 0 {
				t.Fatalf("a byte ≥ 0x80 at %d: %q", i, out[max(0, i-60):min(len(out), i+20)])
			}
			for _, want := range []string{"* RUNNING", "~ REBALANCING", "> "} {
				if !strings.Contains(out, want) {
					t.Errorf("no %q in the ASCII screen", want)
				}
			}
		})
	}
}

// TERM=dumb gets a sentence and an exit status, not a screen of escapes printed as text.
func TestDumbTerminalGetsASentence(t *testing.T) {
	bin := svcuiBinary(t)
	env, _ := testEnv(t)
	c := startConsole(t, bin, withEnv(env, "TERM=dumb"), demoArgs...)
	select {
	case err := <-c.exited:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Errorf("exit %v, want status 1", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the console kept running on TERM=dumb: %q", tail(c.output()))
	}
	time.Sleep(100 * time.Millisecond)
	out := c.output()
	if strings.ContainsRune(out, 0x1b) || !strings.Contains(out, "TERM=dumb") {
		t.Errorf("output %q", out)
	}
}

// At 40×12 "terminal too small" says the size it has and the size it needs.
func TestTooSmallSaysTheSize(t *testing.T) {
	bin := svcuiBinary(t)
	env, _ := testEnv(t)
	c := startConsole(t, bin, withEnv(env, "LANG=C.UTF-8"), demoArgs...)
	c.waitFor(t, "acme-prod", 10*time.Second)
	if err := pty.Setsize(c.pty, &pty.Winsize{Rows: 12, Cols: 40}); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, "Terminal 40×12 is too small", 10*time.Second)
	c.waitFor(t, "80×24", 10*time.Second)
}

// tmuxRun runs the built console in a tmux server of its own (no config of the
// developer's), at 120×30, with extra tmux options set before it starts.
type tmuxRun struct {
	t      *testing.T
	socket string
}

func startTmux(t *testing.T, env []string, options [][]string, command string) *tmuxRun {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	// The process id in the socket's name: two test runs at once (two checkouts) each have
	// their own server instead of killing the other's.
	r := &tmuxRun{t: t, socket: "svcui-test-" + strconv.Itoa(os.Getpid()) + "-" + strings.ReplaceAll(t.Name(), "/", "-")}
	r.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "120", "-y", "30", "sleep 600")
	t.Cleanup(func() {
		// kill-server hangs up the pane, which script(1) outlives, and with it the console
		// under it (each run left two `svcui --sandbox` running): end the pane first.
		var tree []int
		if out, err := exec.Command("tmux", "-L", r.socket, "display-message", "-p", "-t", "t", "#{pane_pid}").Output(); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil && pid > 0 {
				tree = processTree(pid)
				_ = syscall.Kill(pid, syscall.SIGTERM)
			}
		}
		_ = exec.Command("tmux", "-L", r.socket, "kill-server").Run()
		// The console saves its state as it leaves, into the test's directories: wait
		// for it, or removing them races its last writes ("directory not empty").
		deadline := time.Now().Add(10 * time.Second)
		for _, pid := range tree {
			for running(pid) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
		}
	})
	for _, o := range options {
		r.run(append([]string{"set-option"}, o...)...)
	}
	args := []string{"respawn-pane", "-k", "-t", "t"}
	for _, e := range env {
		if !strings.HasPrefix(e, "TERM=") { // tmux's own TERM (screen or tmux), as inside tmux
			args = append(args, "-e", e)
		}
	}
	r.run(append(args, command)...)
	return r
}

// processTree is pid and every process under it, read from /proc (pid alone where
// there is none).
func processTree(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := procStat(child); len(f) > 1 {
			parent, _ := strconv.Atoi(f[1])
			children[parent] = append(children[parent], child)
		}
	}
	tree := []int{pid}
	for i := 0; i < len(tree); i++ {
		tree = append(tree, children[tree[i]]...)
	}
	return tree
}

// procStat is /proc/PID/stat's fields after the command's name (state, ppid, …); nil
// when there is no such process.
func procStat(pid int) []string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	// The name is in parentheses and may hold spaces and parentheses itself.
	return strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
}

// running says pid has not ended (a zombie has).
func running(pid int) bool {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	f := procStat(pid)
	return len(f) > 0 && f[0] != "Z"
}

func (r *tmuxRun) run(args ...string) string {
	r.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", r.socket}, args...)...).CombinedOutput()
	if err != nil {
		r.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (r *tmuxRun) waitFor(re string) string {
	r.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(10 * time.Second)
	for {
		screen := r.run("capture-pane", "-p", "-t", "t")
		if rx.MatchString(screen) {
			return screen
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("tmux never showed %q:\n%s", re, screen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Home and End in application mode (ESC O H, ESC O F) reach the console as keys: they
// were read as alt+O and a letter.
func TestApplicationModeHomeEnd(t *testing.T) {
	bin := svcuiBinary(t)
	env, _ := testEnv(t)
	r := startTmux(t, env, nil, bin+" "+strings.Join(demoArgs, " "))
	r.waitFor(`› .*acme-prod`)
	r.run("send-keys", "-t", "t", "-H", "1b", "4f", "46") // ESC O F, as bytes
	r.waitFor(`› .*acme-staging`)
	r.run("send-keys", "-t", "t", "-H", "1b", "4f", "48") // ESC O H
	r.waitFor(`› .*acme-analytics`)
}

// Inside tmux the background is asked for (tmux answers from window-style or the outer
// terminal): a light pane gets the light theme, whose accent is blue 4 where the dark
// theme's is bright blue 12. The bytes are the console's own, recorded by script(1).
func TestThemeInsideTmuxFollowsTheBackground(t *testing.T) {
	t.Parallel() // each run is its own process on its own pseudo-terminal
	bin := svcuiBinary(t)
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("needs script(1)")
	}
	env, _ := testEnv(t)
	for _, c := range []struct{ bg, accent, other string }{{"white", "34", "94"}, {"black", "94", "34"}} {
		t.Run(c.bg, func(t *testing.T) {
			rec := t.TempDir() + "/typescript"
			r := startTmux(t, withEnv(env, "LANG=C.UTF-8"), [][]string{{"-g", "window-style", "bg=" + c.bg}},
				"script -q -f -c '"+bin+" "+strings.Join(demoArgs, " ")+"' "+rec)
			r.waitFor(`acme-prod`)
			time.Sleep(300 * time.Millisecond)
			out, err := os.ReadFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			if seen := attributes(string(out)); !seen[c.accent] || seen[c.other] {
				t.Errorf("a %s pane: want accent colour %s, not %s; SGR parameters %v", c.bg, c.accent, c.other, seen)
			}
		})
	}
}
