package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHistoryAddSearchPersist(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	dir := filepath.Join(state, "history")
	h, err := OpenHistory(state, "demo-os")
	if err != nil || h.Len() != 0 {
		t.Fatalf("open empty: %v", err)
	}
	took := int64(4)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	resp := &Response{Status: 200, Took: &took, RoundTrip: 12 * time.Millisecond}
	for i, p := range []string{"/logs/_search", "/_cluster/health", "/apps/_search"} {
		req := ParsedRequest{Method: "GET", Path: p, Body: `{"query":{"match":{"msg":"Hello"}}}`}
		if err := h.Add(NewHistoryEntry(req, resp, t0.Add(time.Duration(i)*time.Second))); err != nil {
			t.Fatal(err)
		}
	}
	got := h.Search("_SEARCH")
	if len(got) != 2 || got[0].Path != "/apps/_search" || got[1].Path != "/logs/_search" {
		t.Fatalf("search = %+v", got)
	}
	if e := h.Entries()[0]; e.Status != 200 || *e.TookMS != 4 || e.RoundTripMS != 12 || e.Request().Path != "/apps/_search" {
		t.Fatalf("entry = %+v", e)
	}
	if len(h.Search("hello")) != 3 {
		t.Fatal("body not searched")
	}
	st, err := os.Stat(h.Path())
	if err != nil || st.Mode().Perm() != 0o600 || !strings.HasPrefix(filepath.Base(h.Path()), "demo-os.") || filepath.Ext(h.Path()) != ".jsonl" {
		t.Fatalf("file: %v %v", st, err)
	}
	if ds, _ := os.Stat(dir); ds.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v", ds.Mode().Perm())
	}
	again, err := OpenHistory(state, "demo-os")
	if err != nil || again.Len() != 3 || again.Entries()[0].Path != "/apps/_search" {
		t.Fatalf("reload: %v %d", err, again.Len())
	}
}

func TestHistoryDropsOldestAndSkipsCorruptLines(t *testing.T) {
	state := t.TempDir()
	path := filepath.Join(state, "history", "svc.jsonl")
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte("{not json\n\n{\"method\":\"GET\",\"path\":\"/kept\"}\n[1]\n"), 0o600)
	h, err := OpenHistory(state, "svc")
	if err != nil || h.Len() != 1 {
		t.Fatalf("corrupt file: %v %d", err, h.Len())
	}
	for i := 0; i < HistoryLimit+5; i++ {
		if err := h.Add(HistoryEntry{Method: "GET", Path: "/p" + strings.Repeat("x", i%3), Time: time.Unix(int64(i), 0)}); err != nil {
			t.Fatal(err)
		}
	}
	if h.Len() != HistoryLimit || len(h.Search("/kept")) != 0 {
		t.Fatalf("len %d, oldest kept: %v", h.Len(), len(h.Search("/kept")))
	}
	again, _ := OpenHistory(state, "svc")
	if again.Len() != HistoryLimit || !again.Entries()[0].Time.Equal(time.Unix(HistoryLimit+4, 0)) {
		t.Fatalf("reloaded %d, newest %v", again.Len(), again.Entries()[0].Time)
	}
	if st, _ := os.Stat(h.Path()); st.Mode().Perm() != 0o600 {
		t.Fatalf("rewritten file mode %v", st.Mode().Perm())
	}
}

func TestHistoryFileNamesAndDefaults(t *testing.T) {
	for _, bad := range []string{"", "  ", "..."} {
		if _, err := OpenHistory(t.TempDir(), bad); err == nil {
			t.Fatalf("service name %q accepted", bad)
		}
	}
	h, err := OpenHistory(t.TempDir(), "../../etc/passwd")
	if err != nil || strings.Contains(filepath.Base(h.Path()), "/") || filepath.Base(filepath.Dir(h.Path())) == "etc" {
		t.Fatalf("path escape: %s %v", h.Path(), err)
	}
	// The directory is the caller's: the environment is never consulted.
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	if _, err := OpenHistory("", "svc"); err == nil || !strings.Contains(err.Error(), "no state directory") {
		t.Fatalf("empty state dir: %v", err)
	}
	state := t.TempDir()
	if h, err := OpenHistory(state, ServiceKey("p", "svc")); err != nil || filepath.Dir(h.Path()) != filepath.Join(state, "history") || !strings.HasPrefix(filepath.Base(h.Path()), "p-svc.") {
		t.Fatalf("path: %v", err)
	}
}

