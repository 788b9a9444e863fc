package services

import (
	"context"
	"fmt"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// actions implements create, edit and delete for the list and the detail view; results
// are addressed to the view whose Requests started them.
type actions struct {
	ctx *common.Context
	req *common.Requests
}

// createPrep is what the create form needs before it opens.
type createPrep struct {
	Project      string
	Types        []models.ServiceType
	Clouds       []models.Cloud
	DefaultCloud string
	Existing     []string
}

// planPrep carries the plans of the chosen type and cloud into the second create step.
type planPrep struct {
	Prep        createPrep
	Type, Cloud string
	Plans       []models.Plan
}

// editPrep is what the edit form needs.
type editPrep struct {
	Project string
	Service models.Service
	Plans   []models.Plan
	Clouds  []models.Cloud
}

// changed is the answer of a create or an update.
type changed struct {
	Project string
	Service models.Service
	Created bool
}

// deleted is the answer of a delete.
type deleted struct{ Project, Name string }

// refuse explains why a mutating action is not offered: read-only mode, or a role that
// may not change the project (the platform still has the last word when unknown).
func (a *actions) refuse(project, what string) tea.Cmd {
	if a.ctx.ReadOnly {
		return common.Warn("Read-only mode: " + what + " is disabled")
	}
	if project == "" {
		return common.Warn("No project selected: pick one in tab 1 first")
	}
	if !a.ctx.CanAdminister(project) {
		return common.Error(fmt.Sprintf("Your role in %s is %s; only an admin may %s services", project, a.ctx.Roles[project], what))
	}
	return nil
}

func (a *actions) startCreate(project string) tea.Cmd {
	if cmd := a.refuse(project, "create"); cmd != nil {
		return cmd
	}
	api := a.ctx.API
	existing := append([]string(nil), a.ctx.ServiceNames[project]...)
	return tea.Batch(common.Info("Loading service types and clouds…"), common.Fetch(a.req, "prep-create", func(ctx context.Context) (createPrep, error) {
		p := createPrep{Project: project, Existing: existing}
		var wg sync.WaitGroup
		var typeErr, cloudErr error
		wg.Add(2)
		go func() { defer wg.Done(); p.Types, typeErr = api.ListServiceTypes(ctx) }()
		go func() { defer wg.Done(); p.Clouds, cloudErr = api.ListClouds(ctx) }()
		// The project's default cloud is only a default: the form works without it.
		if pr, err := api.GetProject(ctx, project); err == nil {
			p.DefaultCloud = pr.DefaultCloud
		}
		wg.Wait()
		if typeErr != nil {
			return p, typeErr
		}
		return p, cloudErr
	}))
}

func (a *actions) startEdit(project string, s models.Service) tea.Cmd {
	if cmd := a.refuse(project, "edit"); cmd != nil {
		return cmd
	}
	api, name := a.ctx.API, s.ServiceName
	return tea.Batch(common.Info("Loading "+name+" and its plans…"), common.Fetch(a.req, "prep-edit", func(ctx context.Context) (editPrep, error) {
		cur, err := api.GetService(ctx, project, name)
		if err != nil {
			return editPrep{}, err
		}
		p := editPrep{Project: project, Service: cur}
		var wg sync.WaitGroup
		var planErr, cloudErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			p.Plans, planErr = api.ListPlans(ctx, project, cur.ServiceType, cur.CloudName)
		}()
		go func() { defer wg.Done(); p.Clouds, cloudErr = api.ListClouds(ctx) }()
		wg.Wait()
		if planErr != nil {
			return p, planErr
		}
		return p, cloudErr
	}))
}

