package access

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

func topicsView(t *testing.T, f *fake.API) *Topics {
	t.Helper()
	v := NewTopics(newCtx(f, models.RoleAdmin), target{Project: "acme-prod", Service: "kafka-events", Type: "kafka"})
	v.SetSize(100, 20)
	run(t, v, v.Init())
	return v
}

func TestUnsupportedKindsSayWhy(t *testing.T) {
	if got := unsupported(common.AccessACL, "pg-main", "pg"); !strings.Contains(got, "only on Kafka") {
		t.Fatal(got)
	}
	if got := unsupported(common.AccessDatabases, "kafka-events", "kafka"); !strings.Contains(got, "PostgreSQL and MySQL") {
		t.Fatal(got)
	}
	if unsupported(common.AccessTopics, "k", "kafka") != "" || unsupported(common.AccessDatabases, "m", "mysql") != "" {
		t.Fatal("supported kinds refused")
	}
}

func TestAViewOpenedWithoutTheTypeLearnsItAndSaysWhy(t *testing.T) {
	f := newFake()
	ctx := newCtx(f, models.RoleAdmin)
	v := NewDatabases(ctx, target{Project: "acme-prod", Service: "kafka-events"})
	v.SetSize(100, 10)
	run(t, v, v.Init())
	if !strings.Contains(v.View(), "Databases exist only on PostgreSQL and MySQL services; kafka-events is a kafka service.") {
		t.Fatalf("view:\n%s", v.View())
	}
	if h := v.ShortHelp(); len(h) != 1 {
		t.Fatalf("actions offered on a service without databases: %v", h)
	}
	_, cmd := v.Update(press("c"))
	if msgs := run(t, v, cmd); modalOf(msgs) != nil || len(writes(f)) != 0 {
		t.Fatal("create went ahead on a kafka service")
	}
}

func TestTopicsInProgressIsStillAndAsksForTheScreenSpinner(t *testing.T) {
	f := newFake()
	f.AddTopics("acme-prod", "kafka-events", models.Topic{TopicName: "a", State: "ACTIVE"}, models.Topic{TopicName: "b", State: "CONFIGURING"})
	v := topicsView(t, f)
	if v.RefreshInterval() != common.FastRefresh || !v.Animating() {
		t.Fatal("a configuring topic should refresh fast and spin")
	}
	before := v.View()
	v.Ctx.SpinnerFrame++
	v.Update(common.SpinnerTick{})
	if v.View() != before || !strings.Contains(v.View(), theme.InProgressGlyph+" CONFIGURING") {
		t.Fatalf("a spinner frame changed the row:\n%s", v.View())
	}
	f.PutTopic("acme-prod", "kafka-events", models.Topic{TopicName: "b", State: "ACTIVE"})
	run(t, v, v.Load())
	if v.RefreshInterval() != v.Ctx.Refresh || v.Animating() {
		t.Fatal("all ACTIVE: back to the normal interval")
	}
}

func TestTopicReplicationIsCheckedAgainstTheNodeCountAsTyped(t *testing.T) {
	f := newFake() // kafka-events has 3 nodes
	v := topicsView(t, f)
	_, cmd := v.Update(press("c"))
	form, ok := modalOf(run(t, v, cmd)).(*components.Form)
	if !ok {
		t.Fatal("no create form")
	}
	form.SetSize(100, 40)
	backspace := tea.KeyMsg{Type: tea.KeyBackspace}
	drive(t, form, append(textKeys("t1"), enter, enter, backspace, press("4"))...)
	if got := form.LiveError(); got != "replication 4 is more than kafka-events's 3 nodes" {
		t.Fatalf("live error %q", got)
	}
	if msgs := drive(t, form, enter); modalOf(msgs) != nil || len(writes(f)) != 0 {
		t.Fatal("a replication above the node count was sent")
	}
	drive(t, form, backspace, press("3"))
	if v := form.Huh().GetFocusedField().GetValue(); v != "3" {
		t.Fatalf("focus left the replication field: %v", v)
	}
	if got := form.LiveError(); got != "" {
		t.Fatalf("3 of 3 nodes refused: %q", got)
	}
}

