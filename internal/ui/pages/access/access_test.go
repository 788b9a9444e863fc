package access

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// fakeAPI answers the calls this pane makes and records the mutating ones.
type fakeAPI struct {
	common.API
	mu      sync.Mutex
	users   []models.ServiceUser
	calls   []string
	deleteE error
}

func (f *fakeAPI) record(s string) { f.mu.Lock(); f.calls = append(f.calls, s); f.mu.Unlock() }

func (f *fakeAPI) ListServices(context.Context, string) ([]models.Service, error) {
	return []models.Service{{ServiceName: "pg-main", ServiceType: "pg", State: "RUNNING"}, {ServiceName: "kafka-events", ServiceType: "kafka", State: "RUNNING"}}, nil
}
func (f *fakeAPI) GetService(_ context.Context, _, s string) (models.Service, error) {
	return models.Service{ServiceName: s, ServiceType: "pg", ServiceURI: "postgres://avnadmin:old@db.example:5432/defaultdb?sslmode=require"}, nil
}
func (f *fakeAPI) ListUsers(context.Context, string, string) ([]models.ServiceUser, error) {
	return f.users, nil
}
func (f *fakeAPI) CreateUser(_ context.Context, _, _ string, req models.CreateUserRequest) (models.ServiceUser, error) {
	f.record("create " + req.Username + " " + req.Authentication)
	return models.ServiceUser{Username: req.Username, Type: "regular", Password: "AVNS_secret1"}, nil
}
func (f *fakeAPI) ResetCredentials(_ context.Context, _, _, u string) (models.ServiceUser, error) {
	f.record("reset " + u)
	return models.ServiceUser{Username: u, Password: "AVNS_secret2"}, nil
}
func (f *fakeAPI) DeleteUser(_ context.Context, _, _, u string) error {
	f.record("delete " + u)
	return f.deleteE
}

// run executes cmd and every command it produces, collecting the messages (batches and
// sequences flattened), and feeds addressed results back into v.
func run(t *testing.T, v common.View, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	var out []tea.Msg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 && len(out) < 100 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, m...)
		case nil:
		default:
			if seq := sequenceCmds(m); seq != nil {
				queue = append(queue, seq...)
				continue
			}
			out = append(out, m)
			if _, ok := m.(common.Addressed); ok {
				_, next := v.Update(m)
				queue = append(queue, next)
			}
		}
	}
	return out
}

// sequenceCmds unpacks tea.Sequence's unexported message type (a []tea.Cmd underneath).
func sequenceCmds(m tea.Msg) []tea.Cmd {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeOf(tea.Cmd(nil)) {
		return nil
	}
	out := make([]tea.Cmd, v.Len())
	for i := range out {
		out[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return out
}

func notices(msgs []tea.Msg) []string {
	var s []string
	for _, m := range msgs {
		if n, ok := m.(common.Notify); ok {
			s = append(s, n.Text)
		}
	}
	return s
}

func modalOf(msgs []tea.Msg) common.Modal {
	for _, m := range msgs {
		if o, ok := m.(common.OpenModal); ok {
			return o.Modal
		}
	}
	return nil
}

func press(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func usersView(t *testing.T, f *fakeAPI, role models.Role) (*Access, *common.Context) {
	t.Helper()
	ctx := common.NewContext()
	ctx.API, ctx.Project = f, "acme-prod"
	if role != "" {
		ctx.Roles["acme-prod"] = role
	}
	a := NewAccess(ctx, target{Project: "acme-prod", Service: "pg-main", Type: "pg"}, common.AccessUsers)
	a.SetSize(100, 20)
	run(t, a, a.Init())
	return a, ctx
}

func TestPrimaryUserDeleteRefusedBeforeRequest(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "avnadmin", Type: models.UserPrimary}, {Username: "app", Type: "regular"}}}
	a, _ := usersView(t, f, models.RoleAdmin)
	a.table.Select("avnadmin")
	_, cmd := a.Update(press("d"))
	msgs := run(t, a, cmd)
	if modalOf(msgs) != nil {
		t.Fatal("a confirmation opened for the primary user")
	}
	if got := notices(msgs); len(got) != 1 || got[0] != PrimaryRefusal {
		t.Fatalf("notices %q", got)
	}
	if len(f.calls) != 0 {
		t.Fatalf("requests sent: %v", f.calls)
	}
}

