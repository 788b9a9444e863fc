package services

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// fakeAPI answers the calls the pane makes; anything else panics through the nil
// embedded interface, which would show as a test failure.
type fakeAPI struct {
	common.Client
	mu       sync.Mutex
	services map[string][]models.Service
	failing  map[string]error
	calls    []string
	// createErr and updateErr answer the next create or update instead of the platform.
	createErr, updateErr error
	// createLands makes a create that answers createErr happen all the same (a lost answer).
	createLands bool
	conn        models.ConnectionInfo
}

func (f *fakeAPI) record(s string) {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
}

func (f *fakeAPI) ListServices(_ context.Context, project string) ([]models.Service, error) {
	f.record("list " + project)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.failing[project]; err != nil {
		return nil, err
	}
	return append([]models.Service(nil), f.services[project]...), nil
}

func (f *fakeAPI) ListProjects(context.Context) (models.ProjectList, error) {
	var pl models.ProjectList
	for p := range f.services {
		pl.Projects = append(pl.Projects, models.Project{ProjectName: p})
	}
	for p := range f.failing {
		pl.Projects = append(pl.Projects, models.Project{ProjectName: p})
	}
	return pl, nil
}

func (f *fakeAPI) UpdateService(_ context.Context, project, name string, req models.UpdateServiceRequest) (models.Service, error) {
	f.record("update " + project + "/" + name)
	if f.updateErr != nil {
		return models.Service{}, f.updateErr
	}
	return models.Service{ServiceName: name}, nil
}

func (f *fakeAPI) DeleteService(_ context.Context, project, name string) error {
	f.record("delete " + project + "/" + name)
	return nil
}

// ListServicesAcrossProjects answers like the client's fan-out: services ordered by
// project then name, one failure per project that failed.
func (f *fakeAPI) ListServicesAcrossProjects(ctx context.Context, projects []string) ([]api.ProjectService, []api.ProjectError) {
	f.record("across " + strings.Join(projects, ","))
	var out []api.ProjectService
	var fails []api.ProjectError
	sorted := append([]string(nil), projects...)
	sort.Strings(sorted)
	for _, p := range sorted {
		f.mu.Lock()
		err, svcs := f.failing[p], append([]models.Service(nil), f.services[p]...)
		f.mu.Unlock()
		if err != nil {
			fails = append(fails, api.ProjectError{Project: p, Err: err})
			continue
		}
		sort.Slice(svcs, func(i, j int) bool { return svcs[i].ServiceName < svcs[j].ServiceName })
		for _, s := range svcs {
			out = append(out, api.ProjectService{Project: p, Service: s})
		}
	}
	return out, fails
}

func (f *fakeAPI) GetService(_ context.Context, project, name string) (models.Service, error) {
	f.record("get " + project + "/" + name)
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.services[project] {
		if s.ServiceName == name {
			return s, nil
		}
	}
	return models.Service{}, errors.New("Service " + name + " does not exist")
}

func (f *fakeAPI) GetConnectionInfo(context.Context, string, string) (models.ConnectionInfo, error) {
	return f.conn, nil
}

func (f *fakeAPI) CreateService(_ context.Context, project string, req models.CreateServiceRequest) (models.Service, error) {
	f.record("create " + project + "/" + req.ServiceName)
	f.mu.Lock()
	defer f.mu.Unlock()
	s := models.Service{ServiceName: req.ServiceName, ServiceType: req.ServiceType, Plan: req.Plan, State: models.StateRebuilding}
	if f.createErr != nil {
		if f.createLands {
			f.services[project] = append(f.services[project], s)
		}
		return models.Service{}, f.createErr
	}
	f.services[project] = append(f.services[project], s)
	return s, nil
}

var epoch = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func svc(name, state string) models.Service {
	return models.Service{ServiceName: name, ServiceType: "pg", Plan: "startup-4", CloudName: "aws-eu-west-1",
		State: models.ServiceState(state), NodeCount: 2, DiskSpaceMB: 81920,
		CreateTime: epoch.Add(-48 * time.Hour), UpdateTime: epoch.Add(-2 * time.Minute)}
}

func testCtx(api common.Client) *common.Context {
	ctx := uitest.NewContext()
	ctx.Connect(api)
	ctx.Now = func() time.Time { return epoch }
	uitest.Session(ctx).SetProject("acme-prod")
	ctx.Width, ctx.Height, ctx.ScreenWidth, ctx.ScreenHeight = 120, 30, 120, 34
	return ctx
}

