package access

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
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

// Progress notices go out with tea.Sequence before their request: in a tea.Batch a fast
// answer could arrive first and have its "Deleted …" overwritten by "Deleting …".

// changed is the answer of a create or delete that has nothing to show but a sentence.
type changed struct{ Text string }

// refuse reports why an action may not start: read-only mode, a service type without
// this kind, or (for admin-only actions) the developer role.
func (a *Access) refuse(action string, adminOnly bool) tea.Cmd {
	if a.ctx.ReadOnly {
		return common.Warn("Read-only mode: " + action + " is disabled")
	}
	if why := unsupported(a.kind, a.t.Service, a.t.Type); why != "" {
		return common.Warn(why)
	}
	if r, ok := a.ctx.Roles[a.t.Project]; adminOnly && ok && r == models.RoleDeveloper {
		return common.Error(fmt.Sprintf("You are a developer in %s; only an admin may %s", a.t.Project, action))
	}
	return nil
}

func (a *Access) selectedUser() (models.ServiceUser, bool) {
	name := a.table.SelectedKey()
	for _, u := range a.data.Users {
		if u.Username == name {
			return u, true
		}
	}
	return models.ServiceUser{}, false
}

func (a *Access) startCreate() tea.Cmd {
	if cmd := a.refuse("create", false); cmd != nil {
		return cmd
	}
	var m common.Modal
	switch a.kind {
	case common.AccessUsers:
		m = a.userForm()
	case common.AccessACL:
		if len(a.data.Users) == 0 {
			return common.Warn("No users of " + a.t.Service + " loaded yet to grant an ACL to")
		}
		m = a.aclForm()
	case common.AccessTopics:
		m = a.topicForm()
	case common.AccessDatabases:
		m = a.databaseForm()
	}
	return common.Send(common.OpenModal{Modal: m})
}

func (a *Access) confirmReset() tea.Cmd {
	if cmd := a.refuse("reset credentials", false); cmd != nil {
		return cmd
	}
	u, ok := a.selectedUser()
	if !ok {
		return common.Warn("No user selected")
	}
	text := fmt.Sprintf("Reset the credentials of %s on %s? A new password is generated; the current one stops working at once, "+
		"so clients using it must be given the new one.", u.Username, a.t.Service)
	return common.Send(common.OpenModal{Modal: components.NewConfirm(a.ctx, "Reset credentials", text, func() tea.Cmd {
		return a.reset(u.Username)
	})})
}

func (a *Access) reset(username string) tea.Cmd {
	api, t := a.ctx.API, a.t
	return tea.Sequence(common.Info("Resetting the credentials of "+username+"…"),
		common.Fetch(a.req, "reset", func(ctx context.Context) (credentials, error) {
			u, err := api.ResetCredentials(ctx, t.Project, t.Service, username)
			if err != nil {
				return credentials{}, err
			}
			if u.Username == "" {
				u.Username = username
			}
			return credentials{User: u, URI: userURI(ctx, api, t, u), Reset: true}, nil
		}))
}

func (a *Access) confirmDelete() tea.Cmd {
	if a.ctx.ReadOnly {
		return common.Warn("Read-only mode: delete is disabled")
	}
	u, ok := a.selectedUser()
	if !ok {
		return common.Warn("No user selected")
	}
	if u.Type == models.UserPrimary {
		return common.Error(PrimaryRefusal)
	}
	if cmd := a.refuse("delete service users", true); cmd != nil {
		return cmd
	}
	api, t, name := a.ctx.API, a.t, u.Username
	text := fmt.Sprintf("Deleting user %s of %s is irreversible: its password stops working at once, "+
		"and clients connected with it lose access.", name, t.Service)
	return common.Send(common.OpenModal{Modal: components.NewTypedConfirm(a.ctx, "Delete user", text, name, func() tea.Cmd {
		return tea.Sequence(common.Info("Deleting "+name+"…"), common.Fetch(a.req, "delete", func(ctx context.Context) (changed, error) {
			return changed{"Deleted user " + name + " of " + t.Service}, api.DeleteUser(ctx, t.Project, t.Service, name)
		}))
	})})
}

