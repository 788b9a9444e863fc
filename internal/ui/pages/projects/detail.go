package projects

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// Detail shows every field of one project, the caller's role and the e-mail lists.
type Detail struct {
	*base.Detail[models.Project]
	acts *actions
}

// NewDetail builds the detail view of a project.
func NewDetail(ctx *common.Context, name string) *Detail {
	d := &Detail{}
	k := ctx.Keys
	d.Detail = base.NewDetail(ctx, base.DetailSpec[models.Project]{
		Title: name,
		Load: func() func(context.Context) (models.Project, error) {
			api := ctx.API
			return func(c context.Context) (models.Project, error) { return api.GetProject(c, name) }
		},
		Sections: func(p models.Project) []components.Section { return sections(ctx, p) },
		Actions: []base.Action[models.Project]{
			{Key: k.Edit, Run: func(p models.Project) tea.Cmd { return d.acts.startEdit(p) }},
			{Key: k.Delete, NoSelection: true, Run: func(models.Project) tea.Cmd { return d.acts.confirmDelete(name) }},
		},
	})
	d.acts = &actions{ctx: ctx, req: d.Req}
	return d
}

func (d *Detail) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if _, ok := msg.(createProject); ok {
		return d, d.acts.startCreate()
	}
	if cmd, handled, changed := d.acts.handle(msg); handled {
		if _, ok := msg.(deleted); ok && changed {
			return d, tea.Batch(cmd, common.Send(common.PopView{}))
		}
		if changed {
			return d, tea.Batch(cmd, d.Load())
		}
		return d, cmd
	}
	return d, d.Handle(msg)
}

func sections(ctx *common.Context, p models.Project) []components.Section {
	role := string(ctx.Roles[p.ProjectName])
	return []components.Section{
		{Title: "Project", Fields: []components.Field{
			{Label: "Name", Value: p.ProjectName},
			{Label: "Your role", Value: role},
			{Label: "Account", Value: joinNonEmpty(p.AccountName, p.AccountID)},
			{Label: "Default cloud", Value: p.DefaultCloud},
		}},
		{Title: "Billing", Fields: []components.Field{
			{Label: "Billing group", Value: joinNonEmpty(p.BillingGroupName, p.BillingGroupID)},
			{Label: "Currency", Value: p.BillingCurrency},
			{Label: "Estimated balance", Value: p.EstimatedBalance.Format(p.BillingCurrency)},
			{Label: "Available credits", Value: p.AvailableCredits.Format(p.BillingCurrency)},
			{Label: "Payment method", Value: p.PaymentMethod},
			{Label: "Country code", Value: p.CountryCode},
			{Label: "VAT id", Value: p.VATID},
			{Label: "Billing address", Value: p.BillingAddress},
			{Label: "Billing e-mails", Value: strings.Join(p.BillingEmails, ", ")},
		}},
		{Title: "Technical contacts", Fields: []components.Field{
			{Label: "Tech e-mails", Value: strings.Join(p.TechEmails, ", ")},
		}},
	}
}

func joinNonEmpty(name, id string) string {
	switch {
	case name != "" && id != "" && name != id:
		return name + " (" + id + ")"
	case name != "":
		return name
	}
	return id
}