func TestDeveloperMayNotDeleteButMayReset(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}}}
	a, _ := usersView(t, f, models.RoleDeveloper)
	a.table.Select("app")
	_, cmd := a.Update(press("d"))
	msgs := run(t, a, cmd)
	if modalOf(msgs) != nil || len(f.calls) != 0 {
		t.Fatalf("developer delete went ahead: %v", f.calls)
	}
	if got := notices(msgs); len(got) != 1 || !strings.Contains(got[0], "only an admin may delete") {
		t.Fatalf("notices %q", got)
	}
	_, cmd = a.Update(press("R"))
	m := modalOf(run(t, a, cmd))
	if _, ok := m.(*components.Confirm); !ok {
		t.Fatalf("reset should ask first, got %T", m)
	}
}

func TestReadOnlyRefusesEveryMutation(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}}}
	a, ctx := usersView(t, f, models.RoleAdmin)
	ctx.ReadOnly = true
	a.table.Select("app")
	for _, k := range []string{"c", "R", "d"} {
		_, cmd := a.Update(press(k))
		msgs := run(t, a, cmd)
		if modalOf(msgs) != nil {
			t.Fatalf("%s opened a modal in read-only mode", k)
		}
		if got := notices(msgs); len(got) != 1 || !strings.HasPrefix(got[0], "Read-only mode") {
			t.Fatalf("%s: notices %q", k, got)
		}
	}
	if len(f.calls) != 0 {
		t.Fatalf("requests sent: %v", f.calls)
	}
}

func TestResetShowsSecretWithUserURI(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}}}
	a, _ := usersView(t, f, models.RoleAdmin)
	a.table.Select("app")
	_, cmd := a.Update(press("R"))
	confirm := modalOf(run(t, a, cmd))
	_, cmd = confirm.Update(press("y"))
	msgs := run(t, a, cmd)
	secret, ok := modalOf(msgs).(*components.Secret)
	if !ok {
		t.Fatalf("no secret modal: %v", msgs)
	}
	secret.SetSize(100, 30)
	if !strings.Contains(secret.View(), "AVNS_secret2") || !strings.Contains(secret.View(), "it will not be shown") {
		t.Fatalf("secret view:\n%s", secret.View())
	}
	for _, n := range notices(msgs) {
		if strings.Contains(n, "AVNS_") {
			t.Fatalf("password in the footer: %q", n)
		}
	}
	_, cmd = secret.Update(press("u"))
	cp := cmd().(common.CopyRequest)
	if cp.Value != "postgres://app:AVNS_secret2@db.example:5432/defaultdb?sslmode=require" {
		t.Fatalf("URI %q", cp.Value)
	}
}

func TestCreateUserFormValidatesAndSendsAuthentication(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}}}
	a, _ := usersView(t, f, models.RoleAdmin)
	form := a.userForm().(*components.Form)
	form.SetSize(100, 30)
	run(t, a, form.Init())
	type_ := func(s string) {
		for _, r := range s {
			_, c := form.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			_ = c
		}
	}
	type_("ap")
	if !strings.Contains(form.LiveError(), "at least 3") {
		t.Fatalf("live error %q", form.LiveError())
	}
	type_("p")
	if !strings.Contains(form.LiveError(), "already exists") {
		t.Fatalf("duplicate not caught: %q", form.LiveError())
	}
	type_("_2")
	if form.LiveError() != "" {
		t.Fatalf("valid name refused: %q", form.LiveError())
	}
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

