package projects

import (
	"context"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
)

// Detail shows every field of one project, the caller's role and the e-mail lists.
type Detail struct {
	ctx     *common.Context
	req     *common.Requests
	name    string
	detail  *components.Detail
	project *models.Project
	errText string
	acts    *actions
	gone    bool
}

// NewDetail builds the detail view of a project.
func NewDetail(ctx *common.Context, name string) *Detail {
	req := common.NewRequests()
	return &Detail{ctx: ctx, req: req, name: name, detail: components.NewDetail(ctx), acts: &actions{ctx: ctx, req: req}}
}

func (d *Detail) Init() tea.Cmd { return d.load() }

func (d *Detail) load() tea.Cmd {
	api, name := d.ctx.API, d.name
	return common.Fetch(d.req, "detail", func(ctx context.Context) (models.Project, error) {
		return api.GetProject(ctx, name)
	})
}

func (d *Detail) Title() string                  { return d.name }
func (d *Detail) SetSize(w, h int)               { d.detail.SetSize(w, h) }
func (d *Detail) Capturing() bool                { return false }
func (d *Detail) RefreshInterval() time.Duration { return d.ctx.Refresh }
func (d *Detail) Refresh() tea.Cmd               { return d.load() }
func (d *Detail) Leave()                         { d.req.CancelAll() }

func (d *Detail) ShortHelp() []key.Binding {
	k := d.ctx.Keys
	return keys.Enabled(k.Edit, k.Delete, k.Copy)
}

func (d *Detail) FullHelp() [][]key.Binding {
	k := d.ctx.Keys
	return [][]key.Binding{keys.Enabled(k.Edit, k.Delete, k.Refresh), d.detail.HelpBindings()}
}

func (d *Detail) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[models.Project]:
		if msg.Kind == "detail" {
			if !d.req.Current(msg.Addr) {
				return d, nil
			}
			if msg.Err != nil {
				d.errText = d.ctx.ErrorText(msg.Err)
				return d, common.Send(common.RefreshDone{Err: msg.Err})
			}
			d.errText = ""
			p := msg.Value
			d.project = &p
			d.detail.SetSections(sections(d.ctx, p))
			return d, common.Send(common.RefreshDone{})
		}
	case common.RefreshNow:
		return d, d.load()
	case createProject:
		return d, d.acts.startCreate()
	case tea.KeyMsg:
		k := d.ctx.Keys
		switch {
		case key.Matches(msg, k.Edit):
			if d.project == nil {
				return d, common.Warn("Still loading " + d.name)
			}
			return d, d.acts.startEdit(*d.project)
		case key.Matches(msg, k.Delete):
			return d, d.acts.confirmDelete(d.name)
		}
		_, cmd := d.detail.Update(msg)
		return d, cmd
	}
	if cmd, handled, changed := d.acts.handle(msg); handled {
		if _, ok := msg.(common.Result[deleted]); ok && changed {
			d.gone = true
			return d, tea.Batch(cmd, common.Send(common.PopView{}))
		}
		if changed {
			return d, tea.Batch(cmd, d.load())
		}
		return d, cmd
	}
	return d, nil
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

func (d *Detail) View() string {
	if d.project == nil {
		return components.Placeholder(d.ctx, d.errText, "Loading "+d.name+"…")
	}
	return d.detail.ViewWithError(d.errText)
}
