package access

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// errDropped stands for a write whose connection dropped after it was sent.
var errDropped = errors.New("connection dropped after the request was sent")

// fakeAPI answers the calls this pane makes, keeps what was created and records the
// mutating calls.
type fakeAPI struct {
	common.Client
	mu        sync.Mutex
	users     []models.ServiceUser
	topics    []models.Topic
	dbs       []models.Database
	acls      []models.ACL
	nodes     int
	typ       string
	calls     []string
	deleteE   error
	createE   error // answered by every create (after doing it when it is errDropped)
	lost      bool  // a dropped create did not happen
	listCalls int
}

func (f *fakeAPI) record(s string) { f.mu.Lock(); f.calls = append(f.calls, s); f.mu.Unlock() }

func (f *fakeAPI) mutations() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// created answers a create: createE, after the write when the error is errDropped.
func (f *fakeAPI) created(do func()) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.createE == nil || errors.Is(f.createE, errDropped) && !f.lost {
		do()
	}
	return f.createE
}

func (f *fakeAPI) ListServices(context.Context, string) ([]models.Service, error) {
	return []models.Service{{ServiceName: "pg-main", ServiceType: "pg", State: "RUNNING"}, {ServiceName: "kafka-events", ServiceType: "kafka", State: "RUNNING"}}, nil
}
func (f *fakeAPI) GetService(_ context.Context, _, s string) (models.Service, error) {
	typ := f.typ
	if typ == "" {
		typ = "pg"
	}
	return models.Service{ServiceName: s, ServiceType: typ, NodeCount: f.nodes, State: "RUNNING",
		ServiceURI: "postgres://avnadmin:old@db.example:5432/defaultdb?sslmode=require"}, nil
}
func (f *fakeAPI) GetConnectionInfo(context.Context, string, string) (models.ConnectionInfo, error) {
	return models.ConnectionInfo{}, errors.New("no connection info here")
}
func (f *fakeAPI) ListUsers(context.Context, string, string) ([]models.ServiceUser, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listCalls++
	return append([]models.ServiceUser(nil), f.users...), nil
}
func (f *fakeAPI) CreateUser(_ context.Context, _, _ string, req models.CreateUserRequest) (models.ServiceUser, error) {
	f.record("create " + req.Username + " " + req.Authentication)
	u := models.ServiceUser{Username: req.Username, Type: "regular", Password: "AVNS_secret1"}
	if err := f.created(func() { f.users = append(f.users, models.ServiceUser{Username: u.Username, Type: u.Type}) }); err != nil {
		return models.ServiceUser{}, err
	}
	return u, nil
}
func (f *fakeAPI) ResetCredentials(_ context.Context, _, _, u string) (models.ServiceUser, error) {
	f.record("reset " + u)
	return models.ServiceUser{Username: u, Password: "AVNS_secret2"}, nil
}
func (f *fakeAPI) DeleteUser(_ context.Context, _, _, u string) error {
	f.record("delete " + u)
	return f.deleteE
}
func (f *fakeAPI) ListTopics(context.Context, string, string) ([]models.Topic, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]models.Topic(nil), f.topics...), nil
}
func (f *fakeAPI) CreateTopic(_ context.Context, _, _ string, req models.CreateTopicRequest) error {
	f.record("topic " + req.TopicName)
	return f.created(func() {
		f.topics = append(f.topics, models.Topic{TopicName: req.TopicName, Partitions: models.FlexInt(req.Partitions),
			Replication: models.FlexInt(req.Replication), State: "CONFIGURING"})
	})
}
func (f *fakeAPI) ListDatabases(context.Context, string, string) ([]models.Database, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]models.Database(nil), f.dbs...), nil
}
func (f *fakeAPI) CreateDatabase(_ context.Context, _, _, db string) error {
	f.record("database " + db)
	return f.created(func() { f.dbs = append(f.dbs, models.Database{DatabaseName: db}) })
}
func (f *fakeAPI) ListACLs(context.Context, string, string) ([]models.ACL, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]models.ACL(nil), f.acls...), nil
}
func (f *fakeAPI) CreateACL(_ context.Context, _, _ string, req models.CreateACLRequest) ([]models.ACL, error) {
	f.record("acl " + req.Username + " " + req.Topic + " " + string(req.Permission))
	err := f.created(func() {
		f.acls = append(f.acls, models.ACL{ID: "acl" + req.Username, Username: req.Username, Topic: req.Topic, Permission: req.Permission})
	})
	if err != nil {
		return nil, err
	}
	return f.ListACLs(context.Background(), "", "")
}