// run executes a command synchronously and returns every message it produces.
func run(cmd tea.Cmd) []tea.Msg { return uitest.Run(cmd) }

// drive sends msg, then feeds every result produced back into the view (not root messages).
func drive(v common.View, msg tea.Msg) []tea.Msg {
	update := func(m tea.Msg) tea.Cmd {
		_, cmd := v.Update(m)
		return cmd
	}
	return uitest.Pump(update(msg), update, func(m tea.Msg) bool {
		_, ok := m.(common.Addressed)
		return ok
	})
}

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func notices(msgs []tea.Msg) string {
	var b strings.Builder
	for _, m := range msgs {
		if n, ok := m.(common.Notify); ok {
			b.WriteString(n.Text + "\n")
		}
	}
	return b.String()
}

func newList(t *testing.T, api *fakeAPI) (*List, *common.Context, []tea.Msg) {
	t.Helper()
	ctx := testCtx(api)
	l := New(ctx).(*List)
	l.SetSize(120, 30)
	var msgs []tea.Msg
	for _, m := range run(l.Init()) {
		msgs = append(msgs, drive(l, m)...)
	}
	return l, ctx, msgs
}

func TestListLoadsFillsCachesAndRefreshesFastWhileInProgress(t *testing.T) {
	api := &fakeAPI{services: map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING"), svc("kafka-events", "REBUILDING")}}}
	l, ctx, msgs := newList(t, api)
	out := l.View()
	for _, want := range []string{"pg-main", "● RUNNING", "REBUILDING for 2m 0s", "80", "2d"} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks %q:\n%s", want, out)
		}
	}
	if got := ctx.ServiceNames["acme-prod"]; len(got) != 2 || got[0] != "kafka-events" {
		t.Errorf("service names = %v", got)
	}
	done := false
	for _, m := range msgs {
		if rd, ok := m.(common.RefreshDone); ok && rd.Err == nil {
			done = true
		}
	}
	if !done {
		t.Error("no RefreshDone after the load")
	}
	if l.RefreshInterval() != common.FastRefresh || !l.Animating() {
		t.Error("in-progress service should refresh fast and animate")
	}
	// Rows are still: a frame of the screen's spinner changes no row. The time in state
	// moves on the root's tick, without a reload, and View changes nothing by itself.
	before := l.View()
	ctx.SpinnerFrame++
	drive(l, common.SpinnerTick{})
	if l.View() != before {
		t.Error("a spinner frame changed a row")
	}
	ctx.Now = func() time.Time { return epoch.Add(time.Second) }
	defer func() { ctx.Now = func() time.Time { return epoch } }()
	if l.View() != before {
		t.Error("View moved the time by itself")
	}
	drive(l, common.SpinnerTick{})
	if l.View() == before || !strings.Contains(l.View(), theme.InProgressGlyph) {
		t.Errorf("the tick did not move the time in state:\n%s", l.View())
	}
	api.services["acme-prod"][1].State = "RUNNING"
	drive(l, common.RefreshNow{})
	if l.RefreshInterval() != ctx.Refresh || l.Animating() {
		t.Error("settled list should use the normal interval and not animate")
	}
}

func TestCursorFollowsServiceAcrossRefreshAndSort(t *testing.T) {
	api := &fakeAPI{services: map[string][]models.Service{"acme-prod": {svc("a-one", "RUNNING"), svc("b-two", "RUNNING"), svc("c-three", "RUNNING")}}}
	l, _, _ := newList(t, api)
	drive(l, press("down"))
	if l.Table.SelectedKey() != "b-two" {
		t.Fatalf("selected %q", l.Table.SelectedKey())
	}
	// A new service sorts before it: the cursor stays on b-two.
	api.services["acme-prod"] = append([]models.Service{svc("a-zero", "RUNNING")}, api.services["acme-prod"]...)
	drive(l, common.RefreshNow{})
	if l.Table.SelectedKey() != "b-two" {
		t.Fatalf("after refresh selected %q", l.Table.SelectedKey())
	}
	drive(l, press("S"))
	if l.Table.SelectedKey() != "b-two" {
		t.Fatalf("after sort selected %q", l.Table.SelectedKey())
	}
}

