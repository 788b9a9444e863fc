//go:build unix

package connect

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// startSleeping plans a psql stand-in that sleeps, starts it and waits until it has
// recorded its start.
func startSleeping(t *testing.T) (*rig, *Session) {
	t.Helper()
	r := newRig(t, "psql")
	s := r.plan(service(models.TypePG, newTestCA(t, "pg.example.com").certPEM), "STANDIN_SLEEP=1")
	if err := s.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Cmd.Process.Kill() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(r.log); strings.Contains(string(b), "\nready\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stand-in client did not start")
		}
	}
	return r, s
}

func TestTermAndHangupEndTheSessionAndRemoveFiles(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			_, s := startSleeping(t)
			dir := s.privateDir()
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- s.Cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(waitDelay + 5*time.Second):
				t.Fatal("the client outlived svcui's signal")
			}
			if got := s.Signalled(); got != sig {
				t.Errorf("Signalled = %v, want %v", got, sig)
			}
			if ws, ok := s.Cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("the client ended with %v, want the signal %v passed on", s.Cmd.ProcessState, sig)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("the private directory survived %v: %v", sig, err)
			}
			if err := s.Cleanup(); err != nil {
				t.Errorf("Cleanup after the guard: %v", err)
			}
		})
	}
}

func TestInterruptBelongsToTheClient(t *testing.T) {
	_, s := startSleeping(t)
	dir := s.privateDir()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if s.Signalled() != nil || s.Cmd.ProcessState != nil {
		t.Fatalf("SIGINT ended the session (signalled %v)", s.Signalled())
	}
	if _, err := os.Stat(filepath.Join(dir, "pgpass")); err != nil {
		t.Fatalf("SIGINT removed the client's files: %v", err)
	}
	// Cleanup while the client still runs (the session dropped): files go, client killed.
	if err := s.Cleanup(); err != nil {
		t.Fatal(err)
	}
	_ = s.Cmd.Wait()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Cleanup left the private directory: %v", err)
	}
	if err := s.Cleanup(); err != nil {
		t.Errorf("a second Cleanup: %v", err)
	}
}

func TestLeftoversOfAKilledSvcuiAreSwept(t *testing.T) {
	r := newRig(t, "psql")
	gone := exec.Command("/bin/sh", "-c", "exit 0")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(r.parent, fmt.Sprintf("%s%d-123", dirPrefix, gone.Process.Pid))
	live := filepath.Join(r.parent, fmt.Sprintf("%s%d-456", dirPrefix, os.Getpid()))
	other := filepath.Join(r.parent, "unrelated-1-2")
	for _, d := range []string{stale, live, other} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "pgpass"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r.plan(service(models.TypePG, ""))
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the directory of a process that is gone was kept: %v", err)
	}
	for _, d := range []string{live, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}
