// Package services is the Services pane (issue 3 §3): the services table of the current
// project or of every project, a service's detail with connection information, and
// create, edit (plan, cloud, disk, power, protection, maintenance, ip filter) and delete.
package services

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
)

// entry is one row's data: the project matters in all-projects mode.
type entry struct {
	Project string
	Service models.Service
}

// listing is the result of a load: the services and, in all-projects mode, the projects
// that could not be listed.
type listing struct {
	All      bool
	Project  string
	Entries  []entry
	Failures []projectFailure
}

type projectFailure struct {
	Project string
	Err     error
}

// List is the services table, the Services tab's root view.
type List struct {
	ctx   *common.Context
	req   *common.Requests
	table *components.Table
	acts  *actions

	all      bool
	project  string // project of the rows shown (single-project mode)
	entries  []entry
	rows     []components.Row
	spinRows []int // rows whose state cell carries a spinner
	frame    int
	inFlight bool
}

// allWorkers bounds the concurrent per-project requests in all-projects mode.
const allWorkers = 4

// New builds the Services tab's root view.
func New(ctx *common.Context) common.View {
	req := common.NewRequests()
	l := &List{ctx: ctx, req: req, project: ctx.Project}
	l.acts = &actions{ctx: ctx, req: req}
	l.table = newTable(ctx, false)
	return l
}

// Column order; colProject exists only in all-projects mode, so indexes shift by one there.
const (
	colName = iota
	colType
	colPlan
	colCloud
	colState
	colNodes
	colDisk
	colAge
	colProtect
)

func newTable(ctx *common.Context, all bool) *components.Table {
	cols := []components.Column{
		{Title: "Name", Flex: true, Max: 40, Width: 8},
		{Title: "Type", Max: 12},
		{Title: "Plan", Max: 18},
		{Title: "Cloud", Max: 22, Optional: true},
		{Title: "State", Max: 28, Width: 12, Styled: true},
		// Nodes and age give way below 120 columns so plan and state stay readable.
		{Title: "Nodes", Right: true, Numeric: true, Max: 5, Optional: true},
		{Title: "Disk GB", Right: true, Numeric: true, Max: 8},
		{Title: "Age", Right: true, Numeric: true, Max: 5, Optional: true},
		{Title: "Prot.", Max: 5, Styled: true},
	}
	if all {
		// The project column takes the room of disk and protection in the compact layout,
		// which would otherwise squeeze type and plan to three letters.
		cols[colDisk].Optional, cols[colProtect].Optional = true, true
		cols = append([]components.Column{{Title: "Project", Max: 24}}, cols...)
	}
	t := components.NewTable(ctx, cols)
	t.Empty = "No services in this project yet. Press c to create one (or :services all to see every project)."
	if all {
		t.Empty = "No services in any project yet. Press a to go back to one project, then c to create one."
	}
	return t
}

func (l *List) Init() tea.Cmd { return l.load() }

func (l *List) load() tea.Cmd {
	api := l.ctx.API
	if l.all {
		known := append([]string(nil), l.ctx.ProjectNames...)
		return common.Fetch(l.req, "list", func(ctx context.Context) (listing, error) {
			return listAll(ctx, api, known)
		})
	}
	project := l.ctx.Project
	l.project = project
	if project == "" {
		l.table.Empty = "No project selected yet. Pick one in tab 1 (Projects) or with :project NAME."
		l.setEntries(nil)
		return common.Send(common.RefreshDone{})
	}
	l.table.Empty = "No services in " + project + " yet. Press c to create one (or a to see every project)."
	return common.Fetch(l.req, "list", func(ctx context.Context) (listing, error) {
		svcs, err := api.ListServices(ctx, project)
		out := listing{Project: project, Entries: make([]entry, len(svcs))}
		for i, s := range svcs {
			out.Entries[i] = entry{project, s}
		}
		return out, err
	})
}

// listAll lists every project's services with at most allWorkers requests at once; a
// project that fails is reported, the others are shown.
func listAll(ctx context.Context, api common.API, projects []string) (listing, error) {
	if len(projects) == 0 {
		pl, err := api.ListProjects(ctx)
		if err != nil {
			return listing{All: true}, err
		}
		for _, p := range pl.Projects {
			projects = append(projects, p.ProjectName)
		}
	}
	type result struct {
		project string
		svcs    []models.Service
		err     error
	}
	jobs := make(chan string)
	results := make(chan result, len(projects))
	var wg sync.WaitGroup
	for range min(allWorkers, len(projects)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				s, err := api.ListServices(ctx, p)
				results <- result{p, s, err}
			}
		}()
	}
	for _, p := range projects {
		jobs <- p
	}
	close(jobs)
	wg.Wait()
	close(results)
	out := listing{All: true}
	for r := range results {
		if r.err != nil {
			out.Failures = append(out.Failures, projectFailure{r.project, r.err})
			continue
		}
		for _, s := range r.svcs {
			out.Entries = append(out.Entries, entry{r.project, s})
		}
	}
	sort.Slice(out.Entries, func(i, j int) bool {
		a, b := out.Entries[i], out.Entries[j]
		if a.Project != b.Project {
			return a.Project < b.Project
		}
		return a.Service.ServiceName < b.Service.ServiceName
	})
	sort.Slice(out.Failures, func(i, j int) bool { return out.Failures[i].Project < out.Failures[j].Project })
	if len(out.Failures) == len(projects) && len(projects) > 0 {
		return out, out.Failures[0].Err
	}
	return out, nil
}

