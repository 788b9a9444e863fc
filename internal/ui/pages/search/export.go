package search

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
)

// HoldsTable: the pane's tables (results, index list) are what :export writes.
func (*Pane) HoldsTable() {}

// export writes the table the person is on (":export csv FILE"): the index list when
// it has the focus, else the results' table (hits or SQL rows, every row it holds, the
// columns it shows); with neither, it says why nothing was written.
func (p *Pane) export(msg common.Export) tea.Cmd {
	if p.focus == focusIndices && p.link.conn != nil {
		return p.indices.list.Handle(msg)
	}
	r := p.res
	if r.ans == nil || r.table == nil || r.shownView() != viewTable {
		return common.Warn("Nothing to export: run a search (or focus the index list) first; :export writes the table on screen")
	}
	noun := "hit"
	if r.ans.hits == nil {
		noun = "row"
	}
	return base.ExportTable(r.table, msg, noun)
}