// run executes cmd and every command it produces, collecting the messages (batches and
// sequences flattened), and feeds addressed results back into v.
func run(t *testing.T, v common.View, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	var out []tea.Msg
	uitest.Pump(cmd, func(m tea.Msg) tea.Cmd {
		_, next := v.Update(m)
		return next
	}, func(m tea.Msg) bool {
		out = append(out, m)
		_, ok := m.(common.Addressed)
		return ok
	})
	return out
}

func notices(msgs []tea.Msg) []string {
	var s []string
	for _, m := range msgs {
		if n, ok := m.(common.Notify); ok && n.Text != "" {
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

// typeInto types text into a modal, one key at a time.
func typeInto(m common.Modal, text string) {
	for _, r := range text {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func newCtx(f *fakeAPI, role models.Role) *common.Context {
	ctx := uitest.NewContext()
	ctx.Connect(f)
	uitest.Session(ctx).SetProject("acme-prod")
	if role != "" {
		uitest.Roles(ctx, map[string]models.Role{"acme-prod": role})
	}
	ctx.Platform.IsOutcomeUnknown = func(err error) bool { return errors.Is(err, errDropped) }
	return ctx
}

func usersView(t *testing.T, f *fakeAPI, role models.Role) (*Users, *common.Context) {
	t.Helper()
	ctx := newCtx(f, role)
	u := NewUsers(ctx, target{Project: "acme-prod", Service: "pg-main", Type: "pg"})
	u.SetSize(100, 20)
	run(t, u, u.Init())
	return u, ctx
}

// submit types into a form and sends it (enter through its fields), returning what
// the form and the view produce.
func submit(t *testing.T, v common.View, m common.Modal, text string, enters int) []tea.Msg {
	t.Helper()
	keys := textKeys(text)
	for range enters {
		keys = append(keys, tea.KeyMsg{Type: tea.KeyEnter})
	}
	return submitKeys(t, v, m, keys...)
}

func textKeys(text string) []tea.Msg {
	var keys []tea.Msg
	for _, r := range text {
		keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return keys
}

var enter = tea.KeyMsg{Type: tea.KeyEnter}

// submitKeys drives a form with keys and feeds the results to the view.
func submitKeys(t *testing.T, v common.View, m common.Modal, keys ...tea.Msg) []tea.Msg {
	t.Helper()
	m.SetSize(100, 40)
	var out []tea.Msg
	for _, msg := range drive(t, m, keys...) {
		if _, ok := msg.(common.Addressed); ok {
			out = append(out, run(t, v, common.Send(msg))...)
			continue
		}
		out = append(out, msg)
	}
	return out
}

func TestPrimaryUserDeleteRefusedBeforeRequest(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "avnadmin", Type: models.UserPrimary}, {Username: "app", Type: "regular"}}}
	u, _ := usersView(t, f, models.RoleAdmin)
	u.Table.Select("avnadmin")
	_, cmd := u.Update(press("d"))
	msgs := run(t, u, cmd)
	if modalOf(msgs) != nil {
		t.Fatal("a confirmation opened for the primary user")
	}
	if got := notices(msgs); len(got) != 1 || got[0] != PrimaryRefusal {
		t.Fatalf("notices %q", got)
	}
	if len(f.mutations()) != 0 {
		t.Fatalf("requests sent: %v", f.mutations())
	}
}

func TestDeveloperMayNotDeleteButMayReset(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}}}
	u, _ := usersView(t, f, models.RoleDeveloper)
	u.Table.Select("app")
	_, cmd := u.Update(press("d"))
	msgs := run(t, u, cmd)
	if modalOf(msgs) != nil || len(f.mutations()) != 0 {
		t.Fatalf("developer delete went ahead: %v", f.mutations())
	}
	if got := notices(msgs); len(got) != 1 || !strings.Contains(got[0], "only an admin may delete") {
		t.Fatalf("notices %q", got)
	}
	_, cmd = u.Update(press("R"))
	if _, ok := modalOf(run(t, u, cmd)).(*components.Confirm); !ok {
		t.Fatal("reset should ask first")
	}
}

