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
	*base.Detail[shown]
	acts *actions
}

// NewDetail builds the detail view of a project.
func NewDetail(ctx *common.Context, name string) *Detail {
	d := &Detail{}
	k := ctx.Keys
	d.Detail = base.NewDetail(ctx, base.DetailSpec[shown]{
		Title: name,
		Load: func() func(context.Context) (shown, error) {
			api := ctx.API
			return func(c context.Context) (shown, error) {
				p, err := api.GetProject(c, name)
				if err != nil {
					return shown{Project: p}, err
				}
				return shown{Project: p, CreditsCurrency: creditsCurrency(p, creditsCurrencies(c, api, []string{p.AccountID}))}, nil
			}
		},
		Sections: func(p shown) []components.Section { return sections(ctx, p) },
		Actions: []base.Action[shown]{
			{Key: k.Edit, Run: func(p shown) tea.Cmd { return d.acts.startEdit(p.ProjectName) }},
			{Key: k.Delete, NoSelection: true, Run: func(shown) tea.Cmd { return d.acts.confirmDelete(name) }},
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

// shown is a project with the currency its credits are in: the project's
// available_credits are the account's credits, which the platform reports in the
// account credits' own currency, not the project's billing currency.
type shown struct {
	models.Project
	CreditsCurrency string
}

func sections(ctx *common.Context, p shown) []components.Section {
	r, _ := ctx.RoleOf(p.ProjectName)
	role := string(r)
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
			{Label: "Available credits", Value: creditsText(p.Project, p.CreditsCurrency)},
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
