package projects

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// actions implements create, edit and delete for the list and the detail view; results
// are addressed to the view whose Requests started them.
type actions struct {
	ctx *common.Context
	req *common.Requests
	// account is the account of the listed projects (the list sets it at each load).
	account string
	// created puts the list's cursor on a new project (nil outside the list).
	created func(name string)
}

// formData is what create/edit forms need from the platform before they open.
type formData struct {
	Project   *models.Project // edit only
	Clouds    []models.Cloud
	Groups    []models.BillingGroup
	GroupsErr error
}

// deleted is the result of a delete.
type deleted struct{ Name string }

func (a *actions) accountID() string {
	if a.ctx.AccountID() != "" {
		return a.ctx.AccountID()
	}
	return a.account
}

// prepare loads clouds and billing groups (and the project for edit) concurrently.
func (a *actions) prepare(kind common.Kind, project string) tea.Cmd {
	api, account := a.ctx.API, a.accountID()
	return common.Fetch(a.req, kind, func(ctx context.Context) (formData, error) {
		var d formData
		var wg sync.WaitGroup
		var cloudErr, projErr error
		wg.Add(2)
		go func() { defer wg.Done(); d.Clouds, cloudErr = api.ListClouds(ctx) }()
		go func() {
			defer wg.Done()
			if account == "" {
				d.GroupsErr = errors.New("no account id known")
				return
			}
			d.Groups, d.GroupsErr = api.ListBillingGroups(ctx, account)
		}()
		if project != "" {
			p, err := api.GetProject(ctx, project)
			d.Project, projErr = &p, err
		}
		wg.Wait()
		if projErr != nil {
			return d, projErr
		}
		return d, cloudErr
	})
}

func (a *actions) startCreate() tea.Cmd {
	if a.ctx.ReadOnly {
		return common.Warn("Read-only mode: create is disabled")
	}
	return common.Working("Loading clouds and billing groups…", a.prepare(kindPrepCreate, ""))
}

func (a *actions) refuseDeveloper(project, what string) tea.Cmd {
	if a.ctx.ReadOnly {
		return common.Warn("Read-only mode: " + what + " is disabled")
	}
	if r, ok := a.ctx.RoleOf(project); ok && r == models.RoleDeveloper {
		return common.Error(fmt.Sprintf("You are a developer in %s; only an admin may %s it", project, what))
	}
	return nil
}

func (a *actions) startEdit(name string) tea.Cmd {
	if cmd := a.refuseDeveloper(name, "edit"); cmd != nil {
		return cmd
	}
	return common.Working("Loading "+name+"…", a.prepare(kindPrepEdit, name))
}

func (a *actions) confirmDelete(name string) tea.Cmd {
	if cmd := a.refuseDeveloper(name, "delete"); cmd != nil {
		return cmd
	}
	text := fmt.Sprintf("Deleting project %s is irreversible: its settings, membership and billing assignment are removed for good. "+
		"The platform refuses while the project still has services; delete them first.", name)
	return a.ctx.Open(components.NewTypedConfirm(a.ctx, "Delete project", text, name, func() tea.Cmd {
		return base.SendWrite(a.ctx, a.req, &base.Write[models.Project]{Verb: base.Delete, Noun: "project", Name: name,
			Send: func(ctx context.Context, wr common.Writer) (models.Project, error) {
				return models.Project{ProjectName: name}, wr.DeleteProject(ctx, name)
			},
			Find: a.find(name),
			Done: func(models.Project) tea.Cmd {
				// The root drops it from the session if current; the next list load
				// then picks another.
				return tea.Sequence(common.Send(common.Gone{What: common.GoneProject, Name: name, Deleted: true}), common.Send(deleted{name}))
			},
		})
	}))
}

// find reads a project back by name after a write whose answer was lost.
func (a *actions) find(name string) func(context.Context) (models.Project, bool, error) {
	api := a.ctx.API
	return func(ctx context.Context) (models.Project, bool, error) {
		list, err := api.ListProjects(ctx)
		if err != nil {
			return models.Project{}, false, err
		}
		for _, p := range list.Projects {
			if p.ProjectName == name {
				return p, true, nil
			}
		}
		return models.Project{ProjectName: name}, false, nil
	}
}

// handle processes action results; changed reports that the platform changed.
func (a *actions) handle(msg tea.Msg) (cmd tea.Cmd, handled, changed bool) {
	switch msg := msg.(type) {
	case common.Result[formData]:
		if !a.req.Current(msg.Addr) {
			return nil, true, false
		}
		if msg.Err != nil {
			return common.Error(a.ctx.ErrorText(msg.Err)), true, false
		}
		// Clear the "Loading…" notice so it does not linger under the closed form.
		clear := common.Info("")
		if msg.Kind == kindPrepCreate {
			return tea.Batch(clear, a.ctx.Open(a.createForm(msg.Value))), true, false
		}
		return tea.Batch(clear, a.ctx.Open(a.editForm(msg.Value))), true, false
	case deleted:
		// A delete done (or found done): the views that show it reload or close.
		return nil, true, true
	}
	if cmd, ok := base.HandleWrite[models.Project](a.ctx, a.req, msg); ok {
		return cmd, true, false
	}
	return nil, false, false
}

