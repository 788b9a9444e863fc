package config

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func requireShell(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on this system")
	}
}

func TestRunTokenCommand(t *testing.T) {
	requireShell(t)
	cases := []struct {
		name, command string
		want          string // token on success
		wantErr       []string
		mustNotLeak   string
	}{
		{name: "trimmed stdout", command: "printf '  tok-123\\n\\n'", want: "tok-123"},
		{name: "stderr is not the token", command: "echo warming up >&2; echo tok-456", want: "tok-456"},
		{name: "exit status and stderr", command: "echo 'gpg: decryption failed' >&2; exit 2",
			wantErr: []string{"exit status 2", "gpg: decryption failed"}},
		{name: "failed command never quotes its stdout", command: "echo leaked-secret-1; echo leaked-secret-1 >&2; exit 1",
			wantErr: []string{"exit status 1", "<redacted>"}, mustNotLeak: "leaked-secret-1"},
		{name: "empty output", command: "true", wantErr: []string{"printed nothing"}},
		{name: "blank output", command: "printf '  \\n'", wantErr: []string{"printed nothing"}},
		{name: "several words", command: "printf 'secret-first-line\\nurl: x\\n'", wantErr: []string{"more than one word"}, mustNotLeak: "secret-first-line"},
		{name: "missing program", command: "definitely-not-a-program-svcui", wantErr: []string{"exit status 127"}},
		{name: "empty command", command: "  ", wantErr: []string{"token_command is empty"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := RunTokenCommand(context.Background(), tc.command)
			if tc.wantErr == nil {
				if err != nil || got != tc.want {
					t.Fatalf("got %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; got token %q", got)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if tc.mustNotLeak != "" && strings.Contains(err.Error(), tc.mustNotLeak) {
				t.Errorf("error leaks standard output: %q", err)
			}
		})
	}
}

func TestRunTokenCommandTimeout(t *testing.T) {
	requireShell(t)
	start := time.Now()
	// The background sleep keeps stdout open after sh is killed: WaitDelay must still end it.
	_, err := runTokenCommand(context.Background(), "sleep 30 & sleep 30", 200*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "did not finish within 200ms") {
		t.Fatalf("err = %v", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("timeout took %s", el)
	}
}

func TestRunTokenCommandCancelled(t *testing.T) {
	requireShell(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := RunTokenCommand(ctx, "echo tok")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestRunTokenCommandBoundsStderr(t *testing.T) {
	requireShell(t)
	_, err := RunTokenCommand(context.Background(), "head -c 5000 /dev/zero | tr '\\0' e >&2; exit 3")
	if err == nil || len(err.Error()) > maxStderr+100 {
		t.Fatalf("error not bounded (%d bytes)", len(err.Error()))
	}
}

// A failing token_command's standard error reaches the terminal (before the console
// starts, or in the footer): only its first line, at most 200 characters, with escape
// sequences and control characters removed and anything token-shaped masked. It once
// printed a token the command echoed there, and its escapes raw.
func TestRunTokenCommandShowsAFirstLineFitToShow(t *testing.T) {
	requireShell(t)
	const token = "svcv1_Zx9Qm3Lp7Rk2Vb8Nt5Wy1"
	cases := []struct {
		name, command string
		want          string // the whole quoted line
	}{
		{"token on stderr", "echo 'login failed for token " + token + ", retry' >&2; exit 1",
			"login failed for token ***, retry"},
		{"hex secret", "echo 'bad key 0123456789abcdef0123' >&2; exit 1", "bad key ***"},
		{"dotted segments", "echo 'refused tok=abcdefghij.klmnopqrst.uvwxyz0123 here' >&2; exit 1", "refused *** here"},
		{"escapes", `printf '\033]52;c;aGVsbG8=\007\033[31mdenied\033[0m \033[2J\033P+q\033\\ok\007\n' >&2; exit 1`,
			"denied ok"},
		{"first line only", `printf '\n  first problem\nsecond line with more\n' >&2; exit 1`, "first problem"},
		{"carriage return", `printf 'shown\rhidden over it\n' >&2; exit 1`, "shown"},
		{"bidi and C1", `printf 'a\342\200\256b\302\233c\n' >&2; exit 1`, "abc"},
		{"short words stay", "echo 'gpg: decryption failed: No secret key' >&2; exit 2", "gpg: decryption failed: No secret key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RunTokenCommand(context.Background(), tc.command)
			if err == nil {
				t.Fatal("no error")
			}
			_, quoted, _ := strings.Cut(err.Error(), "): ")
			if quoted != tc.want {
				t.Errorf("quoted %q, want %q (error %q)", quoted, tc.want, err)
			}
			if strings.ContainsFunc(err.Error(), func(r rune) bool { return r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) }) {
				t.Errorf("control characters in %q", err)
			}
		})
	}
	_, err := RunTokenCommand(context.Background(), "printf '%0500d\\n' 0 | tr 0 'a b ' >&2; exit 1")
	if err == nil || len(err.Error()) > 200+80 {
		t.Errorf("a long line is not cut: %d bytes", len(err.Error()))
	}
}

// Standard output is read up to 64 KiB; more is an error, at once: it was read whole
// (500 MB printed: 2 GiB resident), and an endless printer ran to the timeout.
func TestRunTokenCommandBoundsStdout(t *testing.T) {
	requireShell(t)
	for _, command := range []string{
		"head -c 1000000 /dev/zero | tr '\\0' a", // one 1 MB word: once taken as the token
		"yes tok_aaaaaaaa",                       // never ends
	} {
		start := time.Now()
		got, err := runTokenCommand(context.Background(), command, 5*time.Second)
		if err == nil || !strings.Contains(err.Error(), "more than 64 KiB on standard output") {
			t.Errorf("%s: %d bytes, err %v", command, len(got), err)
		}
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("%s: took %s", command, took)
		}
	}
	// Just under the cap is still a token (a long JWT, say).
	long := strings.Repeat("a", maxStdout-1)
	got, err := RunTokenCommand(context.Background(), "printf '%s' "+long)
	if err != nil || got != long {
		t.Errorf("a %d-byte token: %d bytes, %v", len(long), len(got), err)
	}
}
