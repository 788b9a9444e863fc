package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Read-only, the Search results page back with p: the root used to refuse p for every
// view as "assign a project", a billing group's key, which read-only still refuses there.
func TestFlowReadOnlyPagesTheSearchResultsBack(t *testing.T) {
	t.Parallel()
	e := readOnlySearchSandbox(t)
	st := settings(e, e.admin)
	st.ReadOnly = true
	s := start(t, st, client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "READ-ONLY")
	s.mark()
	s.keys("5")
	s.waitFor("opensearch-logs", "logs-app", "cluster ● green")
	s.special(tea.KeyTab, tea.KeyTab)
	s.waitFor("▸ Indices")
	s.mark()
	s.keys("enter") // runs the index's search and focuses its hits
	s.waitFor("▸ Results", "hits 1–20 of 5,000")
	s.mark()
	s.keys("n")
	s.waitFor("hits 21–40 of 5,000", "page 2")
	s.mark()
	s.keys("p")
	s.waitFor("hits 1–20 of 5,000")
	s.never("Read-only mode")
	s.mark()
	s.keys("4")
	s.waitFor("Acme Americas")
	s.mark()
	s.keys("p")
	s.waitFor("Read-only mode: assign a project is disabled")
}