func TestPickerOpensPendingViewAndFollowsProject(t *testing.T) {
	ctx := common.NewContext()
	ctx.API, ctx.Project = &fakeAPI{}, "acme-prod"
	p := New(ctx).(*Picker)
	p.SetSize(100, 20)
	run(t, p, p.Init())
	// A palette command before any service is chosen asks for one.
	_, cmd := p.Update(common.OpenAccess{Project: "acme-prod", View: common.AccessTopics})
	if got := notices(run(t, p, cmd)); len(got) != 1 || !strings.Contains(got[0], "Choose a service") {
		t.Fatalf("notices %q", got)
	}
	p.table.Select("kafka-events")
	_, cmd = p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	msgs := run(t, p, cmd)
	var push common.PushView
	cleared := false
	for _, m := range msgs {
		switch m := m.(type) {
		case common.PushView:
			push = m
		case common.Notify:
			cleared = cleared || m.Text == ""
		}
	}
	if push.View == nil || !cleared {
		t.Fatalf("enter should push the view and clear the prompt: %v", msgs)
	}
	if v := push.View.(*Access); v.kind != common.AccessTopics || v.t.Service != "kafka-events" || v.t.Type != "kafka" {
		t.Fatalf("pushed %+v", v.t)
	}
	if p.Title() != "kafka-events" {
		t.Fatalf("title %q", p.Title())
	}
	// With a service chosen, the next command opens its view at once.
	_, cmd = p.Update(common.OpenAccess{Project: "acme-prod", View: common.AccessACL})
	if push := cmd().(common.PushView); push.View.(*Access).kind != common.AccessACL {
		t.Fatal("acl not opened")
	}
	// Another project forgets the choice.
	_, cmd = p.Update(common.ProjectSelected{Name: "acme-staging"})
	run(t, p, cmd)
	if p.Title() != "Users" || p.chosen.Service != "" {
		t.Fatalf("choice kept across projects: %q", p.Title())
	}
}

func TestDeleteErrorShowsPlatformMessage(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}}, deleteE: errors.New("Forbidden: not allowed")}
	a, _ := usersView(t, f, "")
	a.table.Select("app")
	_, cmd := a.Update(press("d"))
	tc := modalOf(run(t, a, cmd)).(*components.TypedConfirm)
	for _, r := range "app" {
		tc.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	_, cmd = tc.Update(tea.KeyMsg{Type: tea.KeyEnter})
	got := notices(run(t, a, cmd))
	if len(got) == 0 || got[len(got)-1] != "Forbidden: not allowed" {
		t.Fatalf("notices %q", got)
	}
}

func TestTopicsRefreshFastWhileConfiguring(t *testing.T) {
	ctx := common.NewContext()
	a := NewAccess(ctx, target{Project: "p", Service: "k", Type: "kafka"}, common.AccessTopics)
	a.SetSize(100, 10)
	a.data.Topics = []models.Topic{{TopicName: "a", State: "ACTIVE"}, {TopicName: "b", State: "CONFIGURING"}}
	a.render()
	if a.RefreshInterval() != common.FastRefresh || !a.Animating() {
		t.Fatal("a configuring topic should refresh fast and spin")
	}
	if !strings.Contains(a.View(), "CONFIGURING") {
		t.Fatalf("view:\n%s", a.View())
	}
	a.data.Topics[1].State = "ACTIVE"
	if a.RefreshInterval() != ctx.Refresh || a.Animating() {
		t.Fatal("all ACTIVE: back to the normal interval")
	}
}

func TestCommandsOpenAccessForCurrentProject(t *testing.T) {
	ctx := common.NewContext()
	ctx.Project = "acme-prod"
	want := map[string]string{"users": common.AccessUsers, "acl": common.AccessACL, "topics": common.AccessTopics, "databases": common.AccessDatabases}
	for _, c := range Commands() {
		msg, ok := c.Run(ctx, "")().(common.OpenAccess)
		if !ok || msg.View != want[c.Name] || msg.Project != "acme-prod" || msg.Service != "" || c.Mutating {
			t.Fatalf("%s: %+v", c.Name, msg)
		}
		delete(want, c.Name)
	}
	if len(want) != 0 {
		t.Fatalf("missing commands %v", want)
	}
}

