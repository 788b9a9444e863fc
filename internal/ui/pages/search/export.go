package search

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
)

// HoldsTable: the pane's tables (results, index list) are what :export writes.
func (*Pane) HoldsTable() {}

// export writes the results' table (hits or SQL rows, every row it holds, the
// columns it shows) for ":export csv FILE"; with none shown, it says why nothing was
// written. The pane sends the index list's export there when the list has the focus.
func (rd *reader) export(msg common.Export) tea.Cmd {
	r := rd.res
	if r.ans == nil || r.table == nil || r.shownView() != viewTable {
		return common.Warn("Nothing to export: run a search (or focus the index list) first; :export writes the table on screen")
	}
	noun := "hit"
	if r.ans.hits == nil {
		noun = "row"
	}
	return base.ExportTable(r.table, msg, noun)
}
