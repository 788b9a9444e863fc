package access

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/connect"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
)

// plan is a planned connection as a user (connect.Plan's answer).
type plan struct{ session *connect.Session }

// connected is the end of a client run as a user: the tea.Exec callback's message,
// addressed to the view that started it.
type connected struct {
	view    int64
	user    string
	client  string
	err     error
	signal  bool
	service string
}

// Target implements common.Addressed.
func (c connected) Target() int64 { return c.view }

// connect opens the service in its own client as the selected user: with the password
// this session received for that user (created or reset here). Without one, connect's
// own sentence says how to get one; nothing is read or planned.
func (u *Users) connect(su models.ServiceUser) tea.Cmd {
	if cmd := nameless("user", su.Username, "connect as"); cmd != nil {
		return cmd
	}
	t := u.svc.t
	pw, ok := u.Ctx.Password(t.Project, t.Service, su.Username)
	if !ok && su.Type != models.UserPrimary {
		// The primary user's password may still come from the connection information:
		// connect.Plan decides for it.
		return common.Warn((&connect.NeedCredentialsError{Service: t.Service, User: su.Username}).Error())
	}
	api := u.Ctx.API
	user := models.ServiceUser{Username: su.Username, Type: su.Type, Password: pw}
	// Plan looks clients up on PATH and writes files: inside the command, never in Update.
	return tea.Sequence(common.Info("Connecting to "+t.Service+" as "+su.Username+"…"),
		common.Fetch(u.Req, kindConnect, func(ctx context.Context) (plan, error) {
			sv, err := api.GetService(ctx, t.Project, t.Service)
			if err != nil {
				return plan{}, err
			}
			ci, _ := api.GetConnectionInfo(ctx, t.Project, t.Service) // the zero value when it fails
			s, err := connect.Plan(connect.Target{Service: sv, Conn: ci, User: user}, connect.Options{})
			if err != nil {
				return plan{}, err
			}
			if ctx.Err() != nil {
				// The view left while planning: nobody will run the session.
				_ = s.Cleanup()
				return plan{}, ctx.Err()
			}
			return plan{s}, nil
		}))
}

// planned runs a planned session: the client with the console suspended, or what
// takes its place for services without one.
func (u *Users) planned(msg common.Result[plan]) tea.Cmd {
	s := msg.Value.session
	if !u.Req.Current(msg.Addr) {
		if s != nil {
			_ = s.Cleanup()
		}
		return nil
	}
	if msg.Err != nil {
		return common.Error(u.Ctx.ErrorText(msg.Err))
	}
	switch s.Kind {
	case connect.KindSearchTab:
		_ = s.Cleanup()
		return tea.Batch(common.Info(s.Describe()), common.Send(common.SwitchTab{Tab: common.TabSearch}))
	case connect.KindOpenURI:
		_ = s.Cleanup()
		return common.Info(s.Describe())
	}
	view, user, client, service := u.ID(), s.User, s.Client, s.Service
	return tea.Sequence(common.Info(s.Describe()), tea.Exec(s, func(err error) tea.Msg {
		_ = s.Cleanup()
		return connected{view: view, user: user, client: client, err: err, signal: s.Signalled() != nil, service: service}
	}))
}

// disconnected says how the client ended; after SIGTERM or SIGHUP svcui is being
// stopped too (connect's guard passed the signal on), so it quits.
func (u *Users) disconnected(c connected) tea.Cmd {
	switch {
	case c.signal:
		return common.Send(common.Quit{})
	case c.err != nil:
		return common.Error("Back from " + c.user + "'s session on " + c.service + ", which ended with an error: " + c.err.Error())
	}
	return common.Info("Back from " + c.client + " (" + c.user + " on " + c.service + ")")
}
