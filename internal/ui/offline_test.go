package ui

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// When the platform cannot be reached at start, the last snapshot is shown read-only
// with its age, and the live view takes its place once the platform answers.
func TestOfflineStartShowsTheLastSnapshotUntilThePlatformAnswers(t *testing.T) {
	t.Parallel() // waits on the client's retries against a dropped connection (10 s), not the CPU
	sb, err := sandbox.New(sandbox.Options{Data: "demo", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	var down atomic.Bool
	down.Store(true)
	live := sb.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			// No answer at all: the connection is dropped, as by a platform out of reach.
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		live.ServeHTTP(w, r)
	}))
	defer srv.Close()

	clock := uitest.NewClock(time.Date(2026, 11, 27, 17, 2, 0, 0, time.Local))
	dir := t.TempDir()
	kept := journal.New()
	then := clock.Now().Add(-3 * time.Hour)
	kept.Observe(journal.Projects(), []journal.Item{journal.FromProject(models.Project{ProjectName: "acme-prod"})}, then)
	kept.Observe(journal.ServicesOf("acme-prod"), []journal.Item{journal.FromService(models.Service{ServiceName: "pg-kept",
		ServiceType: "pg", State: models.StateRunning, Plan: "startup-4"})}, then)
	if err := kept.Save(journal.Path(dir, "test", srv.URL), then); err != nil {
		t.Fatal(err)
	}

	s := config.Settings{ProfileName: "test", APIURL: srv.URL, Token: sb.AdminToken(), Refresh: 2 * time.Second}
	root := newRoot(s, theme.New(theme.Dark, true), slog.New(slog.DiscardHandler), consoleClient(t, srv.URL, sb.AdminToken()), nil)
	ctx := root.inner.Context()
	ctx.Now, ctx.After, ctx.StateDir = clock.Now, clock.After, dir
	d := &uitest.Driver{Model: root, Clock: clock, Skip: func(msg tea.Msg) bool { _, q := msg.(tea.QuitMsg); return q }}
	d.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.Send(uitest.Run(root.Init())...)
	// The reader waits for the project list (which fails) 5 s at most, then reads.
	for range 60 {
		d.Advance(100 * time.Millisecond)
	}
	view := root.View()
	for _, want := range []string{"As of 14:02, 3h ago; reconnecting", "pg-kept", "startup-4", "Last snapshot (read-only)"} {
		if !strings.Contains(view, want) {
			t.Fatalf("offline, the screen lacks %q:\n%s", want, view)
		}
	}

	down.Store(false)
	d.Advance(2 * time.Second)
	view = root.View()
	if strings.Contains(view, "As of 14:02") || strings.Contains(view, "Last snapshot") {
		t.Fatalf("the platform answers, yet the snapshot is still shown:\n%s", view)
	}
	if !strings.Contains(view, "acme-staging") {
		t.Errorf("the live view did not come back:\n%s", view)
	}
}
