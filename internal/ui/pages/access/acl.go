package access

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// ACLs is a Kafka service's access control list.
type ACLs struct{ sub[models.ACL] }

// NewACLs builds the ACL view of a service.
func NewACLs(ctx *common.Context, t target) *ACLs {
	a := &ACLs{}
	// Sorted by what is shown, not by id (platform ids mean nothing to a person).
	a.sub = newSub(ctx, t, common.AccessACL, ctx.API.ListACLs, aclText, base.ListSpec[models.ACL]{
		Noun:    "ACL entry",
		Columns: []components.Column{{Title: "Username", Flex: true, Max: 40}, {Title: "Topic", Flex: true, Max: 60}, {Title: "Permission", Max: 12}},
		Empty:   "No ACL entries yet. Press c to create one.",
		Key:     aclKey,
		Row: func(e models.ACL) components.Row {
			return components.Row{Cells: []string{e.Username, e.Topic, string(e.Permission)}}
		},
		Actions: []base.Action[models.ACL]{
			{Key: ctx.Keys.Create, Help: "create ACL", NoSelection: true, Run: func(models.ACL) tea.Cmd { return a.startCreate() }},
			{Key: ctx.Keys.Delete, Hidden: true, NoSelection: true, Run: func(models.ACL) tea.Cmd { return noDelete("ACL entries") }},
		},
	})
	return a
}

// aclKey is the platform's id, else what the entry grants (old answers carry no id).
func aclKey(e models.ACL) string {
	if e.ID != "" {
		return e.ID
	}
	return aclText(e)
}

func aclText(e models.ACL) string {
	return e.Username + "\x00" + e.Topic + "\x00" + string(e.Permission)
}

// noDelete answers d where the platform API lists and creates but cannot delete.
func noDelete(what string) tea.Cmd {
	return common.Info("The platform cannot delete " + what + ": its API only lists and creates them")
}

func (a *ACLs) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if r, ok := msg.(common.Result[[]models.ServiceUser]); ok && r.Kind == kindAclUsers {
		if !a.Req.Current(r.Addr) {
			return a, nil
		}
		return a, a.openForm(r.Value, r.Err)
	}
	return a, a.handle(msg)
}

// startCreate reads the service's users first: the form offers them.
func (a *ACLs) startCreate() tea.Cmd {
	if cmd := a.svc.refuse("create", false); cmd != nil {
		return cmd
	}
	api, t := a.Ctx.API, a.svc.t
	return tea.Sequence(common.Info("Loading the users of "+t.Service+"…"),
		common.Fetch(a.Req, kindAclUsers, func(ctx context.Context) ([]models.ServiceUser, error) {
			return api.ListUsers(ctx, t.Project, t.Service)
		}))
}

func (a *ACLs) openForm(users []models.ServiceUser, err error) tea.Cmd {
	if err != nil {
		return common.Error(a.Ctx.ErrorText(err))
	}
	names := make([]string, 0, len(users))
	for _, su := range users {
		if strings.TrimSpace(su.Username) != "" { // an entry without a name cannot be granted anything
			names = append(names, su.Username)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return common.Warn(a.svc.t.Service + " has no users to grant an ACL to; create one in its users (:users)")
	}
	return tea.Batch(common.Info(""), a.Ctx.Open(a.form(names)))
}

func (a *ACLs) form(users []string) *components.Form {
	user, topic, perm := users[0], "", string(models.PermRead)
	opts := make([]huh.Option[string], 0, len(users))
	for _, n := range users {
		opts = append(opts, components.Option(n, n))
	}
	topicCheck := func() error {
		if topic == "" {
			return nil
		}
		return models.ValidateACLTopic(topic)
	}
	topicInput := huh.NewInput().Title("Topic").Description("a topic name, a pattern like logs-*, or * for all topics").
		Value(&topic).Validate(models.ValidateACLTopic)
	// Options of strings: a select of another type is another copy of huh's select code.
	perms := make([]huh.Option[string], 0, len(models.ACLPermissions))
	for _, p := range models.ACLPermissions {
		perms = append(perms, components.Option(string(p), string(p)))
	}
	t := a.svc.t
	var f *components.Form
	f = components.NewForm(a.Ctx, "Create ACL on "+t.Service, func() tea.Cmd {
		if cmd := unnamed("ACL entry's user", user); cmd != nil {
			return cmd
		}
		if cmd := unnamed("ACL entry's topic", topic); cmd != nil {
			return cmd
		}
		req := models.CreateACLRequest{Username: user, Topic: topic, Permission: models.ACLPermission(perm)}
		want := models.ACL{Username: req.Username, Topic: req.Topic, Permission: req.Permission}
		find := func(e models.ACL) bool { return aclText(e) == aclText(want) }
		name := fmt.Sprintf("granting %s %s on %s", req.Username, req.Permission, req.Topic)
		return a.mk.send(creation[models.ACL]{noun: "ACL entry", name: name, find: find, form: f}, func(ctx context.Context, wr common.Writer) (made, error) {
			es, err := wr.CreateACL(ctx, t.Project, t.Service, req)
			if err != nil {
				return made{}, err
			}
			key := aclKey(want)
			for _, e := range es {
				if find(e) {
					key = aclKey(e)
				}
			}
			return made{key: key, text: fmt.Sprintf("Granted %s %s on %s", req.Username, req.Permission, req.Topic)}, nil
		})
	}, huh.NewGroup(
		huh.NewSelect[string]().Title("User").Options(opts...).Height(6).Value(&user),
		topicInput,
		huh.NewSelect[string]().Title("Permission").Options(perms...).Value(&perm),
	)).Live(topicInput, topicCheck).
		Names("username", "User", nil).Names("topic", "Topic", nil).Names("permission", "Permission", nil)
	return f
}
