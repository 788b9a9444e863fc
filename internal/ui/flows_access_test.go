package ui

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync/atomic"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/pages/access"
	"github.com/svcui/svcui/internal/ui/theme"
)

// countingSandbox is the demo sandbox behind a handler that counts DELETE requests, so a
// flow can prove a refusal happened before anything was sent.
func countingSandbox(t *testing.T) (env, *atomic.Int64) {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{Data: "demo", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var deletes atomic.Int64
	h := sb.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			deletes.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); _ = sb.Close() })
	return env{url: srv.URL, admin: sb.AdminToken(), dev: sb.DeveloperToken(), sb: sb}, &deletes
}

var passwordRE = regexp.MustCompile(`password: (AVNS_[A-Za-z0-9_\-]+)`)

// shownPassword waits for the one-time secret modal and returns the password it shows.
func (s *screen) shownPassword() string {
	s.t.Helper()
	s.waitFor("y: copy password")
	m := passwordRE.FindStringSubmatch(ansi.Strip(s.buf.String()[s.from:]))
	if m == nil {
		s.t.Fatalf("no password on screen:\n%s", ansi.Strip(s.buf.String()[s.from:]))
	}
	return m[1]
}

// repaint forces a full redraw (a resize), so what a later wait sees is the whole screen.
func (s *screen) repaint(w, h int) { s.tm.Send(tea.WindowSizeMsg{Width: w, Height: h}) }

func openAccess(s *screen, service, typ, view string) {
	s.mark()
	s.tm.Send(common.OpenAccess{Project: "acme-prod", Service: service, ServiceType: typ, View: view})
}

func TestFlowAccessCreateUserCopyOnce(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	st := settings(e, e.admin)
	st.Clipboard = "osc52"
	s := start(t, st, c, 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.mark()
	s.keys("3")
	s.waitFor("pg-main", "kafka-events")
	// Services sort by name: caching-sessions, kafka-events, mysql-orders-legacy,
	// opensearch-logs, pg-main.
	s.mark()
	s.keys("down", "down", "down", "down", "enter")
	s.waitFor("pg-main › users", "app_rw", "primary")
	s.mark()
	s.keys("c")
	s.waitFor("Create user on pg-main", "Username")
	s.typeText("ab")
	s.waitFor("✗ username must be at least 3 characters")
	s.typeText("_flow")
	s.waitFor("ab_flow")
	s.mark()
	s.keys("enter")
	s.waitFor("Authentication", "scram-sha-256")
	s.mark()
	s.keys("enter")
	pw := s.shownPassword()
	s.waitFor("New user ab_flow", "y: copy password", "u: copy connection URI")
	s.keys("y")
	s.mark()
	s.keys("esc")
	s.waitFor("Sent the password to your terminal as OSC 52", "ab_flow")
	// After closing, the password is nowhere on a fully redrawn screen.
	s.mark()
	s.repaint(120, 40)
	s.waitFor("ab_flow", "avnadmin")
	s.never(pw) // the repainted frame above is the whole screen
	// The cursor is on the new user (it sorts first, above the row it was on).
	s.mark()
	s.keys("d")
	s.waitFor("Type ab_flow to confirm")
	s.mark()
	s.keys("esc")
	s.waitFor("R reset credentials") // the view's own help: the modal is closed
	// Palette commands act on the chosen service.
	s.palette("topics")
	s.waitFor("Topics exist only on Kafka services; pg-main is a pg service.")
	users, err := c.ListUsers(context.Background(), "acme-prod", "pg-main")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, u := range users {
		found = found || u.Username == "ab_flow"
	}
	if !found {
		t.Fatalf("user not created: %+v", users)
	}
}

func TestFlowAccessResetCredentials(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	before, err := c.GetConnectionInfo(context.Background(), "acme-prod", "pg-main")
	if err != nil {
		t.Fatal(err)
	}
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod", "as admin")
	openAccess(s, "pg-main", "pg", common.AccessUsers)
	s.waitFor("app_ro", "avnadmin")
	// Users sort by name: app_ro, app_rw, avnadmin (the primary user).
	s.mark()
	s.keys("down", "down", "R")
	s.waitFor("avnadmin is the primary user of pg-main", "breaks every connection that uses it", "Type avnadmin to confirm")
	s.keys("enter") // no name typed: nothing happens
	s.mark()
	s.typeText("avnadmin")
	s.waitFor("name matches")
	s.mark()
	s.keys("enter")
	pw := s.shownPassword()
	// The primary user's password is part of the connection details: said so, not "only once".
	s.waitFor("New credentials for avnadmin", "read it later in the connection details of")
	if pw == before.Password {
		t.Fatal("reset showed the old password")
	}
	after, err := c.GetConnectionInfo(context.Background(), "acme-prod", "pg-main")
	if err != nil {
		t.Fatal(err)
	}
	// The platform now hands out the new password only: the old one no longer works.
	if after.Password != pw || after.Password == before.Password {
		t.Fatal("connection info does not carry the new password")
	}
	s.keys("esc")
}

func TestFlowAccessDeleteUserAndPrimaryRefused(t *testing.T) {
	t.Parallel()
	e, deletes := countingSandbox(t)
	c := client(t, e.url, e.admin)
	if _, err := c.CreateUser(context.Background(), "acme-prod", "pg-main", models.CreateUserRequest{Username: "gone_user"}); err != nil {
		t.Fatal(err)
	}
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod", "as admin")
	openAccess(s, "pg-main", "pg", common.AccessUsers)
	s.waitFor("gone_user", "avnadmin")
	// app_ro, app_rw, avnadmin: the primary user is refused before any request.
	s.mark()
	s.keys("down", "down", "d")
	s.waitFor(access.PrimaryRefusal)
	if n := deletes.Load(); n != 0 {
		t.Fatalf("%d DELETE requests sent for the primary user", n)
	}
	s.mark()
	s.keys("down", "d")
	s.waitFor("Deleting user gone_user of pg-main is irreversible", "Type gone_user to confirm")
	s.typeText("gone_use")
	s.waitFor("keep typing")
	s.keys("enter") // does not match yet: nothing happens
	s.typeText("r")
	s.waitFor("name matches")
	s.mark()
	s.keys("enter")
	s.waitFor("Deleted user gone_user of pg-main")
	if n := deletes.Load(); n != 1 {
		t.Fatalf("%d DELETE requests, want 1", n)
	}
	users, err := c.ListUsers(context.Background(), "acme-prod", "pg-main")
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if u.Username == "gone_user" {
			t.Fatal("user still there")
		}
	}
}