func TestCreatedTopicDatabaseAndACLGetTheCursor(t *testing.T) {
	f := newFake()
	f.AddTopics("acme-prod", "kafka-events", models.Topic{TopicName: "a", State: "ACTIVE"}, models.Topic{TopicName: "z", State: "ACTIVE"})
	v := topicsView(t, f)
	msgs := submit(t, v, v.form(3), "m.new", 3)
	if v.Table.SelectedKey() != "m.new" {
		t.Fatalf("topic: cursor on %q (%q)", v.Table.SelectedKey(), notices(msgs))
	}

	f = newFake()
	f.AddDatabases("acme-prod", "pg-main", models.Database{DatabaseName: "a"}, models.Database{DatabaseName: "z"})
	d := NewDatabases(newCtx(f, models.RoleAdmin), target{Project: "acme-prod", Service: "pg-main", Type: "pg"})
	d.SetSize(100, 20)
	run(t, d, d.Init())
	submit(t, d, d.form(), "m_db", 1)
	if d.Table.SelectedKey() != "m_db" {
		t.Fatalf("database: cursor on %q", d.Table.SelectedKey())
	}

	f = newFake()
	f.AddUsers("acme-prod", "kafka-events", models.ServiceUser{Username: "app"}, models.ServiceUser{Username: ""})
	f.AddACLs("acme-prod", "kafka-events", models.ACL{ID: "acl1", Username: "app", Topic: "a", Permission: models.PermRead},
		models.ACL{ID: "acl2", Username: "app", Topic: "z", Permission: models.PermRead})
	a := NewACLs(newCtx(f, models.RoleAdmin), target{Project: "acme-prod", Service: "kafka-events", Type: "kafka"})
	a.SetSize(100, 20)
	run(t, a, a.Init())
	_, cmd := a.Update(press("c"))
	form, ok := modalOf(run(t, a, cmd)).(*components.Form)
	if !ok {
		t.Fatal("no ACL form")
	}
	// user (the nameless entry is not offered), topic, permission.
	msgs = submitKeys(t, a, form, append(append([]tea.Msg{enter}, textKeys("m-*")...), enter, enter)...)
	if got := writes(f); len(got) != 1 || got[0] != "CreateACL acme-prod kafka-events app m-* read" {
		t.Fatalf("calls %q (%q)", got, notices(msgs))
	}
	if a.Table.SelectedKey() != fake.ACLID(models.CreateACLRequest{Username: "app", Topic: "m-*", Permission: models.PermRead}) {
		t.Fatalf("ACL: cursor on %q", a.Table.SelectedKey())
	}
}

func TestUnknownOutcomeOfACreateThatDidNotHappen(t *testing.T) {
	f := newFake()
	failCreates(f, fake.ErrLost) // the answer is lost and nothing was created
	v := topicsView(t, f)
	msgs := submit(t, v, v.form(3), "gone", 3)
	got := strings.Join(notices(msgs), "\n")
	if !strings.Contains(got, "Topic gone does not exist: nothing was created") {
		t.Fatalf("notices:\n%s", got)
	}
	if calls := writes(f); len(calls) != 1 {
		t.Fatalf("sent again: %q", calls)
	}
	if modalOf(msgs) != nil {
		t.Fatal("an unknown outcome must not bring the form back to send again by itself")
	}
}

func TestRefusedTopicNamesTheReplicationField(t *testing.T) {
	f := newFake()
	failCreates(f, errors.New("Invalid replication: 3 is more than the service's 2 nodes"))
	v := topicsView(t, f)
	form := v.form(0) // node count unknown: the platform checks
	msgs := submit(t, v, form, "t9", 3)
	m, ok := modalOf(msgs).(*components.Form)
	if !ok || m != form {
		t.Fatal("the form did not come back")
	}
	m.SetSize(100, 40)
	if !strings.Contains(m.View(), "see Replication") {
		t.Fatalf("refusal not at the field:\n%s", m.View())
	}
}

