//go:build unix

package sandbox

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// --state FILE holds the admin token and the CA key. A FIFO hung the sandbox for good,
// /dev/zero took gigabytes, {"projects": {"p": null}} panicked and a 0644 file loaded
// without a word: each is refused or said now.
func TestStateFileMustBeRegularBoundedCompleteAndPrivate(t *testing.T) {
	dir := t.TempDir()
	refused := func(name, path string, want ...string) {
		t.Helper()
		done := make(chan error, 1)
		go func() {
			sb, err := New(Options{StateFile: path, Data: "empty"})
			if err == nil {
				_ = sb.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			for _, w := range want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Fatalf("%s: %v, want %q", name, err, w)
				}
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: New did not return", name)
		}
	}

	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	refused("a FIFO", fifo, "not a regular file")
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	refused("/dev/zero", zero, "not a regular file")
	huge := filepath.Join(dir, "huge.json")
	if f, err := os.Create(huge); err != nil || f.Truncate(maxStateFile+1) != nil {
		t.Fatal(err)
	} else {
		_ = f.Close()
	}
	refused("a huge file", huge, "larger than")

	// A valid file, then the same with a null project, service or user.
	good := filepath.Join(dir, "good.json")
	sb, err := New(Options{StateFile: good, Data: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key  string
		null func(store map[string]any)
	}{
		{"projects.p", func(st map[string]any) { st["projects"].(map[string]any)["p"] = nil }},
		{"projects.acme-prod.services.x", func(st map[string]any) {
			st["projects"].(map[string]any)["acme-prod"].(map[string]any)["services"].(map[string]any)["x"] = nil
		}},
		{"billing_groups.g", func(st map[string]any) { st["billing_groups"].(map[string]any)["g"] = nil }},
	} {
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		c.null(doc["store"].(map[string]any))
		b, _ := json.Marshal(doc)
		path := filepath.Join(dir, "null.json")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		refused(c.key, path, path, c.key+" is null")
	}

	if err := os.Chmod(good, 0o644); err != nil {
		t.Fatal(err)
	}
	sb, err = New(Options{StateFile: good})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if w := strings.Join(sb.Warnings(), "\n"); !strings.Contains(w, good) || !strings.Contains(w, "readable by other users") {
		t.Fatalf("warnings: %q", w)
	}
	if st, _ := os.Stat(good); st.Mode().Perm() != 0o600 {
		t.Fatalf("the state file is %04o", st.Mode().Perm())
	}
}
