package billing

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
)

// groupsData is one load of the groups table: the groups and, from the project list,
// how many of the caller's projects each group has.
type groupsData struct {
	Account  string
	Groups   []models.BillingGroup
	Counts   map[string]int
	Projects []models.Project
}

// Groups is the Billing tab's root: the billing groups of the current account.
type Groups struct {
	ctx    *common.Context
	req    *common.Requests
	table  *components.Table
	data   groupsData
	byID   map[string]models.BillingGroup
	acts   *actions
	errTxt string
}

// New builds the Billing tab's root view.
func New(ctx *common.Context) common.View {
	t := components.NewTable(ctx, []components.Column{
		{Title: "Name", Flex: true, Max: 40},
		{Title: "Currency", Max: 8},
		{Title: "Payment", Max: 10},
		{Title: "Company", Max: 30, Optional: true},
		{Title: "Country", Max: 7},
		{Title: "Projects", Right: true, Numeric: true, Max: 8},
	})
	t.Empty = "No billing groups in this account. Press c to create one."
	req := common.NewRequests()
	return &Groups{ctx: ctx, req: req, table: t, byID: map[string]models.BillingGroup{}, acts: &actions{ctx: ctx, req: req}}
}

func (g *Groups) Init() tea.Cmd { return g.load() }

func (g *Groups) load() tea.Cmd {
	api, account, project := g.ctx.API, accountFor(g.ctx), g.ctx.Project
	return common.Fetch(g.req, "groups", func(ctx context.Context) (groupsData, error) {
		acc, err := resolveAccount(ctx, api, account, project)
		if err != nil {
			return groupsData{}, err
		}
		d := groupsData{Account: acc, Counts: map[string]int{}}
		var wg sync.WaitGroup
		var listErr error
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Counts are a courtesy: without the project list the column says "—".
			if list, err := api.ListProjects(ctx); err == nil {
				d.Projects = list.Projects
			}
		}()
		d.Groups, listErr = api.ListBillingGroups(ctx, acc)
		wg.Wait()
		for _, p := range d.Projects {
			if p.BillingGroupID != "" {
				d.Counts[p.BillingGroupID]++
			}
		}
		return d, listErr
	})
}

func (g *Groups) Title() string    { return "Billing groups" }
func (g *Groups) SetSize(w, h int) { g.table.SetSize(w, h) }
func (g *Groups) Capturing() bool  { return g.table.Filtering() }
func (g *Groups) ID() int64        { return g.req.ID }

// ClaimsKey takes esc while a filter is applied (esc clears it first).
func (g *Groups) ClaimsKey(msg tea.KeyMsg) bool {
	return key.Matches(msg, g.ctx.Keys.Back) && g.table.FilterText() != ""
}

func (g *Groups) RefreshInterval() time.Duration { return g.ctx.Refresh }
func (g *Groups) Refresh() tea.Cmd               { return g.load() }
func (g *Groups) Leave()                         { g.req.CancelAll() }

func (g *Groups) ShortHelp() []key.Binding {
	k := g.ctx.Keys
	return append(keys.Enabled(k.Open, k.Create, k.Edit), keyInvoices, keyEstimates, keyCredits, k.Filter)
}

func (g *Groups) FullHelp() [][]key.Binding {
	k := g.ctx.Keys
	return [][]key.Binding{
		append(keys.Enabled(k.Open, k.Create, k.Edit), keys.Enabled(keyAssign)...),
		{keyInvoices, keyEstimates, keyCredits, k.Refresh},
		g.table.HelpBindings(),
	}
}

func (g *Groups) selected() (models.BillingGroup, bool) {
	b, ok := g.byID[g.table.SelectedKey()]
	return b, ok
}

func (g *Groups) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[groupsData]:
		if !g.req.Current(msg.Addr) {
			return g, nil
		}
		if msg.Err != nil {
			g.errTxt = errorText(g.ctx, msg.Err)
			g.table.SetError(g.errTxt)
			return g, common.Send(common.RefreshDone{Err: msg.Err})
		}
		g.errTxt = ""
		g.setData(msg.Value)
		return g, common.Send(common.RefreshDone{})
	case common.ProjectSelected:
		g.req.Forget("groups")
		return g, g.load()
	case common.RefreshNow:
		return g, g.load()
	case openSub:
		return g, g.openSub(msg)
	case tea.KeyMsg:
		return g, g.handleKey(msg)
	}
	if cmd, handled, changed := g.acts.handle(msg); handled {
		if changed {
			return g, tea.Batch(cmd, g.load())
		}
		return g, cmd
	}
	_, cmd := g.table.Update(msg)
	return g, cmd
}

func (g *Groups) handleKey(msg tea.KeyMsg) tea.Cmd {
	if g.table.Filtering() {
		_, cmd := g.table.Update(msg)
		return cmd
	}
	k := g.ctx.Keys
	b, ok := g.selected()
	switch {
	case key.Matches(msg, k.Open):
		if !ok {
			return nil
		}
		return common.Send(common.PushView{View: NewGroupDetail(g.ctx, b)})
	case key.Matches(msg, k.Create):
		return g.acts.createForm(g.data.Account)
	case key.Matches(msg, k.Edit):
		if !ok {
			return common.Warn("No billing group selected")
		}
		return g.acts.editForm(b)
	case key.Matches(msg, keyAssign):
		if !ok {
			return common.Warn("No billing group selected")
		}
		return g.acts.assignForm(b, g.data.Projects)
	case key.Matches(msg, keyInvoices):
		if !ok {
			return common.Warn("No billing group selected")
		}
		return common.Send(common.PushView{View: NewInvoices(g.ctx, b)})
	case key.Matches(msg, keyEstimates):
		return common.Send(common.PushView{View: NewEstimates(g.ctx, g.ctx.Project)})
	case key.Matches(msg, keyCredits):
		return common.Send(common.PushView{View: NewCredits(g.ctx)})
	}
	_, cmd := g.table.Update(msg)
	return cmd
}

// openSub is sent by the invoices palette command to the Billing tab's focused view:
// the groups list opens the selected group's invoices, a group detail its own.
type openSub struct{ what string }

func (g *Groups) openSub(m openSub) tea.Cmd {
	if m.what != "invoices" {
		return nil
	}
	if b, ok := g.selected(); ok {
		return common.Send(common.PushView{View: NewInvoices(g.ctx, b)})
	}
	return common.Warn("No billing group to show invoices of yet; pick one and press i")
}

func (g *Groups) setData(d groupsData) {
	g.data = d
	g.byID = make(map[string]models.BillingGroup, len(d.Groups))
	rows := make([]components.Row, 0, len(d.Groups))
	for _, b := range d.Groups {
		g.byID[b.BillingGroupID] = b
		count := "—"
		if d.Projects != nil {
			count = strconv.Itoa(d.Counts[b.BillingGroupID])
		}
		rows = append(rows, components.Row{Key: b.BillingGroupID, Cells: []string{
			dash(b.BillingGroupName), dash(b.BillingCurrency), dash(string(b.PaymentMethod)),
			dash(b.Company), dash(b.CountryCode), count,
		}})
	}
	g.table.SetRows(rows)
}

func (g *Groups) View() string { return g.table.View() }
