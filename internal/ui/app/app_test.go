package app

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// fakeView records the keys it receives.
type fakeView struct {
	id        int64
	title     string
	keys      []string
	capturing bool
	claimEsc  bool
	refreshes int
	left      bool
	interval  time.Duration
}

func (f *fakeView) Init() tea.Cmd { return nil }
func (f *fakeView) ID() int64     { return f.id }
func (f *fakeView) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		f.keys = append(f.keys, msg.String())
		if msg.String() == "enter" {
			return f, common.Send(common.PushView{View: &fakeView{title: f.title + "/child"}})
		}
		if msg.String() == "esc" && f.claimEsc {
			f.claimEsc = false
		}
	}
	return f, nil
}
func (f *fakeView) View() string                { return "body of " + f.title }
func (f *fakeView) SetSize(int, int)            {}
func (f *fakeView) Title() string               { return f.title }
func (f *fakeView) ShortHelp() []key.Binding    { return nil }
func (f *fakeView) FullHelp() [][]key.Binding   { return nil }
func (f *fakeView) Capturing() bool             { return f.capturing }
func (f *fakeView) ClaimsKey(m tea.KeyMsg) bool { return f.claimEsc && m.Type == tea.KeyEsc }
func (f *fakeView) Leave()                      { f.left = true }
func (f *fakeView) RefreshInterval() time.Duration {
	return f.interval
}
func (f *fakeView) Refresh() tea.Cmd { f.refreshes++; return nil }

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "ctrl+r":
		return tea.KeyMsg{Type: tea.KeyCtrlR}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// drive feeds msg to the model and then every message its commands produce, run
// synchronously (timers are on the test clock and fire only through advance); quit
// reports that the model asked to quit.
func drive(m *Model, msg tea.Msg) (quit bool) {
	d := uitest.Driver{Model: m, Skip: func(msg tea.Msg) bool {
		_, q := msg.(tea.QuitMsg)
		quit = quit || q
		return q
	}}
	d.Send(msg)
	return quit
}

// run runs a command synchronously.
func run(cmd tea.Cmd) []tea.Msg { return uitest.Run(cmd) }

// testStart is when every test model's clock starts.
var testStart = time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC)

func newModel(t *testing.T, readOnly bool) (*Model, *fakeView) {
	t.Helper()
	m, root, _ := newModelClock(t, readOnly)
	return m, root
}

