package access

import (
	"context"
	"sort"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// Picker is the Users tab's root view: the current project's services. Enter makes one
// current and opens its users (or the sub-view a palette command asked for); palette
// commands open the current service's sub-view directly, so the picker is only asked
// when there is no current service.
type Picker struct {
	*base.List[models.Service]
	// project is the project the rows belong to.
	project string
	// pending is the sub-view a palette command asked for before a service was current.
	pending string
}

// New builds the Users tab's root view.
func New(ctx *common.Context) common.View {
	p := &Picker{}
	p.List = base.NewList(ctx, base.ListSpec[models.Service]{
		Title: "Users",
		Noun:  "service",
		Columns: []components.Column{
			{Title: "", Width: 1, Max: 1},
			{Title: "Service", Flex: true, Max: 48},
			{Title: "Type", Max: 14},
			{Title: "State", Max: 20, Styled: true},
		},
		Load:           p.load,
		Key:            func(sv models.Service) string { return sv.ServiceName },
		Row:            p.row,
		FollowsProject: true,
		Loaded:         p.loaded,
		Actions: []base.Action[models.Service]{
			{Key: ctx.Keys.Open, Help: "users", Run: p.choose},
		},
		Interval: func() time.Duration {
			if p.Animating() {
				return common.FastRefresh
			}
			return ctx.Refresh
		},
	})
	return p
}

func (p *Picker) load() (base.Fetcher[models.Service], string) {
	project := p.Ctx.Project()
	if project != p.project {
		p.project, p.pending = project, ""
	}
	if project == "" {
		return nil, "No project chosen yet: pick one in the Projects tab (1)."
	}
	p.Spec.Empty = "No services in " + project + "."
	api := p.Ctx.API
	return func(ctx context.Context) ([]models.Service, error) {
		svs, err := api.ListServices(ctx, project)
		sort.SliceStable(svs, func(i, j int) bool { return svs[i].ServiceName < svs[j].ServiceName })
		return svs, err
	}, ""
}

func (p *Picker) loaded(svs []models.Service) tea.Cmd {
	p.Ctx.SetServices(p.project, svs)
	if p.Ctx.Service() != "" && p.Table.SelectedKey() != p.Ctx.Service() {
		p.Table.Select(p.Ctx.Service())
	}
	return nil
}

// row marks the current service.
func (p *Picker) row(sv models.Service) components.Row {
	mark := " "
	if sv.ServiceName == p.Ctx.Service() && p.project == p.Ctx.Project() {
		mark = "●"
	}
	return components.Row{Cells: []string{mark, sv.ServiceName, sv.ServiceType, components.Badge(p.Ctx, string(sv.State))},
		Sort: []string{"", sv.ServiceName, sv.ServiceType, string(sv.State)}}
}

// Title is the current service, so the breadcrumb reads project › service › users.
func (p *Picker) Title() string {
	if p.Ctx.Service() != "" {
		return p.Ctx.Service()
	}
	return "Users"
}

// Animating reports an in-progress badge on screen (the screen's spinner turns).
func (p *Picker) Animating() bool {
	for _, sv := range p.Items() {
		if sv.State.InProgress() {
			return true
		}
	}
	return false
}

func (p *Picker) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.SpinnerTick:
		return p, nil // nothing on a row moves
	case common.OpenAccess:
		return p, p.openAccess(msg)
	}
	return p, p.Handle(msg)
}

// openAccess shows a service's sub-view; without a service (a palette command with no
// current service) it asks for one with the picker.
func (p *Picker) openAccess(msg common.OpenAccess) tea.Cmd {
	view := msg.View
	if view == "" {
		view = common.AccessUsers
	}
	if msg.Service == "" {
		p.pending = view
		return common.Info("Choose a service for its " + view + " (enter)")
	}
	t := target{Project: msg.Project, Service: msg.Service, Type: msg.ServiceType}
	if t.Project == "" {
		t.Project = p.Ctx.Project()
	}
	if t.Project == p.project {
		for _, sv := range p.Items() {
			if sv.ServiceName == t.Service && t.Type == "" {
				t.Type = sv.ServiceType
			}
		}
		// Coming back (esc) lands on the service that was opened.
		p.SelectLater(t.Service)
	}
	p.pending = ""
	return p.open(t, view)
}

// choose opens the selected service's sub-view and makes it current.
func (p *Picker) choose(sv models.Service) tea.Cmd {
	if cmd := nameless("service", sv.ServiceName, "open"); cmd != nil {
		return cmd
	}
	view, asked := p.pending, p.pending != ""
	if view == "" {
		view = common.AccessUsers
	}
	p.pending = ""
	cmd := p.open(target{Project: p.project, Service: sv.ServiceName, Type: sv.ServiceType}, view)
	if asked {
		// Clear the "Choose a service…" prompt now that it is answered.
		return tea.Batch(common.Info(""), cmd)
	}
	return cmd
}

// open makes t the current service (the breadcrumb and later palette commands follow)
// and pushes its sub-view.
func (p *Picker) open(t target, view string) tea.Cmd {
	c := p.Ctx
	var moves []common.Move
	if c.Project() != t.Project || c.Service() != t.Service || (t.Type != "" && c.ServiceType() != t.Type) {
		typ := t.Type
		if typ == "" && c.Service() == t.Service {
			typ = c.ServiceType()
		}
		moves = append(moves, common.SelectService{Project: t.Project, Name: t.Service, Type: typ})
	}
	// The service first: the sub-view then opens under it, not under another project.
	// The ● follows when the picker is shown again (it reloads then).
	return c.Go(append(moves, common.PushView{View: subView(c, t, view)})...)
}

// subView builds one of a service's sub-views.
func subView(ctx *common.Context, t target, view string) common.View {
	switch view {
	case common.AccessACL:
		return NewACLs(ctx, t)
	case common.AccessTopics:
		return NewTopics(ctx, t)
	case common.AccessDatabases:
		return NewDatabases(ctx, t)
	}
	return NewUsers(ctx, t)
}