func (a *actions) confirmDelete(project string, s models.Service) tea.Cmd {
	if cmd := a.refuse(project, "delete"); cmd != nil {
		return cmd
	}
	name := s.ServiceName
	if s.TerminationProtection {
		return common.Error("Termination protection is on for " + name + ": remove it first (e, termination protection) before deleting")
	}
	api := a.ctx.API
	text := fmt.Sprintf("Deleting service %s (%s) in %s is irreversible: its nodes, data, backups, users and "+
		"connection details are removed for good and cannot be restored.", name, s.ServiceType, project)
	return common.Send(common.OpenModal{Modal: components.NewTypedConfirm(a.ctx, "Delete service", text, name, func() tea.Cmd {
		return tea.Batch(common.Info("Deleting "+name+"…"), common.Fetch(a.req, "delete", func(ctx context.Context) (deleted, error) {
			return deleted{project, name}, api.DeleteService(ctx, project, name)
		}))
	})})
}

// target is what a view does with action results: the list shows them at once.
type target interface {
	upsert(project string, s models.Service)
	remove(project, name string)
}

// handle processes action results; handled reports that msg was one of them.
func (a *actions) handle(msg tea.Msg, t target) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case common.Result[createPrep]:
		if !a.req.Current(msg.Addr) {
			return nil, true
		}
		if msg.Err != nil {
			return common.Error(a.ctx.ErrorText(msg.Err)), true
		}
		if len(msg.Value.Types) == 0 {
			return common.Error("The platform offers no service types to create"), true
		}
		return tea.Batch(common.Info(""), common.Send(common.OpenModal{Modal: a.createTypeForm(msg.Value)})), true
	case common.Result[planPrep]:
		if !a.req.Current(msg.Addr) {
			return nil, true
		}
		if msg.Err != nil {
			return common.Error(a.ctx.ErrorText(msg.Err)), true
		}
		if len(msg.Value.Plans) == 0 {
			return common.Error("No plans of " + msg.Value.Type + " are offered in " + msg.Value.Cloud + "; pick another cloud"), true
		}
		return tea.Batch(common.Info(""), common.Send(common.OpenModal{Modal: a.createDetailsForm(msg.Value)})), true
	case common.Result[editPrep]:
		if !a.req.Current(msg.Addr) {
			return nil, true
		}
		if msg.Err != nil {
			return common.Error(a.ctx.ErrorText(msg.Err)), true
		}
		return tea.Batch(common.Info(""), common.Send(common.OpenModal{Modal: a.editForm(msg.Value)})), true
	case common.Result[changed]:
		if !a.req.Current(msg.Addr) {
			return nil, true
		}
		if msg.Err != nil {
			return common.Error(a.ctx.ErrorText(msg.Err)), true
		}
		if t != nil {
			t.upsert(msg.Value.Project, msg.Value.Service)
		}
		s := msg.Value.Service
		text := "Saved " + s.ServiceName
		if msg.Value.Created {
			text = "Created " + s.ServiceName + ": " + string(s.State) + " until its nodes are up"
		} else if s.State != "" {
			text += " (" + string(s.State) + ")"
		}
		return tea.Batch(common.Success(text), common.Send(common.RefreshNow{})), true
	case common.Result[deleted]:
		if !a.req.Current(msg.Addr) {
			return nil, true
		}
		if msg.Err != nil {
			return common.Error(a.ctx.ErrorText(msg.Err)), true
		}
		if t != nil {
			t.remove(msg.Value.Project, msg.Value.Name)
		}
		names := a.ctx.ServiceNames[msg.Value.Project]
		kept := make([]string, 0, len(names))
		for _, n := range names {
			if n != msg.Value.Name {
				kept = append(kept, n)
			}
		}
		a.ctx.SetServiceNames(msg.Value.Project, kept)
		return common.Success("Deleted service " + msg.Value.Name), true
	}
	return nil, false
}

func monthly(p models.Plan) string { return "$" + p.MonthlyUSD().FormatNumber() + "/month" }

func hourly(p models.Plan) string { return "$" + p.PriceUSD.FormatNumber() + "/hour" }

func planByName(plans []models.Plan, name string) (models.Plan, bool) {
	for _, p := range plans {
		if p.PlanName == name {
			return p, true
		}
	}
	return models.Plan{}, false
}

func cidrList(s string) []any {
	parts := models.SplitList(s)
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = strings.TrimSpace(p)
	}
	return out
}

func optionalCIDRs(s string) error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return models.ValidateCIDRList(s)
}
