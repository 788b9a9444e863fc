package app

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// formOpener is a list whose c opens a one-field form with ctx.Open, as a create action
// does; as a flow (form, then a review) when flow is set. refuseMsg brings the flow's
// form back refused, as a write's refusal does.
type formOpener struct {
	fakeView
	ctx  *common.Context
	name string
	flow *components.Flow
}

type refuseMsg struct{}

func (f *formOpener) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if _, ok := msg.(refuseMsg); ok {
		return f, f.flow.Refused("name is taken")
	}
	if km, ok := msg.(tea.KeyMsg); !ok || km.String() != "c" {
		_, cmd := f.fakeView.Update(msg)
		return f, cmd
	}
	f.keys = append(f.keys, "c")
	form := components.NewForm(f.ctx, "Create thing", func() tea.Cmd {
		if f.flow != nil {
			f.flow.Then(components.NewReview(f.ctx, "Review thing", nil, func() tea.Cmd { return nil }, nil))
		}
		return nil
	}, huh.NewGroup(huh.NewInput().Title("Name").Value(&f.name)))
	if f.flow == nil {
		return f, f.ctx.Open(form)
	}
	f.flow = components.NewFlow(form)
	return f, f.ctx.Open(f.flow)
}

// driveForm is drive for a model holding a huh form: its cursor blinks are left out.
func driveForm(m *Model, msg tea.Msg) {
	uitest.PumpForm(common.Send(msg), func(msg tea.Msg) tea.Cmd {
		_, cmd := m.Update(msg)
		return cmd
	}, func(tea.Msg) bool { return true })
}

func newOpenerModel(t *testing.T, flow bool) (*Model, *formOpener) {
	t.Helper()
	ctx, session := common.NewRootContext()
	clk := uitest.NewClock(testStart)
	ctx.Now, ctx.After = clk.Now, clk.After
	ctx.Styles = theme.New(theme.Dark, true)
	v := &formOpener{fakeView: fakeView{title: "Things", interval: 10 * time.Second}, ctx: ctx}
	if flow {
		v.flow = &components.Flow{}
	}
	m := New(Options{Context: ctx, Session: session, Tabs: []Tab{
		{ID: common.TabProjects, Name: "Things", New: func(*common.Context) common.View { return v }},
		{ID: common.TabServices, Name: "Services", New: func(*common.Context) common.View { return &fakeView{title: "Services"} }},
	}})
	for _, msg := range run(m.Init()) {
		drive(m, msg)
	}
	drive(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	return m, v
}

// The keys after the one that opened a form reach the form, whether they came in the
// same terminal read or were read before any command ran: the form came as a command's
// message, after them, so "e" and "2" went to the list ("2" switched tabs).
func TestKeysTypedAfterTheKeyThatOpensAFormReachIt(t *testing.T) {
	m, v := newOpenerModel(t, false)
	driveForm(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("ce2")})
	if _, ok := m.Modal().(*components.Form); !ok || v.name != "e2" || m.Active() != 0 || len(v.keys) != 1 {
		t.Fatalf("one read of ce2: modal %T, typed %q, tab %d, the list got %q", m.Modal(), v.name, m.Active(), v.keys)
	}

	m, v = newOpenerModel(t, false)
	// Bubble Tea runs commands in goroutines: the next key may be read before any of
	// them has answered, so the form must be open when Update returns.
	m.Update(keyMsg("c"))
	if _, ok := m.Modal().(*components.Form); !ok {
		t.Fatalf("the form is not open when c's Update returns: %T", m.Modal())
	}
	m.Update(keyMsg("e"))
	m.Update(keyMsg("2"))
	if v.name != "e2" || m.Active() != 0 || len(v.keys) != 1 {
		t.Fatalf("typed %q, tab %d, the list got %q", v.name, m.Active(), v.keys)
	}
}

