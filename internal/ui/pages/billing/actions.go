package billing

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// actions implements create, edit and project assignment for the groups list and the
// group detail; results are addressed to the view whose Requests started them.
type actions struct {
	ctx *common.Context
	req *common.Requests
	// create is the last create form sent; edit and assign the last chains (form, then
	// review). A refusal brings the one that was sent back with everything typed.
	create       *components.Form
	edit, assign *components.Flow
	// sent is what the last create asked for: an unknown outcome is read back by name.
	sent struct{ account, name string }
	// created puts the list's cursor on a new group (nil in the detail).
	created func(id string)
}

// assigned is the result of assigning a project to a group.
type assigned struct {
	Project models.Project
	Group   string
}

// readBack is what a read-back after a create of unknown outcome found.
type readBack struct {
	Name  string
	Group *models.BillingGroup // nil: not there
}

// assignPrep is what the assign form needs: the caller's projects and their groups.
type assignPrep struct {
	Group    models.BillingGroup
	Projects []models.Project
}

func (a *actions) startCreate(account string) tea.Cmd {
	if account == "" {
		account = accountFor(a.ctx)
	}
	if account == "" {
		return common.Warn("No account known yet; wait for the billing groups to load")
	}
	v := &groupValues{}
	api := a.ctx.API
	var form *components.Form
	form = groupForm(a.ctx, "Create billing group", v, func() tea.Cmd {
		req, _ := request(*v, nil)
		name := strings.TrimSpace(v.Name)
		a.create, a.sent.account, a.sent.name = form, account, name
		return tea.Batch(common.Info("Creating billing group "+name+"…"),
			common.Fetch(a.req, "create", func(ctx context.Context) (models.BillingGroup, error) {
				return api.CreateBillingGroup(ctx, account, req)
			}))
	})
	return common.Send(common.OpenModal{Modal: form})
}

// startEdit opens the edit form; its submit shows the review (old → new) and only the
// review's enter sends.
func (a *actions) startEdit(b models.BillingGroup) tea.Cmd {
	orig := valuesOf(b)
	v := &groupValues{}
	*v = orig
	api, id, title := a.ctx.API, b.BillingGroupID, "Edit billing group "+b.BillingGroupName
	var c *components.Flow
	form := groupForm(a.ctx, title, v, func() tea.Cmd {
		req, changed := request(*v, &orig)
		if !changed {
			return common.Info("Nothing changed")
		}
		a.edit = c
		c.Then(components.NewReview(a.ctx, title, groupChanges(orig, *v), func() tea.Cmd {
			return tea.Batch(common.Info("Saving billing group…"),
				common.Fetch(a.req, "update", func(ctx context.Context) (models.BillingGroup, error) {
					return api.UpdateBillingGroup(ctx, id, req)
				}))
		}, nil))
		return nil
	})
	c = components.NewFlow(form)
	return common.Send(common.OpenModal{Modal: c})
}

// startAssign reads the caller's projects (which group each is in now), then opens the
// form.
func (a *actions) startAssign(b models.BillingGroup) tea.Cmd {
	api := a.ctx.API
	return tea.Batch(common.Info("Loading your projects…"), common.Fetch(a.req, "prep-assign", func(ctx context.Context) (assignPrep, error) {
		list, err := api.ListProjects(ctx)
		return assignPrep{Group: b, Projects: list.Projects}, err
	}))
}

// assignForm picks a project (those already in the group are marked); its submit asks
// first, naming the project, the group it leaves and the one it joins.
func (a *actions) assignForm(p assignPrep) common.Modal {
	b := p.Group
	current := map[string]models.Project{}
	for _, pr := range p.Projects {
		current[pr.ProjectName] = pr
	}
	opts := make([]huh.Option[string], 0, len(p.Projects))
	for _, pr := range p.Projects {
		label := pr.ProjectName
		switch {
		case pr.BillingGroupID == b.BillingGroupID:
			label += "  (already in this group)"
		case pr.BillingGroupID != "":
			label += "  (now in " + groupName(pr) + ")"
		}
		opts = append(opts, components.Option(label, pr.ProjectName))
	}
	var project string
	var c *components.Flow
	api, id, gname := a.ctx.API, b.BillingGroupID, dash(b.BillingGroupName)
	form := components.NewForm(a.ctx, "Assign a project to "+gname, func() tea.Cmd {
		pr := current[project]
		if pr.BillingGroupID == id {
			return common.Info(project + " is already in " + gname + "; nothing to change")
		}
		a.assign = c
		from := "no billing group"
		if pr.BillingGroupID != "" {
			from = groupName(pr)
		}
		note := "Invoices of " + gname + " include " + project + "'s costs from now on"
		if pr.BillingGroupID != "" {
			note += "; " + from + " stops billing it"
		}
		c.Then(components.NewReview(a.ctx, "Move "+project+" to "+gname, []components.Change{
			{Field: "Billing group of " + project, Old: from, New: gname, Note: note + ".", Warn: true},
		}, func() tea.Cmd {
			return tea.Batch(common.Info("Moving "+project+" to "+gname+"…"),
				common.Fetch(a.req, "assign", func(ctx context.Context) (assigned, error) {
					pr, err := api.AssignBillingGroup(ctx, project, id)
					return assigned{Project: pr, Group: gname}, err
				}))
		}, nil))
		return nil
	}, huh.NewGroup(huh.NewSelect[string]().Title("Project").
		Description("Its costs are billed to this group from now on.").Options(opts...).Height(8).Value(&project))).
		Names("billing_group_id", "Project", nil).
		Names("project", "Project", nil)
	c = components.NewFlow(form)
	return c
}