func TestFlowAccessKafkaACLAndTopic(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod", "as admin")
	openAccess(s, "kafka-events", "kafka", common.AccessACL)
	s.waitFor("kafka-events › acl", "avnadmin")
	s.mark()
	s.keys("c")
	s.waitFor("Create ACL on kafka-events", "User")
	s.advance("Topic", "enter")
	s.typeText("orders-*")
	s.waitFor("orders-*")
	s.advance("Permission", "enter")
	s.mark()
	s.keys("down", "enter")
	s.waitFor("Granted")
	acl, err := c.ListACLs(context.Background(), "acme-prod", "kafka-events")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range acl {
		found = found || (a.Topic == "orders-*" && a.Permission == models.PermWrite)
	}
	if !found {
		t.Fatalf("ACL not created: %+v", acl)
	}

	openAccess(s, "kafka-events", "kafka", common.AccessTopics)
	s.waitFor("kafka-events", "topics", "Partitions")
	s.mark()
	s.keys("c")
	s.waitFor("Create topic on kafka-events")
	s.typeText("flow.topic")
	s.waitFor("flow.topic")
	s.advance("Partitions", "enter")
	s.advance("Replication", "enter")
	s.keys("enter")
	s.waitFor("Created topic flow.topic", "CONFIGURING")
	topics, err := c.ListTopics(context.Background(), "acme-prod", "kafka-events")
	if err != nil {
		t.Fatal(err)
	}
	found = false
	for _, tp := range topics {
		found = found || (tp.TopicName == "flow.topic" && tp.Partitions == 1 && tp.Replication == 2)
	}
	if !found {
		t.Fatalf("topic not created: %+v", topics)
	}
}

func TestFlowAccessDatabaseOnPG(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod", "as admin")
	openAccess(s, "kafka-events", "kafka", common.AccessDatabases)
	s.waitFor("Databases exist only on PostgreSQL and MySQL services; kafka-events is a kafka service.")
	openAccess(s, "pg-main", "pg", common.AccessDatabases)
	s.waitFor("pg-main", "databases")
	s.mark()
	s.keys("c")
	s.waitFor("Create database on pg-main")
	s.typeText("9bad")
	s.waitFor("✗ database name must start with a letter")
	s.keys("esc")
	s.waitFor("Discard changes?")
	s.keys("y")
	s.waitFor("cancelled")
	s.mark()
	s.keys("c")
	s.waitFor("Create database on pg-main", "Database name")
	s.typeText("flow_db")
	s.waitFor("flow_db")
	s.mark()
	s.keys("enter")
	s.waitFor("Created database flow_db on pg-main")
	dbs, err := c.ListDatabases(context.Background(), "acme-prod", "pg-main")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range dbs {
		found = found || d.DatabaseName == "flow_db"
	}
	if !found {
		t.Fatalf("database not created: %+v", dbs)
	}
}

func TestFlowAccessDeveloperCreatesButMayNotDelete(t *testing.T) {
	t.Parallel()
	e, deletes := countingSandbox(t)
	c := client(t, e.url, e.dev)
	s := start(t, settings(e, e.dev), c, 120, 40)
	s.waitFor("acme-prod", "as developer")
	openAccess(s, "pg-main", "pg", common.AccessUsers)
	s.waitFor("app_ro", "avnadmin")
	s.mark()
	s.keys("c")
	s.waitFor("Create user on pg-main")
	s.typeText("dev_made")
	s.waitFor("dev_made")
	s.advance("Authentication", "enter")
	s.mark()
	s.keys("enter")
	s.shownPassword()
	s.mark()
	s.keys("esc")
	s.waitFor("dev_made")
	// app_ro, app_rw, avnadmin, dev_made.
	s.mark()
	s.keys("down", "down", "down", "d")
	s.waitFor("You are a developer in acme-prod; only an admin may delete service users")
	if n := deletes.Load(); n != 0 {
		t.Fatalf("%d DELETE requests sent by a refused developer", n)
	}
}