// cloudOptions groups clouds by geo_region (region, then name).
func cloudOptions(clouds []models.Cloud, current string) []huh.Option[string] {
	cs := append([]models.Cloud(nil), clouds...)
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].GeoRegion != cs[j].GeoRegion {
			return cs[i].GeoRegion < cs[j].GeoRegion
		}
		return cs[i].CloudName < cs[j].CloudName
	})
	opts := []huh.Option[string]{}
	found := current == ""
	for _, c := range cs {
		region := c.GeoRegion
		if region == "" {
			region = "other"
		}
		label := fmt.Sprintf("%-14s %s", region, c.CloudName)
		if c.CloudDescription != "" {
			label += " — " + c.CloudDescription
		}
		// One line per option: huh wraps long labels, which makes the list hard to scan.
		// 66 is what a widest modal (components.ModalWidth) leaves after border and cursor.
		label = ansi.Truncate(label, 66, "…")
		opts = append(opts, components.Option(label, c.CloudName))
		if c.CloudName == current {
			found = true
		}
	}
	if !found {
		opts = append([]huh.Option[string]{components.Option(current+" (current)", current)}, opts...)
	}
	return opts
}

func groupOptions(d formData, noneLabel string) ([]huh.Option[string], string) {
	opts := []huh.Option[string]{components.Option(noneLabel, "")}
	for _, g := range d.Groups {
		opts = append(opts, components.Option(g.BillingGroupName+" ("+g.BillingCurrency+")", g.BillingGroupID))
	}
	desc := ""
	if d.GroupsErr != nil {
		desc = "Billing groups are not available to you: " + strings.TrimSuffix(errText(d.GroupsErr), ".")
	}
	return opts, desc
}

func errText(err error) string { return err.Error() }

// createValues are bound to the create form's fields.
type createValues struct {
	Name, Cloud, Group, CopyFrom string
}

func (a *actions) createForm(d formData) common.Modal {
	v := &createValues{}
	groups, groupsDesc := groupOptions(d, "(none: the account's default)")
	if d.GroupsErr != nil {
		groupsDesc = "Billing groups are not available to you: " + a.ctx.ErrorText(d.GroupsErr)
	}
	copyOpts := []huh.Option[string]{components.Option("(no, start empty)", "")}
	for _, n := range a.ctx.ProjectNames {
		copyOpts = append(copyOpts, components.Option(n, n))
	}
	nameCheck := func() error {
		if v.Name == "" {
			return nil // not yet typed: no error before the first key
		}
		return models.ValidateProjectName(v.Name)
	}
	nameField := huh.NewInput().Title("Name").Description("3-63 characters: lowercase letters, digits, hyphens").
		Value(&v.Name).Validate(models.ValidateProjectName)
	fields := []huh.Field{
		nameField,
		huh.NewSelect[string]().Title("Default cloud").Description("grouped by region").
			Options(append([]huh.Option[string]{components.Option("(platform default)", "")}, cloudOptions(d.Clouds, "")...)...).
			Height(8).Value(&v.Cloud),
		huh.NewSelect[string]().Title("Billing group").Description(groupsDesc).Options(groups...).Value(&v.Group),
		huh.NewSelect[string]().Title("Copy settings from").Options(copyOpts...).Height(6).Value(&v.CopyFrom),
	}
	account := a.accountID()
	var form *components.Form
	form = components.NewForm(a.ctx, "Create project", func() tea.Cmd {
		req := models.CreateProjectRequest{Project: strings.TrimSpace(v.Name), AccountID: account,
			BillingGroupID: v.Group, Cloud: v.Cloud, CopyFromProject: v.CopyFrom}
		return base.SendWrite(a.ctx, a.req, &base.Write[models.Project]{Verb: base.Create, Noun: "project", Name: req.Project, Form: form,
			Send: func(ctx context.Context, wr common.Writer) (models.Project, error) { return wr.CreateProject(ctx, req) },
			Find: a.find(req.Project),
			Done: func(p models.Project) tea.Cmd {
				if a.created != nil {
					a.created(req.Project)
				}
				return common.Send(common.SelectProject{Name: req.Project})
			},
		})
	}, huh.NewGroup(fields...)).Live(nameField, nameCheck).
		Names("project_name", "Name", nil).Names("project", "Name", nil).Names("Project", "Name", nil).
		Names("billing_group_id", "Billing group", nil).Names("cloud", "Default cloud", nil).
		Names("copy_from_project", "Copy settings from", nil)
	return form
}

// editValues are bound to the edit form's fields.
type editValues struct {
	Cloud, BillingEmails, TechEmails, Country, Group string
}