func TestNamelessRowsBuildNoRequest(t *testing.T) {
	f := withUsers(models.ServiceUser{Username: "", Type: "regular"})
	u, _ := usersView(t, f, models.RoleAdmin)
	u.Table.Select("")
	for _, k := range []string{"R", "d", "o"} {
		_, cmd := u.Update(press(k))
		msgs := run(t, u, cmd)
		if modalOf(msgs) != nil {
			t.Fatalf("%s opened a modal on a nameless user", k)
		}
		if got := notices(msgs); len(got) != 1 || !strings.Contains(got[0], "has no name") {
			t.Fatalf("%s: notices %q", k, got)
		}
	}
	// A confirmation built earlier (or offered after a read-back) refuses too.
	if got := notices(run(t, u, u.reset(""))); len(got) != 1 || !strings.Contains(got[0], "has no name") {
		t.Fatalf("reset of an empty name: %q", got)
	}
	if len(writes(f)) != 0 {
		t.Fatalf("requests sent: %v", writes(f))
	}
}

func TestDeleteWhereThePlatformHasNoneSaysSo(t *testing.T) {
	f := newFake()
	d := NewDatabases(newCtx(f, models.RoleAdmin), target{Project: "acme-prod", Service: "pg-main", Type: "pg"})
	d.SetSize(100, 20)
	run(t, d, d.Init())
	_, cmd := d.Update(press("d"))
	msgs := run(t, d, cmd)
	if got := notices(msgs); len(got) != 1 || !strings.Contains(got[0], "cannot delete databases") {
		t.Fatalf("notices %q", got)
	}
}

func TestDeleteErrorShowsPlatformMessage(t *testing.T) {
	f := withUsers(models.ServiceUser{Username: "app", Type: "regular"})
	f.On(fake.DeleteUser).Fail(errors.New("Forbidden: not allowed"))
	u, _ := usersView(t, f, "")
	u.Table.Select("app")
	_, cmd := u.Update(press("d"))
	tc := modalOf(run(t, u, cmd)).(*components.TypedConfirm)
	typeInto(tc, "app")
	_, cmd = tc.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if got := notices(run(t, u, cmd)); len(got) == 0 || got[len(got)-1] != "Forbidden: not allowed" {
		t.Fatalf("notices %q", got)
	}
}

func TestConnectWithoutAKnownPasswordSaysHowToGetOne(t *testing.T) {
	f := withUsers(models.ServiceUser{Username: "app", Type: "regular"})
	u, _ := usersView(t, f, models.RoleAdmin)
	u.Table.Select("app")
	_, cmd := u.Update(press("o"))
	got := notices(run(t, u, cmd))
	if len(got) != 1 || !strings.Contains(got[0], "svcui does not know the password of app") || !strings.Contains(got[0], "reset app's credentials with R") {
		t.Fatalf("notices %q", got)
	}
}

func TestConnectUsesThePasswordThisSessionReceived(t *testing.T) {
	// A psql on PATH that is never run: Plan only looks it up.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "psql"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	f := withUsers(models.ServiceUser{Username: "app", Type: "regular"})
	u, ctx := usersView(t, f, models.RoleAdmin)
	ctx.RememberPassword("acme-prod", "pg-main", "app", "AVNS_known")
	u.Table.Select("app")
	_, cmd := u.Update(press("o"))
	var res common.Result[plan]
	for _, m := range run(t, swallow{u}, cmd) {
		if r, ok := m.(common.Result[plan]); ok {
			res = r
		}
	}
	if res.Err != nil || res.Value.session == nil {
		t.Fatalf("not planned: %v", res.Err)
	}
	defer func() { _ = res.Value.session.Cleanup() }()
	if d := res.Value.session.Describe(); !strings.Contains(d, "password of app from a temporary file") {
		t.Fatalf("the session does not use app's password: %s", d)
	}
	if strings.Contains(strings.Join(res.Value.session.Cmd.Args, " "), "AVNS_known") {
		t.Fatal("the password is on the command line")
	}
}

// swallow is a view that drops what it is given, so a test can look at a result
// before the view acts on it.
type swallow struct{ *Users }

