//go:build unix

package config

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A token_command that times out is killed with everything it started: sleep 1000 in
// the background of sh once stayed running under PID 1.
func TestTokenCommandTimeoutKillsItsProcessGroup(t *testing.T) {
	requireShell(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	_, err := runTokenCommand(context.Background(), "sleep 1000 & echo $! > "+pidFile+"; wait", 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "did not finish") {
		t.Fatalf("err = %v", err)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("sleep 1000 (pid %d) survived the timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
