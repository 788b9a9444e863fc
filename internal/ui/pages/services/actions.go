package services

import (
	"context"
	"fmt"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// actions implements create, edit and delete for the list and the detail view; results
// are addressed to the view whose Requests started them.
type actions struct {
	ctx    *common.Context
	req    *common.Requests
	target target
	// create and edit are the forms that sent the request in flight: a refusal brings
	// the same form back with everything typed.
	create *components.Flow
	edit   *components.Flow
}

// target is what a view does with action results: the list shows them at once.
type target interface {
	upsert(project string, s models.Service)
	created(project, name string)
	remove(project, name string)
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

// refusable is the form a write came from, or none (a nil *Form is no form).
func refusable[M interface {
	*components.Form | *components.Flow
	base.Refusable
}](m M) base.Refusable {
	if m == nil {
		return nil
	}
	return m
}

// find reads a service back by name after a write whose answer was lost.
func (a *actions) find(project, name string) func(context.Context) (models.Service, bool, error) {
	api := a.ctx.API
	return func(ctx context.Context) (models.Service, bool, error) {
		svcs, err := api.ListServices(ctx, project)
		for _, s := range svcs {
			if s.ServiceName == name {
				return s, true, nil
			}
		}
		return models.Service{ServiceName: name}, false, err
	}
}

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
		role, _ := a.ctx.RoleOf(project)
		return common.Error(fmt.Sprintf("Your role in %s is %s; only an admin may %s services", project, role, what))
	}
	return nil
}

func (a *actions) startCreate(project string) tea.Cmd {
	if cmd := a.refuse(project, "create"); cmd != nil {
		return cmd
	}
	api := a.ctx.API
	existing := append([]string(nil), a.ctx.ServiceNames[project]...)
	return common.Working("Loading service types and clouds…", common.Fetch(a.req, kindPrepCreate, func(ctx context.Context) (createPrep, error) {
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
	return common.Working("Loading "+name+" and its plans…", common.Fetch(a.req, kindPrepEdit, func(ctx context.Context) (editPrep, error) {
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
	text := fmt.Sprintf("Deleting service %s (%s) in %s is irreversible: its nodes, data, backups, users and "+
		"connection details are removed for good and cannot be restored.", name, s.ServiceType, project)
	return a.ctx.Open(components.NewTypedConfirm(a.ctx, "Delete service", text, name, func() tea.Cmd {
		return base.SendWrite(a.ctx, a.req, &base.Write[models.Service]{Verb: base.Delete, Noun: "service", Name: name,
			Send: func(ctx context.Context, wr common.Writer) (models.Service, error) {
				return s, wr.DeleteService(ctx, project, name)
			},
			Find: a.find(project, name),
			Show: func(s models.Service) { a.target.upsert(project, s) },
			Done: func(models.Service) tea.Cmd { return a.gone(project, name, "Deleted service "+name) },
		})
	}))
}

// prepared opens the form a preparation was for, or says why it cannot.
func (a *actions) prepared(msg tea.Msg) (tea.Cmd, bool) {
	var open func() (common.Modal, string)
	var res common.Addr
	var err error
	switch msg := msg.(type) {
	case common.Result[createPrep]:
		res, err = msg.Addr, msg.Err
		open = func() (common.Modal, string) {
			if len(msg.Value.Types) == 0 {
				return nil, "The platform offers no service types to create"
			}
			return a.createTypeForm(msg.Value), ""
		}
	case common.Result[planPrep]:
		res, err = msg.Addr, msg.Err
		open = func() (common.Modal, string) {
			if len(msg.Value.Plans) == 0 {
				return nil, "No plans of " + msg.Value.Type + " are offered in " + msg.Value.Cloud + "; pick another cloud"
			}
			a.create = a.createDetailsForm(msg.Value)
			return a.create, ""
		}
	case common.Result[bulkPrep]:
		res, err = msg.Addr, msg.Err
		open = func() (common.Modal, string) { return a.openBulk(msg.Value), "" }
	case common.Result[editPrep]:
		res, err = msg.Addr, msg.Err
		open = func() (common.Modal, string) {
			a.edit = a.editFlow(msg.Value)
			return a.edit, ""
		}
	default:
		return nil, false
	}
	if !a.req.Current(res) {
		return nil, true
	}
	if err != nil {
		return common.Error(a.ctx.ErrorText(err)), true
	}
	m, why := open()
	if m == nil {
		return common.Error(why), true
	}
	// Clear the "Loading…" notice so it does not linger under the form.
	return tea.Batch(common.Info(""), a.ctx.Open(m)), true
}

// handle processes action results; handled reports that msg was one of them.
func (a *actions) handle(msg tea.Msg) (tea.Cmd, bool) {
	if cmd, ok := a.prepared(msg); ok {
		return cmd, true
	}
	return base.HandleWrite[models.Service](a.ctx, a.req, msg)
}

// gone drops a deleted service from the view and the completion cache.
func (a *actions) gone(project, name, text string) tea.Cmd {
	a.target.remove(project, name)
	names := a.ctx.ServiceNames[project]
	kept := make([]string, 0, len(names))
	for _, n := range names {
		if n != name {
			kept = append(kept, n)
		}
	}
	a.ctx.SetServiceNames(project, kept)
	// After the success: when it was the current service, the root's sentence says so.
	return tea.Sequence(common.Success(text), common.Send(common.Gone{What: common.GoneService, Project: project, Name: name, Deleted: true}))
}

func monthly(p models.Plan) string { return "$" + p.MonthlyUSD().Cents().FormatNumber() + "/month" }

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
