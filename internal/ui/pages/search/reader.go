package search

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
)

// reader is the results and the log reader: the requests run from the editor (a
// search, a reviewed write, SQL statements), the time range and time field, paging,
// the histogram's bars, the results' keys and what they open (a hit, surrounding
// documents, field stats, the columns), copying as curl and saved searches. It owns
// those messages and the column picker; the other parts it reads are handed to it, and
// what is the pane's (focus, full screen, the picker) it reaches through callbacks.
type reader struct {
	ctx     *common.Context
	req     *common.Requests
	foot    *footer
	link    *connector
	indices *indexPanel
	editor  *editor
	tail    *tailer
	// bulk's panel gives way to the results when a request is sent.
	bulk *bulkLoader

	res *results
	// trange is the time window searches read (all time when zero).
	trange  search.TimeRange
	running bool
	columns *columnPicker

	// focus gives a part the pane's focus, zoom toggles the results full screen and
	// openPicker opens a picker in the editor's place: the pane's.
	focus      func(focus)
	zoom       func()
	openPicker func(*picker)
}

// reset starts the results afresh (a new connection: nothing shown may come from the
// previous user's rights).
func (rd *reader) reset() {
	rd.res = newResults(rd.ctx, rd.req, rd.indices, rd.tail)
}

// update takes the messages of runs, writes, the time range, the column choice and
// saved searches; ok is false for others.
func (rd *reader) update(msg tea.Msg) (tea.Cmd, bool) {
	if cmd, ok := base.HandleWrite[*answer](rd.ctx, rd.req, msg); ok {
		return cmd, true
	}
	switch msg := msg.(type) {
	case common.Result[runOutcome]:
		// Dropped when a newer run replaced it, or another view asked.
		return rd.current(msg.Addr, func() tea.Cmd { return rd.finishRun(msg.Value) }), true
	case common.Result[writeReview]:
		return rd.current(msg.Addr, func() tea.Cmd { return rd.openReview(msg.Value) }), true
	case common.Result[columnChoice]:
		return rd.current(msg.Addr, func() tea.Cmd { return rd.res.choiceLoaded(msg.Value, msg.Err) }), true
	case common.Result[savedAs]:
		return rd.current(msg.Addr, func() tea.Cmd { return rd.searchSaved(msg.Value, msg.Err) }), true
	case common.Result[savedList]:
		return rd.current(msg.Addr, func() tea.Cmd { return rd.openSaved(msg.Value, msg.Err) }), true
	case rangeChosen:
		return rd.setRange(msg.tr), true
	case confirmedWrite:
		return rd.sendWrite(msg.req), true
	case saveSearchAs:
		return rd.saveSearch(msg.name), true
	case listSaved:
		if rd.link.conn == nil {
			return common.Warn("Saved searches run on an opensearch service: " + rd.link.notReady()), true
		}
		return rd.loadSaved(), true
	}
	return nil, false
}

// current runs take when addr is the latest request of its kind, and drops it else.
func (rd *reader) current(addr common.Addr, take func() tea.Cmd) tea.Cmd {
	if !rd.req.Current(addr) {
		return nil
	}
	return take()
}
