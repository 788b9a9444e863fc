// Package access is the Users tab (issue 3 §4): a picker of the current project's
// services, and per service its users (create, reset credentials, delete, one-time
// secrets), Kafka ACLs and topics, and relational databases.
package access

import (
	"context"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
)

// target names the service a sub-view works on.
type target struct{ Project, Service, Type string }

// Picker is the Users tab's root view: the current project's services; enter chooses
// one and opens its users (or the sub-view a palette command asked for).
type Picker struct {
	ctx      *common.Context
	req      *common.Requests
	table    *components.Table
	project  string
	services map[string]models.Service
	chosen   target
	// pending is the sub-view a palette command asked for before a service was chosen.
	pending string
}

// New builds the Users tab's root view.
func New(ctx *common.Context) common.View {
	t := components.NewTable(ctx, []components.Column{
		{Title: "", Width: 1, Max: 1},
		{Title: "Service", Flex: true, Max: 48},
		{Title: "Type", Max: 14},
		{Title: "State", Max: 20, Styled: true},
	})
	t.Empty = "No services in this project."
	return &Picker{ctx: ctx, req: common.NewRequests(), table: t, project: ctx.Project, services: map[string]models.Service{}}
}

func (p *Picker) Init() tea.Cmd { return p.load() }

func (p *Picker) load() tea.Cmd {
	project := p.project
	if project == "" {
		p.table.Empty = "No project chosen yet: pick one in the Projects tab (1)."
		return nil
	}
	api := p.ctx.API
	return common.Fetch(p.req, "services", func(ctx context.Context) ([]models.Service, error) {
		return api.ListServices(ctx, project)
	})
}

// Title is the chosen service, so the breadcrumb reads project › service › users.
func (p *Picker) Title() string {
	if p.chosen.Service != "" && p.chosen.Project == p.project {
		return p.chosen.Service
	}
	return "Users"
}

func (p *Picker) SetSize(w, h int) { p.table.SetSize(w, h) }
func (p *Picker) Capturing() bool  { return p.table.Filtering() }
func (p *Picker) ID() int64        { return p.req.ID }
func (p *Picker) Refresh() tea.Cmd { return p.load() }
func (p *Picker) Leave()           { p.req.CancelAll() }

// RefreshInterval is fast while a service is REBUILDING or REBALANCING.
func (p *Picker) RefreshInterval() time.Duration {
	if p.Animating() {
		return common.FastRefresh
	}
	return p.ctx.Refresh
}

// Animating reports an in-progress badge on screen (its spinner turns).
func (p *Picker) Animating() bool {
	for _, sv := range p.services {
		if sv.State.InProgress() {
			return true
		}
	}
	return false
}

// View re-renders the rows while a badge spins.
func (p *Picker) View() string {
	if p.Animating() {
		p.render()
	}
	return p.table.View()
}

// ClaimsKey takes esc while a filter is applied (esc clears it before going back).
func (p *Picker) ClaimsKey(msg tea.KeyMsg) bool {
	return key.Matches(msg, p.ctx.Keys.Back) && p.table.FilterText() != ""
}

func (p *Picker) ShortHelp() []key.Binding {
	k := p.ctx.Keys
	return keys.Enabled(withHelp(k.Open, "users"), k.Filter)
}

func (p *Picker) FullHelp() [][]key.Binding {
	return [][]key.Binding{keys.Enabled(withHelp(p.ctx.Keys.Open, "choose service"), p.ctx.Keys.Refresh), p.table.HelpBindings()}
}

func withHelp(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

func (p *Picker) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[[]models.Service]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		if msg.Err != nil {
			p.table.SetError(p.ctx.ErrorText(msg.Err))
			return p, common.Send(common.RefreshDone{Err: msg.Err})
		}
		p.setServices(msg.Value)
		return p, common.Send(common.RefreshDone{})
	case common.ProjectSelected:
		if msg.Name == p.project {
			return p, nil
		}
		p.project, p.chosen, p.pending = msg.Name, target{}, ""
		p.req.Forget("services")
		p.services = map[string]models.Service{}
		p.table.SetRows(nil)
		return p, p.load()
	case common.RefreshNow:
		return p, p.load()
	case common.OpenAccess:
		return p, p.openAccess(msg)
	case tea.KeyMsg:
		if !p.table.Filtering() && key.Matches(msg, p.ctx.Keys.Open) {
			return p, p.choose()
		}
	}
	_, cmd := p.table.Update(msg)
	return p, cmd
}

// openAccess shows a service's sub-view; without a service (a palette command) it uses
// the chosen one, or asks for one with the picker.
func (p *Picker) openAccess(msg common.OpenAccess) tea.Cmd {
	view := msg.View
	if view == "" {
		view = common.AccessUsers
	}
	if msg.Service == "" {
		if p.chosen.Service != "" && p.chosen.Project == p.ctx.Project {
			return p.push(p.chosen, view)
		}
		p.pending = view
		return common.Info("Choose a service for its " + view + " (enter)")
	}
	t := target{Project: msg.Project, Service: msg.Service, Type: msg.ServiceType}
	if t.Project == "" {
		t.Project = p.ctx.Project
	}
	if sv, ok := p.services[t.Service]; ok && t.Type == "" && t.Project == p.project {
		t.Type = sv.ServiceType
	}
	p.chosen, p.pending = t, ""
	p.render()
	if t.Project == p.project {
		// Coming back (esc) lands on the service that was opened.
		p.table.Select(t.Service)
	}
	return p.push(t, view)
}

func (p *Picker) choose() tea.Cmd {
	sv, ok := p.services[p.table.SelectedKey()]
	if !ok {
		return nil
	}
	view, asked := p.pending, p.pending != ""
	if view == "" {
		view = common.AccessUsers
	}
	p.chosen, p.pending = target{Project: p.project, Service: sv.ServiceName, Type: sv.ServiceType}, ""
	p.render()
	if asked {
		// Clear the "Choose a service…" prompt now that it is answered.
		return tea.Batch(common.Info(""), p.push(p.chosen, view))
	}
	return p.push(p.chosen, view)
}

func (p *Picker) push(t target, view string) tea.Cmd {
	return common.Send(common.PushView{View: NewAccess(p.ctx, t, view)})
}

func (p *Picker) setServices(list []models.Service) {
	p.services = make(map[string]models.Service, len(list))
	names := make([]string, 0, len(list))
	for _, sv := range list {
		p.services[sv.ServiceName] = sv
		names = append(names, sv.ServiceName)
	}
	p.ctx.SetServiceNames(p.project, names)
	p.table.Empty = "No services in " + p.project + "."
	p.render()
}

func (p *Picker) render() {
	rows := make([]components.Row, 0, len(p.services))
	for _, sv := range p.services {
		mark := " "
		if sv.ServiceName == p.chosen.Service && p.chosen.Project == p.project {
			mark = "●"
		}
		rows = append(rows, components.Row{Key: sv.ServiceName, Cells: []string{
			mark, sv.ServiceName, sv.ServiceType, components.Badge(p.ctx, string(sv.State)),
		}, Sort: []string{"", sv.ServiceName, sv.ServiceType, string(sv.State)}})
	}
	sortRows(rows)
	p.table.SetRows(rows)
}