func TestAllProjectsShowsPartialFailures(t *testing.T) {
	api := &fakeAPI{
		services: map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}, "acme-staging": {svc("pg-stg", "POWEROFF")}},
		failing:  map[string]error{"acme-broken": errors.New("Project acme-broken is unavailable")},
	}
	l, ctx, _ := newList(t, api)
	ctx.ProjectNames = []string{"acme-broken", "acme-prod", "acme-staging"}
	msgs := drive(l, press("a"))
	out := l.View()
	for _, want := range []string{"Project", "acme-staging", "pg-stg", "○ POWEROFF", "acme-broken"} {
		if !strings.Contains(out, want) {
			t.Errorf("all-projects view lacks %q:\n%s", want, out)
		}
	}
	if n := notices(msgs); !strings.Contains(n, "Could not list the services of acme-broken") {
		t.Errorf("footer: %q", n)
	}
	// One fan-out through the client, not a copy of it in the pane.
	if last := api.calls[len(api.calls)-1]; last != "across acme-broken,acme-prod,acme-staging" || len(api.calls) != 2 {
		t.Errorf("requests: %v", api.calls)
	}
	if l.Title() != "Services (all projects) · 1 not read yet, oldest read just now" {
		t.Error(l.Title())
	}
	// The project answers again: the footer's warning is taken back, as it is not so now.
	warned := notices(msgs)
	delete(api.failing, "acme-broken")
	msgs = drive(l, common.RefreshNow{})
	var took bool
	for _, m := range msgs {
		if r, ok := m.(common.Retract); ok && r.Text != "" && strings.Contains(warned, r.Text) {
			took = true
		}
	}
	if !took || strings.Contains(l.View(), "Could not list") {
		t.Errorf("a whole list after a partial one did not take the warning back: %v", msgs)
	}
	drive(l, press("a"))
	if strings.Contains(l.View(), "pg-stg") {
		t.Error("back in one-project mode the other project's services remain")
	}
}

func TestProjectSelectedReloads(t *testing.T) {
	api := &fakeAPI{services: map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}, "acme-staging": {svc("pg-stg", "RUNNING")}}}
	l, ctx, _ := newList(t, api)
	uitest.Session(ctx).SetProject("acme-staging")
	drive(l, common.ProjectSelected{Name: "acme-staging"})
	if out := l.View(); !strings.Contains(out, "pg-stg") || strings.Contains(out, "pg-main") {
		t.Errorf("after project change:\n%s", out)
	}
}

func TestEmptyStateSaysHowToCreate(t *testing.T) {
	l, _, _ := newList(t, &fakeAPI{services: map[string][]models.Service{}})
	if out := l.View(); !strings.Contains(out, "Press c to create one") {
		t.Errorf("empty view:\n%s", out)
	}
}

func TestDeleteRefusedWithProtectionAndForDevelopers(t *testing.T) {
	protected := svc("pg-main", "RUNNING")
	protected.TerminationProtection = true
	api := &fakeAPI{services: map[string][]models.Service{"acme-prod": {protected}}}
	l, ctx, _ := newList(t, api)
	msgs := drive(l, press("d"))
	if n := notices(msgs); !strings.Contains(n, "Termination protection is on") {
		t.Errorf("protected delete: %q", n)
	}
	for _, m := range msgs {
		if _, ok := m.(common.OpenModal); ok {
			t.Error("a confirmation opened for a protected service")
		}
	}
	uitest.Roles(ctx, map[string]models.Role{"acme-prod": models.RoleDeveloper})
	for _, k := range []string{"c", "e", "d"} {
		if n := notices(drive(l, press(k))); !strings.Contains(n, "only an admin") {
			t.Errorf("developer %s: %q", k, n)
		}
	}
	if len(api.calls) != 1 { // only the initial list
		t.Errorf("requests sent: %v", api.calls)
	}
}

