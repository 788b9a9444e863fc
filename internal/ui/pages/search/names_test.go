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
	p, _, _ := enginePane(t)
	name := "odd\ndelete\tproducts\x1b[31m"
	do(t, p.conn.client, "PUT", "/"+search.PathName(name), `{"mappings":{"properties":{"@timestamp":{"type":"date"}}}}`, "")
	text := p.indexSearch(name)
	for _, tpl := range search.TemplatesFor(name, "ts\n\x1b[1m") {
		text += "\n" + tpl.Text
	}
	if strings.ContainsAny(text, "\t\x1b") {
		t.Fatalf("a control character reached the editor: %q", text)
	}
	reqs := search.ParseBuffer(p.indexSearch(name))
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
	runLine(t, p, p.indexSearch(name))
	if p.res.ans.status != 200 {
		t.Fatalf("search of the escaped name: %d %s", p.res.ans.status, p.res.ans.errText)
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
	p, _, _ := enginePane(t)
	name := "odd\ndelete\tproducts"
	do(t, p.conn.client, "PUT", "/"+search.PathName(name), "", "")
	deliver(t, p, p.indices.Load())
	p.indices.SelectLater(name)
	if ix, ok := p.indices.Selected(); !ok || ix.Index != name {
		t.Fatalf("selected %q", ix.Index)
	}
	msgs := uitest.Run(p.toggleSQL())
	if strings.Contains(p.editor.Value(), "odd") || !strings.Contains(fmt.Sprint(msgs), "control characters") {
		t.Fatalf("SQL text %q, said %v", p.editor.Value(), msgs)
	}
}
