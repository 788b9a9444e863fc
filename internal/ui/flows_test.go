package ui

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/ui/theme"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

type env struct {
	url, admin, dev string
	sb              *sandbox.Sandbox
}

func startSandbox(t *testing.T) env { return startSandboxData(t, "demo") }

// stateDirs keeps one state directory per test, so a test that starts the program
// twice (a restart) finds what the first run kept, and no test reads another's.
var stateDirs sync.Map

func stateDir(t *testing.T) string {
	if d, ok := stateDirs.Load(t); ok {
		return d.(string)
	}
	d := t.TempDir()
	stateDirs.Store(t, d)
	t.Cleanup(func() { stateDirs.Delete(t) })
	return d
}

// startSandboxData serves a sandbox with the named data set (demo, empty, hostile).
func startSandboxData(t *testing.T, data string) env {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{Data: data, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() { srv.Close(); _ = sb.Close() })
	return env{url: srv.URL, admin: sb.AdminToken(), dev: sb.DeveloperToken(), sb: sb}
}

func client(t *testing.T, url, token string) *api.Client {
	t.Helper()
	c, err := api.New(api.Options{BaseURL: url, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// screen accumulates the program's output so waits can look at what appeared since a mark.
type screen struct {
	t    *testing.T
	tm   *teatest.TestModel
	buf  bytes.Buffer
	from int
}

func start(t *testing.T, s config.Settings, c *api.Client, w, h int) *screen {
	return startWith(t, s, c, w, h, nil)
}

func startWith(t *testing.T, s config.Settings, c *api.Client, w, h int, switcher func(string) tea.Cmd) *screen {
	t.Helper()
	th := theme.New(theme.Dark, true)
	m := newRoot(s, th, slog.New(slog.NewTextHandler(io.Discard, nil)), c, switcher)
	m.inner.Context().StateDir = stateDir(t)
	m.inner.Context().Clipboard.SetTerminal(func() (io.WriteCloser, error) { return nopWC{io.Discard}, nil })
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	sc := &screen{t: t, tm: tm}
	t.Cleanup(func() { _ = tm.Quit() })
	return sc
}

type nopWC struct{ io.Writer }

func (nopWC) Close() error { return nil }

// mark makes later waits look only at output produced from now on.
func (s *screen) mark() {
	s.drain()
	s.from = s.buf.Len()
}

func (s *screen) drain() {
	b, _ := io.ReadAll(s.tm.Output())
	s.buf.Write(b)
}

// waitFor waits until every want appeared since the mark. It gives up after 10 s: the
// flows run in parallel under -race on two cores, and only a failure waits that long.
func (s *screen) waitFor(want ...string) {
	s.t.Helper()
	s.waitWithin(10*time.Second, want...)
}

// waitWithin is waitFor for a wait whose length is what the test measures.
func (s *screen) waitWithin(d time.Duration, want ...string) {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		s.drain()
		got := s.buf.String()[s.from:]
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(got, w)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for %q; output since mark:\n%s", want, ansi.Strip(got))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// never fails when notWant appeared since the mark. It waits for nothing: call it after
// a wait on positive evidence that the program handled what could have shown notWant
// (the frame that answers the same key, a later key's answer), never after a sleep.
func (s *screen) never(notWant string) {
	s.t.Helper()
	s.drain()
	if got := s.buf.String()[s.from:]; strings.Contains(got, notWant) {
		s.t.Fatalf("%q appeared:\n%s", notWant, ansi.Strip(got))
	}
}

func (s *screen) keys(ks ...string) {
	for _, k := range ks {
		var msg tea.KeyMsg
		switch k {
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "down":
			msg = tea.KeyMsg{Type: tea.KeyDown}
		case "left":
			msg = tea.KeyMsg{Type: tea.KeyLeft}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		s.tm.Send(msg)
	}
}

func (s *screen) typeText(text string) { s.tm.Type(text) }

// advance presses keys and waits until the form's focus is on the field titled title
// (huh marks it with a thick bar): huh moves focus with a command, and keys sent before
// it lands would reach the previous field.
func (s *screen) advance(title string, keys ...string) {
	s.t.Helper()
	s.mark()
	s.keys(keys...)
	s.waitFor("┃ " + title)
}

func settings(e env, token string) config.Settings {
	return config.Settings{ProfileName: "test", APIURL: e.url, Token: token, Refresh: time.Minute}
}

func TestFlowFirstRunShowsProjects(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "acme-staging", "acme-analytics", "1 Projects", "5 Search")
	// The first admin project becomes current: header shows it and the role.
	s.waitFor("as admin")
	s.mark()
	s.keys("2")
	s.waitFor("pg-main", "● RUNNING")
}

func TestFlowCreateProject(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod")
	s.mark()
	s.keys("c")
	s.waitFor("Create project", "Name")
	// Validation as typed: upper case is refused before anything is sent.
	s.typeText("Bad")
	s.waitFor("✗ project name may contain only lowercase")
	// Something was typed: esc asks before dropping it.
	s.keys("esc")
	s.waitFor("Discard changes?")
	s.keys("y")
	s.waitFor("cancelled")
	s.mark()
	s.keys("c")
	s.waitFor("Create project")
	s.typeText("team-new")
	s.keys("enter", "enter", "enter", "enter")
	s.waitFor("Created project team-new")
	list, err := c.ListProjects(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range list.Projects {
		found = found || p.ProjectName == "team-new"
	}
	if !found {
		t.Fatal("team-new was not created on the platform")
	}
}

// A name someone else takes while the form is open: the platform refuses, the form comes
// back with everything typed, the message at Name and the focus there; corrected, the
// create goes through and the cursor lands on the new project.
func TestFlowRefusedProjectFormComesBackFocusedOnTheNamedField(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod")
	s.mark()
	s.keys("c")
	s.waitFor("Create project", "Name")
	s.typeText("race-proj")
	if _, err := c.CreateProject(context.Background(), models.CreateProjectRequest{Project: "race-proj"}); err != nil {
		t.Fatal(err)
	}
	s.keys("enter", "enter", "enter")
	s.advance("Copy settings from")
	s.mark()
	s.keys("enter")
	s.waitFor("The platform refused this; see Name.", "Project race-proj already exists", "┃ Name", "race-proj")
	s.mark()
	s.typeText("-2")
	s.waitFor("race-proj-2")
	s.keys("enter", "enter", "enter")
	s.advance("Copy settings from")
	s.mark()
	s.keys("enter")
	s.waitFor("Created project race-proj-2", "› ●   race-proj-2")
}

func TestFlowDeleteProjectWithTypedConfirmation(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	if _, err := c.CreateProject(context.Background(), models.CreateProjectRequest{Project: "zz-empty"}); err != nil {
		t.Fatal(err)
	}
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("zz-empty")
	s.keys("/")
	s.typeText("zz-empty")
	s.keys("enter")
	s.mark()
	s.keys("d")
	s.waitFor("Delete project", "irreversible", "Type zz-empty to confirm")
	s.typeText("zz-empt")
	s.keys("enter") // does not match yet: nothing happens
	s.waitFor("keep typing")
	s.typeText("x")
	s.waitFor("does not match")
	s.tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	s.typeText("y")
	s.waitFor("name matches")
	s.mark()
	s.keys("enter")
	s.waitFor("Deleted project zz-empty")
	if _, err := c.GetProject(context.Background(), "zz-empty"); !api.IsNotFound(err) {
		t.Fatalf("project still there: %v", err)
	}
}

func TestFlowDeleteRefusedWhileServicesRemain(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod")
	s.keys("/")
	s.typeText("acme-prod")
	s.keys("enter", "d")
	s.waitFor("Type acme-prod to confirm")
	s.typeText("acme-prod")
	s.mark()
	s.keys("enter")
	s.waitFor("has services")
}

func TestFlowReadOnlyRefusesMutations(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	st := settings(e, e.admin)
	st.ReadOnly = true
	s := start(t, st, client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "READ-ONLY")
	s.mark()
	s.keys("c")
	s.waitFor("Read-only mode: create is disabled")
	s.mark()
	s.keys("?")
	s.waitFor("Keys", "filter")
	s.never("create") // the help's own frame lists no create
	s.keys("esc")
	s.mark()
	s.keys(":")
	s.typeText("create project")
	s.keys("enter")
	s.waitFor("Read-only mode")
	s.never("Create project") // refused before any form
}

func TestFlowDeveloperForbiddenShownInFooter(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.dev), client(t, e.url, e.dev), 120, 40)
	s.waitFor("acme-prod")
	s.mark()
	s.keys("c")
	s.waitFor("Create project")
	s.typeText("dev-made")
	s.mark()
	s.keys("enter", "enter", "enter", "enter")
	s.waitFor("✗", "may not create projects")
	s.drain()
	out := s.buf.String()[s.from:]
	if strings.Contains(out, "Created project") {
		t.Fatal("developer created a project")
	}
	// The refused form is back with what was typed; leaving it asks first.
	s.waitFor("The platform refused this", "dev-made")
	s.mark()
	s.keys("esc")
	s.waitFor("Discard changes?")
	s.keys("y")
	s.waitFor("changes discarded")
	// Editing a project where the role is developer is refused before any request,
	// with the reason.
	s.mark()
	s.keys("e")
	s.waitFor("You are a developer in acme-analytics; only an admin may edit it")
}

func TestFlowSwitchProfile(t *testing.T) {
	e := startSandbox(t)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	yaml := "profiles:\n  boss:\n    api_url: " + e.url + "\n    token: " + e.admin + "\n  dev:\n    api_url: " + e.url + "\n    token: " + e.dev + "\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SVCUI_TOKEN", "")
	t.Setenv("SVCUI_API_URL", "")
	t.Setenv("SVCUI_PROFILE", "")
	s := settings(e, e.admin)
	s.ProfileName = "boss"
	file, err := config.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{ConfigPath: cfg, File: file, NewClient: func(u, tok string) (*api.Client, error) { return api.New(api.Options{BaseURL: u, Token: tok}) }}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	sc := startWith(t, s, client(t, e.url, e.admin), 120, 40, profileSwitcher(context.Background(), opts, s, theme.New(theme.Dark, true), logger))
	sc.waitFor("[boss]", "acme-prod")
	sc.mark()
	sc.keys(":")
	sc.typeText("profile dev")
	sc.keys("enter")
	sc.waitFor("Connected with profile dev", "[dev]", "as developer")
	sc.mark()
	sc.keys(":")
	sc.typeText("profile nobody")
	sc.keys("enter")
	sc.waitFor("No profile named")
}

func TestFlowCatalogCommands(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 140, 40)
	s.waitFor("acme-prod")
	s.mark()
	s.keys(":")
	s.typeText("clouds")
	s.keys("enter")
	s.waitFor("Projects › Clouds", "Region", "google-europe-north1", "north-america")
	s.keys("esc")
	s.mark()
	s.keys(":")
	s.typeText("types")
	s.keys("enter")
	s.waitFor("Service types", "opensearch", "Latest version")
	s.keys("esc")
	s.mark()
	s.keys(":")
	s.typeText("project acme-staging")
	s.keys("enter")
	s.waitFor("Current project: acme-staging", "Estimated balance")
}

func TestFlowEditProject(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod")
	s.mark()
	s.keys("e") // the current project (acme-prod) is under the cursor
	s.waitFor("Edit project acme-prod", "Technical e-mails")
	s.advance("Billing e-mails", "enter")   // keep the cloud
	s.advance("Technical e-mails", "enter") // keep billing e-mails
	s.typeText(", nope")
	s.waitFor("✗") // validated as typed
	for range len("nope") {
		s.tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	s.typeText("sre@acme.example")
	s.waitFor("sre@acme.example")
	s.advance("Country code", "enter")
	s.advance("Billing group", "enter")
	s.mark()
	s.keys("enter") // billing group: submit
	s.waitFor("Saved project acme-prod")
	p, err := c.GetProject(context.Background(), "acme-prod")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.TechEmails, ","); !strings.Contains(got, "sre@acme.example") || !strings.Contains(got, "oncall@acme.example") {
		t.Fatalf("tech e-mails on the platform: %q", got)
	}
	if len(p.BillingEmails) != 1 || p.BillingEmails[0] != "billing@acme.example" {
		t.Fatalf("billing e-mails changed: %v", p.BillingEmails)
	}
}

// The palette finds a service in any project (the project becomes current and is
// said), and the k9s words take a name: svc NAME, proj NAME, bg NAME.
func TestFlowPaletteFindsServicesAcrossProjectsAndShortWordsTakeNames(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "as admin")
	s.palette("service pg-sta")
	s.waitFor("acme-staging › Services › pg-staging", "Current project: acme-staging")
	s.palette("svc pg-main")
	s.waitFor("acme-prod › Services › pg-main")
	s.palette("proj acme-analytics")
	s.waitFor("acme-analytics", "Your role")
	s.palette("bg acme eu")
	s.waitFor("Acme Europe", "Billing")
	s.palette("service no-such-thing")
	s.waitFor("No service named “no-such-thing” in any project")
}