func TestHistoryNeverStoresPassword(t *testing.T) {
	dir := t.TempDir()
	h, _ := OpenHistory(dir, "svc")
	// Record a real exchange with a client that holds the password.
	_, tg := newFakeEngine(t)
	c := newTestClient(t, tg)
	req := ParsedRequest{Method: "POST", Path: "/echo", Body: `{"a":1}`}
	hr, _ := req.HTTPRequest()
	resp, err := c.Do(ctxT(t), hr)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Add(NewHistoryEntry(req, resp, time.Now())); err != nil {
		t.Fatal(err)
	}
	big := ParsedRequest{Method: "POST", Path: "/_bulk", Body: strings.Repeat("{}\n", maxHistoryBody)}
	if err := h.Add(NewHistoryEntry(big, nil, time.Now())); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(h.Path())
	if strings.Contains(string(data), testPass) {
		t.Fatal("password in history")
	}
	if !h.Entries()[0].BodyTruncated || len(h.Entries()[0].Body) != maxHistoryBody {
		t.Fatal("large body not truncated")
	}
}

// A password typed into a request, as a member or a query parameter, is stored masked
// in the history and the saved editor text; the rest of the request stays readable.
func TestHistoryAndEditorTextMaskTypedSecrets(t *testing.T) {
	state := t.TempDir()
	h, _ := OpenHistory(state, "p-os")
	put := ParsedRequest{Method: "PUT", Path: "/_plugins/_security/api/internalusers/bob", Body: `{"password": "hunter2-Secret", "backend_roles": ["admin"]}`}
	get := ParsedRequest{Method: "GET", Path: "/_cluster/health?password=qwerty-9&pretty"}
	for _, r := range []ParsedRequest{put, get} {
		if err := h.Add(NewHistoryEntry(r, nil, time.Now())); err != nil {
			t.Fatal(err)
		}
	}
	text := "PUT /_plugins/_security/api/internalusers/bob\n{\"password\": \"hunter2-Secret\"}\n\nGET /x?password=qwerty-9\n"
	if err := SaveEditorText(state, "p-os", text); err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	_ = filepath.WalkDir(state, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			all.Write(b)
		}
		return nil
	})
	for _, secret := range []string{"hunter2-Secret", "qwerty-9"} {
		if strings.Contains(all.String(), secret) {
			t.Fatalf("%q is stored in plain text:\n%s", secret, all.String())
		}
	}
	es := h.Entries()
	if es[1].Body != `{"password": "***", "backend_roles": ["admin"]}` || es[0].Path != "/_cluster/health?password=***&pretty" {
		t.Fatalf("entries: %+v", es)
	}
	if got, _, _ := LoadEditorText(state, "p-os"); !strings.Contains(got, `"password": "***"`) || !strings.Contains(got, "GET /x?password=***") {
		t.Fatalf("editor text: %q", got)
	}
}

// The same request run again folds into one entry that counts the runs; the excerpt is
// the body on one line (an SQL request's statement).
func TestHistoryFoldsRepeatsAndShowsAnExcerpt(t *testing.T) {
	state := t.TempDir()
	h, _ := OpenHistory(state, "p-os")
	sql := ParsedRequest{Method: "POST", Path: "/_plugins/_sql", Body: `{"query": "SELECT level, COUNT(*) FROM logs-app GROUP BY level"}`}
	search := ParsedRequest{Method: "GET", Path: "/logs-app/_search", Body: "{\n  \"size\": 20,\n  \"query\": {\"match_all\": {}}\n}"}
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	for i, r := range []ParsedRequest{sql, sql, sql, search, search, sql} {
		if err := h.Add(NewHistoryEntry(r, nil, t0.Add(time.Duration(i)*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	es := h.Entries()
	if len(es) != 3 || es[0].Times() != 1 || es[1].Times() != 2 || es[2].Times() != 3 || !es[2].Time.Equal(t0.Add(2*time.Minute)) {
		t.Fatalf("entries: %+v", es)
	}
	if x := es[2].Excerpt(30); x != "SELECT level, COUNT(*) FROM l…" {
		t.Fatalf("sql excerpt %q", x)
	}
	if x := es[1].Excerpt(80); x != `{ "size": 20, "query": {"match_all": {}} }` {
		t.Fatalf("search excerpt %q", x)
	}
	again, _ := OpenHistory(state, "p-os")
	if again.Len() != 3 || again.Entries()[2].Times() != 3 {
		t.Fatalf("reloaded: %+v", again.Entries())
	}
}
