//go:build unix

package config

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test when f has not returned within d (opening a FIFO blocks until
// a writer comes: the test must not hang with it).
func within(t *testing.T, d time.Duration, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("%s has not returned after %s", what, d)
		return nil
	}
}

// config.yaml as a FIFO is refused with a sentence; it hung the console on a blank
// screen, waiting for a writer. Saving a profile refuses it too.
func TestLoadRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	err := within(t, 3*time.Second, "Load", func() error { _, err := Load(path); return err })
	if err == nil || !strings.Contains(err.Error(), "named pipe (FIFO), not a regular file") || !strings.Contains(err.Error(), path) {
		t.Errorf("Load: %v", err)
	}
	err = within(t, 3*time.Second, "SaveProfile", func() error {
		return SaveProfile(path, "p", Profile{APIURL: "https://api.example", Token: "tok"})
	})
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("SaveProfile: %v", err)
	}
	if _, err := Load("/dev/null"); err == nil || !strings.Contains(err.Error(), "is a device") {
		t.Errorf("a device: %v", err)
	}
}