func (l *List) Title() string {
	if l.all {
		return "Services (all projects)"
	}
	return "Services"
}

func (l *List) SetSize(w, h int) { l.table.SetSize(w, h) }
func (l *List) Capturing() bool  { return l.table.Filtering() }
func (l *List) ID() int64        { return l.req.ID }
func (l *List) Leave()           { l.req.CancelAll() }
func (l *List) Refresh() tea.Cmd { return l.load() }

// ClaimsKey takes esc while a filter is applied (esc clears it before going back).
func (l *List) ClaimsKey(msg tea.KeyMsg) bool {
	return key.Matches(msg, l.ctx.Keys.Back) && l.table.FilterText() != ""
}

// allRequestSpacing is the average time per project request that an all-projects
// refresh may use: a refresh costs one request per project, and at a fixed 2 s a few
// hundred projects would spend the platform's whole rate limit on one screen.
const allRequestSpacing = 250 * time.Millisecond

// RefreshInterval is faster while any service is being built or rebalanced; in
// all-projects mode it also grows with the number of projects each refresh asks about.
func (l *List) RefreshInterval() time.Duration {
	d := l.ctx.Refresh
	if len(l.spinRows) > 0 {
		d = common.FastRefresh
	}
	if l.all {
		d = max(d, time.Duration(len(l.ctx.ProjectNames))*allRequestSpacing)
	}
	return d
}

// Animating: the root ticks the spinner only while an in-progress badge is visible.
func (l *List) Animating() bool { return len(l.spinRows) > 0 }

func (l *List) ShortHelp() []key.Binding {
	k := l.ctx.Keys
	return keys.Enabled(k.Open, k.Create, k.Edit, k.Delete, k.ToggleAll, k.Filter)
}

func (l *List) FullHelp() [][]key.Binding {
	k := l.ctx.Keys
	return [][]key.Binding{
		keys.Enabled(k.Open, k.Create, k.Edit, k.Delete, k.ToggleAll, k.Refresh),
		l.table.HelpBindings(),
	}
}

func (l *List) key(e entry) string {
	if l.all {
		return e.Project + "/" + e.Service.ServiceName
	}
	return e.Service.ServiceName
}

func (l *List) selected() (entry, bool) {
	k := l.table.SelectedKey()
	for _, e := range l.entries {
		if l.key(e) == k {
			return e, true
		}
	}
	return entry{}, false
}

// setAll switches between one project and every project.
func (l *List) setAll(all bool) tea.Cmd {
	if l.all == all {
		return l.load()
	}
	l.all = all
	l.req.Forget("list")
	l.table = newTable(l.ctx, all)
	l.table.SetSize(l.ctx.Width, l.ctx.Height)
	l.entries, l.rows, l.spinRows = nil, nil, nil
	return l.load()
}

func (l *List) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[listing]:
		if msg.Kind != "list" {
			break
		}
		if !l.req.Current(msg.Addr) {
			return l, nil
		}
		return l, l.loaded(msg.Value, msg.Err)
	case common.ProjectSelected:
		if l.all || msg.Name == l.project {
			return l, nil
		}
		l.req.Forget("list")
		l.entries, l.rows, l.spinRows = nil, nil, nil
		l.table.SetRows(nil)
		l.table.Loading = true
		return l, l.load()
	case common.OpenService:
		return l, l.openService(msg)
	case showAll:
		return l, l.setAll(bool(msg))
	case common.RefreshNow:
		return l, l.load()
	case tea.KeyMsg:
		return l, l.handleKey(msg)
	}
	if cmd, handled := l.acts.handle(msg, l); handled {
		return l, cmd
	}
	_, cmd := l.table.Update(msg)
	return l, cmd
}

// openService shows a service's detail, making its project current first.
func (l *List) openService(msg common.OpenService) tea.Cmd {
	project := msg.Project
	if project == "" {
		project = l.ctx.Project
	}
	push := common.Send(common.PushView{View: NewDetail(l.ctx, project, msg.Service)})
	if project != l.ctx.Project {
		return tea.Sequence(common.Send(common.SelectProject{Name: project}), push)
	}
	return push
}

