package search

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSavedSearchesArePlainFilesOthersRead(t *testing.T) {
	cfg := t.TempDir()
	s := SavedSearch{Name: "Errors last hour", Service: "os", Method: "GET", Path: "/logs-app/_search",
		Body: "{\n  \"query\": {\"match\": {\"level\": \"ERROR\"}}\n}", Range: "1h", Saved: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)}
	path, err := SaveSearch(cfg, s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(path), "errors-last-hour-") || !strings.HasSuffix(path, ".yaml") {
		t.Fatalf("file %s", path)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", info.Mode())
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{"name: Errors last hour", "method: GET", "path: /logs-app/_search", "range: 1h", "body: |-"} {
		if !strings.Contains(string(data), want) {
			t.Fatalf("the file lacks %q:\n%s", want, data)
		}
	}
	// A search written by another console, by hand, is read too; junk is named, not fatal.
	_ = os.WriteFile(filepath.Join(cfg, SavedSubdir, "by-hand.yaml"), []byte("method: post\npath: /_plugins/_sql\nbody: '{\"query\": \"SELECT 1\"}'\n"), 0o600)
	_ = os.WriteFile(filepath.Join(cfg, SavedSubdir, "junk.yaml"), []byte(":::\n- ["), 0o600)
	if err := syscall.Mkfifo(filepath.Join(cfg, SavedSubdir, "fifo.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	list, skipped, err := ListSaved(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "by-hand" || list[0].Method != "POST" || list[1].Name != "Errors last hour" || list[1].Body != s.Body || list[1].TimeRange().Quick != "1h" {
		t.Fatalf("list: %+v", list)
	}
	if strings.Join(skipped, ",") != "fifo.yaml,junk.yaml" {
		t.Fatalf("skipped: %v", skipped)
	}
}

func TestSavedFileNamesAreSafeAndDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, name := range []string{"errors", "../../etc/passwd", "a/b", "a?b", "a-b", strings.Repeat("x", 300), "日本語", "Errors", "\x1b[31mred"} {
		f, err := SavedFileName(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(f, "/\\\x1b") || strings.HasPrefix(f, ".") || len(f) > 64 {
			t.Fatalf("%q → unsafe %q", name, f)
		}
		if other, dup := seen[f]; dup {
			t.Fatalf("%q and %q share %s", name, other, f)
		}
		seen[f] = name
	}
	if f, _ := SavedFileName("errors"); f != "errors.yaml" {
		t.Fatalf("a plain name is kept: %s", f)
	}
	if _, err := SavedFileName("  "); err == nil {
		t.Fatal("an empty name was taken")
	}
}

func TestSavedSearchMasksSecrets(t *testing.T) {
	cfg := t.TempDir()
	path, err := SaveSearch(cfg, SavedSearch{Name: "bob", Method: "PUT", Path: "/_plugins/_security/api/internalusers/bob?password=x1y2z3", Body: `{"password": "hunter2-Secret"}`})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "hunter2-Secret") || strings.Contains(string(data), "x1y2z3") {
		t.Fatalf("secret stored:\n%s", data)
	}
}
