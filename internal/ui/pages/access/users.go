package access

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
)

// PrimaryRefusal is the reason the primary user is never deleted (the platform's own words).
const PrimaryRefusal = "The primary user of a service cannot be deleted"

// credentials is the answer of a create or reset: the user with its one-time password
// and, when the service has a URI, a full connection URI for that user.
type credentials struct {
	User  models.ServiceUser
	URI   string
	Reset bool
}

// deleted is the answer of a user's delete.
// Users is a service's users: create (one-time secret), reset credentials, delete,
// and connect as the user in its own client.
type Users struct{ sub[models.ServiceUser] }

// NewUsers builds the users view of a service.
func NewUsers(ctx *common.Context, t target) *Users {
	u := &Users{}
	k := ctx.Keys
	name := func(su models.ServiceUser) string { return su.Username }
	u.sub = newSub(ctx, t, common.AccessUsers, ctx.API.ListUsers, name, base.ListSpec[models.ServiceUser]{
		Noun:    "user",
		Columns: []components.Column{{Title: "Username", Flex: true, Max: 48}, {Title: "Type", Max: 12, Styled: true}},
		Empty:   "No users yet. Press c to create one.",
		Key:     name,
		Row: func(su models.ServiceUser) components.Row {
			typ := safe.Text(string(su.Type))
			if su.Type == models.UserPrimary {
				typ = ctx.Styles.Bold.Render("★ primary")
			}
			return components.Row{Cells: []string{su.Username, typ}, Sort: []string{su.Username, string(su.Type)}}
		},
		Actions: []base.Action[models.ServiceUser]{
			{Key: k.Create, Help: "create user", NoSelection: true, Run: func(models.ServiceUser) tea.Cmd { return u.startCreate() }},
			{Key: k.Reset, Help: "reset credentials", Run: u.confirmReset, Many: u.resetMarked},
			{Key: k.Delete, Help: "delete user", Run: u.confirmDelete},
			{Key: k.Launch, Help: "connect as this user", Run: u.connect},
		},
	})
	u.mk.made, u.mk.found = u.created, u.offerReset
	return u
}

func (u *Users) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[plan]:
		return u, u.planned(msg)
	}
	if cmd, ok := base.HandleWrite[models.ServiceUser](u.Ctx, u.Req, msg); ok {
		return u, cmd
	}
	if cmd, ok := base.HandleWrite[credentials](u.Ctx, u.Req, msg); ok {
		return u, cmd
	}
	switch msg := msg.(type) {
	case connected:
		return u, u.disconnected(msg)
	}
	return u, u.handle(msg)
}

func (u *Users) startCreate() tea.Cmd {
	if cmd := u.svc.refuse("create", false); cmd != nil {
		return cmd
	}
	return u.Ctx.Open(u.form())
}

func (u *Users) form() *components.Form {
	var name, auth string
	t := u.svc.t
	check := nameCheck(u.List, "user", t.Service, models.ValidateUsername)
	input := huh.NewInput().Title("Username").Description("3-63 characters: letters, digits, underscores").
		Value(&name).Validate(required(check, "username"))
	fields := []huh.Field{input}
	if methods := models.AuthenticationMethods(t.Type); len(methods) > 0 {
		auth = methods[0]
		opts := make([]huh.Option[string], 0, len(methods))
		for _, m := range methods {
			opts = append(opts, components.Option(m, m))
		}
		fields = append(fields, huh.NewSelect[string]().Title("Authentication").Options(opts...).Value(&auth))
	}
	api := u.Ctx.API
	var f *components.Form
	f = components.NewForm(u.Ctx, "Create user on "+t.Service, func() tea.Cmd {
		if cmd := unnamed("user", name); cmd != nil {
			return cmd
		}
		req := models.CreateUserRequest{Username: name, Authentication: auth}
		return u.mk.send(creation[models.ServiceUser]{noun: "user", name: req.Username, form: f,
			find: func(su models.ServiceUser) bool { return su.Username == req.Username }},
			func(ctx context.Context, wr common.Writer) (made, error) {
				su, err := wr.CreateUser(ctx, t.Project, t.Service, req)
				if err != nil {
					return made{}, err
				}
				if su.Username == "" {
					su.Username = req.Username
				}
				return made{key: su.Username, text: "Created user " + su.Username + " of " + t.Service,
					cred: &credentials{User: su, URI: userURI(ctx, api, t, su)}}, nil
			})
	}, huh.NewGroup(fields...)).Live(input, live(check, &name)).
		Names("username", "Username", nil).Names("authentication", "Authentication", nil)
	return f
}

// created keeps the new user's password for this session (connect may use it) and
// shows it once.
func (u *Users) created(m made) tea.Cmd {
	if m.cred == nil {
		return nil
	}
	return u.secret(*m.cred)
}

// offerReset: a create of unknown outcome happened, but its password never arrived.
// The only way to a usable password is a reset, which the person confirms.
func (u *Users) offerReset(su models.ServiceUser) tea.Cmd {
	name := su.Username
	text := fmt.Sprintf("User %s exists: it was created, but its password was not received (the connection dropped before the answer). "+
		"Reset its credentials now to get a password? You can also press R on it later.", name)
	return tea.Batch(common.Warn("User "+name+" exists: it was created; its password was not received; press R to reset its credentials"),
		u.Ctx.Open(components.NewConfirm(u.Ctx, "Reset credentials", text, func() tea.Cmd { return u.reset(name) })))
}

