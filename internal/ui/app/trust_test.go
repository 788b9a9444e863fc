package app

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

func TestSuccessExpiresErrorsGoWhenTheUserMovesOnAndMessagesKeepsThemAll(t *testing.T) {
	m, _, clk := newModelClock(t, false)
	d := uitest.Driver{Model: m, Clock: clk}
	d.Send(common.Notify{Level: theme.LevelSuccess, Text: "Created project x"})
	d.Advance(messageLife - time.Second)
	if _, text := m.Message(); text != "Created project x" {
		t.Fatalf("message gone too early: %q", text)
	}
	d.Advance(time.Second)
	if _, text := m.Message(); text != "" {
		t.Fatalf("success did not expire: %q", text)
	}
	long := "The platform refused: " + strings.Repeat("a very long reason ", 12)
	d.Send(common.Notify{Level: theme.LevelError, Text: long})
	d.Advance(time.Hour)
	if _, text := m.Message(); text != long {
		t.Fatal("an error must stay until the user moves on, not expire on a timer")
	}
	drive(m, keyMsg("2"))
	if _, text := m.Message(); text != "" {
		t.Fatalf("error stayed after moving to another tab: %q", text)
	}
	// :messages shows both, newest first, the long one whole (wrapped).
	drive(m, common.ShowMessages{})
	m.Top().SetSize(80, 30)
	body := ansi.Strip(m.Top().View())
	errAt, okAt := strings.Index(body, "The platform refused"), strings.Index(body, "Created project x")
	if errAt < 0 || okAt < 0 || errAt > okAt {
		t.Fatalf("messages not listed newest first:\n%s", body)
	}
	if !strings.Contains(strings.Join(strings.Fields(body), " "), strings.TrimSpace(strings.Join(strings.Fields(long), " "))) {
		t.Fatalf("long message cut:\n%s", body)
	}
}

func TestCopyOutcomeShowsInsideTheSecretModal(t *testing.T) {
	m, _ := newModel(t, false)
	sec := components.NewSecret(m.ctx, "New user", [][2]string{{"password", "pw"}}, "password", "pw", "", "")
	drive(m, common.OpenModal{Modal: sec})
	drive(m, common.CopyDone{Level: theme.LevelInfo, Text: "Sent the password to your terminal (OSC 52); it lands only if the terminal accepts OSC 52."})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Sent the password to your terminal (OSC 52); it lands only if the") {
		t.Fatalf("copy outcome not inside the modal:\n%s", v)
	}
}

func TestSelectServiceCarriesContextAndTheBreadcrumbShowsIt(t *testing.T) {
	m, _ := newModel(t, false)
	m.session.SetProject("acme-prod")
	drive(m, common.SelectService{Project: "acme-dev", Name: "pg-main", Type: "pg"})
	if m.ctx.Project() != "acme-dev" || m.ctx.Service() != "pg-main" || m.ctx.ServiceType() != "pg" {
		t.Fatalf("context: %q %q %q", m.ctx.Project(), m.ctx.Service(), m.ctx.ServiceType())
	}
	if _, text := m.Message(); !strings.Contains(text, "Current project: acme-dev") {
		t.Fatalf("a project change through a service must be said: %q", text)
	}
	m.active = 2
	if c := strings.Join(m.crumbs(), " › "); !strings.HasPrefix(c, "acme-dev › pg-main") {
		t.Fatalf("crumbs: %q", c)
	}
	// Another project: the service belonged to the old one.
	drive(m, common.SelectProject{Name: "acme-prod"})
	if m.ctx.Service() != "" {
		t.Fatal("the current service must not survive a project change")
	}
}

type tickCounter struct {
	*fakeView
	ticks int
}

func (v *tickCounter) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if _, ok := msg.(common.SpinnerTick); ok {
		v.ticks++
		return v, nil
	}
	return v.fakeView.Update(msg)
}
func (v *tickCounter) Animating() bool { return true }

func TestSpinnerFramesReachTheVisibleViewAsMessages(t *testing.T) {
	m, root := newModel(t, false)
	tv := &tickCounter{fakeView: root}
	m.tabs[0].stack[0] = tv
	m.spinGen = 7
	drive(m, spinTick{gen: 7})
	if tv.ticks != 1 || m.ctx.SpinnerFrame != 1 {
		t.Fatalf("ticks %d frame %d", tv.ticks, m.ctx.SpinnerFrame)
	}
}

func TestHeaderShowsTheClockTimeOfTheLastRefreshNotAnAge(t *testing.T) {
	m, _ := newModel(t, false)
	at := time.Date(2026, 11, 23, 14, 3, 7, 0, time.Local)
	m.ctx.Now = func() time.Time { return at.Add(9 * time.Second) }
	m.live = components.LiveState{Interval: 10 * time.Second, LastOK: at}
	head := ansi.Strip(strings.Split(m.View(), "\n")[0])
	if !strings.Contains(head, "14:03:07") || strings.Contains(head, "just now") {
		t.Fatalf("header: %q", head)
	}
}