// userURI builds the full connection URI for a user from the service's URI (or its
// connection info); "" when the service has none. Errors only cost the URI.
func userURI(ctx context.Context, api common.API, t target, u models.ServiceUser) string {
	if u.Password == "" {
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
	return models.URIWithCredentials(base, u.Username, u.Password)
}

// handleResult processes the answers of actions; changed reports the platform changed.
func (a *Access) handleResult(msg tea.Msg) (cmd tea.Cmd, handled, reload bool) {
	switch msg := msg.(type) {
	case common.Result[credentials]:
		if !a.req.Current(msg.Addr) {
			return nil, true, false
		}
		if msg.Err != nil {
			return common.Error(a.ctx.ErrorText(msg.Err)), true, false
		}
		return a.showSecret(msg.Value), true, true
	case common.Result[changed]:
		if !a.req.Current(msg.Addr) {
			return nil, true, false
		}
		if msg.Err != nil {
			return common.Error(a.ctx.ErrorText(msg.Err)), true, false
		}
		return common.Success(msg.Value.Text), true, true
	}
	return nil, false, false
}

// showSecret opens the one-time secret modal; the password lives only in that modal.
func (a *Access) showSecret(c credentials) tea.Cmd {
	u := c.User
	title, done := "New user "+u.Username, "Created user "+u.Username+" of "+a.t.Service
	if c.Reset {
		title, done = "New credentials for "+u.Username, "Reset the credentials of "+u.Username
	}
	if u.Password == "" || u.Password == "<redacted>" {
		return common.Warn(done + "; the platform did not return a password")
	}
	fields := [][2]string{{"service", a.t.Service}, {"username", u.Username}, {"password", u.Password}}
	m := components.NewSecret(a.ctx, title, fields, "password", u.Password, "connection URI", c.URI)
	return tea.Sequence(common.Success(done), common.Send(common.OpenModal{Modal: m}))
}

func (a *Access) exists(name string) bool {
	for _, u := range a.data.Users {
		if u.Username == name {
			return true
		}
	}
	for _, t := range a.data.Topics {
		if t.TopicName == name {
			return true
		}
	}
	for _, d := range a.data.Databases {
		if d.DatabaseName == name {
			return true
		}
	}
	return false
}

// nameCheck validates a new name as typed: silent while empty, the rule, then uniqueness.
func (a *Access) nameCheck(what string, v *string, rule func(string) error) func() error {
	return func() error {
		if *v == "" {
			return nil
		}
		if err := rule(*v); err != nil {
			return err
		}
		if a.exists(*v) {
			return fmt.Errorf("%s %s already exists on %s", what, *v, a.t.Service)
		}
		return nil
	}
}

func required(check func() error, v *string, what string) func(string) error {
	return func(string) error {
		if *v == "" {
			return fmt.Errorf("%s is required", what)
		}
		return check()
	}
}

func (a *Access) userForm() common.Modal {
	var name, auth string
	check := a.nameCheck("user", &name, models.ValidateUsername)
	input := huh.NewInput().Title("Username").Description("3-63 characters: letters, digits, underscores").
		Value(&name).Validate(required(check, &name, "username"))
	fields := []huh.Field{input}
	if methods := models.AuthenticationMethods(a.t.Type); len(methods) > 0 {
		auth = methods[0]
		opts := make([]huh.Option[string], 0, len(methods))
		for _, m := range methods {
			opts = append(opts, huh.NewOption(m, m))
		}
		fields = append(fields, huh.NewSelect[string]().Title("Authentication").Options(opts...).Value(&auth))
	}
	api, t := a.ctx.API, a.t
	return components.NewForm(a.ctx, "Create user on "+t.Service, func() tea.Cmd {
		req := models.CreateUserRequest{Username: name, Authentication: auth}
		return tea.Sequence(common.Info("Creating user "+name+"…"), common.Fetch(a.req, "create", func(ctx context.Context) (credentials, error) {
			u, err := api.CreateUser(ctx, t.Project, t.Service, req)
			if err != nil {
				return credentials{}, err
			}
			if u.Username == "" {
				u.Username = req.Username
			}
			return credentials{User: u, URI: userURI(ctx, api, t, u)}, nil
		}))
	}, huh.NewGroup(fields...)).Live(input, check)
}

func (a *Access) aclForm() common.Modal {
	var user, topic string
	perm := models.PermRead
	users := make([]huh.Option[string], 0, len(a.data.Users))
	for _, u := range a.data.Users {
		users = append(users, huh.NewOption(u.Username, u.Username))
	}
	user = a.data.Users[0].Username
	topicCheck := func() error {
		if topic == "" {
			return nil
		}
		return models.ValidateACLTopic(topic)
	}
	topicInput := huh.NewInput().Title("Topic").Description("a topic name, a pattern like logs-*, or * for all topics").
		Value(&topic).Validate(models.ValidateACLTopic)
	perms := make([]huh.Option[models.ACLPermission], 0, len(models.ACLPermissions))
	for _, p := range models.ACLPermissions {
		perms = append(perms, huh.NewOption(string(p), p))
	}
	api, t := a.ctx.API, a.t
	return components.NewForm(a.ctx, "Create ACL on "+t.Service, func() tea.Cmd {
		req := models.CreateACLRequest{Username: user, Topic: topic, Permission: perm}
		return tea.Sequence(common.Info("Creating ACL…"), common.Fetch(a.req, "create", func(ctx context.Context) (changed, error) {
			_, err := api.CreateACL(ctx, t.Project, t.Service, req)
			return changed{fmt.Sprintf("Granted %s %s on %s", req.Username, req.Permission, req.Topic)}, err
		}))
	}, huh.NewGroup(
		huh.NewSelect[string]().Title("User").Options(users...).Height(6).Value(&user),
		topicInput,
		huh.NewSelect[models.ACLPermission]().Title("Permission").Options(perms...).Value(&perm),
	)).Live(topicInput, topicCheck)
}

// intCheck validates a number field as typed.
func intCheck(v *string, what string, rule func(int) error) func() error {
	return func() error {
		n, err := strconv.Atoi(strings.TrimSpace(*v))
		if err != nil {
			return fmt.Errorf("%s must be a whole number", what)
		}
		return rule(n)
	}
}

func (a *Access) topicForm() common.Modal {
	name, parts, repl := "", "1", "2"
	check := a.nameCheck("topic", &name, models.ValidateTopicName)
	partsCheck := intCheck(&parts, "partitions", models.ValidatePartitions)
	replCheck := intCheck(&repl, "replication", models.ValidateReplication)
	nameInput := huh.NewInput().Title("Topic name").Description("letters, digits, '.', '_' and '-'").
		Value(&name).Validate(required(check, &name, "topic name"))
	partsInput := huh.NewInput().Title("Partitions").Description("1-1000").Value(&parts).Validate(func(string) error { return partsCheck() })
	replInput := huh.NewInput().Title("Replication").Description("1-10, at most the service's node count").
		Value(&repl).Validate(func(string) error { return replCheck() })
	api, t := a.ctx.API, a.t
	return components.NewForm(a.ctx, "Create topic on "+t.Service, func() tea.Cmd {
		p, _ := strconv.Atoi(strings.TrimSpace(parts))
		r, _ := strconv.Atoi(strings.TrimSpace(repl))
		req := models.CreateTopicRequest{TopicName: name, Partitions: p, Replication: r}
		return tea.Sequence(common.Info("Creating topic "+name+"…"), common.Fetch(a.req, "create", func(ctx context.Context) (changed, error) {
			return changed{"Created topic " + req.TopicName + "; it is being configured"}, api.CreateTopic(ctx, t.Project, t.Service, req)
		}))
	}, huh.NewGroup(nameInput, partsInput, replInput)).
		Live(nameInput, check).Live(partsInput, partsCheck).Live(replInput, replCheck)
}

func (a *Access) databaseForm() common.Modal {
	var name string
	check := a.nameCheck("database", &name, models.ValidateDatabaseName)
	input := huh.NewInput().Title("Database name").Description("1-63 characters, starting with a letter or underscore").
		Value(&name).Validate(required(check, &name, "database name"))
	api, t := a.ctx.API, a.t
	return components.NewForm(a.ctx, "Create database on "+t.Service, func() tea.Cmd {
		db := name
		return tea.Sequence(common.Info("Creating database "+db+"…"), common.Fetch(a.req, "create", func(ctx context.Context) (changed, error) {
			return changed{"Created database " + db + " on " + t.Service}, api.CreateDatabase(ctx, t.Project, t.Service, db)
		}))
	}, huh.NewGroup(input)).Live(input, check)
}
