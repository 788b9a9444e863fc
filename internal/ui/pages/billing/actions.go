package billing

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
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
	// created puts the list's cursor on a new group (nil in the detail).
	created func(id string)
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
	var form *components.Form
	form = groupForm(a.ctx, "Create billing group", v, func() tea.Cmd {
		req, _ := request(*v, nil)
		name := strings.TrimSpace(v.Name)
		return a.sendCreate(form, account, name, req)
	})
	return a.ctx.Open(form)
}

// sendCreate sends a create through the write protocol: refused, the form comes back;
// lost, the group is looked for by name; done, the cursor goes to it.
func (a *actions) sendCreate(form *components.Form, account, name string, req models.BillingGroupRequest) tea.Cmd {
	a.create = form
	return base.SendWrite(a.ctx, a.req, &base.Write[models.BillingGroup]{Verb: base.Create, Noun: "billing group", Name: name, Form: refusable(form),
		Send: func(ctx context.Context, wr common.Writer) (models.BillingGroup, error) {
			return wr.CreateBillingGroup(ctx, account, req)
		},
		Find: a.findGroup(account, func(g models.BillingGroup) bool { return g.BillingGroupName == name }),
		Done: func(g models.BillingGroup) tea.Cmd {
			a.ctx.BillingWrites++
			a.selectCreated(g.BillingGroupID)
			return nil
		},
	})
}

func refusable(f *components.Form) base.Refusable {
	if f == nil {
		return nil
	}
	return f
}

// startEdit opens the edit form; its submit shows the review (old → new) and only the
// review's enter sends.
func (a *actions) startEdit(b models.BillingGroup) tea.Cmd {
	orig := valuesOf(b)
	v := &groupValues{}
	*v = orig
	id, title := b.BillingGroupID, "Edit billing group "+b.BillingGroupName
	var c *components.Flow
	form := groupForm(a.ctx, title, v, func() tea.Cmd {
		req, changed := request(*v, &orig)
		if !changed {
			return common.Info("Nothing changed")
		}
		a.edit = c
		c.Then(components.NewReview(a.ctx, title, groupChanges(orig, *v), func() tea.Cmd {
			return base.SendWrite(a.ctx, a.req, &base.Write[models.BillingGroup]{Verb: base.Update, Noun: "billing group", Name: strings.TrimSpace(v.Name), Form: c,
				Send: func(ctx context.Context, wr common.Writer) (models.BillingGroup, error) {
					return wr.UpdateBillingGroup(ctx, id, req)
				},
				Find: a.findGroup(b.AccountID, func(g models.BillingGroup) bool { return g.BillingGroupID == id }),
				Done: func(models.BillingGroup) tea.Cmd { a.ctx.BillingWrites++; return nil },
			})
		}, nil))
		return nil
	})
	c = components.NewFlow(form)
	return a.ctx.Open(c)
}

// startAssign reads the caller's projects (which group each is in now), then opens the
// form.
func (a *actions) startAssign(b models.BillingGroup) tea.Cmd {
	api := a.ctx.API
	return common.Working("Loading your projects…", common.Fetch(a.req, kindPrepAssign, func(ctx context.Context) (assignPrep, error) {
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
		pr.ProjectName = project
		c.Then(components.BillingMove(a.ctx, pr, b, nil, func() tea.Cmd {
			return base.SendWrite(a.ctx, a.req, &base.Write[models.Project]{Verb: base.Update, Noun: "project", Name: project, Form: c,
				Send: func(ctx context.Context, wr common.Writer) (models.Project, error) {
					return wr.AssignBillingGroup(ctx, project, id)
				},
				Find: func(ctx context.Context) (models.Project, bool, error) {
					p, err := api.GetProject(ctx, project)
					return p, err == nil, err
				},
				Done: func(models.Project) tea.Cmd {
					a.ctx.BillingWrites++
					return common.Success("Assigned " + project + " to billing group " + gname)
				},
			})
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

// findGroup reads a group back after a write whose answer was lost.
func (a *actions) findGroup(account string, match func(models.BillingGroup) bool) func(context.Context) (models.BillingGroup, bool, error) {
	api := a.ctx.API
	return func(ctx context.Context) (models.BillingGroup, bool, error) {
		groups, err := api.ListBillingGroups(ctx, account)
		for _, g := range groups {
			if match(g) {
				return g, true, nil
			}
		}
		return models.BillingGroup{}, false, err
	}
}

// handle processes action results; changed reports that the platform changed (or may
// have: the view reloads).
func (a *actions) handle(msg tea.Msg) (cmd tea.Cmd, handled, changed bool) {
	if cmd, ok := base.HandleWrite[models.BillingGroup](a.ctx, a.req, msg); ok {
		return cmd, true, false
	}
	if cmd, ok := base.HandleWrite[models.Project](a.ctx, a.req, msg); ok {
		return cmd, true, false
	}
	switch msg := msg.(type) {
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
		return tea.Batch(common.Info(""), a.ctx.Open(a.assignForm(msg.Value))), true, false
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