func (l *List) loaded(v listing, err error) tea.Cmd {
	if err != nil {
		l.table.SetError(l.ctx.ErrorText(err))
		return common.Send(common.RefreshDone{Err: err})
	}
	l.setEntries(v.Entries)
	byProject := map[string][]string{}
	if !v.All {
		byProject[v.Project] = []string{}
	}
	for _, e := range v.Entries {
		byProject[e.Project] = append(byProject[e.Project], e.Service.ServiceName)
	}
	for p, names := range byProject {
		l.ctx.SetServiceNames(p, names)
	}
	cmds := []tea.Cmd{common.Send(common.RefreshDone{})}
	if len(v.Failures) > 0 {
		parts := make([]string, 0, len(v.Failures))
		for _, f := range v.Failures {
			parts = append(parts, f.Project+" ("+strings.TrimSuffix(l.ctx.ErrorText(f.Err), ".")+")")
		}
		text := "Could not list the services of " + strings.Join(parts, ", ") + "; showing the others."
		l.table.Err = text
		cmds = append(cmds, common.Warn(text))
	}
	return tea.Batch(cmds...)
}

// setEntries stores the services and rebuilds the rows (the table keeps the cursor on
// the same key).
func (l *List) setEntries(es []entry) {
	l.entries = es
	now := l.ctx.Now()
	l.rows = make([]components.Row, len(es))
	l.spinRows = l.spinRows[:0]
	for i, e := range es {
		l.rows[i] = l.row(e, now)
		if e.Service.State.InProgress() {
			l.spinRows = append(l.spinRows, i)
		}
	}
	l.frame = l.ctx.SpinnerFrame
	l.table.SetRows(l.rows)
}

// upsert shows a service at once (a create's answer), before the next refresh.
func (l *List) upsert(project string, s models.Service) {
	if !l.all && project != l.project {
		return
	}
	es := append([]entry(nil), l.entries...)
	replaced := false
	for i := range es {
		if es[i].Project == project && es[i].Service.ServiceName == s.ServiceName {
			es[i].Service, replaced = s, true
		}
	}
	if !replaced {
		es = append(es, entry{project, s})
	}
	l.setEntries(es)
	l.table.Select(l.key(entry{project, s}))
}

// remove drops a deleted service at once.
func (l *List) remove(project, name string) {
	es := make([]entry, 0, len(l.entries))
	for _, e := range l.entries {
		if e.Project != project || e.Service.ServiceName != name {
			es = append(es, e)
		}
	}
	l.setEntries(es)
}

func (l *List) handleKey(msg tea.KeyMsg) tea.Cmd {
	if l.table.Filtering() {
		_, cmd := l.table.Update(msg)
		return cmd
	}
	k := l.ctx.Keys
	switch {
	case key.Matches(msg, k.Open):
		e, ok := l.selected()
		if !ok {
			return nil
		}
		return l.openService(common.OpenService{Project: e.Project, Service: e.Service.ServiceName})
	case key.Matches(msg, k.ToggleAll):
		return l.setAll(!l.all)
	case key.Matches(msg, k.Create):
		project := l.ctx.Project
		if l.all {
			if e, ok := l.selected(); ok {
				project = e.Project
			}
		}
		return l.acts.startCreate(project)
	case key.Matches(msg, k.Edit):
		e, ok := l.selected()
		if !ok {
			return common.Warn("No service selected")
		}
		return l.acts.startEdit(e.Project, e.Service)
	case key.Matches(msg, k.Delete):
		e, ok := l.selected()
		if !ok {
			return common.Warn("No service selected")
		}
		return l.acts.confirmDelete(e.Project, e.Service)
	}
	_, cmd := l.table.Update(msg)
	return cmd
}

func (l *List) View() string {
	// Advance the spinners of in-progress rows only: patching their state cells costs
	// nothing for the thousands of settled rows.
	if l.frame != l.ctx.SpinnerFrame && len(l.spinRows) > 0 {
		l.frame = l.ctx.SpinnerFrame
		col := colState
		if l.all {
			col++
		}
		now := l.ctx.Now()
		badges := map[models.ServiceState]string{} // one render per state per frame
		for _, i := range l.spinRows {
			s := l.entries[i].Service
			b, ok := badges[s.State]
			if !ok {
				b = components.Badge(l.ctx, string(s.State))
				badges[s.State] = b
			}
			l.rows[i].Cells[col] = b + forText(l.ctx, s, now)
		}
	}
	return l.table.View()
}

// showAll is sent by the palette's "services" and "services all".
type showAll bool
