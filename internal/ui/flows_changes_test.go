package ui

import (
	"context"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/ui/theme"
)

// consoleClient is the console's own client: its writes leave through the transport
// that marks them "here", as Run builds it.
func consoleClient(t *testing.T, url, token string) *api.Client {
	t.Helper()
	c, err := api.New(api.Options{BaseURL: url, Token: token,
		WrapTransport: func(rt http.RoundTripper) http.RoundTripper { return journalWrites.Transport(rt) }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fast is the measurement: --refresh 2s.
func fast(e env) config.Settings {
	s := settings(e, e.admin)
	s.Refresh = 2 * time.Second
	return s
}

// lineWith fails unless a line of the output since the mark has every word.
func (s *screen) lineWith(words ...string) {
	s.t.Helper()
	s.drain()
	for _, line := range strings.Split(ansi.Strip(s.buf.String()[s.from:]), "\n") {
		ok := true
		for _, w := range words {
			ok = ok && regexp.MustCompile(`(^|\s)`+regexp.QuoteMeta(w)+`(\s|$)`).MatchString(line)
		}
		if ok {
			return
		}
	}
	s.t.Fatalf("no line has %q:\n%s", words, ansi.Strip(s.buf.String()[s.from:]))
}

// covered waits until the reader has read the whole account once (from then on every
// change shows), and opens :changes.
func (s *screen) covered(apiURL string) {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if j := journalWrites.Journal(apiURL); j != nil && j.Covered() {
			break
		}
		if time.Now().After(deadline) {
			s.t.Fatal("the reader never read the whole account")
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.mark()
	s.keys(":")
	s.typeText("changes")
	s.keys("enter")
	s.waitFor("Seen")
}

func TestFlowChangesShowWhatChangedElsewhereAndHere(t *testing.T) {
	e := startSandbox(t)
	s := start(t, fast(e), consoleClient(t, e.url, e.admin), 160, 40)
	s.waitFor("acme-prod")
	s.covered(e.url)

	// Three changes made directly against the API, as with curl.
	other := client(t, e.url, e.admin)
	ctx := context.Background()
	if _, err := other.CreateService(ctx, "acme-staging", models.CreateServiceRequest{ServiceName: "pg-new", ServiceType: "pg",
		Plan: "startup-4", Cloud: "google-europe-north1"}); err != nil {
		t.Fatal(err)
	}
	plan := "business-4"
	if _, err := other.UpdateService(ctx, "acme-prod", "caching-sessions", models.UpdateServiceRequest{Plan: &plan}); err != nil {
		t.Fatal(err)
	}
	if err := other.DeleteUser(ctx, "acme-prod", "pg-main", "metabase"); err != nil {
		t.Fatal(err)
	}
	changed := time.Now()
	s.mark()
	// Within two refresh intervals (4 s), and a second for the screen.
	s.waitWithin(5*time.Second, "pg-new", "business-4", "metabase")
	t.Logf("the three changes showed %v after they were made", time.Since(changed).Round(100*time.Millisecond))
	s.lineWith("elsewhere", "service", "acme-staging", "pg-new")
	s.lineWith("elsewhere", "service", "acme-prod", "caching-sessions", "startup-4", "→", "business-4")
	s.lineWith("elsewhere", "user", "acme-prod/pg-main", "metabase")

	// A change made from the console: a user created in the Users pane.
	s.mark()
	s.keys("esc", "2")
	s.waitFor("caching-sessions", "1/5")
	s.mark()
	s.keys("enter")
	s.waitFor("Services › caching-sessions")
	s.mark()
	s.keys("u")
	s.waitFor("avnadmin")
	s.advance("Username", "c")
	s.typeText("bob_here")
	s.mark()
	s.keys("enter")
	s.waitFor("shown only once")
	s.keys("esc")
	s.keys(":")
	s.typeText("changes")
	// Marked after typing: the users list behind the palette shows bob_here too, and a
	// frame of it must not pass for the journal's.
	s.mark()
	s.keys("enter")
	s.waitFor("› Changes", "bob_here")
	s.lineWith("here", "user", "acme-prod/caching-sessions", "bob_here")
}

// Serial: once in six runs beside the parallel flows under make test, the second start
// showed "Loading…" for 20 s (not understood yet; serial, it has not been seen).
func TestFlowChangesMadeWhileClosedShowAtTheNextStart(t *testing.T) {
	// The demo's services in transition stay so: one that finished between the two
	// starts would be a third change made while closed.
	e := startSandboxWith(t, sandbox.Options{ProvisionDelay: time.Hour})
	dir := stateDir(t)
	other := client(t, e.url, e.admin)
	ctx := context.Background()
	carol, err := other.CreateUser(ctx, "acme-prod", "pg-main", models.CreateUserRequest{Username: "carol"})
	if err != nil || carol.Password == "" {
		t.Fatalf("create carol: %v", err)
	}

	run := func() (*screen, *safeModel) {
		m := newRoot(fast(e), theme.New(theme.Dark, true), slog.New(slog.NewTextHandler(io.Discard, nil)), consoleClient(t, e.url, e.admin), nil)
		m.inner.Context().StateDir = dir
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 40))
		return &screen{t: t, tm: tm}, m
	}
	s, m := run()
	s.waitFor("acme-prod")
	s.covered(e.url)
	if err := s.tm.Quit(); err != nil {
		t.Fatal(err)
	}
	s.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if err := m.journal.Flush(); err != nil {
		t.Fatal(err)
	}

	// Two changes while the console is closed.
	if err := other.DeleteUser(ctx, "acme-prod", "pg-main", "carol"); err != nil {
		t.Fatal(err)
	}
	if err := other.CreateDatabase(ctx, "acme-prod", "pg-main", "reports"); err != nil {
		t.Fatal(err)
	}

	s, _ = run()
	t.Cleanup(func() { _ = s.tm.Quit() })
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(ansi.Strip(s.buf.String()), "since you last looked (2 changes) :changes") {
		if time.Now().After(deadline) {
			t.Fatalf("no \"since you last looked\":\n%s", ansi.Strip(s.buf.String()))
		}
		time.Sleep(20 * time.Millisecond)
		s.drain()
	}
	s.mark()
	s.keys(":")
	s.typeText("changes")
	s.keys("enter")
	s.waitFor("since you last looked: 2 changes")
	s.lineWith("while", "closed", "user", "acme-prod/pg-main", "carol")
	s.lineWith("while", "closed", "database", "acme-prod/pg-main", "reports")

	// Nothing under the state directory holds the token or a user's password.
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, secret := range []string{e.admin, carol.Password} {
			if strings.Contains(string(data), secret) {
				t.Errorf("%s holds a secret", path)
			}
		}
		if info, _ := d.Info(); info.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v", path, info.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
