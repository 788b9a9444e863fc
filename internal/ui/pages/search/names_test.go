package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// An index whose name holds a newline, a tab and an escape (the engine accepts them)
// enters the editor escaped: the inserted search is one request, on one line, with no
// control character in the text, and it reads that very index when sent.
func TestIndexNamesWithControlsEnterTheEditorEscaped(t *testing.T) {
	t.Parallel()
	p, _, _ := writingPane(t, "products")
	name := "odd\ndelete\tproducts\x1b[31m"
	do(t, p.link.conn.client, "PUT", "/"+search.PathName(name), `{"mappings":{"properties":{"@timestamp":{"type":"date"}}}}`, "")
	text := p.indices.indexSearch(name)
	for _, tpl := range search.TemplatesFor(name, "ts\n\x1b[1m") {
		text += "\n" + tpl.Text
	}
	if strings.ContainsAny(text, "\t\x1b") {
		t.Fatalf("a control character reached the editor: %q", text)
	}
	reqs := search.ParseBuffer(p.indices.indexSearch(name))
	if len(reqs) != 1 || reqs[0].Method != "GET" {
		t.Fatalf("the name made %d requests: %+v", len(reqs), reqs)
	}
	for _, tpl := range search.TemplatesFor(name, "ts") {
		for _, r := range search.ParseBuffer(tpl.Text) {
			if r.Method == "DELETE" && strings.Contains(r.Path, "products") {
				t.Fatalf("template %q holds a delete of products", tpl.Name)
			}
		}
	}
	runLine(t, p, p.indices.indexSearch(name))
	if p.reader.res.ans.status != 200 {
		t.Fatalf("search of the escaped name: %d %s", p.reader.res.ans.status, p.reader.res.ans.errText)
	}
	sug := search.Suggest(search.SuggestInput{Text: "GET /od", Cursor: 7, Indices: []string{name}})
	for _, it := range sug.Items {
		if strings.ContainsAny(it.Text, "\n\t\x1b") {
			t.Fatalf("a suggestion holds a control character: %q", it.Text)
		}
	}
	if len(sug.Items) == 0 {
		t.Fatal("no path suggestion for the index")
	}
}

// SQL has no escape for such a name: the statement is not built from it, and a
// sentence says why.
func TestSQLDoesNotNameAnIndexWithControls(t *testing.T) {
	t.Parallel()
	p, _, _ := writingPane(t, "products")
	name := "odd\ndelete\tproducts"
	do(t, p.link.conn.client, "PUT", "/"+search.PathName(name), "", "")
	deliver(t, p, p.indices.list.Load())
	p.indices.list.SelectLater(name)
	if ix, ok := p.indices.list.Selected(); !ok || ix.Index != name {
		t.Fatalf("selected %q", ix.Index)
	}
	msgs := uitest.Run(p.editor.switchMode())
	if strings.Contains(p.editor.ta.Value(), "odd") || !strings.Contains(fmt.Sprint(msgs), "control characters") {
		t.Fatalf("SQL text %q, said %v", p.editor.ta.Value(), msgs)
	}
}

// Project "a-b" with service "c" and project "a" with service "b-c" once shared one
// history and one editor file; a name over 250 characters could not be saved at all
// ("file name too long"). Each service has its own files, whatever its name.
func TestStateFilesOfServicesNeverCollideOrOverflow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	long := strings.Repeat("s", 300)
	keys := []string{stateKey("a-b", "c"), stateKey("a", "b-c"), stateKey("p", long), stateKey(long, long)}
	paths := map[string]bool{}
	for i, k := range keys {
		if err := search.SaveEditorText(dir, k, fmt.Sprint("GET /", i)); err != nil {
			t.Fatalf("editor text of key %d: %v", i, err)
		}
		h, err := search.OpenHistory(dir, k)
		if err != nil {
			t.Fatalf("history of key %d: %v", i, err)
		}
		if err := h.Add(search.HistoryEntry{Method: "GET", Path: fmt.Sprint("/", i)}); err != nil {
			t.Fatalf("history of key %d: %v", i, err)
		}
		paths[h.Path()] = true
	}
	if len(paths) != len(keys) {
		t.Fatalf("%d history files for %d services", len(paths), len(keys))
	}
	for i, k := range keys {
		text, ok, err := search.LoadEditorText(dir, k)
		if err != nil || !ok || text != fmt.Sprint("GET /", i) {
			t.Fatalf("key %d reads %q %v %v", i, text, ok, err)
		}
		h, _ := search.OpenHistory(dir, k)
		if h.Len() != 1 || h.Entries()[0].Path != fmt.Sprint("/", i) {
			t.Fatalf("key %d: history %+v", i, h.Entries())
		}
	}
}