// A flow's form comes back inside the flow (esc from its review, a refusal): rebuilding
// the form must not open it on its own in the flow's place.
func TestAFlowsFormComesBackInsideTheFlow(t *testing.T) {
	m, v := newOpenerModel(t, true)
	driveForm(m, keyMsg("c"))
	driveForm(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("abc")})
	driveForm(m, keyMsg("enter"))
	if f, ok := m.Modal().(*components.Flow); !ok || v.name != "abc" {
		t.Fatalf("after enter: modal %T, typed %q", m.Modal(), v.name)
	} else if _, ok := f.Current().(*components.Review); !ok {
		t.Fatalf("after enter the flow shows %T, want the review", f.Current())
	}
	driveForm(m, keyMsg("esc"))
	if f, ok := m.Modal().(*components.Flow); !ok || f.Current() != f.Form() {
		t.Fatalf("esc from the review: modal %T, want the flow back on its form", m.Modal())
	}
	driveForm(m, keyMsg("esc"))
	driveForm(m, keyMsg("y"))
	if m.Modal() != nil {
		t.Fatalf("the flow did not close: %T", m.Modal())
	}
	driveForm(m, refuseMsg{})
	if f, ok := m.Modal().(*components.Flow); !ok || f.Current() != f.Form() {
		t.Fatalf("refused: modal %T, want the flow on its form", m.Modal())
	}
}

// navigator is a list whose enter pushes a child with ctx.Push, whose b goes back with
// ctx.Pop (as a filter chosen in a stats view does) and whose s switches to the
// Services tab with ctx.Go, as views drill down, go back and switch tabs.
type navigator struct {
	fakeView
	ctx *common.Context
}

func (n *navigator) Update(msg tea.Msg) (common.View, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return n, nil
	}
	n.keys = append(n.keys, km.String())
	switch km.String() {
	case "enter":
		return n, n.ctx.Push(&navigator{fakeView: fakeView{title: n.title + "/child"}, ctx: n.ctx})
	case "b":
		return n, n.ctx.Pop()
	case "s":
		return n, n.ctx.Go(common.SwitchTab{Tab: common.TabServices})
	}
	return n, nil
}

func newNavigatorModel(t *testing.T) (*Model, *navigator, *fakeView) {
	t.Helper()
	ctx, session := common.NewRootContext()
	clk := uitest.NewClock(testStart)
	ctx.Now, ctx.After = clk.Now, clk.After
	ctx.Styles = theme.New(theme.Dark, true)
	root := &navigator{fakeView: fakeView{title: "Things"}, ctx: ctx}
	services := &fakeView{title: "Services"}
	m := New(Options{Context: ctx, Session: session, Tabs: []Tab{
		{ID: common.TabProjects, Name: "Things", New: func(*common.Context) common.View { return root }},
		{ID: common.TabServices, Name: "Services", New: func(*common.Context) common.View { return services }},
	}})
	for _, msg := range run(m.Init()) {
		drive(m, msg)
	}
	drive(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	return m, root, services
}

// The keys after the one that drills down, goes back or switches tabs reach the view it
// brought up, though no command has run in between (Bubble Tea may read them first):
// the push, the pop and the tab came as commands' messages, after them.
func TestKeysTypedAfterNavigationReachTheViewItBroughtUp(t *testing.T) {
	m, root, services := newNavigatorModel(t)
	m.Update(keyMsg("enter"))
	child, ok := m.Top().(*navigator)
	if !ok || child == root {
		t.Fatalf("enter's Update returned without the child on top: %s", m.Top().Title())
	}
	m.Update(keyMsg("x"))
	m.Update(keyMsg("b"))
	m.Update(keyMsg("y"))
	if got := strings.Join(child.keys, " "); got != "x b" {
		t.Errorf("the child got %q, want x b", got)
	}
	if got := strings.Join(root.keys, " "); got != "enter y" || m.Depth() != 1 {
		t.Errorf("the list got %q at depth %d, want enter y at depth 1", got, m.Depth())
	}

	// One read: s switches tabs, k reaches Services.
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("sk")})
	if m.Active() != 1 || strings.Join(services.keys, " ") != "k" || strings.Join(root.keys, " ") != "enter y s" {
		t.Errorf("after sk: tab %d, services got %q, the list got %q", m.Active(), services.keys, root.keys)
	}
}