func TestReadOnlyRefusesEveryMutation(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}}}
	u, ctx := usersView(t, f, models.RoleAdmin)
	ctx.ReadOnly = true
	u.Table.Select("app")
	for _, k := range []string{"c", "R", "d"} {
		_, cmd := u.Update(press(k))
		msgs := run(t, u, cmd)
		if modalOf(msgs) != nil {
			t.Fatalf("%s opened a modal in read-only mode", k)
		}
		if got := notices(msgs); len(got) != 1 || !strings.HasPrefix(got[0], "Read-only mode") {
			t.Fatalf("%s: notices %q", k, got)
		}
	}
	if len(f.mutations()) != 0 {
		t.Fatalf("requests sent: %v", f.mutations())
	}
}

func TestResetShowsSecretWithUserURIAndRemembersIt(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}}}
	u, ctx := usersView(t, f, models.RoleAdmin)
	u.Table.Select("app")
	_, cmd := u.Update(press("R"))
	confirm := modalOf(run(t, u, cmd))
	_, cmd = confirm.Update(press("y"))
	msgs := run(t, u, cmd)
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
	if cp := cmd().(common.CopyRequest); cp.Value != "postgres://app:AVNS_secret2@db.example:5432/defaultdb?sslmode=require" {
		t.Fatalf("URI %q", cp.Value)
	}
	if pw, ok := ctx.Password("acme-prod", "pg-main", "app"); !ok || pw != "AVNS_secret2" {
		t.Fatalf("reset password not remembered: %q %v", pw, ok)
	}
}

func TestResettingThePrimaryUserNeedsItsNameTyped(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "avnadmin", Type: models.UserPrimary}, {Username: "app", Type: "regular"}}}
	u, _ := usersView(t, f, models.RoleAdmin)
	u.Table.Select("avnadmin")
	_, cmd := u.Update(press("R"))
	tc, ok := modalOf(run(t, u, cmd)).(*components.TypedConfirm)
	if !ok {
		t.Fatal("the primary user's reset must ask for its name")
	}
	tc.SetSize(100, 30)
	if v := tc.View(); !strings.Contains(v, "breaks every connection that uses it") || !strings.Contains(v, "Type avnadmin to confirm") {
		t.Fatalf("confirmation:\n%s", v)
	}
	if _, cmd := tc.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil || len(f.mutations()) != 0 {
		t.Fatal("enter without the name must do nothing")
	}
	typeInto(tc, "avnadmin")
	_, cmd = tc.Update(tea.KeyMsg{Type: tea.KeyEnter})
	run(t, u, cmd)
	if got := f.mutations(); len(got) != 1 || got[0] != "reset avnadmin" {
		t.Fatalf("calls %q", got)
	}
	// Its password is part of the service's connection details: the modal says where,
	// not that it is shown only once.
	sec, ok := u.secret(credentials{User: models.ServiceUser{Username: "avnadmin", Type: models.UserPrimary, Password: "AVNS_x"}, Reset: true})().(common.OpenModal)
	if !ok {
		t.Fatal("no secret modal")
	}
	sec.Modal.SetSize(100, 30)
	if v := ansi.Strip(sec.Modal.View()); strings.Contains(v, "shown only once") || !strings.Contains(v, "connection details of") {
		t.Fatalf("primary user's secret:\n%s", v)
	}
}

func TestCreateUserFormValidatesAsTyped(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}}}
	u, _ := usersView(t, f, models.RoleAdmin)
	form := u.form()
	form.SetSize(100, 30)
	run(t, u, form.Init())
	typeInto(form, "ap")
	if !strings.Contains(form.LiveError(), "at least 3") {
		t.Fatalf("live error %q", form.LiveError())
	}
	typeInto(form, "p")
	if !strings.Contains(form.LiveError(), "already exists") {
		t.Fatalf("duplicate not caught: %q", form.LiveError())
	}
	typeInto(form, "_2")
	if form.LiveError() != "" {
		t.Fatalf("valid name refused: %q", form.LiveError())
	}
}

func TestCreateUserSendsAuthenticationSelectsAndRemembers(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}, {Username: "zz", Type: "regular"}}}
	u, ctx := usersView(t, f, models.RoleAdmin)
	u.Table.Select("app")
	msgs := submit(t, u, u.form(), "new_user", 2)
	if got := f.mutations(); len(got) != 1 || got[0] != "create new_user scram-sha-256" {
		t.Fatalf("calls %q", got)
	}
	if _, ok := modalOf(msgs).(*components.Secret); !ok {
		t.Fatal("no one-time secret after create")
	}
	if u.Table.SelectedKey() != "new_user" {
		t.Fatalf("cursor on %q, want the new user", u.Table.SelectedKey())
	}
	if pw, _ := ctx.Password("acme-prod", "pg-main", "new_user"); pw != "AVNS_secret1" {
		t.Fatalf("created password not remembered: %q", pw)
	}
}

