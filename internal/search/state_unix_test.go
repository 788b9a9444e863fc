//go:build unix

package search

import (
	"fmt"
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
	if err := SaveTimeField(dir, "logs-*", "ts"); err != nil {
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
		"time fields": func() error { _, err := LoadTimeFields(dir); return err },
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

// timefields.json symlinked to /dev/zero once took 6.8 GB in 10 s: it is refused as
// the other state files are; a regular file over the bound is refused too.
func TestTimeFieldsFileIsRegularAndBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, stateSubdir, timeFieldsFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTimeFields(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("/dev/zero: %v", err)
	}
	_ = os.Remove(path)
	if err := os.WriteFile(path, make([]byte, maxStateFile+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTimeFields(dir); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("a huge file: %v", err)
	}
	if err := SaveTimeField(dir, "logs-*", "ts"); err == nil {
		t.Fatal("a choice was saved over a file that could not be read")
	}
}

// A history file far larger than the history is read from its end only (its newest
// entries), starting at a line.
func TestHistoryReadsOnlyTheEndOfAHugeFile(t *testing.T) {
	if raceEnabled {
		t.Skip("parses 32 MiB on one goroutine: run without -race (make test does)")
	}
	dir := t.TempDir()
	h, err := OpenHistory(dir, ServiceKey("p", "s"))
	if err != nil {
		t.Fatal(err)
	}
	_ = os.MkdirAll(filepath.Dir(h.Path()), 0o700)
	f, err := os.Create(h.Path())
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("x", 64<<10)
	for i := range (maxHistoryFile + 8<<20) / len(body) {
		fmt.Fprintf(f, `{"method":"GET","path":"/old-%d","body":"%s"}`+"\n", i, body)
	}
	_, _ = f.WriteString(`{"method":"GET","path":"/newest"}` + "\n")
	_ = f.Close()
	again, err := OpenHistory(dir, ServiceKey("p", "s"))
	if err != nil || again.Len() != HistoryLimit || again.Entries()[0].Path != "/newest" {
		t.Fatalf("%v %d", err, again.Len())
	}
}
