//go:build unix

package services

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/open"
	"github.com/svcui/svcui/internal/ui/theme"
)

// standIn puts a psql on PATH that records its arguments and the password file it was
// given, and returns where it writes them.
func standIn(t *testing.T) string {
	t.Helper()
	bin, out := t.TempDir(), t.TempDir()
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$STANDIN_OUT/argv\"\n/bin/cat \"$PGPASSFILE\" > \"$STANDIN_OUT/pgpass\"\n"
	if err := os.WriteFile(filepath.Join(bin, "psql"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv("STANDIN_OUT", out)
	return out
}

// connectTo runs o's connector against a fake platform, with the client run at once
// instead of with the console suspended.
func connectTo(t *testing.T, ctx *common.Context, parent string) []tea.Msg {
	t.Helper()
	c := newConnector(ctx, "acme-prod", "pg-main")
	c.opts.TempDir = parent
	c.exec = func(cmd tea.ExecCommand, done tea.ExecCallback) tea.Cmd {
		return func() tea.Msg {
			var out bytes.Buffer
			cmd.SetStdin(strings.NewReader("\n"))
			cmd.SetStdout(&out)
			cmd.SetStderr(&out)
			return done(cmd.Run())
		}
	}
	return run(c.cmd())
}

func TestConnectRunsTheClientWithCredentialsOffArgvAndCleansUp(t *testing.T) {
	out := standIn(t)
	parent := t.TempDir()
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}})
	api.SetConnection("acme-prod", "pg-main", models.ConnectionInfo{Host: "pg.example", Port: 5432, User: "avnadmin", Password: "<redacted>", Database: "defaultdb"})
	ctx := testCtx(api)
	// The platform hides the primary's password; this session reset it.
	ctx.RememberPassword("acme-prod", "pg-main", "avnadmin", "AVNS_fromreset")
	msgs := connectTo(t, ctx, parent)
	var last common.Notify
	for _, m := range msgs {
		if n, ok := m.(common.Notify); ok {
			last = n
		}
	}
	if last.Level != theme.LevelSuccess || last.Text != "Back from psql (pg-main)" {
		t.Fatalf("after the client: %+v (all %v)", last, msgs)
	}
	argv, err := os.ReadFile(filepath.Join(out, "argv"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(argv), "AVNS_") || !strings.Contains(string(argv), "host=pg.example") || !strings.Contains(string(argv), "sslmode=require") {
		t.Errorf("argv: %s", argv)
	}
	if pass, _ := os.ReadFile(filepath.Join(out, "pgpass")); !strings.Contains(string(pass), ":avnadmin:AVNS_fromreset") {
		t.Errorf("the client did not get the session's password: %q", pass)
	}
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Errorf("connection files left after the client exited: %v", left)
	}
}

func TestConnectSaysWhatIsMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no psql
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}})
	conn := models.ConnectionInfo{Host: "pg.example", Port: 5432, User: "avnadmin", Password: "AVNS_x"}
	api.SetConnection("acme-prod", "pg-main", conn)
	n := notices(connectTo(t, testCtx(api), t.TempDir()))
	if !strings.Contains(n, "psql is not installed here") || !strings.Contains(n, "postgresql-client") {
		t.Errorf("missing client: %q", n)
	}
	conn.Password = "<redacted>"
	api.SetConnection("acme-prod", "pg-main", conn)
	standIn(t)
	if n := notices(connectTo(t, testCtx(api), t.TempDir())); !strings.Contains(n, "does not know the password of avnadmin") {
		t.Errorf("unknown password: %q", n)
	}
}

// grafana opens in the browser without credentials in the address, or is copied where
// there is no opener.
func TestConnectOpensGrafanaOrCopiesItsAddress(t *testing.T) {
	g := svc("grafana-dash", "RUNNING")
	g.ServiceType = models.TypeGrafana
	api := withServices(map[string][]models.Service{"acme-prod": {g}})
	conn := models.ConnectionInfo{URI: "https://avnadmin:AVNS_x@grafana.example:443", User: "avnadmin"}
	api.SetConnection("acme-prod", "grafana-dash", conn)
	c := newConnector(testCtx(api), "acme-prod", "grafana-dash")
	var opened string
	c.opener = open.Opener{GOOS: "linux", Getenv: func(string) string { return ":0" },
		LookPath: func(string) (string, error) { return "/usr/bin/xdg-open", nil },
		Run:      func(_ context.Context, _, target string) error { opened = target; return nil }}
	if n := notices(run(c.cmd())); !strings.Contains(n, "Opened grafana-dash in your browser; log in as avnadmin") {
		t.Errorf("opened: %q", n)
	}
	if opened != "https://grafana.example:443" {
		t.Errorf("the opener got %q", opened)
	}
	c.opener.Getenv = func(string) string { return "" } // no desktop session
	msgs := run(c.cmd())
	var copied common.CopyRequest
	for _, m := range msgs {
		if cr, ok := m.(common.CopyRequest); ok {
			copied = cr
		}
	}
	if copied.Value != "https://grafana.example:443" || !strings.Contains(notices(msgs), "copying the address of grafana-dash instead") {
		t.Errorf("without an opener: %v", msgs)
	}

	// An address that is not https (nor http to this machine) is refused with a
	// sentence: neither opened nor copied.
	c.opener.Getenv = func(string) string { return ":0" }
	for _, uri := range []string{"http://grafana.example:80", "smb://grafana.example/share"} {
		conn.URI = uri
		api.SetConnection("acme-prod", "grafana-dash", conn)
		opened = ""
		msgs := run(c.cmd())
		for _, m := range msgs {
			if _, ok := m.(common.CopyRequest); ok {
				t.Errorf("%s: copied", uri)
			}
		}
		if n := notices(msgs); opened != "" || !strings.Contains(n, "Did not open the address of grafana-dash: ") || !strings.Contains(n, "only https:// addresses are opened") {
			t.Errorf("%s: opened %q, notices %q", uri, opened, n)
		}
	}
}
