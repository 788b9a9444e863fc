package search

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/app"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// The Search views' keys (the results and the index list by focus, a document, a field's
// top values, the documents around a hit) share none among themselves or with the
// global set.
func TestSearchViewKeysNeverClash(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	p.ctx.Tabs = []string{"Projects", "Services", "Users", "Billing", "Search"}
	global := p.ctx.GlobalKeys()
	sets := map[string]keys.Actions{
		"results":  p.Keys(),
		"document": (&docView{ctx: p.ctx}).Keys(),
		"stats":    (&statsView{ctx: p.ctx}).Keys(),
		"around":   (&aroundView{ctx: p.ctx}).Keys(),
	}
	p.focus = focusIndices
	sets["indices"] = p.Keys()
	for name, set := range sets {
		if c := keys.Clashes(set, global); len(c) > 0 {
			t.Errorf("%s: %v", name, c)
		}
	}
}

// In read-only mode p pages the Search results back, through the root as a person
// presses it: the root refused it as "assign a project", a key of another view.
func TestReadOnlyPPagesTheResultsBack(t *testing.T) {
	t.Parallel()
	p, _ := enginePane(t)
	p.ctx.ReadOnly = true
	runLine(t, p, "GET /logs-app/_search\n{\"size\": 20, \"sort\": [{\"@timestamp\": \"desc\"}], \"query\": {\"match_all\": {}}}\n")
	p.focus = focusResults
	root := app.New(app.Options{Context: p.ctx, Session: uitest.Session(p.ctx), Tabs: []app.Tab{{ID: common.TabSearch, Name: "Search",
		New: func(*common.Context) common.View { return p }}}})
	d := uitest.Driver{Model: root, Skip: func(m tea.Msg) bool { _, q := m.(tea.QuitMsg); return q }}
	d.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.Send(uitest.Run(root.Init())...)
	d.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")})
	if got := p.reader.res.statusLine(); !strings.Contains(got, "page 2") {
		t.Fatalf("n: %s", got)
	}
	d.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	if _, text := root.Message(); strings.Contains(text, "Read-only") {
		t.Fatalf("p was refused: %q", text)
	}
	if got := p.reader.res.statusLine(); !strings.Contains(got, "hits 1–20") || strings.Contains(got, "page 2") {
		t.Fatalf("p did not page back: %s", got)
	}
}
