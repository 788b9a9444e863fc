package search

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/uitest"
)

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// One esc leaves the editor with the completion hint open, closing it: the 2 typed
// next is not text in the query.
func TestOneEscLeavesTheEditorAndClosesTheHint(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	p.indices.mapping = search.Mapping{Indices: []search.IndexMapping{{Index: "logs", Fields: []search.Field{{Path: "level", Type: "keyword"}}}}}
	p.editor.ta.SetValue("GET /logs/_search\n{\"query\": {\"term\": {\"le")
	p.editor.ta.CursorEnd()
	p.Update(runes("v"))
	if len(p.editor.suggest.Items) == 0 {
		t.Fatal("no hint to close")
	}
	before := p.editor.ta.Value()
	p.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if len(p.editor.suggest.Items) != 0 || p.focus == focusEditor || p.Capturing() {
		t.Fatalf("esc: hint %d, focus %d, capturing %v", len(p.editor.suggest.Items), p.focus, p.Capturing())
	}
	p.Update(runes("2"))
	if p.editor.ta.Value() != before {
		t.Fatalf("2 went into the query: %q", p.editor.ta.Value())
	}
}

// f1's help names each part of the pane once and lists tab once.
func TestHelpGroupsAreNamedAndTabListedOnce(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	cmd := p.openHelp()
	m := cmd().(common.OpenModal).Modal
	m.SetSize(160, 50)
	v := flat(m.View())
	for _, title := range []string{"Editor", "Results", "Indices", "Global"} {
		if !strings.Contains(v, title) {
			t.Fatalf("no %s group:\n%s", title, v)
		}
	}
	if strings.Count(v, p.Title()) > 0 {
		t.Fatalf("groups still titled %q:\n%s", p.Title(), v)
	}
	tabs := 0
	for _, row := range p.FullHelp() {
		for _, b := range row {
			if b.Help().Key == "tab" {
				tabs++
			}
		}
	}
	if tabs != 1 {
		t.Fatalf("tab listed %d times", tabs)
	}
	// The root's ? overlay lists every row in one group: no key twice but enter, which
	// opens a hit in the results and searches an index in the list.
	seen := map[string]string{}
	for _, row := range p.FullHelp() {
		for _, b := range row {
			k := b.Help().Key
			if prev, dup := seen[k]; dup && k != "enter" {
				t.Fatalf("%s listed twice: %q and %q", k, prev, b.Help().Desc)
			}
			seen[k] = b.Help().Desc
		}
	}
}

// Templates read the selected index and sort on its time field: "latest logs" on
// logs-web answers with its documents, newest first; an index with no date field says so.
func TestTemplatesUseTheSelectedIndexAndItsTimeField(t *testing.T) {
	t.Parallel()
	p, _ := enginePane(t)
	if search.TimeField(p.indices.mapping, "logs-web") == "" {
		t.Fatalf("mapping not loaded: %+v", p.indices.mapping)
	}
	p.indices.list.Handle(tea.KeyMsg{Type: tea.KeyDown}) // logs-web
	if p.indices.selectedIndex() != "logs-web" {
		t.Fatalf("selected %q", p.indices.selectedIndex())
	}
	p.setFocus(focusEditor)
	pick := func(name string) {
		p.Update(tea.KeyMsg{Type: tea.KeyCtrlT})
		for i, it := range p.picker.shown {
			if it.label == name {
				p.picker.cursor = i
			}
		}
		p.Update(enter)
	}
	pick("Search: latest logs")
	r, ok := p.editor.currentRequest()
	tf := search.TimeField(p.indices.mapping, "logs-web")
	if !ok || r.Base() != "/logs-web/_search" || !strings.Contains(r.Body, `"`+tf+`": "desc"`) {
		t.Fatalf("request: %+v", r)
	}
	deliver(t, p, p.reader.run())
	if a := p.reader.res.ans; a == nil || a.status != 200 || a.hits == nil || len(a.hits.Rows) != 20 {
		t.Fatalf("answer: %+v", a)
	}

	// products has one date field, "created": its first date field is its time field.
	p.indices.list.Handle(tea.KeyMsg{Type: tea.KeyDown})
	pick("Search: latest logs")
	if r, _ := p.editor.currentRequest(); r.Base() != "/products/_search" || !strings.Contains(r.Body, `"created": "desc"`) {
		t.Fatalf("products: %+v", r)
	}
}

// What is typed is saved once the typing pauses (a timer, then a command), and at once
// when the pane goes away (ctrl+c).
func TestEditorTextIsSavedAsItIsTyped(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	clock := uitest.NewClock(time.Unix(0, 0))
	p.ctx.After = clock.After
	load := func() string {
		text, _, err := search.LoadEditorText(p.ctx.StateDir, stateKey("p", "os"))
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	p.editor.ta.CursorEnd()
	for _, r := range "GET /a" {
		_, cmd := p.Update(runes(string(r)))
		deliver(t, p, cmd)
	}
	if load() != "" {
		t.Fatal("saved while typing (no pause yet)")
	}
	for _, m := range clock.Advance(saveDelay) {
		deliver(t, p, func() tea.Msg { return m })
	}
	if got := load(); !strings.HasSuffix(got, "GET /a") {
		t.Fatalf("after the pause: %q", got)
	}
	_, cmd := p.Update(runes("b"))
	deliver(t, p, cmd)
	// ctrl+c: no timer will fire. Leaving does no I/O itself: the write is the
	// command the root runs before it quits.
	save := p.SaveOnLeave()
	p.Leave()
	if got := load(); strings.HasSuffix(got, "GET /ab") {
		t.Fatal("leaving wrote the file itself, outside a command")
	}
	if save == nil {
		t.Fatal("no command keeps what was typed since the last save")
	}
	save()
	if got := load(); !strings.HasSuffix(got, "GET /ab") {
		t.Fatalf("on leaving: %q", got)
	}
}

// The bulk form does not open with an error: the path is checked once typed, or on submit.
func TestBulkFormIsQuietUntilTyped(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	cmd := p.bulk.open(p.link.conn, "", "logs")
	f := cmd().(common.OpenModal).Modal.(*components.Form)
	f.SetSize(120, 40)
	if e := f.LiveError(); e != "" {
		t.Fatalf("error before anything was typed: %q", e)
	}
	path := ""
	check := untilTyped(&path, validateNDJSONPath)
	if check() != nil {
		t.Fatal("untouched field refused")
	}
	path = "x"
	if check() != nil {
		t.Fatal("a path refused")
	}
	path = ""
	if check() == nil {
		t.Fatal("a cleared path passes")
	}
}
