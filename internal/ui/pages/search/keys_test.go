package search

import (
	"testing"

	"github.com/svcui/svcui/internal/ui/keys"
)

// The Search views' keys (the results and the index list by focus, a document, a field's
// top values, the documents around a hit) share none among themselves or with the
// global set.
func TestSearchViewKeysNeverClash(t *testing.T) {
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