func groupName(p models.Project) string {
	if p.BillingGroupName != "" {
		return p.BillingGroupName
	}
	return p.BillingGroupID
}

// unknownOutcome is the read-back after a create whose answer never came: it lists the
// groups and looks for the name. Nothing is sent again.
func (a *actions) unknownOutcome() tea.Cmd {
	api, account, name := a.ctx.API, a.sent.account, a.sent.name
	return tea.Batch(
		common.Warn("The connection dropped after the request was sent; checking whether billing group "+name+" was created…"),
		common.Fetch(a.req, "read-back", func(ctx context.Context) (readBack, error) {
			groups, err := api.ListBillingGroups(ctx, account)
			for _, g := range groups {
				if g.BillingGroupName == name {
					return readBack{Name: name, Group: &g}, nil
				}
			}
			return readBack{Name: name}, err
		}))
}

// refused brings back what was sent, with the platform's message at its field; an
// unknown outcome is never a refusal (see unknownOutcome).
func (a *actions) refused(kind common.Kind, err error) tea.Cmd {
	text := a.ctx.ErrorText(err)
	switch {
	case kind == "create" && a.create != nil:
		return tea.Batch(common.Error(text), a.create.Refused(text))
	case kind == "update" && a.edit != nil:
		return tea.Batch(common.Error(text), a.edit.Refused(text))
	case kind == "assign" && a.assign != nil:
		return tea.Batch(common.Error(text), a.assign.Refused(text))
	}
	return common.Error(text)
}

// handle processes action results; changed reports that the platform changed (or may
// have: the view reloads).
func (a *actions) handle(msg tea.Msg) (cmd tea.Cmd, handled, changed bool) {
	switch msg := msg.(type) {
	case common.Result[models.BillingGroup]:
		if msg.Kind != "create" && msg.Kind != "update" {
			return nil, false, false
		}
		if !a.req.Current(msg.Addr) {
			return nil, true, false
		}
		switch {
		case msg.Kind == "create" && a.ctx.OutcomeUnknown(msg.Err):
			return a.unknownOutcome(), true, false
		case a.ctx.OutcomeUnknown(msg.Err):
			return common.Warn("The connection dropped after the request was sent; the change may have been made. Showing what is there now."), true, true
		case msg.Err != nil:
			return a.refused(msg.Kind, msg.Err), true, false
		case msg.Kind == "create":
			a.selectCreated(msg.Value.BillingGroupID)
			return common.Success("Created billing group " + msg.Value.BillingGroupName), true, true
		}
		return common.Success("Saved billing group " + msg.Value.BillingGroupName), true, true
	case common.Result[readBack]:
		if !a.req.Current(msg.Addr) {
			return nil, true, false
		}
		rb := msg.Value
		switch {
		case rb.Group != nil:
			a.selectCreated(rb.Group.BillingGroupID)
			return common.Success("Billing group " + rb.Name + " exists: it was created"), true, true
		case msg.Err != nil:
			return common.Error("Could not check whether billing group " + rb.Name + " was created (" + a.ctx.ErrorText(msg.Err) +
				"); look for it in the list before creating it again"), true, true
		}
		return common.Warn("Billing group " + rb.Name + " does not exist: nothing was created"), true, false
	case common.Result[assignPrep]:
		if !a.req.Current(msg.Addr) {
			return nil, true, false
		}
		if msg.Err != nil {
			return common.Error(a.ctx.ErrorText(msg.Err)), true, false
		}
		if len(msg.Value.Projects) == 0 {
			return common.Warn("You are not a member of any project to assign"), true, false
		}
		return tea.Batch(common.Info(""), common.Send(common.OpenModal{Modal: a.assignForm(msg.Value)})), true, false
	case common.Result[assigned]:
		if !a.req.Current(msg.Addr) {
			return nil, true, false
		}
		switch {
		case a.ctx.OutcomeUnknown(msg.Err):
			return common.Warn("The connection dropped after the request was sent; the project may have moved. Showing what is there now."), true, true
		case msg.Err != nil:
			return a.refused("assign", msg.Err), true, false
		}
		return common.Success("Assigned " + msg.Value.Project.ProjectName + " to billing group " + msg.Value.Group), true, true
	}
	return nil, false, false
}

// route handles an action result for the view that sent it, reloading the view when
// the platform changed.
func (a *actions) route(msg tea.Msg, reload func() tea.Cmd) (tea.Cmd, bool) {
	cmd, handled, changed := a.handle(msg)
	if changed {
		cmd = tea.Batch(cmd, reload())
	}
	return cmd, handled
}

func (a *actions) selectCreated(id string) {
	if a.created != nil {
		a.created(id)
	}
}
