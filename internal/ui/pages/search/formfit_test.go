package search

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
	"github.com/svcui/svcui/internal/ui/uitest/formfit"
)

// The Search tab's forms (connect as a user, bulk load, an absolute time range), at
// every supported size with each field focused in turn: its title, its focus bar and
// the key help are on screen.
func TestEverySearchFormFitsTheScreen(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	opened := func(cmd tea.Cmd) common.Modal {
		for _, m := range uitest.Run(cmd) {
			if o, ok := m.(common.OpenModal); ok {
				return o.Modal
			}
		}
		t.Fatal("no form opened")
		return nil
	}
	for name, build := range map[string]func() common.Modal{
		"connect as": func() common.Modal { return opened(p.link.askPassword("reader")) },
		"bulk load":  func() common.Modal { return opened(p.bulk.open(p.link.conn, "", "logs")) },
		"time range": func() common.Modal { return opened(p.reader.openAbsoluteRange()) },
	} {
		if misses := formfit.Misses(build); len(misses) > 0 {
			t.Errorf("%s: %d misses:\n%s", name, len(misses), strings.Join(misses, "\n"))
		}
	}
}
