package search

import (
	"context"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/apilog"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
)

// pickItem is one choice of a picker: a label, a muted detail and what choosing does.
type pickItem struct {
	label, detail string
	choose        func(p *Pane) tea.Cmd
}

// picker is a searchable list drawn in the editor's place (templates, history, users).
type picker struct {
	title  string
	all    []pickItem
	shown  []pickItem
	filter components.TextLine
	cursor int
	// search replaces substring filtering (history searches bodies too).
	search func(q string) []pickItem
}

func (k *picker) refilter() {
	q := k.filter.Value()
	if k.search != nil {
		k.shown = k.search(q)
	} else {
		k.shown = k.shown[:0]
		lq := strings.ToLower(q)
		for _, it := range k.all {
			if strings.Contains(strings.ToLower(it.label+" "+it.detail), lq) {
				k.shown = append(k.shown, it)
			}
		}
	}
	k.cursor = max(0, min(k.cursor, len(k.shown)-1))
}

func (k *picker) view(w, h int) string {
	lines := []string{ansi.Truncate(k.title+"  (type to search)", w, "…"), "search: " + safe.Text(k.filter.View())}
	rows := max(1, h-3)
	start := max(0, k.cursor-rows+1)
	for i := start; i < len(k.shown) && i < start+rows; i++ {
		it := k.shown[i]
		prefix := "  "
		if i == k.cursor {
			prefix = "▸ "
		}
		lines = append(lines, ansi.Truncate(prefix+safe.Text(it.label)+"  "+safe.Text(it.detail), w, "…"))
	}
	if len(k.shown) == 0 {
		lines = append(lines, "  nothing matches")
	}
	return strings.Join(lines, "\n")
}

func (p *Pane) updatePicker(msg tea.KeyMsg) tea.Cmd {
	k := p.picker
	keys := p.ctx.Keys
	// Letters are the search: only keys that type nothing move.
	typed := msg.Type == tea.KeyRunes
	switch {
	case key.Matches(msg, keys.Back):
		p.picker = nil
		return nil
	case key.Matches(msg, keys.Down) && !typed:
		k.cursor = min(k.cursor+1, len(k.shown)-1)
		return nil
	case key.Matches(msg, keys.Up) && !typed:
		k.cursor = max(k.cursor-1, 0)
		return nil
	case key.Matches(msg, keys.Open):
		if k.cursor < len(k.shown) {
			it := k.shown[k.cursor]
			p.picker = nil
			return it.choose(p)
		}
		return nil
	}
	k.filter.Update(msg)
	k.refilter()
	return nil
}

func (p *Pane) openPicker(k *picker) {
	k.shown = append([]pickItem(nil), k.all...)
	k.refilter()
	p.picker = k
}

// openTemplates lists search.Templates(); choosing one appends it to the buffer.
func (p *Pane) openTemplates() {
	var items []pickItem
	index := p.indices.selectedIndex()
	for _, t := range search.TemplatesFor(index, p.indices.timeFieldOf(index)) {
		items = append(items, pickItem{label: t.Name, detail: t.Description, choose: func(p *Pane) tea.Cmd {
			var save tea.Cmd
			if p.editor.sqlMode {
				save = p.toggleSQL()
			}
			p.editor.insertRequest(t.Text)
			p.setFocus(focusEditor)
			return save
		}})
	}
	p.openPicker(&picker{title: "Templates", all: items})
}

// openHistory lists this service's past requests, newest first, searchable.
func (p *Pane) openHistory() tea.Cmd {
	h := p.link.conn.history
	if h == nil {
		return common.Warn(p.link.conn.historyErr)
	}
	// Entries and Search read the history kept in memory; only Add writes, in the run's command.
	toItems := func(es []search.HistoryEntry) []pickItem {
		items := make([]pickItem, 0, len(es))
		for _, e := range es {
			// When and how often first: the body's start fills what room is left.
			detail := "ran " + e.Time.In(p.loc()).Format("Jan 02 15:04:05") + " · " + itoa(e.Status)
			if n := e.Times(); n > 1 {
				detail += " · ×" + itoa(n)
			}
			if x := e.Excerpt(80); x != "" {
				detail += " · " + x
			}
			items = append(items, pickItem{label: e.Method + " " + e.Path, detail: detail, choose: func(p *Pane) tea.Cmd {
				var save tea.Cmd
				if p.editor.sqlMode {
					save = p.toggleSQL()
				}
				p.editor.insertRequest(e.Request().String())
				p.setFocus(focusEditor)
				return save
			}})
		}
		return items
	}
	if h.Len() == 0 {
		return common.Info("No history yet for " + p.link.conn.service + ": requests you run are kept here")
	}
	// Secrets typed into requests are stored masked: said here, where a masked value
	// would otherwise be run again as "***" by surprise.
	title := "History of " + p.link.conn.service + " · secrets stored masked (" + apilog.Mask + ")"
	p.openPicker(&picker{title: title, all: toItems(h.Entries()),
		search: func(q string) []pickItem { return toItems(h.Search(q)) }})
	return nil
}

// serviceUsers are the user names of the connected service.
type serviceUsers []string

// loadUsers fetches the service's users (connect as another user).
func (p *Pane) loadUsers() tea.Cmd {
	if p.link.conn == nil {
		return common.Warn("Connect to an opensearch service first: " + p.link.notReady())
	}
	api, project, service := p.ctx.API, p.link.conn.project, p.link.conn.service
	return common.Fetch(p.req, kindUsers, func(ctx context.Context) (serviceUsers, error) {
		us, err := api.ListUsers(ctx, project, service)
		if err != nil {
			return nil, err
		}
		names := make(serviceUsers, 0, len(us))
		for _, u := range us {
			names = append(names, u.Username)
		}
		sort.Strings(names)
		return names, nil
	})
}

type reconnectAs struct {
	id             int64
	user, password string
}

func (m reconnectAs) Target() int64 { return m.id }

func (p *Pane) openUserPicker(users serviceUsers, err error) tea.Cmd {
	if err != nil {
		return common.Error("Could not list the service's users: " + p.ctx.ErrorText(err))
	}
	var items []pickItem
	for _, u := range users {
		items = append(items, pickItem{label: u, choose: func(p *Pane) tea.Cmd { return p.askPassword(u) }})
	}
	p.openPicker(&picker{title: "Connect as", all: items})
	return nil
}

// askPassword asks for user's password; the pane then reconnects as that user.
func (p *Pane) askPassword(user string) tea.Cmd {
	var pw string
	id := p.req.ID
	field := huh.NewInput().Title("Password of " + safe.Text(user)).EchoMode(huh.EchoModePassword).Value(&pw)
	form := components.NewForm(p.ctx, "Connect as "+safe.Text(user), func() tea.Cmd {
		return common.Send(reconnectAs{id: id, user: user, password: pw})
	}, huh.NewGroup(field))
	return p.ctx.Open(form)
}
