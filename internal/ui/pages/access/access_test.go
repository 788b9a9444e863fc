package access

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/uitest"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

// newFake is the platform the access tests start from: acme-prod with a PostgreSQL
// service (pg-main, whose URI names the primary user) and a Kafka one of 3 nodes.
func newFake() *fake.API {
	f := fake.New()
	f.AddServices("acme-prod",
		models.Service{ServiceName: "pg-main", ServiceType: "pg", State: "RUNNING",
			ServiceURI: "postgres://avnadmin:old@db.example:5432/defaultdb?sslmode=require"},
		models.Service{ServiceName: "kafka-events", ServiceType: "kafka", State: "RUNNING", NodeCount: 3})
	return f
}

// withUsers is newFake with users on pg-main.
func withUsers(us ...models.ServiceUser) *fake.API {
	f := newFake()
	f.AddUsers("acme-prod", "pg-main", us...)
	return f
}

// failCreates makes every create under a service answer err without doing it.
func failCreates(f *fake.API, err error) {
	for _, m := range fake.Creates {
		f.On(m).Fail(err)
	}
}

// writes is what was sent to the platform, as text.
func writes(f *fake.API) []string {
	var out []string
	for _, c := range f.Writes() {
		out = append(out, c.String())
	}
	return out
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

func newCtx(f *fake.API, role models.Role) *common.Context {
	ctx := uitest.NewContext()
	fake.Connect(ctx, f)
	uitest.Session(ctx).SetProject("acme-prod")
	if role != "" {
		uitest.Roles(ctx, map[string]models.Role{"acme-prod": role})
	}
	return ctx
}

func usersView(t *testing.T, f *fake.API, role models.Role) (*Users, *common.Context) {
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
	f := withUsers(models.ServiceUser{Username: "avnadmin", Type: models.UserPrimary}, models.ServiceUser{Username: "app", Type: "regular"})
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
	if len(writes(f)) != 0 {
		t.Fatalf("requests sent: %v", writes(f))
	}
}

func TestDeveloperMayNotDeleteButMayReset(t *testing.T) {
	f := withUsers(models.ServiceUser{Username: "app", Type: "regular"})
	u, _ := usersView(t, f, models.RoleDeveloper)
	u.Table.Select("app")
	_, cmd := u.Update(press("d"))
	msgs := run(t, u, cmd)
	if modalOf(msgs) != nil || len(writes(f)) != 0 {
		t.Fatalf("developer delete went ahead: %v", writes(f))
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
	f := withUsers(models.ServiceUser{Username: "app", Type: "regular"})
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
	if len(writes(f)) != 0 {
		t.Fatalf("requests sent: %v", writes(f))
	}
}

func TestResetShowsSecretWithUserURIAndRemembersIt(t *testing.T) {
	f := withUsers(models.ServiceUser{Username: "app", Type: "regular"})
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
	if !strings.Contains(secret.View(), fake.ResetPassword("app")) || !strings.Contains(secret.View(), "it will not be shown") {
		t.Fatalf("secret view:\n%s", secret.View())
	}
	for _, n := range notices(msgs) {
		if strings.Contains(n, "AVNS_") {
			t.Fatalf("password in the footer: %q", n)
		}
	}
	_, cmd = secret.Update(press("u"))
	if cp := cmd().(common.CopyRequest); cp.Value != "postgres://app:"+fake.ResetPassword("app")+"@db.example:5432/defaultdb?sslmode=require" {
		t.Fatalf("URI %q", cp.Value)
	}
	if pw, ok := ctx.Password("acme-prod", "pg-main", "app"); !ok || pw != fake.ResetPassword("app") {
		t.Fatalf("reset password not remembered: %q %v", pw, ok)
	}
}

func TestResettingThePrimaryUserNeedsItsNameTyped(t *testing.T) {
	f := withUsers(models.ServiceUser{Username: "avnadmin", Type: models.UserPrimary}, models.ServiceUser{Username: "app", Type: "regular"})
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
	if _, cmd := tc.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil || len(writes(f)) != 0 {
		t.Fatal("enter without the name must do nothing")
	}
	typeInto(tc, "avnadmin")
	_, cmd = tc.Update(tea.KeyMsg{Type: tea.KeyEnter})
	run(t, u, cmd)
	if got := writes(f); len(got) != 1 || got[0] != "ResetCredentials acme-prod pg-main avnadmin" {
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
	f := withUsers(models.ServiceUser{Username: "app", Type: "regular"})
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
	f := withUsers(models.ServiceUser{Username: "app", Type: "regular"}, models.ServiceUser{Username: "zz", Type: "regular"})
	u, ctx := usersView(t, f, models.RoleAdmin)
	u.Table.Select("app")
	msgs := submit(t, u, u.form(), "new_user", 2)
	if got := writes(f); len(got) != 1 || got[0] != "CreateUser acme-prod pg-main new_user scram-sha-256" {
		t.Fatalf("calls %q", got)
	}
	if _, ok := modalOf(msgs).(*components.Secret); !ok {
		t.Fatal("no one-time secret after create")
	}
	if u.Table.SelectedKey() != "new_user" {
		t.Fatalf("cursor on %q, want the new user", u.Table.SelectedKey())
	}
	if pw, _ := ctx.Password("acme-prod", "pg-main", "new_user"); pw != fake.CreatedPassword("new_user") {
		t.Fatalf("created password not remembered: %q", pw)
	}
}

func TestRefusedCreateBringsTheSameFormBack(t *testing.T) {
	f := newFake()
	failCreates(f, errors.New("Invalid username: reserved name"))
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
	f := withUsers(models.ServiceUser{Username: "app", Type: "regular"})
	f.On(fake.CreateUser).Lose(fake.ErrLost) // the user is created, its answer lost
	u, ctx := usersView(t, f, models.RoleAdmin)
	msgs := submit(t, u, u.form(), "lost_pw", 2)
	got := strings.Join(notices(msgs), "\n")
	for _, want := range []string{"The connection dropped after the request was sent; checking whether user lost_pw was created…",
		"User lost_pw exists: it was created; its password was not received; press R to reset its credentials"} {
		if !strings.Contains(got, want) {
			t.Fatalf("missing %q in:\n%s", want, got)
		}
	}
	if calls := writes(f); len(calls) != 1 {
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
	if calls := writes(f); len(calls) != 2 || calls[1] != "ResetCredentials acme-prod pg-main lost_pw" {
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
	f := withUsers(models.ServiceUser{Username: "app", Type: "regular"}, models.ServiceUser{Username: "etl", Type: "regular"})
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
	if got := writes(f); len(got) != 2 {
		t.Fatalf("sent: %v", got)
	}
}