func (s swallow) Update(tea.Msg) (common.View, tea.Cmd) { return s, nil }

func TestPickerAsksOnlyWithoutACurrentServiceAndMakesTheChoiceCurrent(t *testing.T) {
	ctx := newCtx(newFake(), models.RoleAdmin)
	p := New(ctx).(*Picker)
	p.SetSize(100, 20)
	run(t, p, p.Init())
	_, cmd := p.Update(common.OpenAccess{Project: "acme-prod", View: common.AccessTopics})
	if got := notices(run(t, p, cmd)); len(got) != 1 || !strings.Contains(got[0], "Choose a service") {
		t.Fatalf("notices %q", got)
	}
	p.Table.Select("kafka-events")
	_, cmd = p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	msgs := run(t, p, cmd)
	var sel common.SelectService
	var push common.PushView
	for _, m := range msgs {
		switch m := m.(type) {
		case common.SelectService:
			sel = m
		case common.PushView:
			push = m
		}
	}
	if sel != (common.SelectService{Project: "acme-prod", Name: "kafka-events", Type: "kafka"}) {
		t.Fatalf("choice not made current: %+v", sel)
	}
	if v, ok := push.View.(*Topics); !ok || v.svc.t != (target{"acme-prod", "kafka-events", "kafka"}) {
		t.Fatalf("pushed %T", push.View)
	}
	// An explicit service (from a service's detail) is opened and selected under the cursor.
	uitest.Session(ctx).SetService("kafka-events", "kafka")
	_, cmd = p.Update(common.OpenAccess{Project: "acme-prod", Service: "pg-main", View: common.AccessDatabases})
	msgs = run(t, p, cmd)
	push = common.PushView{}
	for _, m := range msgs {
		if pv, ok := m.(common.PushView); ok {
			push = pv
		}
	}
	if v, ok := push.View.(*Databases); !ok || v.svc.t.Type != "pg" || p.Table.SelectedKey() != "pg-main" {
		t.Fatalf("pushed %T, selected %q", push.View, p.Table.SelectedKey())
	}
}

func TestPaletteCommandsOpenTheCurrentServicesView(t *testing.T) {
	ctx := uitest.NewContext()
	uitest.Session(ctx).SetProject("acme-prod")
	cmds := map[string]common.Command{}
	for _, c := range Commands() {
		cmds[c.Name] = c
		if c.Mutating {
			t.Fatalf("%s is not mutating", c.Name)
		}
	}
	// No current service: the picker asks.
	if msg := cmds["users"].Run(ctx, "")().(common.OpenAccess); msg.Service != "" || msg.View != common.AccessUsers {
		t.Fatalf("%+v", msg)
	}
	// `:service pg-main` then `:databases` opens pg-main's databases.
	uitest.Session(ctx).SetService("pg-main", "pg")
	for _, view := range []string{common.AccessUsers, common.AccessACL, common.AccessTopics, common.AccessDatabases} {
		msg := cmds[view].Run(ctx, "")().(common.OpenAccess)
		if msg != (common.OpenAccess{Project: "acme-prod", Service: "pg-main", ServiceType: "pg", View: view}) {
			t.Fatalf("%s: %+v", view, msg)
		}
	}
	// Only valid targets are offered for the argument.
	if cmds["topics"].Accepts(ctx, "pg-main") || cmds["acl"].Accepts(ctx, "pg-main") || !cmds["databases"].Accepts(ctx, "pg-main") || !cmds["users"].Accepts(ctx, "pg-main") {
		t.Fatal("Accepts offers a service the view cannot show")
	}
	// A named service, which must exist.
	ctx.ServiceNames["acme-prod"] = []string{"kafka-events", "pg-main"}
	if msg := cmds["topics"].Run(ctx, "kafka-events")().(common.OpenAccess); msg.Service != "kafka-events" || msg.ServiceType != "" {
		t.Fatalf("%+v", msg)
	}
	if n, ok := cmds["topics"].Run(ctx, "nope")().(common.Notify); !ok || !strings.Contains(n.Text, "No service named") {
		t.Fatalf("unknown service: %+v", n)
	}
}