func (u *Users) confirmReset(su models.ServiceUser) tea.Cmd {
	if cmd := u.svc.refuse("reset credentials", false); cmd != nil {
		return cmd
	}
	if cmd := nameless("user", su.Username, "reset"); cmd != nil {
		return cmd
	}
	name, service := su.Username, u.svc.t.Service
	run := func() tea.Cmd { return u.reset(name) }
	if su.Type == models.UserPrimary {
		// docs/interaction.md: resetting the primary user breaks what connects with it; the name is typed.
		text := fmt.Sprintf("%s is the primary user of %s. Resetting its credentials breaks every connection that uses it: "+
			"applications, scripts and people connected with the current password lose access at once and must be given "+
			"the new one. A new password is generated and shown once.", name, service)
		return u.Ctx.Open(components.NewTypedConfirm(u.Ctx, "Reset primary credentials", text, name, run))
	}
	text := fmt.Sprintf("Reset the credentials of %s on %s? A new password is generated; the current one stops working at once, "+
		"so clients using it must be given the new one.", name, service)
	return u.Ctx.Open(components.NewConfirm(u.Ctx, "Reset credentials", text, run))
}

func (u *Users) reset(username string) tea.Cmd {
	var known models.UserType
	for _, su := range u.Items() {
		if su.Username == username {
			known = su.Type
		}
	}
	if cmd := nameless("user", username, "reset"); cmd != nil {
		return cmd
	}
	api, t := u.Ctx.API, u.svc.t
	return base.SendWrite(u.Ctx, u.Req, &base.Write[credentials]{Verb: base.Reset, Noun: "the credentials of", Name: username,
		Reload: u.Load,
		// Never sent again by itself: a second reset would be another change.
		Unknown: "The connection dropped after the reset was sent: the credentials of " + username +
			" may have been reset, and no new password was received. Press R to reset them again and get one.",
		Send: func(ctx context.Context, wr common.Writer) (credentials, error) {
			su, err := wr.ResetCredentials(ctx, t.Project, t.Service, username)
			if err != nil {
				return credentials{}, err
			}
			if su.Username == "" {
				su.Username = username
			}
			if su.Type == "" {
				su.Type = known // the reset's answer may not say; the list did
			}
			return credentials{User: su, URI: userURI(ctx, api, t, su), Reset: true}, nil
		},
		Done: u.secret,
	})
}

// secret remembers the password for this session (connect uses it) and opens the
// one-time secret modal; the password is shown nowhere else.
func (u *Users) secret(c credentials) tea.Cmd {
	su, t := c.User, u.svc.t
	if !models.SecretAvailable(su.Password) {
		return common.Warn("The platform did not return a password for " + su.Username)
	}
	u.Ctx.RememberPassword(t.Project, t.Service, su.Username, su.Password)
	title := "New user " + su.Username
	if c.Reset {
		title = "New credentials for " + su.Username
	}
	fields := [][2]string{{"service", t.Service}, {"username", su.Username}, {"password", su.Password}}
	modal := components.NewSecret(u.Ctx, title, fields, "password", su.Password, "connection URI", c.URI)
	if su.Type == models.UserPrimary {
		// The primary user's password is part of the service's connection details.
		modal.AlsoAt("the connection details of " + t.Service + " (x on its detail)")
	}
	return u.Ctx.Open(modal)
}

func (u *Users) confirmDelete(su models.ServiceUser) tea.Cmd {
	if u.Ctx.ReadOnly {
		return common.Warn("Read-only mode: delete is disabled")
	}
	if cmd := nameless("user", su.Username, "delete"); cmd != nil {
		return cmd
	}
	if su.Type == models.UserPrimary {
		return common.Error(PrimaryRefusal)
	}
	if cmd := u.svc.refuse("delete service users", true); cmd != nil {
		return cmd
	}
	api, t, name := u.Ctx.API, u.svc.t, su.Username
	text := fmt.Sprintf("Deleting user %s of %s is irreversible: its password stops working at once, "+
		"and clients connected with it lose access.", name, t.Service)
	return u.Ctx.Open(components.NewTypedConfirm(u.Ctx, "Delete user", text, name, func() tea.Cmd {
		return base.SendWrite(u.Ctx, u.Req, &base.Write[models.ServiceUser]{Verb: base.Delete, Noun: "user", Name: name, Reload: u.Load,
			Done: func(models.ServiceUser) tea.Cmd { return common.Success("Deleted user " + name + " of " + t.Service) },
			Send: func(ctx context.Context, wr common.Writer) (models.ServiceUser, error) {
				return su, wr.DeleteUser(ctx, t.Project, t.Service, name)
			},
			Find: func(ctx context.Context) (models.ServiceUser, bool, error) {
				users, err := api.ListUsers(ctx, t.Project, t.Service)
				for _, x := range users {
					if x.Username == name {
						return x, true, nil
					}
				}
				return su, false, err
			},
		})
	}))
}

// userURI builds the full connection URI for a user from the service's URI (or its
// connection info); "" when the service has none. Errors only cost the URI.
func userURI(ctx context.Context, api common.API, t target, su models.ServiceUser) string {
	if su.Password == "" {
		return ""
	}
	base := ""
	if sv, err := api.GetService(ctx, t.Project, t.Service); err == nil {
		base = sv.ServiceURI
	}
	if base == "" {
		if ci, err := api.GetConnectionInfo(ctx, t.Project, t.Service); err == nil {
			base = ci.URI
		}
	}
	if base == "" {
		return ""
	}
	return models.URIWithCredentials(base, su.Username, su.Password)
}