// drive sends keys to a modal, feeding its own follow-up messages back to it, and
// returns the messages meant for others (root messages and addressed results).
func drive(t *testing.T, m common.Modal, keys ...tea.Msg) []tea.Msg {
	t.Helper()
	var out []tea.Msg
	var queue []tea.Cmd
	step := func(msg tea.Msg) {
		_, cmd := m.Update(msg)
		queue = append(queue, cmd)
	}
	flush := func() {
		for n := 0; len(queue) > 0 && n < 200; n++ {
			c := queue[0]
			queue = queue[1:]
			if c == nil {
				continue
			}
			done := make(chan tea.Msg, 1)
			go func() { done <- c() }()
			var msg tea.Msg
			select {
			case msg = <-done:
			case <-time.After(100 * time.Millisecond):
				continue // a blink or tick: not needed here
			}
			switch msg := msg.(type) {
			case nil:
			case tea.BatchMsg:
				queue = append(queue, msg...)
			default:
				if seq := sequenceCmds(msg); seq != nil {
					queue = append(queue, seq...)
					continue
				}
				switch msg.(type) {
				case common.Addressed, common.Notify, common.CloseModal, common.OpenModal, common.CopyRequest:
					out = append(out, msg)
				default:
					step(msg)
				}
			}
		}
	}
	queue = append(queue, m.Init())
	flush()
	for _, k := range keys {
		step(k)
		flush()
	}
	return out
}

func TestCreateUserSendsTheServiceTypesAuthentication(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}}}
	a, _ := usersView(t, f, models.RoleAdmin)
	form := a.userForm()
	form.SetSize(100, 30)
	keys := []tea.Msg{}
	for _, r := range "new_user" {
		keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	keys = append(keys, tea.KeyMsg{Type: tea.KeyEnter}, tea.KeyMsg{Type: tea.KeyEnter})
	msgs := drive(t, form, keys...)
	var secret *components.Secret
	for _, m := range msgs {
		if _, ok := m.(common.Addressed); ok {
			secret, _ = modalOf(run(t, a, common.Send(m))).(*components.Secret)
		}
	}
	if len(f.calls) != 1 || f.calls[0] != "create new_user scram-sha-256" {
		t.Fatalf("calls %q", f.calls)
	}
	if secret == nil {
		t.Fatal("no one-time secret after create")
	}
}

func TestOpenAccessFromServicesSelectsTheService(t *testing.T) {
	ctx := common.NewContext()
	ctx.API, ctx.Project = &fakeAPI{}, "acme-prod"
	p := New(ctx).(*Picker)
	p.SetSize(100, 20)
	run(t, p, p.Init())
	_, cmd := p.Update(common.OpenAccess{Project: "acme-prod", Service: "pg-main", ServiceType: "pg", View: common.AccessDatabases})
	push := cmd().(common.PushView).View.(*Access)
	if push.kind != common.AccessDatabases || push.t.Service != "pg-main" || p.table.SelectedKey() != "pg-main" || p.Title() != "pg-main" {
		t.Fatalf("pushed %+v, selected %q, title %q", push.t, p.table.SelectedKey(), p.Title())
	}
}

func TestDeleteWhereThePlatformHasNoneSaysSo(t *testing.T) {
	f := &fakeAPI{}
	ctx := common.NewContext()
	ctx.API, ctx.Project = f, "acme-prod"
	ctx.Roles["acme-prod"] = models.RoleAdmin
	a := NewAccess(ctx, target{Project: "acme-prod", Service: "pg-main", Type: "pg"}, common.AccessDatabases)
	a.SetSize(100, 20)
	run(t, a, a.Init())
	_, cmd := a.Update(press("d"))
	msgs := run(t, a, cmd)
	if modalOf(msgs) != nil || len(f.calls) != 0 {
		t.Fatalf("delete of a database went ahead: %v", f.calls)
	}
	if got := notices(msgs); len(got) != 1 || !strings.Contains(got[0], "cannot delete databases") {
		t.Fatalf("notices %q", got)
	}
}
