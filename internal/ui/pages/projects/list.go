// Package projects is the Projects pane (issue 3 §2): the projects table, a project's
// detail, create/edit/delete, and the catalogue views behind ":clouds" and ":types".
package projects

import (
	"context"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
)

// List is the projects table, the Projects tab's root view.
type List struct {
	ctx     *common.Context
	req     *common.Requests
	table   *components.Table
	list    models.ProjectList
	byName  map[string]models.Project
	acts    *actions
	started bool
}

const (
	colCurrent = iota
	colName
	colRole
	colCloud
	colBillingGroup
	colBalance
	colCredits
	colCurrency
)

// New builds the Projects tab's root view.
func New(ctx *common.Context) common.View {
	t := components.NewTable(ctx, []components.Column{
		{Title: "", Width: 1, Max: 1},
		{Title: "Name", Flex: true, Max: 40},
		{Title: "Role", Max: 12},
		{Title: "Cloud", Max: 28},
		{Title: "Billing group", Max: 28, Optional: true},
		{Title: "Est. balance", Right: true, Numeric: true, Max: 16},
		{Title: "Credits", Right: true, Numeric: true, Max: 16, Optional: true},
		{Title: "Cur", Max: 4},
	})
	t.Empty = "No projects yet. Press c to create one."
	req := common.NewRequests()
	l := &List{ctx: ctx, req: req, table: t, byName: map[string]models.Project{}}
	l.acts = &actions{ctx: ctx, req: req}
	return l
}

func (l *List) Init() tea.Cmd { return l.load() }

func (l *List) load() tea.Cmd {
	api := l.ctx.API
	return common.Fetch(l.req, "list", func(ctx context.Context) (models.ProjectList, error) {
		return api.ListProjects(ctx)
	})
}

func (l *List) Title() string { return "Projects" }

func (l *List) SetSize(w, h int) { l.table.SetSize(w, h) }

func (l *List) Capturing() bool { return l.table.Filtering() }

// ClaimsKey takes esc while a filter is applied (esc clears it before going back).
func (l *List) ClaimsKey(msg tea.KeyMsg) bool {
	return key.Matches(msg, l.ctx.Keys.Back) && l.table.FilterText() != ""
}

func (l *List) RefreshInterval() time.Duration { return l.ctx.Refresh }
func (l *List) Refresh() tea.Cmd               { return l.load() }
func (l *List) Leave()                         { l.req.CancelAll() }

func (l *List) ShortHelp() []key.Binding {
	k := l.ctx.Keys
	return keys.Enabled(k.Open, k.Create, k.Edit, k.Delete, k.Filter)
}

func (l *List) FullHelp() [][]key.Binding {
	k := l.ctx.Keys
	return [][]key.Binding{
		keys.Enabled(k.Open, k.Create, k.Edit, k.Delete, k.Refresh),
		l.table.HelpBindings(),
	}
}

func (l *List) selected() (models.Project, bool) {
	p, ok := l.byName[l.table.SelectedKey()]
	return p, ok
}

func (l *List) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[models.ProjectList]:
		if !l.req.Current(msg.Addr) {
			return l, nil
		}
		if msg.Err != nil {
			l.table.SetError(l.ctx.ErrorText(msg.Err))
			return l, common.Send(common.RefreshDone{Err: msg.Err})
		}
		return l, tea.Batch(l.setList(msg.Value), common.Send(common.RefreshDone{}))
	case common.ProjectSelected:
		l.render()
		return l, nil
	case common.RefreshNow:
		return l, l.load()
	case createProject:
		return l, l.acts.startCreate()
	case tea.KeyMsg:
		return l, l.handleKey(msg)
	}
	if cmd, handled, changed := l.acts.handle(msg); handled {
		if changed {
			return l, tea.Batch(cmd, l.load())
		}
		return l, cmd
	}
	_, cmd := l.table.Update(msg)
	return l, cmd
}

func (l *List) handleKey(msg tea.KeyMsg) tea.Cmd {
	if l.table.Filtering() {
		_, cmd := l.table.Update(msg)
		return cmd
	}
	k := l.ctx.Keys
	switch {
	case key.Matches(msg, k.Open):
		p, ok := l.selected()
		if !ok {
			return nil
		}
		return tea.Sequence(common.Send(common.SelectProject{Name: p.ProjectName}),
			common.Send(common.PushView{View: NewDetail(l.ctx, p.ProjectName)}))
	case key.Matches(msg, k.Create):
		return l.acts.startCreate()
	case key.Matches(msg, k.Edit):
		p, ok := l.selected()
		if !ok {
			return common.Warn("No project selected")
		}
		return l.acts.startEdit(p)
	case key.Matches(msg, k.Delete):
		p, ok := l.selected()
		if !ok {
			return common.Warn("No project selected")
		}
		return l.acts.confirmDelete(p.ProjectName)
	}
	_, cmd := l.table.Update(msg)
	return cmd
}

// setList stores a fresh list, fills the caches and, on the first load, selects the
// default project (the profile's, else the first admin project, else the first).
func (l *List) setList(list models.ProjectList) tea.Cmd {
	l.list = list
	l.byName = make(map[string]models.Project, len(list.Projects))
	for _, p := range list.Projects {
		l.byName[p.ProjectName] = p
	}
	l.ctx.SetProjects(list)
	l.acts.projects = list
	l.render()
	first := !l.started
	l.started = true
	if _, ok := l.byName[l.ctx.Project]; ok {
		if first {
			l.table.Select(l.ctx.Project)
		}
		return nil
	}
	// No current project yet, or it was deleted: pick the default.
	name := pickDefault(list, l.ctx.DefaultProject)
	if name == "" {
		return nil
	}
	l.table.Select(name)
	cmd := common.Send(common.SelectProject{Name: name})
	if first && l.ctx.DefaultProject != "" && name != l.ctx.DefaultProject {
		cmd = tea.Batch(cmd, common.Warn("Default project “"+l.ctx.DefaultProject+"” not found; using "+name))
	}
	return cmd
}

func pickDefault(list models.ProjectList, preferred string) string {
	for _, p := range list.Projects {
		if preferred != "" && p.ProjectName == preferred {
			return preferred
		}
	}
	for _, p := range list.Projects {
		if list.RoleOf(p.ProjectName) == models.RoleAdmin {
			return p.ProjectName
		}
	}
	if len(list.Projects) > 0 {
		return list.Projects[0].ProjectName
	}
	return ""
}

func (l *List) render() {
	rows := make([]components.Row, 0, len(l.list.Projects))
	for _, p := range l.list.Projects {
		cur := " "
		if p.ProjectName == l.ctx.Project {
			cur = "●"
		}
		role := string(l.list.RoleOf(p.ProjectName))
		if role == "" {
			role = "—"
		}
		bg := p.BillingGroupName
		if bg == "" {
			bg = p.BillingGroupID
		}
		rows = append(rows, components.Row{Key: p.ProjectName, Cells: []string{
			cur, p.ProjectName, role, dash(p.DefaultCloud), dash(bg),
			p.EstimatedBalance.FormatNumber(), p.AvailableCredits.FormatNumber(), dash(p.BillingCurrency),
		}})
	}
	l.table.SetRows(rows)
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

func (l *List) View() string { return l.table.View() }
