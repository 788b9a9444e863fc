package services

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

// withServices is a fake platform holding these projects' services.
func withServices(by map[string][]models.Service) *fake.API {
	f := fake.New()
	for _, p := range slices.Sorted(maps.Keys(by)) {
		f.AddServices(p, by[p]...)
	}
	return f
}

// calls is what the fake was asked, as text.
func calls(f *fake.API) []string {
	var out []string
	for _, c := range f.Calls() {
		out = append(out, c.String())
	}
	return out
}

var epoch = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func svc(name, state string) models.Service {
	return models.Service{ServiceName: name, ServiceType: "pg", Plan: "startup-4", CloudName: "aws-eu-west-1",
		State: models.ServiceState(state), NodeCount: 2, DiskSpaceMB: 81920,
		CreateTime: epoch.Add(-48 * time.Hour), UpdateTime: epoch.Add(-2 * time.Minute)}
}

func testCtx(api common.Client) *common.Context {
	ctx := uitest.NewContext()
	fake.Connect(ctx, api)
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

func newList(t *testing.T, api *fake.API) (*List, *common.Context, []tea.Msg) {
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
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING"), svc("kafka-events", "REBUILDING")}})
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
	api.PutService("acme-prod", svc("kafka-events", "RUNNING"))
	drive(l, common.RefreshNow{})
	if l.RefreshInterval() != ctx.Refresh || l.Animating() {
		t.Error("settled list should use the normal interval and not animate")
	}
}

func TestCursorFollowsServiceAcrossRefreshAndSort(t *testing.T) {
	api := withServices(map[string][]models.Service{"acme-prod": {svc("a-one", "RUNNING"), svc("b-two", "RUNNING"), svc("c-three", "RUNNING")}})
	l, _, _ := newList(t, api)
	drive(l, press("down"))
	if l.Table.SelectedKey() != "b-two" {
		t.Fatalf("selected %q", l.Table.SelectedKey())
	}
	// A new service sorts before it: the cursor stays on b-two.
	api.SetServices("acme-prod", append([]models.Service{svc("a-zero", "RUNNING")}, api.Services("acme-prod")...)...)
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
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}, "acme-staging": {svc("pg-stg", "POWEROFF")}})
	api.AddProjects(models.Project{ProjectName: "acme-broken"})
	api.On(fake.ListServices, "acme-broken").Fail(errors.New("Project acme-broken is unavailable"))
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
	if got := calls(api); got[len(got)-1] != "ListServicesAcrossProjects acme-broken acme-prod acme-staging" || len(got) != 2 {
		t.Errorf("requests: %v", got)
	}
	if l.Title() != "Services (all projects) · 1 not read yet, oldest read just now" {
		t.Error(l.Title())
	}
	// The project answers again: the footer's warning is taken back, as it is not so now.
	warned := notices(msgs)
	api.On(fake.ListServices, "acme-broken").Clear()
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
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}, "acme-staging": {svc("pg-stg", "RUNNING")}})
	l, ctx, _ := newList(t, api)
	uitest.Session(ctx).SetProject("acme-staging")
	drive(l, common.ProjectSelected{Name: "acme-staging"})
	if out := l.View(); !strings.Contains(out, "pg-stg") || strings.Contains(out, "pg-main") {
		t.Errorf("after project change:\n%s", out)
	}
}

func TestEmptyStateSaysHowToCreate(t *testing.T) {
	l, _, _ := newList(t, fake.New())
	if out := l.View(); !strings.Contains(out, "Press c to create one") {
		t.Errorf("empty view:\n%s", out)
	}
}

func TestDeleteRefusedWithProtectionAndForDevelopers(t *testing.T) {
	protected := svc("pg-main", "RUNNING")
	protected.TerminationProtection = true
	api := withServices(map[string][]models.Service{"acme-prod": {protected}})
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
	if got := calls(api); len(got) != 1 { // only the initial list
		t.Errorf("requests sent: %v", got)
	}
}

func TestDeleteAsksForTheNameThenDeletes(t *testing.T) {
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-old", "RUNNING")}})
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
		t.Errorf("after delete: %q (calls %v)", n, calls(api))
	}
	if strings.Contains(l.View(), "pg-old") || len(ctx.ServiceNames["acme-prod"]) != 0 {
		t.Error("deleted service still shown or cached")
	}
	if n := api.Count(fake.DeleteService, "acme-prod", "pg-old"); n != 1 || len(api.Services("acme-prod")) != 0 {
		t.Errorf("%d deletes sent; the platform still has %v", n, api.Services("acme-prod"))
	}
}

func TestReadOnlyRefusesMutations(t *testing.T) {
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}})
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
	api := fake.New()
	l, ctx, _ := newList(t, api)
	now := epoch
	ctx.Now = func() time.Time { return now }
	ctx.Refresh = 10 * time.Second
	for i := range 200 {
		p := fmt.Sprintf("p-%03d", i)
		ctx.ProjectNames = append(ctx.ProjectNames, p)
		api.AddServices(p, svc("pg-"+p, "RUNNING"))
	}
	drive(l, press("a"))
	if got := l.RefreshInterval(); got != 10*time.Second {
		t.Fatalf("200 projects: interval %v, want the configured 10s", got)
	}
	lists := func() int { return api.Count(fake.ListServices) }
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
	api.PutService("p-150", svc("pg-p-150", "REBALANCING"))
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
	api := withServices(map[string][]models.Service{"acme-analytics": {wide}})
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
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}, "acme-staging": {stg}})
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
	before := len(calls(api))
	drive(l, common.ProjectSelected{Name: "acme-staging"})
	if got := calls(api); len(got) != before || !strings.Contains(l.View(), "pg-main") {
		t.Errorf("all-projects view reloaded or lost rows on the project change: %v", got[before:])
	}
}

func TestOpenServiceAndCommandsCheckNames(t *testing.T) {
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}})
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
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING"), svc("kafka-events", "RUNNING")}})
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
	api := withServices(map[string][]models.Service{
		"acme-prod": {svc("pg-main", "RUNNING"), svc("kafka-events", "RUNNING")}, "acme-staging": {svc("pg-stg", "POWEROFF")}})
	l, ctx, _ := newList(t, api)
	ctx.ProjectNames = []string{"acme-prod", "acme-staging"}
	drive(l, press("a"))
	drive(l, press("down"))
	if e, _ := l.Selected(); e.Service.ServiceName != "pg-main" {
		t.Fatalf("cursor on %v", e)
	}
	n := len(calls(api))
	for _, m := range run(l.setAll(false)) {
		drive(l, m)
	}
	if e, ok := l.Selected(); !ok || e.Service.ServiceName != "pg-main" || len(l.Items()) != 2 {
		t.Fatalf("one project from memory: %d items, cursor on %v", len(l.Items()), e)
	}
	for _, m := range run(l.setAll(true)) {
		drive(l, m)
	}
	for _, c := range calls(api)[n:] {
		if strings.HasPrefix(c, string(fake.ListServicesAcrossProjects)) {
			t.Fatalf("back on all projects fanned out again: %v", calls(api)[n:])
		}
	}
	if e, ok := l.Selected(); !ok || len(l.Items()) != 3 || e.Service.ServiceName != "pg-main" {
		t.Fatalf("all projects from memory: %d items, cursor on %v", len(l.Items()), e)
	}
	if !strings.Contains(l.Title(), "oldest read") {
		t.Errorf("breadcrumb %q", l.Title())
	}
}