func TestRefusedCreateBringsTheSameFormBack(t *testing.T) {
	f := &fakeAPI{createE: errors.New("Invalid username: reserved name")}
	u, _ := usersView(t, f, models.RoleAdmin)
	form := u.form()
	msgs := submit(t, u, form, "admin_x", 2)
	back, ok := modalOf(msgs).(*components.Form)
	if !ok || back != form {
		t.Fatalf("the form did not come back: %T", modalOf(msgs))
	}
	back.SetSize(100, 40)
	if v := back.View(); !strings.Contains(v, "see Username") || !strings.Contains(v, "reserved name") || !strings.Contains(v, "admin_x") {
		t.Fatalf("refused form:\n%s", v)
	}
}

func TestUnknownOutcomeOfAUserCreateReadsBackAndOffersAReset(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}}, createE: errDropped}
	u, ctx := usersView(t, f, models.RoleAdmin)
	msgs := submit(t, u, u.form(), "lost_pw", 2)
	got := strings.Join(notices(msgs), "\n")
	for _, want := range []string{"The connection dropped after the request was sent; checking whether user lost_pw was created…",
		"User lost_pw exists: it was created; its password was not received; press R to reset its credentials"} {
		if !strings.Contains(got, want) {
			t.Fatalf("missing %q in:\n%s", want, got)
		}
	}
	if calls := f.mutations(); len(calls) != 1 {
		t.Fatalf("the create was sent again: %q", calls)
	}
	if u.Table.SelectedKey() != "lost_pw" {
		t.Fatalf("cursor on %q", u.Table.SelectedKey())
	}
	if _, ok := ctx.Password("acme-prod", "pg-main", "lost_pw"); ok {
		t.Fatal("a password was remembered that never arrived")
	}
	confirm, ok := modalOf(msgs).(*components.Confirm)
	if !ok {
		t.Fatalf("no reset offered: %T", modalOf(msgs))
	}
	_, cmd := confirm.Update(press("y"))
	if _, ok := modalOf(run(t, u, cmd)).(*components.Secret); !ok {
		t.Fatal("the offered reset showed no secret")
	}
	if calls := f.mutations(); len(calls) != 2 || calls[1] != "reset lost_pw" {
		t.Fatalf("calls %q", calls)
	}
}

// drive sends keys to a modal, feeding its own follow-up messages back to it, and
// returns the messages meant for others (root messages and addressed results).
func drive(t *testing.T, m common.Modal, keys ...tea.Msg) []tea.Msg {
	t.Helper()
	update := func(msg tea.Msg) tea.Cmd {
		_, cmd := m.Update(msg)
		return cmd
	}
	back := func(msg tea.Msg) bool {
		switch msg.(type) {
		case common.Addressed, common.Notify, common.OpenModal, common.CopyRequest:
			return false
		}
		return true
	}
	out := uitest.PumpForm(m.Init(), update, back)
	for _, k := range keys {
		out = append(out, uitest.PumpForm(update(k), update, back)...)
	}
	return out
}

// Resets go through the write pipeline: two in flight (a second user's reset confirmed
// before the first answered) each get their answer and their one-time secret; neither
// cancels the other, and the list is read again after each.
func TestTwoResetsInFlightBothShowTheirSecret(t *testing.T) {
	f := &fakeAPI{users: []models.ServiceUser{{Username: "app", Type: "regular"}, {Username: "etl", Type: "regular"}}}
	u, _ := usersView(t, f, models.RoleAdmin)
	first, second := u.reset("app"), u.reset("etl")
	var secrets []string
	for _, m := range run(t, u, tea.Batch(first, second)) {
		if o, ok := m.(common.OpenModal); ok {
			if s, ok := o.Modal.(*components.Secret); ok {
				s.SetSize(100, 30)
				secrets = append(secrets, s.View())
			}
		}
	}
	if len(secrets) != 2 || !strings.Contains(strings.Join(secrets, ""), "app") || !strings.Contains(strings.Join(secrets, ""), "etl") {
		t.Fatalf("%d secrets shown, want app's and etl's", len(secrets))
	}
	if got := f.mutations(); len(got) != 2 {
		t.Fatalf("sent: %v", got)
	}
}
