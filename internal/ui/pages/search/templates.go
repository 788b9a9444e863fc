package search

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/apilog"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// The editor's pickers: templates and the service's history each put a request in the
// editor (out of SQL mode) and give it the focus.

// openTemplates lists search.Templates(); choosing one appends it to the buffer.
func (e *editor) openTemplates() {
	var items []pickItem
	index := e.indices.selectedIndex()
	for _, t := range search.TemplatesFor(index, e.indices.timeFieldOf(index)) {
		items = append(items, pickItem{label: t.Name, detail: t.Description, choose: func() tea.Cmd { return e.addRequest(t.Text) }})
	}
	e.openPicker(&picker{title: "Templates", all: items})
}

// openHistory lists this service's past requests, newest first, searchable.
func (e *editor) openHistory() tea.Cmd {
	conn := e.link.conn
	h := conn.history
	if h == nil {
		return common.Warn(conn.historyErr)
	}
	// Entries and Search read the history kept in memory; only Add writes, in the run's command.
	toItems := func(es []search.HistoryEntry) []pickItem {
		items := make([]pickItem, 0, len(es))
		for _, en := range es {
			// When and how often first: the body's start fills what room is left.
			detail := "ran " + en.Time.In(loc()).Format("Jan 02 15:04:05") + " · " + itoa(en.Status)
			if n := en.Times(); n > 1 {
				detail += " · ×" + itoa(n)
			}
			if x := en.Excerpt(80); x != "" {
				detail += " · " + x
			}
			items = append(items, pickItem{label: en.Method + " " + en.Path, detail: detail, choose: func() tea.Cmd { return e.addRequest(en.Request().String()) }})
		}
		return items
	}
	if h.Len() == 0 {
		return common.Info("No history yet for " + conn.service + ": requests you run are kept here")
	}
	// Secrets typed into requests are stored masked: said here, where a masked value
	// would otherwise be run again as "***" by surprise.
	title := "History of " + conn.service + " · secrets stored masked (" + apilog.Mask + ")"
	e.openPicker(&picker{title: title, all: toItems(h.Entries()),
		search: func(q string) []pickItem { return toItems(h.Search(q)) }})
	return nil
}

// addRequest appends text to the console buffer (leaving SQL mode) and gives the
// editor the focus.
func (e *editor) addRequest(text string) tea.Cmd {
	var save tea.Cmd
	if e.sqlMode {
		save = e.switchMode()
	}
	e.insertRequest(text)
	e.focus()
	return save
}