func TestFlowAccessPaletteWithoutServiceAndReadOnly(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	st := settings(e, e.admin)
	st.ReadOnly = true
	s := start(t, st, client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "READ-ONLY")
	s.palette("acl")
	s.waitFor("Choose a service for its acl", "kafka-events")
	s.mark()
	s.keys("down", "enter") // kafka-events
	s.waitFor("kafka-events", "avnadmin", "admin", "/ filter")
	// Hidden from the help line, and refused when pressed.
	s.never("create ACL")
	s.mark()
	s.keys("c")
	s.waitFor("Read-only mode")
	s.never("Create ACL") // refused before any form
}

// Issue 8 §4: a current service carries into :users, :databases …; the picker asks
// only when there is none.
func TestFlowAccessPaletteUsesTheCurrentService(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.palette("service pg-main")
	s.waitFor("acme-prod › Services › pg-main", "b databases")
	s.palette("users")
	s.waitFor("acme-prod › pg-main › users", "app_rw", "primary")
	s.never("Choose a service")
	s.palette("databases")
	s.waitFor("acme-prod › pg-main › databases", "defaultdb")
}

// Choosing in the picker makes the service current: the next command opens its view.
func TestFlowAccessPickerChoiceBecomesCurrent(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.palette("topics")
	s.waitFor("Choose a service for its topics", "kafka-events")
	s.mark()
	s.keys("down", "enter") // kafka-events
	s.waitFor("acme-prod › kafka-events › topics", "Partitions")
	s.palette("acl")
	s.waitFor("acme-prod › kafka-events › acl", "Permission")
	s.never("Choose a service")
}

// Issue 11 §2 end to end: the sandbox drops every write after doing it. A new user's
// create is read back, never sent again; the lost password is offered as a reset.
func TestFlowAccessLostCreateIsReadBackAndOffersAReset(t *testing.T) {
	t.Parallel()
	sb, err := sandbox.New(sandbox.Options{Data: "demo", Seed: 1, Faults: "seed=1,drop-after=1"})
	if err != nil {
		t.Fatal(err)
	}
	var creates atomic.Int64
	h := sb.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			creates.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); _ = sb.Close() })
	e := env{url: srv.URL, admin: sb.AdminToken(), dev: sb.DeveloperToken(), sb: sb}
	c := client(t, e.url, e.admin)
	m := newRoot(settings(e, e.admin), theme.New(theme.Dark, true), slog.New(slog.NewTextHandler(io.Discard, nil)), c, nil)
	if p := &m.inner.Context().Platform; p.IsOutcomeUnknown == nil {
		p.IsOutcomeUnknown = api.IsOutcomeUnknown // until run.go wires it
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	t.Cleanup(func() { _ = tm.Quit() })
	s := &screen{t: t, tm: tm}
	s.waitFor("acme-prod", "as admin")
	openAccess(s, "pg-main", "pg", common.AccessUsers)
	s.waitFor("app_ro", "avnadmin")
	s.mark()
	s.keys("c")
	s.waitFor("Create user on pg-main", "Username")
	s.typeText("lost_pw")
	s.waitFor("lost_pw")
	s.mark()
	s.keys("enter")
	s.waitFor("Authentication")
	s.mark()
	s.keys("enter")
	s.waitFor("User lost_pw exists: it was created, but its password was not received")
	if n := creates.Load(); n != 1 {
		t.Fatalf("%d POST requests: a lost create was sent again", n)
	}
	users, err := c.ListUsers(context.Background(), "acme-prod", "pg-main")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, u := range users {
		if u.Username == "lost_pw" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d users named lost_pw", n)
	}
	// The offered reset is a write too, dropped as well: said, not resent.
	s.mark()
	s.keys("y")
	s.waitFor("credentials of lost_pw may have been reset")
}

// Keys typed right after the key that opens a form reach the form: a terminal read that
// holds "ce2" (a person typing ahead, keys batched by a slow link) opened the create form
// with "c" and gave "e" and "2" to the list under it ("2" switched to the Services tab),
// because the form came as a command's message after the keys.
func TestFlowKeysTypedAheadOfTheCreateFormReachIt(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "as admin")
	openAccess(s, "pg-main", "pg", common.AccessUsers)
	s.waitFor("app_ro", "avnadmin")
	// One read holding the three keys, then three reads sent without waiting: the form
	// must be open for the key after the one that opened it, whichever came back first.
	for _, keys := range [][]string{{"ce2"}, {"c", "e", "2"}} {
		s.mark()
		s.keys(keys...)
		s.waitFor("Create user on pg-main", "✗ username must be at least 3 characters (it has 2)")
		s.mark()
		s.keys("esc", "y")
		s.waitFor("Create user on pg-main: cancelled, changes discarded", "R reset credentials")
		s.never("[2 Services]")
	}
}
