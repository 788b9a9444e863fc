package services

import (
	"context"
	"errors"
	"github.com/svcui/svcui/internal/ui/terminal"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/connect"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/open"
	"github.com/svcui/svcui/internal/ui/theme"
)

// connector opens a service in its own client (issue 12 §1). Everything it needs from
// the context is copied when it is built (on the UI goroutine): planning reads the
// platform, looks clients up on PATH and writes files, so it runs inside a command.
type connector struct {
	api              common.API
	project, service string
	// passwords this session received for the service's users, by user name.
	passwords map[string]string
	// search opens the Search tab on this service (the palette's "search NAME").
	search tea.Cmd
	// message is the platform's sentence for an error.
	message func(error) string
	// exec runs the client while the console is suspended (tea.Exec; tests replace it).
	exec func(tea.ExecCommand, tea.ExecCallback) tea.Cmd
	// opener opens a web address (grafana) in the desktop's browser.
	opener open.Opener
	opts   connect.Options
}

func newConnector(ctx *common.Context, project, service string) connector {
	prefix := project + "/" + service + "/"
	pw := map[string]string{}
	for k, v := range ctx.Passwords {
		if user, ok := strings.CutPrefix(k, prefix); ok {
			pw[user] = v
		}
	}
	return connector{api: ctx.API, project: project, service: service, passwords: pw, exec: tea.Exec, opener: open.Default(),
		search: searchTab(ctx, project, service), message: ctx.Platform.Message}
}

// searchTab makes an opensearch service current and opens the Search tab on it.
func searchTab(ctx *common.Context, project, service string) tea.Cmd {
	open := common.Send(common.SwitchTab{Tab: common.TabSearch})
	if c, arg, ok := ctx.Commands.Lookup("search " + service); ok && arg == service {
		open = c.Run(ctx, arg)
	}
	return tea.Sequence(common.Send(common.SelectService{Project: project, Name: service, Type: models.TypeOpenSearch}), open)
}

// cmd plans the session and carries it out: a client runs with the console suspended
// and its files are removed when it exits; opensearch opens the Search tab; grafana
// opens in the browser, or its address is copied where there is none. The console
// stays where it was.
func (c connector) cmd() tea.Cmd {
	return common.Working("Connecting to "+c.service+"…", func() tea.Msg {
		sess, err := c.plan()
		if err != nil {
			return common.Notify{Level: theme.LevelError, Text: err.Error()}
		}
		switch sess.Kind {
		case connect.KindSearchTab:
			return tea.Batch(common.Info(""), c.search)()
		case connect.KindOpenURI:
			return c.openURI(sess)
		}
		return c.exec(terminal.Exec{ExecCommand: sess}, func(err error) tea.Msg { return c.finished(sess, err) })()
	})
}

// openURI opens a web service in the browser, or copies its address when this machine
// has no opener (a jump host over SSH).
func (c connector) openURI(sess *connect.Session) tea.Msg {
	login := ""
	if sess.User != "" {
		login = "; log in as " + sess.User
	}
	err := c.opener.Open(sess.URI)
	if err == nil {
		return common.Notify{Level: theme.LevelSuccess, Text: "Opened " + c.service + " in your browser" + login}
	}
	if errors.Is(err, open.ErrRefused) {
		// The platform's address is not one to hand an opener (a file, plain http to
		// another host): said, neither opened nor copied.
		return common.Notify{Level: theme.LevelWarn, Text: "Did not open the address of " + c.service + ": " + err.Error()}
	}
	why := "No browser here (" + err.Error() + ")"
	if !errors.Is(err, open.ErrNoOpener) {
		why = "Could not open a browser: " + err.Error()
	}
	label := "address of " + c.service
	if sess.User != "" {
		label += " (log in as " + sess.User + ")"
	}
	// The copy's own report follows and names what was copied, with the login.
	return tea.Batch(common.Warn(why+"; copying the address of "+c.service+" instead"+login),
		common.Send(common.CopyRequest{Label: label, Value: sess.URI}))()
}

// plan reads the service and its connection information and plans the session.
func (c connector) plan() (*connect.Session, error) {
	ctx, cancel := context.WithTimeout(context.Background(), common.RequestTimeout)
	defer cancel()
	var t connect.Target
	var connErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); t.Conn, connErr = c.api.GetConnectionInfo(ctx, c.project, c.service) }()
	s, err := c.api.GetService(ctx, c.project, c.service)
	wg.Wait()
	if err != nil {
		text := err.Error()
		if c.message != nil {
			text = c.message(err)
		}
		return nil, errors.New("Cannot connect to " + c.service + ": " + text)
	}
	t.Service = s
	if connErr != nil {
		t.Conn = models.ConnectionInfo{}
	}
	// The primary user's password comes from the connection information; when the
	// platform hides it, a password this session received for that user is used.
	primary := t.Conn.User
	if pw, ok := c.passwords[primary]; ok && primary != "" && !models.SecretAvailable(t.Conn.Password) {
		t.User = models.ServiceUser{Username: primary, Password: pw}
	}
	return connect.Plan(t, c.opts)
}

// finished cleans up after the client and says how it went; a signal that ended the
// session (SIGTERM, SIGHUP) ends the console too.
func (c connector) finished(sess *connect.Session, runErr error) tea.Msg {
	cleanErr := sess.Cleanup()
	if sess.Signalled() != nil {
		return common.Quit{}
	}
	switch {
	case runErr != nil:
		return common.Notify{Level: theme.LevelWarn, Text: sess.Client + " ended with an error (" + strings.TrimPrefix(runErr.Error(), sess.Client+": ") + ")"}
	case cleanErr != nil:
		return common.Notify{Level: theme.LevelError, Text: cleanErr.Error()}
	}
	return common.Notify{Level: theme.LevelSuccess, Text: "Back from " + sess.Client + " (" + c.service + ")"}
}
