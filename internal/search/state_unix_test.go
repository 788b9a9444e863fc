//go:build unix

package search

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// State files that are FIFOs are refused at once instead of blocking the command that
// reads them until something writes (config.yaml as a FIFO hung the console; these are
// read the same way).
func TestStateFilesThatAreFIFOsAreRefused(t *testing.T) {
	dir := t.TempDir()
	mkfifo := func(path string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	// Where each file lives: write one the ordinary way, then swap it for a FIFO.
	if err := SaveEditorText(dir, "p-s", "GET /_cat/indices"); err != nil {
		t.Fatal(err)
	}
	if err := SaveColumns(dir, "logs-*", []string{"message"}); err != nil {
		t.Fatal(err)
	}
	h, err := OpenHistory(dir, "p-s")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	histPath := h.path
	files = append(files, histPath)
	for _, f := range files {
		_ = os.Remove(f)
		mkfifo(f)
	}
	calls := map[string]func() error{
		"editor text": func() error { _, _, err := LoadEditorText(dir, "p-s"); return err },
		"columns":     func() error { _, err := LoadColumns(dir, "logs-*"); return err },
		"history":     func() error { _, err := OpenHistory(dir, "p-s"); return err },
	}
	for name, call := range calls {
		done := make(chan error, 1)
		go func() { done <- call() }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v", name, err)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("%s: blocked on a FIFO", name)
		}
	}
}
