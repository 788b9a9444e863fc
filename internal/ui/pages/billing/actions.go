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
}

// assigned is the result of assigning a project to a group.
type assigned struct {
	Project models.Project
	Group   string
}

// groupValues are bound to the create/edit form's fields (lists as typed text).
type groupValues struct {
	Name, Currency, Company, Emails, Address, City, State, Zip, Country, VAT string
}

func valuesOf(b models.BillingGroup) groupValues {
	return groupValues{
		Name: b.BillingGroupName, Currency: b.BillingCurrency, Company: b.Company,
		Emails: strings.Join(b.BillingEmail, ", "), Address: strings.Join(b.AddressLines, "\n"),
		City: b.City, State: b.State, Zip: b.ZipCode, Country: b.CountryCode, VAT: b.VATID,
	}
}

func optionalEmails(s string) error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return models.ValidateEmailList(s)
}

func optionalCountry(s string) error {
	return models.ValidateCountryCode(strings.ToUpper(strings.TrimSpace(s)))
}

func currencyOptions(current string) []huh.Option[string] {
	opts := make([]huh.Option[string], 0, len(models.Currencies)+1)
	known := current == ""
	for _, c := range models.Currencies {
		opts = append(opts, huh.NewOption(c, c))
		known = known || c == current
	}
	if !known {
		opts = append([]huh.Option[string]{huh.NewOption(current+" (current)", current)}, opts...)
	}
	return opts
}

// groupForm builds the form shared by create and edit: every field of the spec,
// validated as typed.
func (a *actions) groupForm(title string, v *groupValues, submit func() tea.Cmd) common.Modal {
	nameCheck := func() error {
		if v.Name == "" {
			return nil // nothing typed yet: no error before the first key
		}
		return models.ValidateBillingGroupName(v.Name)
	}
	name := huh.NewInput().Title("Name").Description("required").Value(&v.Name).Validate(models.ValidateBillingGroupName)
	if v.Currency == "" {
		v.Currency = models.Currencies[0]
	}
	emails := huh.NewInput().Title("Billing e-mails").Description("comma-separated").Value(&v.Emails).Validate(optionalEmails)
	country := huh.NewInput().Title("Country code").Description("two letters, like FI or US").CharLimit(2).Value(&v.Country).Validate(optionalCountry)
	first := huh.NewGroup(
		name,
		huh.NewSelect[string]().Title("Currency").Options(currencyOptions(v.Currency)...).Height(5).Value(&v.Currency).Validate(models.ValidateCurrency),
		huh.NewInput().Title("Company").Value(&v.Company),
		emails,
	)
	second := huh.NewGroup(
		huh.NewText().Title("Address lines").Description("one per line (alt+enter for a new line)").Lines(3).Value(&v.Address),
		huh.NewInput().Title("City").Value(&v.City),
		huh.NewInput().Title("State or province").Value(&v.State),
		huh.NewInput().Title("ZIP code").Value(&v.Zip),
		country,
		huh.NewInput().Title("VAT id").Description("may be empty").Value(&v.VAT),
	)
	return components.NewForm(a.ctx, title, submit, first, second).
		Live(name, nameCheck).
		Live(emails, func() error { return optionalEmails(v.Emails) }).
		Live(country, func() error { return optionalCountry(v.Country) })
}

// request builds a create/update body; with orig set, only changed fields are sent.
func request(v groupValues, orig *groupValues) (models.BillingGroupRequest, bool) {
	var r models.BillingGroupRequest
	changed := false
	str := func(now string, was func(groupValues) string, dst **string) {
		now = strings.TrimSpace(now)
		if orig != nil && now == strings.TrimSpace(was(*orig)) {
			return
		}
		if orig == nil && now == "" {
			return
		}
		*dst, changed = models.Ptr(now), true
	}
	str(v.Name, func(g groupValues) string { return g.Name }, &r.BillingGroupName)
	str(v.Currency, func(g groupValues) string { return g.Currency }, &r.BillingCurrency)
	str(v.Company, func(g groupValues) string { return g.Company }, &r.Company)
	str(v.City, func(g groupValues) string { return g.City }, &r.City)
	str(v.State, func(g groupValues) string { return g.State }, &r.State)
	str(v.Zip, func(g groupValues) string { return g.Zip }, &r.ZipCode)
	str(strings.ToUpper(v.Country), func(g groupValues) string { return strings.ToUpper(g.Country) }, &r.CountryCode)
	str(v.VAT, func(g groupValues) string { return g.VAT }, &r.VATID)
	if orig == nil || v.Emails != orig.Emails {
		if l := models.SplitList(v.Emails); orig != nil || len(l) > 0 {
			r.BillingEmail, changed = models.Ptr(nonNil(l)), true
		}
	}
	if orig == nil || v.Address != orig.Address {
		if l := addressLines(v.Address); orig != nil || len(l) > 0 {
			r.AddressLines, changed = models.Ptr(nonNil(l)), true
		}
	}
	return r, changed
}

func addressLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (a *actions) readOnly(what string) tea.Cmd {
	if a.ctx.ReadOnly {
		return common.Warn("Read-only mode: " + what + " is disabled")
	}
	return nil
}

func (a *actions) createForm(account string) tea.Cmd {
	if cmd := a.readOnly("create"); cmd != nil {
		return cmd
	}
	if account == "" {
		account = accountFor(a.ctx)
	}
	if account == "" {
		return common.Warn("No account known yet; wait for the billing groups to load")
	}
	v := &groupValues{}
	api := a.ctx.API
	return common.Send(common.OpenModal{Modal: a.groupForm("Create billing group", v, func() tea.Cmd {
		req, _ := request(*v, nil)
		return tea.Batch(common.Info("Creating billing group "+strings.TrimSpace(v.Name)+"…"),
			common.Fetch(a.req, "create", func(ctx context.Context) (models.BillingGroup, error) {
				return api.CreateBillingGroup(ctx, account, req)
			}))
	})})
}

func (a *actions) editForm(b models.BillingGroup) tea.Cmd {
	if cmd := a.readOnly("edit"); cmd != nil {
		return cmd
	}
	orig := valuesOf(b)
	v := &groupValues{}
	*v = orig
	api, id := a.ctx.API, b.BillingGroupID
	return common.Send(common.OpenModal{Modal: a.groupForm("Edit billing group "+b.BillingGroupName, v, func() tea.Cmd {
		req, changed := request(*v, &orig)
		if !changed {
			return common.Info("Nothing changed")
		}
		return tea.Batch(common.Info("Saving billing group…"),
			common.Fetch(a.req, "update", func(ctx context.Context) (models.BillingGroup, error) {
				return api.UpdateBillingGroup(ctx, id, req)
			}))
	})})
}

// assignForm picks a project (the caller's projects; those already in the group are
// marked) and assigns it to the group with PUT /v1/project/{p}.
func (a *actions) assignForm(b models.BillingGroup, projects []models.Project) tea.Cmd {
	if cmd := a.readOnly("assigning a project"); cmd != nil {
		return cmd
	}
	groupOf := map[string]string{}
	for _, p := range projects {
		groupOf[p.ProjectName] = p.BillingGroupName
	}
	for _, p := range b.Projects {
		groupOf[p.ProjectName] = b.BillingGroupName
	}
	names := a.ctx.ProjectNames
	if len(names) == 0 {
		for _, p := range projects {
			names = append(names, p.ProjectName)
		}
	}
	if len(names) == 0 {
		return common.Warn("No projects known yet; open the Projects tab (1) first")
	}
	opts := make([]huh.Option[string], 0, len(names))
	for _, n := range names {
		label := n
		switch g := groupOf[n]; {
		case g == b.BillingGroupName && g != "":
			label += "  (already in this group)"
		case g != "":
			label += "  (now in " + g + ")"
		}
		opts = append(opts, huh.NewOption(label, n))
	}
	var project string
	api, id, gname := a.ctx.API, b.BillingGroupID, b.BillingGroupName
	form := components.NewForm(a.ctx, "Assign a project to "+gname, func() tea.Cmd {
		return tea.Batch(common.Info("Assigning "+project+" to "+gname+"…"),
			common.Fetch(a.req, "assign", func(ctx context.Context) (assigned, error) {
				p, err := api.AssignBillingGroup(ctx, project, id)
				return assigned{Project: p, Group: gname}, err
			}))
	}, huh.NewGroup(huh.NewSelect[string]().Title("Project").
		Description("Its costs are billed to this group from now on.").Options(opts...).Height(8).Value(&project)))
	return common.Send(common.OpenModal{Modal: form})
}

// handle processes action results; changed reports that the platform changed.
func (a *actions) handle(msg tea.Msg) (cmd tea.Cmd, handled, changed bool) {
	switch msg := msg.(type) {
	case common.Result[models.BillingGroup]:
		if msg.Kind != "create" && msg.Kind != "update" {
			return nil, false, false
		}
		if !a.req.Current(msg.Addr) {
			return nil, true, false
		}
		if msg.Err != nil {
			return common.Error(a.ctx.ErrorText(msg.Err)), true, false
		}
		if msg.Kind == "create" {
			return common.Success("Created billing group " + msg.Value.BillingGroupName), true, true
		}
		return common.Success("Saved billing group " + msg.Value.BillingGroupName), true, true
	case common.Result[assigned]:
		if !a.req.Current(msg.Addr) {
			return nil, true, false
		}
		if msg.Err != nil {
			return common.Error(a.ctx.ErrorText(msg.Err)), true, false
		}
		return common.Success("Assigned " + msg.Value.Project.ProjectName + " to billing group " + msg.Value.Group), true, true
	}
	return nil, false, false
}
