// Package services is the Services pane (issue 3 §3): the services table of the current
// project or of every project, a service's detail with connection information, create,
// edit (plan, cloud, disk, power, protection, maintenance, ip filter, reviewed before it
// is sent) and delete, and connecting to a service in its own client.
package services

import (
	"context"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// entry is one row's data: the project matters in all-projects mode.
type entry struct {
	Project string
	Service models.Service
}

// listed is a service as the list keeps it: without its connection URI and its
// parameters, which hold a password and which the list never shows (the detail reads
// the service again). 10,000 services kept them at 3 MB of the list's memory.
func listed(project string, s models.Service) entry {
	s.ServiceURI, s.ServiceURIParams = "", nil
	return entry{project, s}
}

// List is the services table, the Services tab's root view.
type List struct {
	*base.List[entry]
	acts *actions

	all     bool
	project string // project of the rows shown (single-project mode)
	spin    []int  // rows whose state cell carries a spinner
	// pending is a service asked for by name (":service NAME") before the list had
	// loaded: it is opened, or said not to exist, once the list is there.
	pending *common.OpenService
	// stream is an all-projects load on its way, shown as it arrives (stream.go).
	stream *stream
	// roll is what the rolling refresh of the all-projects list knows (rolling.go);
	// rollSaid the warning its last answer posted.
	roll     rolling
	rollSaid string
	// allItems is the all-projects list kept while one project is shown, so coming
	// back shows it at once.
	allItems []entry
}

// New builds the Services tab's root view.
func New(ctx *common.Context) common.View {
	l := &List{project: ctx.Project()}
	k := ctx.Keys
	l.List = base.NewList(ctx, base.ListSpec[entry]{
		Title:   "Services",
		Noun:    "service",
		Columns: columns(false),
		Load:    l.load,
		Key:     l.key,
		MarkKey: func(e entry) string { return e.Project + "/" + e.Service.ServiceName },
		InScope: func(e entry) bool { return l.all || e.Project == l.project },
		Row:     l.row,
		Loaded:  l.loaded,
		Actions: []base.Action[entry]{
			{Key: k.Open, Run: l.open},
			{Key: k.Create, NoSelection: true, Run: func(e entry) tea.Cmd {
				project := l.Ctx.Project()
				if l.all && e.Project != "" {
					project = e.Project
				}
				return l.acts.startCreate(project)
			}},
			{Key: k.Edit, Run: func(e entry) tea.Cmd { return l.acts.startEdit(e.Project, e.Service) },
				Many: func(m base.Marked[entry]) tea.Cmd { return l.acts.startBulk(m, false) }},
			{Key: k.Watch, Hidden: true, Run: func(e entry) tea.Cmd { return watchToggle(e.Project, e.Service) }, Many: watchMarked},
			{Key: k.Delete, Run: func(e entry) tea.Cmd { return l.acts.confirmDelete(e.Project, e.Service) },
				Many: func(m base.Marked[entry]) tea.Cmd { return l.acts.startBulk(m, true) }},
			{Key: k.ToggleAll, NoSelection: true, Run: func(entry) tea.Cmd { return l.setAll(!l.all) }},
			{Key: k.Launch, Help: "connect", Hidden: true, Run: func(e entry) tea.Cmd {
				return newConnector(l.Ctx, e.Project, e.Service.ServiceName).cmd()
			}},
		},
		Interval: l.interval,
	})
	l.acts = &actions{ctx: ctx, req: l.Req, target: l}
	return l
}

// Column order; the project column exists only in all-projects mode, in front.
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

func columns(all bool) []components.Column {
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
	return cols
}

// load builds the fetcher of the current mode: one project's services, or every
// project's through the client's single fan-out.
func (l *List) load() (base.Fetcher[entry], string) {
	api, platform := l.Ctx.API, l.Ctx.Platform
	if l.all {
		l.Spec.Empty = "No services in any project yet. Press a to go back to one project, then c to create one."
		known := append([]string(nil), l.Ctx.ProjectNames...)
		s := l.startStream()
		return func(ctx context.Context) ([]entry, error) {
			return listAll(ctx, api, platform, known, s)
		}, ""
	}
	l.stream = nil
	project := l.Ctx.Project()
	l.project = project
	if project == "" {
		return nil, "No project selected yet. Pick one in tab 1 (Projects) or with :project NAME."
	}
	l.Spec.Empty = "No services in " + project + " yet. Press c to create one (or a to see every project)."
	return func(ctx context.Context) ([]entry, error) {
		svcs, err := api.ListServices(ctx, project)
		out := make([]entry, len(svcs))
		for i, s := range svcs {
			out[i] = listed(project, s)
		}
		return out, err
	}, ""
}

// listAll lists every project's services (the known projects, else the project list);
// projects that fail are named in a *base.Partial beside the others' services. With a
// stream, each project's answer is also handed to it as it arrives.
func listAll(ctx context.Context, api common.API, platform common.Platform, projects []string, s *stream) ([]entry, error) {
	if s != nil {
		defer s.end()
	}
	if len(projects) == 0 {
		pl, err := api.ListProjects(ctx)
		if err != nil {
			return nil, err
		}
		for _, p := range pl.Projects {
			projects = append(projects, p.ProjectName)
		}
	}
	var out []entry
	var fails []projectAnswer
	if sa, ok := api.(streamingAPI); ok && s != nil {
		out, fails = streamAll(ctx, sa, projects, s)
	} else {
		svcs, fs := api.ListServicesAcrossProjects(ctx, projects)
		out = make([]entry, len(svcs))
		for i, s := range svcs {
			out[i] = listed(s.Project, s.Service)
		}
		for _, f := range fs {
			fails = append(fails, projectAnswer{project: f.Project, err: f.Err})
		}
	}
	if err := failures(platform, fails, len(projects), len(out) > 0, time.Now()); err != nil {
		if _, ok := err.(*base.Partial); !ok {
			return nil, err
		}
		return out, err
	}
	return out, nil
}

func (l *List) key(e entry) string {
	if l.all {
		return e.Project + "/" + e.Service.ServiceName
	}
	return e.Service.ServiceName
}

// Title is the breadcrumb segment.
func (l *List) Title() string {
	if l.all {
		return "Services (all projects)" + l.progress() + l.freshness() + l.MarkedSuffix()
	}
	return "Services" + l.MarkedSuffix()
}

// interval is faster while any service is being built or rebalanced. In all-projects
// mode each refresh reads only a share of the projects (rolling.go), so the interval
// does not grow with them.
func (l *List) interval() time.Duration {
	if len(l.spin) > 0 {
		return common.FastRefresh
	}
	return l.Ctx.Refresh
}

// Animating: the root ticks the spinner only while an in-progress badge is visible.
func (l *List) Animating() bool { return len(l.spin) > 0 }

// setAll switches between one project and every project: another table (the project
// column), the same requests.
func (l *List) setAll(all bool) tea.Cmd {
	if l.all == all {
		return l.Load()
	}
	shown, wasLoaded := l.Items(), l.Loaded()
	cur, onRow := l.Selected()
	l.all = all
	l.SetColumns(columns(all))
	l.Table.SetSize(l.Ctx.Width, l.Ctx.Height)
	l.spin = nil
	// What was read recently is shown at once and refreshed in the background.
	switch {
	case all && l.allItems != nil:
		marks := l.Restore(l.allItems)
		l.allItems = nil
		l.findSpinners()
		if onRow {
			l.SelectLater(l.key(cur)) // the cursor stays on the service it was on
		}
		return tea.Batch(marks, l.Refresh())
	case !all && wasLoaded && l.Ctx.Project() != "":
		l.allItems = shown
		l.project = l.Ctx.Project()
		var mine []entry
		for _, e := range shown {
			if e.Project == l.project {
				mine = append(mine, e)
			}
		}
		marks := l.Restore(mine)
		l.findSpinners()
		if onRow && cur.Project == l.project {
			l.SelectLater(l.key(cur))
		}
		return tea.Batch(marks, l.Refresh())
	}
	return l.Reset()
}

// Init starts the first load (and takes a stream's answers as they come).
func (l *List) Init() tea.Cmd { return tea.Batch(l.List.Init(), l.streamCmd()) }

// Refresh is the live refresh, as background work: in all-projects mode it reads the
// share of the projects that is due (rolling.go), and leaves a load on its way alone.
func (l *List) Refresh() tea.Cmd {
	switch {
	case l.all && l.stream != nil:
		return nil // the load on its way answers with RefreshDone
	case l.rolls():
		return l.rollCmd()
	}
	return tea.Batch(l.List.Refresh(), l.streamCmd())
}

// Reload reads everything again for a key press (r).
func (l *List) Reload() tea.Cmd { return tea.Batch(l.List.Reload(), l.streamCmd()) }

func (l *List) Update(msg tea.Msg) (common.View, tea.Cmd) {
	v, cmd := l.update(msg)
	return v, tea.Batch(cmd, l.streamCmd())
}

func (l *List) update(msg tea.Msg) (common.View, tea.Cmd) {
	if cmd, handled := l.handleStream(msg); handled {
		return l, cmd
	}
	switch msg := msg.(type) {
	case common.Result[[]projectAnswer]:
		if msg.Kind != kindRoll || !l.Req.Current(msg.Addr) || !l.all {
			return l, nil
		}
		return l, l.rolled(msg.Value)
	case common.ProjectSelected:
		// Every project is shown already, or this project is: nothing to reload.
		if l.all || msg.Name == l.project {
			l.Rerender()
			return l, nil
		}
		l.spin = nil
		return l, l.Reset()
	case common.SpinnerTick:
		l.advanceSpinners()
		return l, nil
	case common.OpenService:
		return l, l.openService(msg)
	case showAll:
		return l, l.setAll(bool(msg))
	}
	if cmd, handled := l.acts.handle(msg); handled {
		return l, cmd
	}
	return l, l.Handle(msg)
}

// open shows a service's detail and makes it (and its project) current: the root says
// so in the footer when the project changes, and the header shows that project's role.
func (l *List) open(e entry) tea.Cmd {
	s := e.Service
	return l.Ctx.Go(common.SelectService{Project: e.Project, Name: s.ServiceName, Type: s.ServiceType},
		common.PushView{View: NewDetail(l.Ctx, e.Project, s.ServiceName)})
}

// openService answers ":service NAME" (the palette knows no type: the detail tells the
// root once it has loaded).
func (l *List) openService(msg common.OpenService) tea.Cmd {
	project := msg.Project
	if project == "" {
		project = l.Ctx.Project()
	}
	if !l.Loaded() && !l.all && project == l.project {
		msg.Project = project
		l.pending = &msg
		return nil
	}
	if e, ok := l.resolve(project, msg.Service); ok {
		return l.open(e)
	}
	if !l.Loaded() || project != l.project && !l.all {
		// Another project's service: its detail says whether it exists.
		return l.open(entry{project, models.Service{ServiceName: msg.Service}})
	}
	return common.Warn("No service named “" + msg.Service + "” in " + project)
}

// resolve finds a listed service by its name, or by the start of its name when only
// one service starts so (":service kaf" opens kafka-events).
func (l *List) resolve(project, name string) (entry, bool) {
	var found []entry
	for _, e := range l.Items() {
		if e.Project != project {
			continue
		}
		if e.Service.ServiceName == name {
			return e, true
		}
		if strings.HasPrefix(e.Service.ServiceName, name) {
			found = append(found, e)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return entry{}, false
}

// loaded fills the completion caches and finds the rows that spin.
func (l *List) loaded(es []entry) tea.Cmd {
	byProject := map[string][]models.Service{}
	if !l.all {
		byProject[l.project] = []models.Service{}
	}
	for _, e := range es {
		byProject[e.Project] = append(byProject[e.Project], e.Service)
	}
	var cmds []tea.Cmd
	for p, svcs := range byProject {
		l.Ctx.SetServices(p, svcs)
		if cur := l.Ctx.Service(); p == l.Ctx.Project() && cur != "" && !hasService(svcs, cur) {
			// Deleted elsewhere: the session must not keep pointing at it.
			cmds = append(cmds, common.Send(common.Gone{What: common.GoneService, Project: p, Name: cur}))
		}
	}
	l.findSpinners()
	if p := l.pending; p != nil {
		l.pending = nil
		cmds = append(cmds, l.openService(*p))
	}
	return tea.Batch(cmds...)
}

func hasService(svcs []models.Service, name string) bool {
	for _, s := range svcs {
		if s.ServiceName == name {
			return true
		}
	}
	return false
}

// findSpinners records the rows in progress (the items are in row order).
func (l *List) findSpinners() {
	l.spin = l.spin[:0]
	for i, e := range l.Items() {
		if e.Service.State.InProgress() {
			l.spin = append(l.spin, i)
		}
	}
}

// advanceSpinners redraws the state cells of in-progress rows only (their time in
// state moves; the glyph is still): patching them costs nothing for the thousands of
// settled rows.
func (l *List) advanceSpinners() {
	items := l.Items()
	col := colState
	if l.all {
		col++
	}
	now := l.Ctx.Now()
	badges := map[models.ServiceState]string{} // one render per state per frame
	for _, i := range l.spin {
		s := items[i].Service
		b, ok := badges[s.State]
		if !ok {
			b = components.Badge(l.Ctx, string(s.State))
			badges[s.State] = b
		}
		l.Table.SetCell(i, col, b+forText(l.Ctx, s, now))
	}
}

// show replaces the items at once (a create's or delete's answer) before the next load.
func (l *List) show(es []entry) {
	l.SetItems(es)
	l.findSpinners()
}

// upsert shows a service at once (a create's answer), before the next refresh.
func (l *List) upsert(project string, s models.Service) {
	if !l.all && project != l.project {
		return
	}
	es := append([]entry(nil), l.Items()...)
	replaced := false
	for i := range es {
		if es[i].Project == project && es[i].Service.ServiceName == s.ServiceName {
			es[i].Service, replaced = s, true
		}
	}
	if !replaced {
		es = append(es, listed(project, s))
	}
	l.show(es)
}

// created puts the cursor on a new service, now or after the load that has it.
func (l *List) created(project, name string) {
	l.SelectLater(l.key(entry{project, models.Service{ServiceName: name}}))
}

// remove drops a deleted service at once.
func (l *List) remove(project, name string) {
	es := make([]entry, 0, len(l.Items()))
	for _, e := range l.Items() {
		if e.Project != project || e.Service.ServiceName != name {
			es = append(es, e)
		}
	}
	l.show(es)
}

// showAll is sent by the palette's "services" and "services all".
type showAll bool