func TestDeleteAsksForTheNameThenDeletes(t *testing.T) {
	api := &fakeAPI{services: map[string][]models.Service{"acme-prod": {svc("pg-old", "RUNNING")}}}
	l, ctx, _ := newList(t, api)
	msgs := drive(l, press("d"))
	var modal common.Modal
	for _, m := range msgs {
		if om, ok := m.(common.OpenModal); ok {
			modal = om.Modal
		}
	}
	if modal == nil {
		t.Fatal("no typed confirmation")
	}
	modal.SetSize(120, 40)
	if v := modal.View(); !strings.Contains(v, "irreversible") {
		t.Errorf("confirmation does not explain:\n%s", v)
	}
	var cmd tea.Cmd
	for _, r := range "pg-old" {
		modal, _ = modal.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	_, cmd = modal.Update(tea.KeyMsg{Type: tea.KeyEnter})
	var out []tea.Msg
	for _, m := range run(cmd) {
		if _, ok := m.(common.Addressed); ok {
			out = append(out, drive(l, m)...)
		}
	}
	if n := notices(out); !strings.Contains(n, "Deleted service pg-old") {
		t.Errorf("after delete: %q (calls %v)", n, api.calls)
	}
	if strings.Contains(l.View(), "pg-old") || len(ctx.ServiceNames["acme-prod"]) != 0 {
		t.Error("deleted service still shown or cached")
	}
}

func TestReadOnlyRefusesMutations(t *testing.T) {
	api := &fakeAPI{services: map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}}}
	l, ctx, _ := newList(t, api)
	ctx.ReadOnly = true
	for _, k := range []string{"c", "e", "d"} {
		if n := notices(drive(l, press(k))); !strings.Contains(n, "Read-only mode") {
			t.Errorf("read-only %s: %q", k, n)
		}
	}
}

// The live refresh of the all-projects list reads a rolling share of the projects (the
// oldest first, each once per cycle of 60 s for 200 projects) instead of every project
// each tick; coming back to the list early reads nothing; the breadcrumb says how old
// the oldest answer is; the interval stays the configured one.
func TestAllProjectsRefreshRollsOverTheProjects(t *testing.T) {
	api := &fakeAPI{services: map[string][]models.Service{}}
	l, ctx, _ := newList(t, api)
	now := epoch
	ctx.Now = func() time.Time { return now }
	ctx.Refresh = 10 * time.Second
	for i := range 200 {
		p := fmt.Sprintf("p-%03d", i)
		ctx.ProjectNames = append(ctx.ProjectNames, p)
		api.services[p] = []models.Service{svc("pg-"+p, "RUNNING")}
	}
	drive(l, press("a"))
	if got := l.RefreshInterval(); got != 10*time.Second {
		t.Fatalf("200 projects: interval %v, want the configured 10s", got)
	}
	lists := func() int {
		api.mu.Lock()
		defer api.mu.Unlock()
		n := 0
		for _, c := range api.calls {
			if strings.HasPrefix(c, "list ") {
				n++
			}
		}
		return n
	}
	refresh := func() {
		for _, m := range run(l.Refresh()) {
			drive(l, m)
		}
	}
	// Back to the list 3 s later: 10 projects' worth of the cycle, not 200.
	now = now.Add(3 * time.Second)
	before := lists()
	refresh()
	if got := lists() - before; got != 10 {
		t.Errorf("a refresh 3 s after the load read %d projects, want 10", got)
	}
	refresh()
	if got := lists() - before; got != 10 {
		t.Errorf("an immediate second refresh read %d more projects, want none", got-10)
	}
	// A minute of ticks reads every project about once: never the whole list per tick.
	api.services["p-150"] = []models.Service{svc("pg-p-150", "REBALANCING")}
	for range 6 {
		now = now.Add(10 * time.Second)
		n := lists()
		refresh()
		if got := lists() - n; got > 34 {
			t.Errorf("one tick read %d projects, want at most a sixth of 200", got)
		}
	}
	if got := lists() - before; got < 190 || got > 215 {
		t.Errorf("a minute of refreshes read %d projects, want about 200", got)
	}
	if i := slices.IndexFunc(l.Items(), func(e entry) bool { return e.Project == "p-150" }); i < 0 || l.Items()[i].Service.State != "REBALANCING" {
		t.Error("a project read by the rolling refresh did not update its row")
	}
	if title := l.Title(); !strings.Contains(title, "oldest read") {
		t.Errorf("breadcrumb %q does not say how fresh the list is", title)
	}
}