// newModelClock is newModel with its clock, for tests about time.
func newModelClock(t *testing.T, readOnly bool) (*Model, *fakeView, *uitest.Clock) {
	t.Helper()
	ctx, session := common.NewRootContext()
	clk := uitest.NewClock(testStart)
	ctx.Now, ctx.After = clk.Now, clk.After
	ctx.Styles = theme.New(theme.Dark, true)
	ctx.ReadOnly = readOnly
	root := &fakeView{title: "Projects", interval: 10 * time.Second}
	m := New(Options{Context: ctx, Session: session, Tabs: []Tab{
		{ID: common.TabProjects, Name: "Projects", New: func(*common.Context) common.View { return root }},
		{ID: common.TabServices, Name: "Services", New: func(*common.Context) common.View { return &fakeView{title: "Services"} }},
		{ID: common.TabUsers, Name: "Users", UsesService: true, Missing: "Users are not built yet."},
		{ID: common.TabBilling, Name: "Billing"}, {ID: common.TabSearch, Name: "Search", UsesService: true},
	}})
	for _, msg := range run(m.Init()) {
		drive(m, msg)
	}
	drive(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	return m, root, clk
}

func TestTabsAndQuitOnlyAtTop(t *testing.T) {
	m, root := newModel(t, false)
	drive(m, keyMsg("2"))
	if m.Active() != 1 || m.Top().Title() != "Services" {
		t.Fatalf("tab 2: active %d", m.Active())
	}
	drive(m, keyMsg("3"))
	if !strings.Contains(m.View(), "Users are not built yet.") {
		t.Error("unbuilt tab should say so")
	}
	drive(m, keyMsg("1"))
	drive(m, keyMsg("enter"))
	if m.Depth() != 2 {
		t.Fatalf("enter should push: depth %d", m.Depth())
	}
	if !strings.Contains(m.View(), "Projects › Projects/child") {
		t.Errorf("breadcrumb missing:\n%s", m.View())
	}
	if drive(m, keyMsg("q")) {
		t.Fatal("q quit below the top level")
	}
	drive(m, keyMsg("esc"))
	if m.Depth() != 1 || m.Top() != root {
		t.Fatal("esc should pop back to the root view")
	}
	drive(m, keyMsg("esc"))
	if m.Depth() != 1 {
		t.Fatal("esc at the bottom must not pop")
	}
	if !drive(m, keyMsg("q")) {
		t.Fatal("q at the top level should quit")
	}
}

func TestCapturingViewGetsEveryKey(t *testing.T) {
	m, root := newModel(t, false)
	root.capturing = true
	for _, k := range []string{"q", "2", ":", "?", "c"} {
		if drive(m, keyMsg(k)) {
			t.Fatal("a capturing view's q must not quit")
		}
	}
	if m.Active() != 0 || m.Modal() != nil {
		t.Fatal("root stole a key from a capturing view")
	}
	if strings.Join(root.keys, "") != "q2:?c" {
		t.Fatalf("view got %v", root.keys)
	}
	if !drive(m, keyMsg("ctrl+c")) {
		t.Fatal("ctrl+c quits anywhere")
	}
}

func TestClaimedEscGoesToView(t *testing.T) {
	m, root := newModel(t, false)
	drive(m, keyMsg("enter"))
	child := m.Top().(*fakeView)
	child.claimEsc = true // e.g. a filter is applied
	drive(m, keyMsg("esc"))
	if m.Depth() != 2 || len(child.keys) == 0 || child.keys[len(child.keys)-1] != "esc" {
		t.Fatal("esc should clear the view's filter first")
	}
	drive(m, keyMsg("esc"))
	if m.Depth() != 1 || !child.left {
		t.Fatal("second esc should go back and let the view clean up")
	}
	_ = root
}

func TestModalCapturesKeys(t *testing.T) {
	m, root := newModel(t, false)
	drive(m, keyMsg(":"))
	if _, ok := m.Modal().(*components.Palette); !ok {
		t.Fatal(": should open the palette")
	}
	n := len(root.keys)
	if drive(m, keyMsg("q")) {
		t.Fatal("q in the palette must not quit")
	}
	drive(m, keyMsg("2"))
	if m.Active() != 0 || len(root.keys) != n {
		t.Fatal("keys leaked past the modal")
	}
	drive(m, keyMsg("esc"))
	if m.Modal() != nil {
		t.Fatal("esc should close the modal")
	}
	drive(m, keyMsg("?"))
	if _, ok := m.Modal().(*components.Help); !ok {
		t.Fatal("? should open help")
	}
	if !strings.Contains(m.View(), "Global") {
		t.Error("help should list global keys")
	}
	drive(m, keyMsg("esc"))
	// Palette command switching tabs.
	drive(m, keyMsg(":"))
	for _, r := range "services" {
		drive(m, keyMsg(string(r)))
	}
	drive(m, keyMsg("enter"))
	if m.Active() != 1 || m.Modal() != nil {
		t.Fatalf("palette 'services': active %d", m.Active())
	}
}

// Read-only refusals belong to the view that has a mutating action on the key: the
// root refused every key of any mutating binding, so p (previous page in the Search
// results) answered "Read-only mode: assign a project is disabled".
func TestReadOnlyLeavesKeysToTheView(t *testing.T) {
	m, root := newModel(t, true)
	for _, k := range []string{"p", "d", "c"} {
		drive(m, keyMsg(k))
	}
	if _, text := m.Message(); strings.Contains(text, "Read-only") {
		t.Fatalf("the root refused a key the view owns: %q", text)
	}
	if strings.Join(root.keys, " ") != "p d c" {
		t.Fatalf("keys the view received: %v", root.keys)
	}
	if !strings.Contains(m.View(), "READ-ONLY") {
		t.Error("READ-ONLY badge missing")
	}
}

// :messages declares its keys, none of them global.
func TestMessagesKeysNeverClash(t *testing.T) {
	m, _ := newModel(t, false)
	v := newMessages(m.Context(), nil)
	if c := keys.Clashes(v.Keys(), m.Context().GlobalKeys()); len(c) > 0 || len(v.ShortHelp()) != 2 {
		t.Fatalf("clashes %v, footer %v", c, v.ShortHelp())
	}
}

// The tab keys come from the tab registry: their names in the help, their places as
// their keys, an override by place.
func TestTabKeysComeFromTheRegistry(t *testing.T) {
	m, _ := newModel(t, false)
	m.Context().Keys, _ = keys.New(map[string][]string{"tab2": {"f2"}})
	drive(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	drive(m, keyMsg("?"))
	help := m.View()
	for _, want := range []string{"projects", "services", "users", "billing", "search"} {
		if !strings.Contains(help, want) {
			t.Errorf("help's global keys lack the %s tab:\n%s", want, help)
		}
	}
	drive(m, keyMsg("esc"))
	if drive(m, keyMsg("2")); m.Active() != 0 {
		t.Fatal("2 still switches after tab2 was moved to f2")
	}
	if drive(m, tea.KeyMsg{Type: tea.KeyF2}); m.Active() != 1 {
		t.Fatalf("f2 (tab2) went to %d", m.Active())
	}
}

func TestTooSmallAndResize(t *testing.T) {
	m, _ := newModel(t, false)
	drive(m, tea.WindowSizeMsg{Width: 79, Height: 30})
	if v := m.View(); v != "Terminal 79×30 is too small: svcui needs at least 80×24." {
		t.Fatalf("too small: %q", v)
	}
	// At 40×12 the size and the need are both on screen, wrapped to the width.
	drive(m, tea.WindowSizeMsg{Width: 40, Height: 12})
	if v := m.View(); v != "Terminal 40×12 is too small: svcui needs\nat least 80×24." {
		t.Fatalf("too small at 40×12: %q", v)
	}
	drive(m, tea.WindowSizeMsg{Width: 79, Height: 30})
	if drive(m, keyMsg("2")); m.Active() != 0 {
		t.Fatal("keys other than quit are ignored on the too-small screen")
	}
	drive(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	v := m.View()
	if n := strings.Count(v, "\n") + 1; n != 24 {
		t.Fatalf("80×24 frame has %d lines", n)
	}
	if !strings.Contains(v, "1 Projects") || !strings.Contains(v, "5 Search") {
		t.Errorf("tabs line missing:\n%s", v)
	}
}

func TestRefreshTickerFollowsFocusAndErrors(t *testing.T) {
	m, root := newModel(t, false)
	gen := m.tickGen
	drive(m, refreshTick{gen})
	if root.refreshes != 1 {
		t.Fatalf("tick should refresh the live view, got %d", root.refreshes)
	}
	drive(m, refreshTick{gen})
	if root.refreshes != 1 {
		t.Fatal("a stale tick must not refresh")
	}
	drive(m, common.RefreshDone{Err: errTest})
	if m.live.Failures != 1 || !strings.Contains(m.View(), "stale") {
		t.Errorf("failure should show stale:\n%s", strings.SplitN(m.View(), "\n", 2)[0])
	}
	drive(m, tea.BlurMsg{})
	drive(m, refreshTick{m.tickGen})
	if root.refreshes != 1 {
		t.Fatal("no refresh while unfocused")
	}
	drive(m, tea.FocusMsg{})
	if root.refreshes != 2 {
		t.Fatal("focus should refresh at once")
	}
	drive(m, common.RefreshDone{})
	if m.live.Failures != 0 || m.live.LastOK.IsZero() {
		t.Error("success should clear failures")
	}
	drive(m, keyMsg("ctrl+r"))
	if root.refreshes != 3 {
		t.Error("ctrl+r refreshes now")
	}
	drive(m, keyMsg("2"))
	drive(m, keyMsg("1"))
	if root.refreshes != 4 {
		t.Error("coming back to a tab refreshes its view")
	}
}

type testErr struct{}

func (testErr) Error() string { return "boom" }

var errTest = testErr{}

func TestAddressedResultsReachViewsBelowTheTop(t *testing.T) {
	m, root := newModel(t, false)
	drive(m, keyMsg("enter"))
	got := 0
	root.id = 42
	rv := &resultView{fakeView: root, got: &got}
	m.tabs[0].stack[0] = rv
	top := &resultView{fakeView: &fakeView{id: 43}, got: new(int)}
	m.tabs[0].stack[1] = top
	drive(m, common.Result[int]{Addr: common.Addr{View: 42}, Value: 7})
	if got != 7 {
		t.Fatal("addressed result did not reach the view under the top")
	}
	if *top.got != 0 {
		t.Fatal("a result went to a view that did not ask for it")
	}
	// A result whose view is gone reaches nobody.
	drive(m, common.Result[int]{Addr: common.Addr{View: 99}, Value: 8})
	if got != 7 || *top.got != 0 {
		t.Fatal("a result for a view that is gone was delivered")
	}
}

// orphanResult stands for a write's result: when its view is gone, the root reports it.
type orphanResult struct{ view int64 }

type orphanReported struct{}

func (o orphanResult) Target() int64 { return o.view }
func (o orphanResult) Orphaned(*common.Context) tea.Cmd {
	return func() tea.Msg { return orphanReported{} }
}

func TestAWritesOutcomeIsReportedWhenItsViewIsGone(t *testing.T) {
	m, _ := newModel(t, false)
	cmd := m.deliver(orphanResult{view: 99})
	if cmd == nil {
		t.Fatal("the outcome of a write whose view is gone was dropped")
	}
	if _, ok := cmd().(orphanReported); !ok {
		t.Fatal("the root did not run the write's own report")
	}
}

type resultView struct {
	*fakeView
	got *int
}

func (r *resultView) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if res, ok := msg.(common.Result[int]); ok {
		*r.got = res.Value
	}
	return r, nil
}

func TestCopyReportsInFooter(t *testing.T) {
	m, _ := newModel(t, false)
	drive(m, common.CopyRequest{Label: "password", Value: "hunter2"})
	if _, text := m.Message(); !strings.Contains(text, "off") || strings.Contains(text, "hunter2") {
		t.Fatalf("footer after copy with clipboard off: %q", text)
	}
}

// openServiceView records the OpenService it receives.
type openServiceView struct {
	fakeView
	got common.OpenService
}

func (o *openServiceView) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if os, ok := msg.(common.OpenService); ok {
		o.got = os
	}
	return o, nil
}

func TestOpenServiceGoesToServicesTabRoot(t *testing.T) {
	ctx, session := common.NewRootContext()
	svc := &openServiceView{fakeView: fakeView{title: "Services"}}
	m := New(Options{Context: ctx, Session: session, Tabs: []Tab{
		{ID: common.TabProjects, Name: "Projects", New: func(*common.Context) common.View { return &fakeView{title: "Projects"} }},
		{ID: common.TabServices, Name: "Services", New: func(*common.Context) common.View { return svc }},
	}})
	for _, msg := range run(m.Init()) {
		drive(m, msg)
	}
	drive(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	drive(m, common.OpenService{Project: "acme-prod", Service: "pg-main"})
	if m.Active() != 1 || svc.got != (common.OpenService{Project: "acme-prod", Service: "pg-main"}) {
		t.Fatalf("active %d, services view got %+v", m.Active(), svc.got)
	}
}

func TestSelectProjectUpdatesContextAndBroadcasts(t *testing.T) {
	m, _ := newModel(t, false)
	m.Context().SetProjects(models.ProjectList{Projects: []models.Project{{ProjectName: "acme-prod", AccountID: "acc1"}},
		Membership: map[string]models.Role{"acme-prod": models.RoleDeveloper}})
	drive(m, keyMsg("2")) // build the Services tab so it receives the broadcast
	rec := &recordingView{fakeView: fakeView{title: "Services"}}
	m.tabs[1].stack[0] = rec
	drive(m, common.SelectProject{Name: "acme-prod"})
	c := m.Context()
	if c.Project() != "acme-prod" || c.Role() != "developer" || c.AccountID() != "acc1" {
		t.Fatalf("context: %q %q %q", c.Project(), c.Role(), c.AccountID())
	}
	if rec.selected != "acme-prod" {
		t.Fatal("views on other tabs should get ProjectSelected")
	}
	if !strings.Contains(m.View(), "as developer") || !strings.Contains(m.View(), "acme-prod › Services") {
		t.Errorf("header should follow:\n%s", strings.SplitN(m.View(), "\n", 2)[0])
	}
}

type recordingView struct {
	fakeView
	selected string
}

func (r *recordingView) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if ps, ok := msg.(common.ProjectSelected); ok {
		r.selected = ps.Name
	}
	return r, nil
}

// Keys typed faster than the terminal is read arrive as one multi-rune message; each
// must act as if it had been read alone, while a bracketed paste stays whole.
func TestBurstOfRunesActsKeyByKey(t *testing.T) {
	m, root := newModel(t, false)
	drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jjs")})
	if got := strings.Join(root.keys, ","); got != "j,j,s" {
		t.Fatalf("view got keys %q, want j,j,s", got)
	}
	drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("21")})
	if m.Active() != 0 {
		t.Fatalf("burst 2,1 should end on tab 1, active %d", m.Active())
	}
	root.keys = nil
	drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("pasted"), Paste: true})
	if got := strings.Join(root.keys, ","); got != "[pasted]" {
		t.Fatalf("a paste must stay one message, got %q", got)
	}
}

