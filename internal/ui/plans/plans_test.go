package plans

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/fleet"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/uitest"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
	"github.com/svcui/svcui/internal/ui/watch"
)

func testContext(t *testing.T, api common.Client) *common.Context {
	ctx := common.NewContext()
	fake.Connect(ctx, api)
	ctx.StateDir = t.TempDir()
	ctx.Profile = "test"
	return ctx
}

func pump(m *components.Plan, cmd tea.Cmd) []tea.Msg {
	return uitest.Pump(cmd, func(msg tea.Msg) tea.Cmd { _, c := m.Update(msg); return c }, func(msg tea.Msg) bool {
		switch msg.(type) {
		case components.PlanProgress, components.PlanFinished, components.PlanNote:
			return true
		}
		return false
	})
}

func keys(m *components.Plan, ks ...tea.KeyMsg) tea.Cmd {
	var cmds []tea.Cmd
	for _, k := range ks {
		_, c := m.Update(k)
		cmds = append(cmds, c)
	}
	return tea.Sequence(cmds...)
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

var enter = tea.KeyMsg{Type: tea.KeyEnter}

// A kept plan resumes from where it stopped: done rows are not sent again, and rows
// whose change is already there are checked and not sent.
func TestAKeptPlanResumesWhereItStopped(t *testing.T) {
	api := fake.New()
	api.AddServices("p", models.Service{ServiceName: "a", TerminationProtection: true}, models.Service{ServiceName: "b", TerminationProtection: true},
		models.Service{ServiceName: "c"}, models.Service{ServiceName: "d"})
	ctx := testContext(t, api)
	on := &models.UpdateServiceRequest{TerminationProtection: models.Ptr(true)}
	kept := fleet.Plan{ID: "20260101-000000.000000", Title: "Protect 4", Noun: "service", Rows: []fleet.Row{
		{Op: fleet.OpServiceUpdate, Project: "p", Service: "a", Update: on, State: fleet.StateDone},
		{Op: fleet.OpServiceUpdate, Project: "p", Service: "b", Update: on, State: fleet.StateUnknown, Result: "answer lost"},
		{Op: fleet.OpServiceUpdate, Project: "p", Service: "c", Update: on, State: fleet.StatePending},
		{Op: fleet.OpServiceUpdate, Project: "p", Service: "d", Update: on, State: fleet.StatePending},
	}}
	dir := fleet.Dir(ctx.StateDir, ctx.Profile)
	if err := fleet.Save(dir, kept); err != nil {
		t.Fatal(err)
	}
	l := NewList(ctx)
	l.SetSize(120, 20)
	for _, m := range uitest.Run(l.Init()) {
		uitest.Run(l.Handle(m))
	}
	if v := ansi.Strip(l.View()); !strings.Contains(v, "Protect 4") {
		t.Fatalf(":plans:\n%s", v)
	}
	var m *components.Plan
	for _, msg := range uitest.Run(l.Handle(enter)) {
		if o, ok := msg.(common.OpenModal); ok {
			m = o.Modal.(*components.Plan)
		}
	}
	if m == nil {
		t.Fatal("enter did not resume")
	}
	m.SetSize(120, 40)
	if c := m.Counts(); c[components.RowDone] != 1 || c[components.RowUnknown] != 1 {
		t.Fatalf("resumed counts %v", c)
	}
	// The typed number is of the rows it still sends: b (read back: already so), c, d.
	pump(m, keys(m, enter, runes("3"), enter))
	if c := m.Counts(); c[components.RowDone] != 4 {
		t.Fatalf("after resume %v", c)
	}
	puts := func(s string) int { return api.Count(fake.UpdateService, "p", s) }
	if puts("a") != 0 || puts("b") != 0 || puts("c") != 1 || puts("d") != 1 {
		t.Fatalf("puts %v", api.Writes())
	}
	if ps, _, _ := fleet.List(dir); len(ps) != 0 {
		t.Fatalf("a finished plan is still kept")
	}
}

// Stopping a plan sends nothing more and keeps it; the kept file holds no password.
func TestAStoppedPlanIsKeptWithoutSecrets(t *testing.T) {
	api := fake.New()
	api.AddUsers("p", "pg", models.ServiceUser{Username: "app_1"}, models.ServiceUser{Username: "app_2"})
	ctx := testContext(t, api)
	users := fleet.Plan{ID: fleet.NewID(time.Now()), Title: "Reset 2", Noun: "user", Rows: []fleet.Row{
		{Op: fleet.OpUserReset, Project: "p", Service: "pg", User: "app_1", State: fleet.StatePending},
		{Op: fleet.OpUserReset, Project: "p", Service: "pg", User: "app_2", State: fleet.StatePending},
	}}
	m, _ := NewModal(ctx, users, nil, false)
	m.SetSize(120, 40)
	pump(m, keys(m, enter, runes("2"), enter))
	if n := api.Count(fake.ResetCredentials); n != 2 || m.Counts()[components.RowDone] != 2 {
		t.Fatalf("resets %d", n)
	}
	secrets := []string{fake.ResetPassword("app_1"), fake.ResetPassword("app_2")}
	if v := m.View(); strings.Contains(v, secrets[0]) || strings.Contains(v, secrets[1]) || !strings.Contains(v, "password") {
		t.Fatal("passwords are not masked")
	}

	svcs := fleet.Plan{ID: "s1", Title: "Protect 40", Noun: "service"}
	for i := 0; i < 40; i++ {
		name := string(rune('a'+i%26)) + string(rune('a'+i/26))
		api.AddServices("p", models.Service{ServiceName: name})
		svcs.Rows = append(svcs.Rows, fleet.Row{Op: fleet.OpServiceUpdate, Project: "p", Service: name,
			Update: &models.UpdateServiceRequest{TerminationProtection: models.Ptr(true)}, State: fleet.StatePending})
	}
	gate := api.On(fake.UpdateService).Hold()
	m, _ = NewModal(ctx, svcs, nil, false)
	m.SetSize(120, 40)
	keys(m, enter, runes("40"))
	_, start := m.Update(enter)
	done := make(chan []tea.Msg)
	go func() { done <- pump(m, start) }()
	gate.WaitHeld(1) // the first write is in flight
	m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	gate.Release()
	<-done
	c := m.Counts()
	if c[components.RowDone] == 0 || c[components.RowPending] == 0 || c[components.RowDone] > Workers+1 {
		t.Fatalf("after stop: %v", c)
	}
	dir := fleet.Dir(ctx.StateDir, ctx.Profile)
	ps, _, _ := fleet.List(dir)
	if len(ps) != 1 || ps[0].Left() != c[components.RowPending] {
		t.Fatalf("kept %v", ps)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if b, _ := os.ReadFile(f); strings.Contains(string(b), secrets[0]) || strings.Contains(string(b), secrets[1]) {
			t.Fatalf("a password was kept in %s", f)
		}
	}
}

// A plan kept with rows left (here one reset refused) keeps no password of the rows
// that were done.
func TestAKeptResetPlanHoldsNoPassword(t *testing.T) {
	api := fake.New()
	api.AddUsers("p", "pg", models.ServiceUser{Username: "app_1"}, models.ServiceUser{Username: "app_2"})
	api.On(fake.ResetCredentials, "p", "pg", "app_2").Fail(errors.New("Forbidden"))
	ctx := testContext(t, api)
	users := fleet.Plan{ID: fleet.NewID(time.Now()), Title: "Reset 2", Noun: "user", Rows: []fleet.Row{
		{Op: fleet.OpUserReset, Project: "p", Service: "pg", User: "app_1", State: fleet.StatePending},
		{Op: fleet.OpUserReset, Project: "p", Service: "pg", User: "app_2", State: fleet.StatePending},
	}}
	m, _ := NewModal(ctx, users, nil, false)
	m.SetSize(120, 40)
	pump(m, keys(m, enter, runes("2"), enter))
	if c := m.Counts(); c[components.RowDone] != 1 || c[components.RowRefused] != 1 {
		t.Fatalf("counts %v", c)
	}
	dir := fleet.Dir(ctx.StateDir, ctx.Profile)
	if ps, _, _ := fleet.List(dir); len(ps) != 1 {
		t.Fatalf("kept %v, want the plan with its refused row", ps)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if b, _ := os.ReadFile(f); strings.Contains(string(b), fake.ResetPassword("app_1")) {
			t.Fatalf("a password was kept in %s", f)
		}
	}
}

// The budget spaces a plan's requests over the limit's minute, and waits for the window
// to reset when what is left is the reserve a key press needs.
func TestBudgetPacesToTheRateLimit(t *testing.T) {
	now := time.Unix(1000, 0)
	rl := common.RateLimit{Known: true, Limit: 600, Remaining: 500, Reset: now.Add(30 * time.Second)}
	var waits []time.Duration
	b := &rateBudget{limit: func() common.RateLimit { return rl }, now: func() time.Time { return now },
		sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
	_ = b.Take(context.Background())
	_ = b.Take(context.Background())
	rl.Remaining = 100 // the reserve (a fifth of 600)
	_ = b.Take(context.Background())
	if waits[0] != 0 || waits[1] != 100*time.Millisecond || waits[2] != 30*time.Second {
		t.Fatalf("waits %v", waits)
	}
}

// A plan's request waits for the client's budget owner as well: bulk work leaves a
// quarter of the limit to key presses (common.Platform.WaitBulk, api.Budget).
func TestBudgetWaitsForTheBudgetOwner(t *testing.T) {
	ctx := common.NewContext()
	asked := 0
	held := errors.New("held")
	ctx.Platform.WaitBulk = func(context.Context) error { asked++; return held }
	b := newRateBudget(ctx)
	if err := b.Take(context.Background()); !errors.Is(err, held) || asked != 1 {
		t.Fatalf("Take = %v after %d waits on the budget owner", err, asked)
	}
}

// :export takes csv or json and a file; anything else is a clear error and no export.
func TestExportCommandArguments(t *testing.T) {
	for arg, want := range map[string]string{"csv out.csv": "", "JSON ~/x.json": "", "xml out.xml": "Export what?", "csv": "Export to which file?"} {
		msg, err := parseExport(arg)
		if !strings.HasPrefix(err, want) || (want == "" && msg.File == "") || (want != "" && msg.File != "") {
			t.Fatalf("%q: %+v %q", arg, msg, err)
		}
	}
}

// A service a plan powers off is watched until it settles, as after a single edit.
func TestAPoweredOffServiceIsWatched(t *testing.T) {
	api := fake.New()
	api.AddServices("p", models.Service{ServiceName: "a", State: models.StateRunning})
	ctx := testContext(t, api)
	p := fleet.Plan{ID: "w1", Title: "Power off 1", Noun: "service", Rows: []fleet.Row{{Op: fleet.OpServiceUpdate, Project: "p", Service: "a",
		Update: &models.UpdateServiceRequest{Powered: models.Ptr(false)}, State: fleet.StatePending}}}
	m, _ := NewModal(ctx, p, nil, false)
	var started []watch.Start
	for _, msg := range pump(m, keys(m, enter, runes("1"), enter)) {
		if s, ok := msg.(watch.Start); ok {
			started = append(started, s)
		}
	}
	if len(started) != 1 || started[0].Reason != "power off" || started[0].State != models.StatePowerOff {
		t.Fatalf("watches %+v", started)
	}
}