func TestAllProjectsAt80ColumnsKeepsTypeAndPlanWhole(t *testing.T) {
	wide := svc("clickhouse-warehouse", "REBALANCING")
	wide.ServiceType, wide.Plan = "clickhouse", "business-8"
	api := &fakeAPI{services: map[string][]models.Service{"acme-analytics": {wide}}}
	l, ctx, _ := newList(t, api)
	ctx.ProjectNames = []string{"acme-analytics"}
	ctx.Width, ctx.ScreenWidth = 80, 80
	drive(l, press("a"))
	l.SetSize(80, 20)
	out := l.View()
	if !strings.Contains(out, "clickhouse-warehouse  clickhouse  business-8") {
		t.Fatalf("type and plan squeezed in the compact all-projects table:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if ansi.StringWidth(line) > 80 {
			t.Fatalf("line wider than 80: %q", line)
		}
	}
}

// Opening a row makes its service current, and in the all-projects view its project
// too (the root says so in the footer); the detail is pushed after that.
func TestOpenMakesTheServiceAndItsProjectCurrent(t *testing.T) {
	stg := svc("pg-stg", "RUNNING")
	api := &fakeAPI{services: map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}, "acme-staging": {stg}}}
	l, ctx, _ := newList(t, api)
	ctx.ProjectNames = []string{"acme-prod", "acme-staging"}
	drive(l, press("a"))
	if !l.Table.Select("acme-staging/pg-stg") {
		t.Fatalf("no row for pg-stg:\n%s", l.View())
	}
	msgs := drive(l, press("enter"))
	if len(msgs) != 2 || msgs[0] != (common.SelectService{Project: "acme-staging", Name: "pg-stg", Type: "pg"}) {
		t.Fatalf("enter sent %v", msgs)
	}
	pv, ok := msgs[1].(common.PushView)
	if !ok || pv.View.(*Detail).project != "acme-staging" || pv.View.Title() != "pg-stg" {
		t.Fatalf("enter sent %#v", msgs[1])
	}
	// The root then makes acme-staging current: the all-projects view stays as it is.
	before := len(api.calls)
	drive(l, common.ProjectSelected{Name: "acme-staging"})
	if len(api.calls) != before || !strings.Contains(l.View(), "pg-main") {
		t.Errorf("all-projects view reloaded or lost rows on the project change: %v", api.calls[before:])
	}
}

func TestOpenServiceAndCommandsCheckNames(t *testing.T) {
	api := &fakeAPI{services: map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}}}
	l, ctx, _ := newList(t, api)
	msgs := drive(l, common.OpenService{Project: "acme-prod", Service: "pg-main"})
	if len(msgs) != 2 || msgs[0] != (common.SelectService{Project: "acme-prod", Name: "pg-main", Type: "pg"}) {
		t.Fatalf("open sent %v", msgs)
	}
	if pv, ok := msgs[1].(common.PushView); !ok || pv.View.Title() != "pg-main" {
		t.Fatalf("open sent %#v", msgs[1])
	}
	cmds := map[string]common.Command{}
	for _, c := range Commands() {
		cmds[c.Name] = c
	}
	if n := notices(run(cmds["service"].Run(ctx, "nope"))); !strings.Contains(n, "No service named “nope”") {
		t.Errorf("unknown service: %q", n)
	}
	if msgs := run(cmds["service"].Run(ctx, "pg-main")); len(msgs) != 1 || msgs[0] != (common.OpenService{Project: "acme-prod", Service: "pg-main"}) {
		t.Errorf("service pg-main sent %v", msgs)
	}
	c := cmds["connect"]
	if c.Arg != common.ServiceArg || !c.OptionalArg || c.Mutating {
		t.Errorf("connect command: %+v", c)
	}
	if n := notices(run(c.Run(ctx, ""))); !strings.Contains(n, "No current service") {
		t.Errorf("bare connect without a current service: %q", n)
	}
	if n := notices(run(c.Run(ctx, "nope"))); !strings.Contains(n, "No service named “nope”") {
		t.Errorf("connect nope: %q", n)
	}
}

