package search

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestColumnsPersistPerPattern(t *testing.T) {
	state := t.TempDir()
	if got, err := LoadColumns(state, "logs-app"); err != nil || got != nil {
		t.Fatalf("nothing saved: %v %v", got, err)
	}
	if err := SaveColumns(state, "logs-app", []string{"@timestamp", "level", "message"}); err != nil {
		t.Fatal(err)
	}
	if err := SaveColumns(state, "products", []string{"name"}); err != nil {
		t.Fatal(err)
	}
	got, err := LoadColumns(state, "logs-app")
	if err != nil || !reflect.DeepEqual(got, []string{"@timestamp", "level", "message"}) {
		t.Fatalf("reload: %v %v", got, err)
	}
	path := filepath.Join(state, "search", "columns.json")
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", st, err)
	}
	if st, _ := os.Stat(filepath.Dir(path)); st.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v", st.Mode().Perm())
	}
	if err := SaveColumns(state, "logs-app", nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := LoadColumns(state, "logs-app"); got != nil {
		t.Fatalf("forgotten choice: %v", got)
	}
	if got, _ := LoadColumns(state, "products"); len(got) != 1 {
		t.Fatal("other pattern lost")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
	os.WriteFile(path, []byte("{broken"), 0o600)
	if got, err := LoadColumns(state, "products"); err != nil || got != nil {
		t.Fatalf("corrupt file: %v %v", got, err)
	}
	if err := SaveColumns(state, "products", []string{"price"}); err != nil {
		t.Fatalf("save over a corrupt file: %v", err)
	}
	if err := SaveColumns("", "x", []string{"a"}); err == nil {
		t.Fatal("empty state dir accepted")
	}
	if err := SaveColumns(state, " ", []string{"a"}); err == nil {
		t.Fatal("empty pattern accepted")
	}
}

func TestColumnsKeepAtMost200Patterns(t *testing.T) {
	state := t.TempDir()
	for i := 0; i < maxColumnSets+3; i++ {
		if err := SaveColumns(state, fmt.Sprintf("idx-%03d", i), []string{"a"}); err != nil {
			t.Fatal(err)
		}
	}
	doc, _ := readColumns(state)
	if len(doc.Patterns) != maxColumnSets {
		t.Fatalf("%d patterns kept", len(doc.Patterns))
	}
	if got, _ := LoadColumns(state, fmt.Sprintf("idx-%03d", maxColumnSets+2)); got == nil {
		t.Fatal("newest dropped")
	}
}

func TestEditorTextPerService(t *testing.T) {
	state := t.TempDir()
	if _, ok, err := LoadEditorText(state, "p-os"); ok || err != nil {
		t.Fatalf("nothing saved: %v %v", ok, err)
	}
	text := "GET /logs-app/_search\n{\"query\": {\"match\": {\"message\": \"timeout\"}}}\n"
	if err := SaveEditorText(state, "p-os", text); err != nil {
		t.Fatal(err)
	}
	if err := SaveEditorText(state, "p-other", "GET /_cat/indices"); err != nil {
		t.Fatal(err)
	}
	got, ok, err := LoadEditorText(state, "p-os")
	if err != nil || !ok || got != text {
		t.Fatalf("reload: %q %v %v", got, ok, err)
	}
	path, _ := editorPath(state, "p-os")
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file: %v %v", st, err)
	}
	if err := SaveEditorText(state, "p-os", ""); err != nil {
		t.Fatal(err)
	}
	if got, ok, _ := LoadEditorText(state, "p-os"); !ok || got != "" {
		t.Fatal("an emptied editor must stay empty, not fall back to a template")
	}
	err = SaveEditorText(state, "p-os", strings.Repeat("x", MaxEditorText+1))
	if err == nil || !strings.Contains(err.Error(), "more than the 1 MiB kept between sessions") {
		t.Fatalf("huge text: %v", err)
	}
	if err := SaveEditorText(state, "../../x", "a"); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(state, "search", "editor", "_.._x.*.json")); len(m) != 1 {
		t.Fatalf("service name not kept inside the editor folder: %v", m)
	}
	if _, _, err := LoadEditorText("", "p-os"); err == nil {
		t.Fatal("empty state dir accepted")
	}
}

func TestIndexPattern(t *testing.T) {
	for in, want := range map[string]string{
		"/logs-app/_search":           "logs-app",
		"/logs-*,audit/_search?q=x":   "audit,logs-*",
		"logs-app":                    "logs-app",
		"/_search":                    "",
		"/_cat/indices?format=json":   "",
		"/":                           "",
		" /products/_doc/p-0001?x=1 ": "products",
	} {
		if got := IndexPattern(in); got != want {
			t.Fatalf("IndexPattern(%q) = %q, want %q", in, got, want)
		}
	}
}
