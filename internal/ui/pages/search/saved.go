package search

import (
	"context"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// Saved searches (:save NAME, :saved): the request under the editor's cursor, with the
// time range, kept as a YAML file in the config folder (search.SaveSearch). :saved
// reads the folder each time, so what another console of the user saved is listed;
// choosing one puts its request in the editor, sets its range and runs it.

// saveSearchAs asks the pane to save the request under the cursor as name.
type saveSearchAs struct{ name string }

// listSaved asks the pane to list the saved searches.
type listSaved struct{}

// savedAs is a save's outcome: the file written.
type savedAs struct{ name, file string }

// savedList is the folder's searches and the files left out.
type savedList struct {
	searches []search.SavedSearch
	skipped  []string
}

// saveSearch writes the request under the cursor, with the range, in a command.
func (rd *reader) saveSearch(name string) tea.Cmd {
	if rd.link.conn == nil {
		return common.Warn("Saving a search needs an opensearch service: " + rd.link.notReady())
	}
	if strings.TrimSpace(name) == "" {
		return common.Warn("Name the search: :save NAME")
	}
	r, ok := rd.editor.currentRequest()
	if !ok {
		return common.Warn("No request under the cursor to save: a request starts with a line like GET /logs-app/_search")
	}
	s := search.SavedSearch{Name: name, Service: rd.link.conn.service, Method: r.Method, Path: r.Path, Body: r.Body,
		Range: rd.trange.Quick, From: rd.trange.From, To: rd.trange.To, Saved: rd.ctx.Now().UTC()}
	dir := rd.ctx.ConfigDir
	return common.Fetch(rd.req, kindSaveSearch, func(context.Context) (savedAs, error) {
		file, err := search.SaveSearch(dir, s)
		return savedAs{name: s.Name, file: file}, err
	})
}

func (rd *reader) searchSaved(s savedAs, err error) tea.Cmd {
	if err != nil {
		return common.Warn("The search was not saved: " + err.Error())
	}
	return common.Success("Saved " + s.name + " in " + s.file + " (:saved lists it, here and in other consoles)")
}

// loadSaved reads the folder in a command.
func (rd *reader) loadSaved() tea.Cmd {
	dir := rd.ctx.ConfigDir
	return common.Fetch(rd.req, kindSaved, func(context.Context) (savedList, error) {
		list, skipped, err := search.ListSaved(dir)
		return savedList{searches: list, skipped: skipped}, err
	})
}

// openSaved lists the saved searches; choosing one runs it.
func (rd *reader) openSaved(l savedList, err error) tea.Cmd {
	if err != nil {
		return common.Warn("Could not read the saved searches: " + err.Error())
	}
	var note tea.Cmd
	if len(l.skipped) > 0 {
		note = common.Warn("Left out (not a saved search, or not a regular file): " + strings.Join(l.skipped, ", "))
	}
	if len(l.searches) == 0 {
		return tea.Batch(note, common.Info("No saved searches yet: :save NAME keeps the search under the editor's cursor"))
	}
	items := make([]pickItem, 0, len(l.searches))
	for _, s := range l.searches {
		detail := s.Method + " " + s.Path
		if !s.TimeRange().IsZero() {
			detail += " · " + s.TimeRange().Label(loc())
		}
		if s.Service != "" {
			detail += " · from " + s.Service
		}
		if !s.Saved.IsZero() {
			detail += " · saved " + s.Saved.In(loc()).Format(time.DateTime)
		}
		items = append(items, pickItem{label: s.Name, detail: detail, choose: func() tea.Cmd { return rd.runSaved(s) }})
	}
	rd.openPicker(&picker{title: "Saved searches (" + rd.ctx.ConfigDir + "/" + search.SavedSubdir + ")", all: items})
	return note
}

// runSaved puts the saved request in the editor (once), takes its range and runs it.
func (rd *reader) runSaved(s search.SavedSearch) tea.Cmd {
	var mode tea.Cmd
	if rd.editor.sqlMode {
		mode = rd.editor.switchMode()
	}
	text := s.Method + " " + s.Path + "\n"
	if b := strings.TrimSpace(s.Body); b != "" {
		text += b + "\n"
	}
	rd.editor.placeRequest(text)
	rd.trange = s.TimeRange()
	cmd := rd.run()
	rd.focus(focusResults)
	return tea.Batch(mode, cmd)
}