// ":service kaf" before the list has loaded waits for it, then opens the one service
// whose name starts so; a name nothing starts with is said, never opened.
func TestOpenServiceByNameWaitsForTheListAndTakesAUniquePrefix(t *testing.T) {
	api := &fakeAPI{services: map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING"), svc("kafka-events", "RUNNING")}}}
	ctx := testCtx(api)
	l := New(ctx).(*List)
	l.SetSize(120, 30)
	load := l.Init()
	if msgs := drive(l, common.OpenService{Service: "kaf"}); len(msgs) != 0 {
		t.Fatalf("opened before the list was there: %v", msgs)
	}
	var msgs []tea.Msg
	for _, m := range run(load) {
		msgs = append(msgs, drive(l, m)...)
	}
	opened := false
	for _, m := range msgs {
		if pv, ok := m.(common.PushView); ok && pv.View.Title() == "kafka-events" {
			opened = true
		}
	}
	if !opened {
		t.Fatalf("kaf did not open kafka-events: %v", msgs)
	}
	if n := notices(drive(l, common.OpenService{Service: "zzz"})); !strings.Contains(n, "No service named “zzz”") {
		t.Fatalf("unknown name: %q", n)
	}
}

func TestFindServiceAcrossProjects(t *testing.T) {
	by := map[string][]string{
		"acme-prod":    {"kafka-events", "pg-main"},
		"acme-staging": {"pg-main", "pg-staging", "kafka-staging"},
	}
	for _, c := range []struct{ current, name, project, service string }{
		{"acme-prod", "pg-main", "acme-prod", "pg-main"},      // the current project first
		{"acme-prod", "kaf", "acme-prod", "kafka-events"},     // a unique start in the current project
		{"acme-prod", "pg-sta", "acme-staging", "pg-staging"}, // elsewhere, the one that starts so
		{"acme-prod", "kafka-staging", "acme-staging", "kafka-staging"},
		{"", "pg-main", "", ""}, // two projects have it: ambiguous
		{"acme-prod", "nothing", "", ""},
	} {
		p, s, ok := findService(c.current, by, c.name)
		if p != c.project || s != c.service || ok != (c.project != "") {
			t.Errorf("findService(%q, %q) = %q %q %v", c.current, c.name, p, s, ok)
		}
	}
}

// At 80 columns the state cell keeps the time: "REBUILDING 3s", not "REBUILDING fo…".
func TestTimeInStateFitsTheCompactLayout(t *testing.T) {
	ctx := common.NewContext()
	ctx.Styles = theme.New(theme.Dark, true)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	s := models.Service{State: models.StateRebuilding, UpdateTime: now.Add(-3 * time.Second)}
	ctx.ScreenWidth = 80
	if got := ansi.Strip(forText(ctx, s, now)); got != " 3s" {
		t.Errorf("compact: %q", got)
	}
	ctx.ScreenWidth = 160
	if got := ansi.Strip(forText(ctx, s, now)); got != " for 3s" {
		t.Errorf("wide: %q", got)
	}
}

// Toggling a back and forth shows what was read at once, from memory: back on all
// projects there is no second fan-out, only the rolling refresh's due share, and the
// cursor stays on its service.
func TestAllProjectsToggleShowsFromMemory(t *testing.T) {
	api := &fakeAPI{services: map[string][]models.Service{
		"acme-prod": {svc("pg-main", "RUNNING"), svc("kafka-events", "RUNNING")}, "acme-staging": {svc("pg-stg", "POWEROFF")}}}
	l, ctx, _ := newList(t, api)
	ctx.ProjectNames = []string{"acme-prod", "acme-staging"}
	drive(l, press("a"))
	drive(l, press("down"))
	if e, _ := l.Selected(); e.Service.ServiceName != "pg-main" {
		t.Fatalf("cursor on %v", e)
	}
	calls := len(api.calls)
	for _, m := range run(l.setAll(false)) {
		drive(l, m)
	}
	if e, ok := l.Selected(); !ok || e.Service.ServiceName != "pg-main" || len(l.Items()) != 2 {
		t.Fatalf("one project from memory: %d items, cursor on %v", len(l.Items()), e)
	}
	for _, m := range run(l.setAll(true)) {
		drive(l, m)
	}
	for _, c := range api.calls[calls:] {
		if strings.HasPrefix(c, "across") {
			t.Fatalf("back on all projects fanned out again: %v", api.calls[calls:])
		}
	}
	if e, ok := l.Selected(); !ok || len(l.Items()) != 3 || e.Service.ServiceName != "pg-main" {
		t.Fatalf("all projects from memory: %d items, cursor on %v", len(l.Items()), e)
	}
	if !strings.Contains(l.Title(), "oldest read") {
		t.Errorf("breadcrumb %q", l.Title())
	}
}