func TestAModalThatClosesItselfIsGoneBeforeTheNextKey(t *testing.T) {
	m, root := newModel(t, false)
	drive(m, keyMsg("?"))
	if m.Modal() == nil {
		t.Fatal("help did not open")
	}
	// esc closes the help in its own Update: ":" right after reaches the root (no
	// close message runs later, so none can shut the palette that ":" opens).
	m.Update(keyMsg("esc"))
	m.Update(keyMsg(":"))
	if _, ok := m.Modal().(*components.Palette); !ok {
		t.Fatalf("':' after esc should open the palette, modal is %T", m.Modal())
	}
	_ = root
}

// "last ok" is said only after a success, of the view on top: a view that asked nothing
// (no project yet) or failed does not move it, and another view's success is not its.
func TestHeaderSaysLastOKOnlyAfterASuccessOfThisView(t *testing.T) {
	m, _ := newModel(t, false)
	header := func() string { return strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0] }
	drive(m, common.RefreshDone{Err: errors.New("Invalid token")})
	if h := header(); !strings.Contains(h, "failing (1) · last ok never") {
		t.Fatalf("after a failure: %q", h)
	}
	drive(m, common.RefreshDone{Idle: true})
	if h := header(); !strings.Contains(h, "failing (1) · last ok never") {
		t.Fatalf("an idle load changed the record: %q", h)
	}
	drive(m, common.RefreshDone{})
	if h := header(); !strings.Contains(h, "↻ 10s · "+testStart.Format("15:04:05")) {
		t.Fatalf("after a success: %q", h)
	}
	// Another live view on top has its own record: nothing loaded there yet.
	drive(m, common.PushView{View: &fakeView{id: 99, title: "Detail", interval: 10 * time.Second}})
	if h := header(); !strings.Contains(h, "not loaded yet") || strings.Contains(h, testStart.Format("15:04:05")) {
		t.Fatalf("a new view shows another's success: %q", h)
	}
}

// A deleted (or vanished) current service leaves the session and the breadcrumb, and
// the console says so; a service of another name, or another project's, changes nothing.
func TestGoneServiceLeavesTheSession(t *testing.T) {
	m, _ := newModel(t, false)
	drive(m, common.SelectService{Project: "acme-staging", Name: "pg-ux2", Type: "pg"})
	drive(m, common.Gone{What: common.GoneService, Project: "acme-prod", Name: "pg-ux2"})
	if m.ctx.Service() != "pg-ux2" {
		t.Fatal("another project's service of the same name cleared the current one")
	}
	drive(m, common.Gone{What: common.GoneService, Project: "acme-staging", Name: "pg-ux2"})
	if m.ctx.Service() != "" || m.ctx.ServiceType() != "" || m.ctx.Project() != "acme-staging" {
		t.Fatalf("session after gone: %q %q %q", m.ctx.Project(), m.ctx.Service(), m.ctx.ServiceType())
	}
	if _, text := m.Message(); !strings.Contains(text, "Service pg-ux2 no longer exists; no service is current now") {
		t.Fatalf("not said: %q", text)
	}
	m.active = 2 // Users: a tab that shows the current service in the breadcrumb
	if c := strings.Join(m.crumbs(), " › "); strings.Contains(c, "pg-ux2") {
		t.Fatalf("breadcrumb still names it: %q", c)
	}
	drive(m, common.Gone{What: common.GoneProject, Name: "acme-staging", Deleted: true})
	if m.ctx.Project() != "" {
		t.Fatal("a deleted current project stayed current")
	}
}

// A message about what the person was doing goes when they move on ("Showing invoices in
// every state" stayed on the estimate opened next); one posted by the move itself stays.
func TestMessagesGoWhenThePersonMovesOn(t *testing.T) {
	m, _ := newModel(t, false)
	drive(m, common.Notify{Level: theme.LevelInfo, Text: "Showing invoices in every state"})
	drive(m, keyMsg("2")) // another tab
	if _, text := m.Message(); text != "" {
		t.Fatalf("an earlier message stayed after moving on: %q", text)
	}
	drive(m, keyMsg("1"))
	m.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("z")}) // a key whose commands say something, then move
	drive(m, common.Notify{Level: theme.LevelInfo, Text: "Current project: acme-dev"})
	drive(m, common.PushView{View: &fakeView{id: 77, title: "Detail"}})
	if _, text := m.Message(); text != "Current project: acme-dev" {
		t.Fatalf("the move's own message went: %q", text)
	}
}
