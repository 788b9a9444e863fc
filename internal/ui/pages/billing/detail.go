package billing

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
)

// groupDetail is one load of a group: the single-group read and its invoices.
type groupDetail struct {
	Group       models.BillingGroup
	Invoices    []models.Invoice
	InvoicesErr error
	// Projects are the caller's projects (for the assign picker: which group each is in).
	Projects []models.Project
}

// GroupDetail shows every field of a billing group, its projects and its invoices.
type GroupDetail struct {
	ctx    *common.Context
	req    *common.Requests
	group  models.BillingGroup // from the list until the detail arrives
	loaded *groupDetail
	detail *components.Detail
	acts   *actions
	errTxt string
}

// NewGroupDetail builds the detail view of a group.
func NewGroupDetail(ctx *common.Context, b models.BillingGroup) *GroupDetail {
	req := common.NewRequests()
	return &GroupDetail{ctx: ctx, req: req, group: b, detail: components.NewDetail(ctx), acts: &actions{ctx: ctx, req: req}}
}

func (d *GroupDetail) Init() tea.Cmd { return d.load() }

func (d *GroupDetail) load() tea.Cmd {
	api, id := d.ctx.API, d.group.BillingGroupID
	return common.Fetch(d.req, "group", func(ctx context.Context) (groupDetail, error) {
		var out groupDetail
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			out.Invoices, out.InvoicesErr = api.ListInvoices(ctx, id)
		}()
		go func() {
			defer wg.Done()
			if list, err := api.ListProjects(ctx); err == nil {
				out.Projects = list.Projects
			}
		}()
		g, err := api.GetBillingGroup(ctx, id)
		wg.Wait()
		out.Group = g
		return out, err
	})
}

func (d *GroupDetail) Title() string                  { return dash(d.group.BillingGroupName) }
func (d *GroupDetail) SetSize(w, h int)               { d.detail.SetSize(w, h) }
func (d *GroupDetail) Capturing() bool                { return false }
func (d *GroupDetail) ID() int64                      { return d.req.ID }
func (d *GroupDetail) RefreshInterval() time.Duration { return d.ctx.Refresh }
func (d *GroupDetail) Refresh() tea.Cmd               { return d.load() }
func (d *GroupDetail) Leave()                         { d.req.CancelAll() }

func (d *GroupDetail) ShortHelp() []key.Binding {
	k := d.ctx.Keys
	return append(keys.Enabled(k.Edit, keyAssign), keyInvoices, k.Copy)
}

func (d *GroupDetail) FullHelp() [][]key.Binding {
	k := d.ctx.Keys
	return [][]key.Binding{append(keys.Enabled(k.Edit, keyAssign), keyInvoices, keyEstimates, keyCredits, k.Refresh), d.detail.HelpBindings()}
}

func (d *GroupDetail) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[groupDetail]:
		if !d.req.Current(msg.Addr) {
			return d, nil
		}
		if msg.Err != nil {
			d.errTxt = errorText(d.ctx, msg.Err)
			return d, common.Send(common.RefreshDone{Err: msg.Err})
		}
		d.errTxt = ""
		v := msg.Value
		d.loaded, d.group = &v, v.Group
		d.detail.SetSections(groupSections(d.ctx, v))
		return d, common.Send(common.RefreshDone{})
	case common.RefreshNow:
		return d, d.load()
	case openSub:
		if msg.what == "invoices" {
			return d, common.Send(common.PushView{View: NewInvoices(d.ctx, d.group)})
		}
		return d, nil
	case tea.KeyMsg:
		k := d.ctx.Keys
		switch {
		case key.Matches(msg, k.Edit):
			return d, d.acts.editForm(d.group)
		case key.Matches(msg, keyAssign):
			var projects []models.Project
			if d.loaded != nil {
				projects = d.loaded.Projects
			}
			return d, d.acts.assignForm(d.group, projects)
		case key.Matches(msg, keyInvoices):
			return d, common.Send(common.PushView{View: NewInvoices(d.ctx, d.group)})
		case key.Matches(msg, keyEstimates):
			return d, common.Send(common.PushView{View: NewEstimates(d.ctx, d.ctx.Project)})
		case key.Matches(msg, keyCredits):
			return d, common.Send(common.PushView{View: NewCredits(d.ctx)})
		}
		_, cmd := d.detail.Update(msg)
		return d, cmd
	}
	if cmd, handled, changed := d.acts.handle(msg); handled {
		if changed {
			return d, tea.Batch(cmd, d.load())
		}
		return d, cmd
	}
	return d, nil
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
		projects = append(projects, components.Field{Label: "Projects", Value: "No projects are assigned to this group. Press p to assign one."})
	}
	invoices := []components.Field{}
	switch {
	case v.InvoicesErr != nil:
		invoices = append(invoices, components.Field{Label: "Invoices", Value: errorText(ctx, v.InvoicesErr)})
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
			invoices = append(invoices, components.Field{Label: inv.InvoiceNumber,
				Value: fmt.Sprintf("%-9s %14s %s  %s", inv.Period(), aligned[i], inv.Currency, invoiceBadge(ctx, inv.State))})
		}
	}
	return []components.Section{
		{Title: "Billing group", Fields: group},
		{Title: "Address", Fields: address},
		{Title: fmt.Sprintf("Projects (%d)", len(b.Projects)), Fields: projects},
		{Title: fmt.Sprintf("Invoices (%d) — press i for the table", len(v.Invoices)), Fields: invoices},
	}
}

func dashIfEmpty(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

func (d *GroupDetail) View() string {
	if d.loaded == nil {
		return components.Placeholder(d.ctx, d.errTxt, "Loading billing group "+d.group.BillingGroupName+"…")
	}
	return d.detail.ViewWithError(d.errTxt)
}
