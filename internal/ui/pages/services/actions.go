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
	ctx    *common.Context
	req    *common.Requests
	target target
	// create and edit are the forms that sent the request in flight: a refusal brings
	// the same form back with everything typed.
	create *components.Form
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

// changed is the answer of a create or an update.
type changed struct {
	Project string
	Service models.Service
	Created bool
	// Watch names a change that moves the service ("plan change"): it is watched (watch.go).
	Watch string
}

// deleted is the answer of a delete.
type deleted struct{ Project, Name string }

// readBack is what the platform has after a write whose answer never came.
type readBack struct {
	Write         string // "create", "update", "delete"
	Project, Name string
	Found         bool
	Service       models.Service
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
	return tea.Batch(common.Info(""), common.Send(common.OpenModal{Modal: m})), true
}

// handle processes action results; handled reports that msg was one of them.
func (a *actions) handle(msg tea.Msg) (tea.Cmd, bool) {
	if cmd, ok := a.prepared(msg); ok {
		return cmd, true
	}
	switch msg := msg.(type) {
	case common.Result[changed]:
		if !a.req.Current(msg.Addr) {
			return nil, true
		}
		if msg.Err != nil {
			return tea.Batch(a.failed(msg.Value, msg.Err), watchFailed(a.ctx, msg.Value, msg.Err)), true
		}
		s := msg.Value.Service
		a.target.upsert(msg.Value.Project, s)
		watchCmd := watchStart(msg.Value)
		text := "Saved " + s.ServiceName
		switch {
		case msg.Value.Created:
			a.create = nil
			a.target.created(msg.Value.Project, s.ServiceName)
			text = "Created " + s.ServiceName + ": " + string(s.State) + " until its nodes are up"
		case s.State != "":
			a.edit = nil
			text += " (" + string(s.State) + ")"
		default:
			a.edit = nil
		}
		return tea.Batch(common.Success(text), common.Send(common.RefreshNow{}), watchCmd), true
	case common.Result[deleted]:
		if !a.req.Current(msg.Addr) {
			return nil, true
		}
		if msg.Err != nil {
			if a.ctx.OutcomeUnknown(msg.Err) {
				return a.readBack("delete", msg.Value.Project, msg.Value.Name), true
			}
			return common.Error(a.ctx.ErrorText(msg.Err)), true
		}
		return a.gone(msg.Value.Project, msg.Value.Name, "Deleted service "+msg.Value.Name), true
	case common.Result[readBack]:
		if !a.req.Current(msg.Addr) {
			return nil, true
		}
		return a.report(msg.Value, msg.Err), true
	}
	return nil, false
}

// failed handles a refused or lost create or update: a refusal brings the form back
// with everything typed; a write of unknown outcome is read back, never sent again.
func (a *actions) failed(c changed, err error) tea.Cmd {
	write := "update"
	if c.Created {
		write = "create"
	}
	if a.ctx.OutcomeUnknown(err) {
		return a.readBack(write, c.Project, c.Service.ServiceName)
	}
	text := a.ctx.ErrorText(err)
	switch {
	case c.Created && a.create != nil:
		return a.create.Refused(text)
	case !c.Created && a.edit != nil:
		return a.edit.Refused(text)
	}
	return common.Error(text)
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
	return common.Success(text)
}

// readBack says the outcome is unknown and asks the platform what is there.
func (a *actions) readBack(write, project, name string) tea.Cmd {
	api := a.ctx.API
	past := map[string]string{"create": "created", "update": "saved", "delete": "deleted"}[write]
	return tea.Batch(
		common.Warn("The connection dropped after the request was sent; checking whether "+name+" was "+past+"…"),
		common.Fetch(a.req, "readback", func(ctx context.Context) (readBack, error) {
			rb := readBack{Write: write, Project: project, Name: name}
			svcs, err := api.ListServices(ctx, project)
			for _, s := range svcs {
				if s.ServiceName == name {
					rb.Found, rb.Service = true, s
				}
			}
			return rb, err
		}))
}

// report says what the read-back found; nothing is sent again.
func (a *actions) report(rb readBack, err error) tea.Cmd {
	past := map[string]string{"create": "created", "update": "saved", "delete": "deleted"}[rb.Write]
	if err != nil {
		return common.Error("Could not check whether " + rb.Name + " was " + past + ": " + strings.TrimSuffix(a.ctx.ErrorText(err), ".") +
			". Press ctrl+r to look again before sending it again.")
	}
	switch {
	case rb.Write == "create" && rb.Found:
		a.create = nil
		a.target.upsert(rb.Project, rb.Service)
		a.target.created(rb.Project, rb.Name)
		return tea.Batch(common.Success(rb.Name+" exists: it was created"), common.Send(common.RefreshNow{}))
	case rb.Write == "create":
		return common.Warn(rb.Name + " does not exist: nothing was created. Press c to create it again.")
	case rb.Write == "delete" && rb.Found:
		return common.Warn(rb.Name + " still exists: it was not deleted")
	case rb.Write == "delete":
		return a.gone(rb.Project, rb.Name, rb.Name+" does not exist any more: it was deleted")
	case rb.Found:
		a.target.upsert(rb.Project, rb.Service)
		return common.Warn(rb.Name + " is shown as the platform has it now: check whether your change is there before editing again")
	}
	return common.Warn(rb.Name + " does not exist any more")
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
