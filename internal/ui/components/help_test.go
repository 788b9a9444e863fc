package components

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

func bindings(prefix string, n int) []key.Binding {
	var bs []key.Binding
	for i := range n {
		k := fmt.Sprintf("%s%d", prefix, i)
		bs = append(bs, key.NewBinding(key.WithKeys(k), key.WithHelp(k, "does "+k)))
	}
	return bs
}

func TestHelpColumnsSplitAtAGroupOrNameTheContinuedGroup(t *testing.T) {
	h := NewHelp(testCtx(), HelpGroup{"Services", bindings("s", 14)}, HelpGroup{"Global", bindings("g", 12)})
	h.SetSize(80, 24)
	lines := strings.Split(ansi.Strip(h.View()), "\n")
	for _, l := range lines {
		if strings.Contains(l, "Services") && !strings.Contains(l, "Global") {
			t.Fatalf("the groups should head the two columns side by side: %q", l)
		}
		if strings.Contains(l, "Services") {
			break
		}
	}
	// One group too long for a column: its continuation is titled.
	h = NewHelp(testCtx(), HelpGroup{"Search", bindings("k", 30)})
	h.SetSize(80, 24)
	if out := ansi.Strip(h.View()); !strings.Contains(out, "Search (continued)") {
		t.Fatalf("continued group without a title:\n%s", out)
	}
}