// accessRootView pushes the service's view when it receives OpenAccess, as the users tab does.
type accessRootView struct{ fakeView }

func (a *accessRootView) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if oa, ok := msg.(common.OpenAccess); ok {
		return a, common.Send(common.PushView{View: &fakeView{title: oa.Service + " users"}})
	}
	return a, nil
}

func TestEscFromAccessOpenedElsewhereGoesBackThere(t *testing.T) {
	ctx, session := common.NewRootContext()
	ctx.Keys, _ = keys.New(nil)
	m := New(Options{Context: ctx, Session: session, Tabs: []Tab{
		{ID: common.TabProjects, Name: "Projects", New: func(*common.Context) common.View { return &fakeView{title: "Projects"} }},
		{ID: common.TabServices, Name: "Services", New: func(*common.Context) common.View { return &fakeView{title: "Services"} }},
		{ID: common.TabUsers, Name: "Users", UsesService: true, New: func(*common.Context) common.View { return &accessRootView{fakeView{title: "Users"}} }},
	}})
	for _, msg := range run(m.Init()) {
		drive(m, msg)
	}
	drive(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	drive(m, keyMsg("2"))
	drive(m, keyMsg("enter")) // the service detail
	drive(m, common.OpenAccess{Project: "acme-prod", Service: "pg-main", View: common.AccessUsers})
	if m.Active() != 2 || m.Top().Title() != "pg-main users" {
		t.Fatalf("OpenAccess: active %d, top %q", m.Active(), m.Top().Title())
	}
	drive(m, keyMsg("esc"))
	if m.Active() != 1 || m.Top().Title() != "Services/child" {
		t.Fatalf("esc should return to the service detail it came from: active %d, top %q", m.Active(), m.Top().Title())
	}
	// Opened from its own tab, esc stays in the tab.
	drive(m, keyMsg("3"))
	drive(m, common.OpenAccess{Project: "acme-prod", Service: "pg-main", View: common.AccessUsers})
	drive(m, keyMsg("esc"))
	if m.Active() != 2 || m.Top().Title() != "Users" {
		t.Fatalf("esc within the users tab: active %d, top %q", m.Active(), m.Top().Title())
	}
}

// A view takes back what the footer said once it is no longer so, and only that: a newer
// message stays.
func TestRetractTakesBackOnlyThatMessage(t *testing.T) {
	m, _ := newModel(t, false)
	drive(m, common.Notify{Level: theme.LevelError, Text: "The request was not sent: line 4"})
	drive(m, common.Retract{Text: "The request was not sent: line 4"})
	if _, text := m.Message(); text != "" {
		t.Fatalf("footer after retract: %q", text)
	}
	drive(m, common.Notify{Level: theme.LevelWarn, Text: "Showing 3 of 5 projects"})
	drive(m, common.Retract{Text: "The request was not sent: line 4"})
	if _, text := m.Message(); text != "Showing 3 of 5 projects" {
		t.Fatalf("a retract of an older message cleared %q", text)
	}
	if n := len(m.Log()); n != 2 {
		t.Fatalf(":messages has %d entries, want both kept", n)
	}
}

// savingView keeps something on disk as it leaves: its write is a command.
type savingView struct {
	fakeView
	order *[]string
}

func (s *savingView) SaveOnLeave() tea.Cmd {
	return func() tea.Msg { *s.order = append(*s.order, "saved"); return nil }
}

// Quitting runs what the views keep on disk as commands, before the program ends; the
// root does no I/O in Update.
func TestQuitRunsTheViewsSavesBeforeQuitting(t *testing.T) {
	m, _ := newModel(t, false)
	var order []string
	drive(m, common.PushView{View: &savingView{fakeView: fakeView{title: "Editor"}, order: &order}})
	cmd := m.quit()
	if len(order) != 0 {
		t.Fatal("the save ran inside Update")
	}
	for _, msg := range run(cmd) {
		if _, ok := msg.(tea.QuitMsg); ok {
			order = append(order, "quit")
		}
	}
	if strings.Join(order, ",") != "saved,quit" {
		t.Fatalf("order %v", order)
	}
}

// The latest choice of context wins: a billing group opened, then the current project
// chosen again (:project demo-prod), makes the project the place :estimate is about.
func TestChoosingTheCurrentProjectAgainWinsOverAGroupChosenSince(t *testing.T) {
	m, _ := newModel(t, false)
	drive(m, common.SelectProject{Name: "demo-prod"})
	drive(m, common.SelectBillingGroup{ID: "bg-1", Name: "Demo Org - Production"})
	if m.ctx.BillingGroupID() != "bg-1" {
		t.Fatal("the group was not made current")
	}
	drive(m, common.SelectProject{Name: "demo-prod"})
	if m.ctx.BillingGroupID() != "" || m.ctx.Project() != "demo-prod" {
		t.Fatalf("the group chosen before the project still wins: group %q, project %q", m.ctx.BillingGroupID(), m.ctx.Project())
	}
}

// A refresh the rate limit stopped is a wait the platform asked for: the failing count
// does not grow, the header says when it is tried again, and the next refresh comes
// then, not after the interval or a backoff.
func TestRateLimitedRefreshIsAWaitNotAFailure(t *testing.T) {
	m, root, clk := newModelClock(t, false)
	drive(m, common.RefreshDone{})
	retry := clk.Now().Add(25 * time.Second)
	drive(m, common.RefreshDone{Err: errTest, RetryAt: retry})
	drive(m, common.RefreshDone{Err: errTest, RetryAt: retry})
	header := strings.SplitN(m.View(), "\n", 2)[0]
	if m.live.Failures != 0 || strings.Contains(header, "failing") {
		t.Fatalf("a rate-limit wait counted as a failure: %q", header)
	}
	if !strings.Contains(header, "rate limited · retry "+retry.Format("15:04:05")) {
		t.Errorf("header %q does not say when it is tried again", header)
	}
	before := root.refreshes
	for _, msg := range clk.Advance(20 * time.Second) {
		drive(m, msg)
	}
	if root.refreshes != before {
		t.Fatal("refreshed before the platform's time")
	}
	for _, msg := range clk.Advance(7 * time.Second) {
		drive(m, msg)
	}
	if root.refreshes != before+1 {
		t.Fatalf("not refreshed once the platform's wait was over (%d refreshes)", root.refreshes-before)
	}
}

// A request that panicked is logged by the root with its kind and stack when its result
// is delivered (the view only shows its sentence).
func TestThePanicOfARequestIsLogged(t *testing.T) {
	m, root := newModel(t, false)
	var logged strings.Builder
	m.ctx.Log = slog.New(slog.NewTextHandler(&logged, nil))
	pe := &common.PanicError{Kind: common.NewKind("services"), Value: "decoder bug", Stack: []byte("goroutine 7")}
	drive(m, common.Result[[]int]{Addr: common.Addr{View: root.ID()}, Err: pe})
	if s := logged.String(); !strings.Contains(s, "panic in a request") || !strings.Contains(s, "kind=services") || !strings.Contains(s, "decoder bug") || !strings.Contains(s, "goroutine 7") {
		t.Fatalf("log: %q", s)
	}
}

// tableView is a view with a table: it records the export it is asked for.
type tableView struct {
	fakeView
	got []tea.Msg
}

func (v *tableView) HoldsTable() {}
func (v *tableView) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg.(type) {
	case common.Export, common.Unmark:
		v.got = append(v.got, msg)
	}
	return v, nil
}

func TestExportOnAViewWithoutATableIsASentence(t *testing.T) {
	m, _ := newModel(t, false)
	drive(m, common.Export{Format: common.ExportCSV, File: "/tmp/x.csv"})
	if _, text := m.Message(); !strings.Contains(text, "No table here") {
		t.Fatalf("footer after :export on a view without a table: %q", text)
	}
	drive(m, common.Unmark{})
	if _, text := m.Message(); !strings.Contains(text, "No table here") {
		t.Fatalf("footer after :unmark on a view without a table: %q", text)
	}
	tv := &tableView{fakeView: fakeView{title: "Table"}}
	drive(m, common.PushView{View: tv})
	drive(m, common.Export{Format: common.ExportJSON, File: "/tmp/x.json"})
	drive(m, common.Unmark{})
	if len(tv.got) != 2 {
		t.Fatalf("a view with a table got %v, want the export and the unmark", tv.got)
	}
}
