package billing

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// groupDetail is one load of a group: the single-group read and its invoices.
type groupDetail struct {
	Group       models.BillingGroup
	Invoices    []models.Invoice
	InvoicesErr error
}

// GroupDetail shows every field of a billing group, its projects and its invoices.
type GroupDetail struct {
	*base.Detail[groupDetail]
	acts *actions
}

// NewGroupDetail builds the detail view of a group (b as listed: its id and name).
func NewGroupDetail(ctx *common.Context, b models.BillingGroup) *GroupDetail {
	d := &GroupDetail{}
	k := ctx.Keys
	// current is the group as last loaded, else as listed.
	current := func() models.BillingGroup {
		if v, ok := d.Item(); ok {
			return v.Group
		}
		return b
	}
	d.Detail = base.NewDetail(ctx, base.DetailSpec[groupDetail]{
		Title: dash(b.BillingGroupName),
		Load: func() func(context.Context) (groupDetail, error) {
			api, id, explain := ctx.API, b.BillingGroupID, explainer(ctx)
			return func(c context.Context) (groupDetail, error) {
				var out groupDetail
				done := make(chan struct{})
				go func() {
					defer close(done)
					out.Invoices, out.InvoicesErr = api.ListInvoices(c, id)
					out.InvoicesErr = explain(out.InvoicesErr)
				}()
				g, err := api.GetBillingGroup(c, id)
				<-done
				out.Group = g
				return out, explain(err)
			}
		},
		Sections: func(v groupDetail) []components.Section { return groupSections(ctx, v) },
		Actions: []base.Action[groupDetail]{
			{Key: k.Edit, Run: func(v groupDetail) tea.Cmd { return d.acts.startEdit(v.Group) }},
			{Key: k.Assign, Run: func(groupDetail) tea.Cmd { return d.acts.startAssign(current()) }, NoSelection: true},
			{Key: k.Invoices, NoSelection: true, Run: func(groupDetail) tea.Cmd { return ctx.Push(NewInvoices(ctx, current())) }},
			{Key: k.Estimates, NoSelection: true, Help: "group estimate", Hidden: true, Run: func(groupDetail) tea.Cmd {
				g := current()
				return ctx.Push(NewGroupEstimates(ctx, g.BillingGroupID, g.BillingGroupName))
			}},
			{Key: k.Credits, NoSelection: true, Hidden: true, Run: func(groupDetail) tea.Cmd { return ctx.Push(NewCredits(ctx)) }},
		},
	})
	d.acts = &actions{ctx: ctx, req: d.Req}
	return d
}

func (d *GroupDetail) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if cmd, handled := d.acts.route(msg, d.Load); handled {
		return d, cmd
	}
	return d, d.Handle(msg)
}

// groupSections renders every field: address, e-mails, VAT id, card (brand •••• last4 and
// expiry, then any key the platform added), the projects and the invoices.
func groupSections(ctx *common.Context, v groupDetail) []components.Section {
	b := v.Group
	group := []components.Field{
		{Label: "Name", Value: b.BillingGroupName},
		{Label: "Id", Value: b.BillingGroupID},
		{Label: "Account", Value: b.AccountID},
		{Label: "Currency", Value: b.BillingCurrency},
		{Label: "Payment method", Value: string(b.PaymentMethod)},
	}
	if c := b.CardInfo; c != nil {
		group = append(group, components.Field{Label: "Card", Value: c.Summary()})
		if c.Name != "" {
			group = append(group, components.Field{Label: "Card holder", Value: c.Name})
		}
		for _, k := range c.ExtraKeys() {
			group = append(group, components.Field{Label: "Card " + k, Value: c.Extra[k]})
		}
	}
	address := []components.Field{{Label: "Company", Value: b.Company}}
	for i, l := range b.AddressLines {
		address = append(address, components.Field{Label: fmt.Sprintf("Address line %d", i+1), Value: l})
	}
	if len(b.AddressLines) == 0 {
		address = append(address, components.Field{Label: "Address", Value: ""})
	}
	address = append(address,
		components.Field{Label: "City", Value: b.City},
		components.Field{Label: "State", Value: b.State},
		components.Field{Label: "ZIP code", Value: b.ZipCode},
		components.Field{Label: "Country", Value: b.CountryCode},
		components.Field{Label: "VAT id", Value: b.VATID},
		components.Field{Label: "Billing e-mails", Value: strings.Join(b.BillingEmail, ", ")},
	)
	projects := []components.Field{}
	for _, p := range b.Projects {
		projects = append(projects, components.Field{Label: p.ProjectName,
			Value: "estimated balance " + p.EstimatedBalance.Format(dashIfEmpty(p.BillingCurrency, b.BillingCurrency))})
	}
	if len(b.Projects) == 0 {
		projects = append(projects, components.Field{Label: "Projects", Value: "No projects are assigned to this group. Press " +
			ctx.Keys.Assign.Help().Key + " to assign one."})
	}
	invoices := []components.Field{}
	switch {
	case v.InvoicesErr != nil:
		invoices = append(invoices, components.Field{Label: "Invoices", Value: ctx.ErrorText(v.InvoicesErr)})
	case len(v.Invoices) == 0:
		invoices = append(invoices, components.Field{Label: "Invoices", Value: "No invoices yet."})
	default:
		list := newestFirst(v.Invoices)
		totals := make([]models.Amount, len(list))
		for i, inv := range list {
			totals[i] = inv.TotalIncVAT
		}
		aligned := alignAmounts(totals)
		for i, inv := range list {
			state, _ := invoiceState(ctx, inv.State)
			invoices = append(invoices, components.Field{Label: inv.InvoiceNumber,
				Value: fmt.Sprintf("%-9s %14s %s  %s", inv.Period(), aligned[i], inv.Currency, state)})
		}
	}
	return []components.Section{
		{Title: "Billing group", Fields: group},
		{Title: "Address", Fields: address},
		{Title: fmt.Sprintf("Projects (%d)", len(b.Projects)), Fields: projects},
		{Title: fmt.Sprintf("Invoices (%d) — press %s for the table", len(v.Invoices), ctx.Keys.Invoices.Help().Key), Fields: invoices},
	}
}

func dashIfEmpty(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}
