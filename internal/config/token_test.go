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