func (a *actions) editForm(d formData) common.Modal {
	p := *d.Project
	orig := editValues{Cloud: p.DefaultCloud, BillingEmails: strings.Join(p.BillingEmails, ", "),
		TechEmails: strings.Join(p.TechEmails, ", "), Country: p.CountryCode, Group: p.BillingGroupID}
	v := &editValues{}
	*v = orig
	groups, groupsDesc := groupOptions(d, "(leave as it is)")
	if d.GroupsErr != nil {
		groupsDesc = "Billing groups are not available to you: " + a.ctx.ErrorText(d.GroupsErr)
	}
	if p.BillingGroupID != "" {
		known := false
		for _, g := range d.Groups {
			known = known || g.BillingGroupID == p.BillingGroupID
		}
		if !known {
			groups = append(groups, components.Option(dash(p.BillingGroupName)+" (current)", p.BillingGroupID))
		}
	}
	billing := huh.NewInput().Title("Billing e-mails").Description("comma-separated").Value(&v.BillingEmails).Validate(optionalEmails)
	tech := huh.NewInput().Title("Technical e-mails").Description("comma-separated").Value(&v.TechEmails).Validate(optionalEmails)
	country := huh.NewInput().Title("Country code").Description("two letters").CharLimit(2).Value(&v.Country).Validate(optionalCountry)
	fields := []huh.Field{
		huh.NewSelect[string]().Title("Default cloud").Options(cloudOptions(d.Clouds, p.DefaultCloud)...).Height(8).Value(&v.Cloud),
		billing, tech, country,
		huh.NewSelect[string]().Title("Billing group").Description(groupsDesc).Options(groups...).Value(&v.Group),
	}
	name := p.ProjectName
	var flow *components.Flow
	form := components.NewForm(a.ctx, "Edit project "+name, func() tea.Cmd {
		req, changed := updateRequest(orig, *v)
		if !changed {
			return common.Info("Nothing changed")
		}
		send := func() tea.Cmd {
			return base.SendWrite(a.ctx, a.req, &base.Write[models.Project]{Verb: base.Update, Noun: "project", Name: name, Form: flow,
				Send: func(ctx context.Context, wr common.Writer) (models.Project, error) {
					return wr.UpdateProject(ctx, name, req)
				},
				Find: a.find(name),
				Done: func(models.Project) tea.Cmd {
					if req.BillingGroupID != nil {
						a.ctx.BillingWrites++
					}
					return nil
				},
			})
		}
		if req.BillingGroupID == nil {
			return send()
		}
		// A move to another billing group is reviewed as the Billing tab reviews it.
		to := models.BillingGroup{BillingGroupID: v.Group}
		for _, g := range d.Groups {
			if g.BillingGroupID == v.Group {
				to = g
			}
		}
		flow.Then(components.BillingMove(a.ctx, p, to, alsoChanged(orig, *v), send, nil))
		return nil
	}, huh.NewGroup(fields...)).
		Names("billing_emails", "Billing e-mails", nil).Names("tech_emails", "Technical e-mails", nil).
		Names("country_code", "Country code", nil).Names("billing_group_id", "Billing group", nil).
		Names("cloud", "Default cloud", nil).
		Live(billing, func() error { return optionalEmails(v.BillingEmails) }).
		Live(tech, func() error { return optionalEmails(v.TechEmails) }).
		Live(country, func() error { return optionalCountry(v.Country) })
	flow = components.NewFlow(form)
	return flow
}

// alsoChanged are the fields besides the billing group an edit changes, for its review.
func alsoChanged(orig, v editValues) []components.Change {
	var out []components.Change
	for _, f := range []struct{ field, old, new string }{
		{"Default cloud", orig.Cloud, v.Cloud}, {"Billing e-mails", orig.BillingEmails, v.BillingEmails},
		{"Technical e-mails", orig.TechEmails, v.TechEmails}, {"Country code", orig.Country, v.Country},
	} {
		if f.old != f.new {
			out = append(out, components.Change{Field: f.field, Old: f.old, New: f.new})
		}
	}
	return out
}

// updateRequest sends only the fields that changed.
func updateRequest(orig, v editValues) (models.UpdateProjectRequest, bool) {
	var req models.UpdateProjectRequest
	changed := false
	if v.Cloud != orig.Cloud && v.Cloud != "" {
		req.Cloud, changed = models.Ptr(v.Cloud), true
	}
	if v.BillingEmails != orig.BillingEmails {
		req.BillingEmails, changed = models.Ptr(nonNil(models.SplitList(v.BillingEmails))), true
	}
	if v.TechEmails != orig.TechEmails {
		req.TechEmails, changed = models.Ptr(nonNil(models.SplitList(v.TechEmails))), true
	}
	if c := strings.ToUpper(strings.TrimSpace(v.Country)); c != strings.ToUpper(orig.Country) && c != "" {
		req.CountryCode, changed = models.Ptr(c), true
	}
	if v.Group != orig.Group && v.Group != "" {
		req.BillingGroupID, changed = models.Ptr(v.Group), true
	}
	return req, changed
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func optionalEmails(s string) error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return models.ValidateEmailList(s)
}

func optionalCountry(s string) error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return models.ValidateCountryCode(strings.ToUpper(strings.TrimSpace(s)))
}
