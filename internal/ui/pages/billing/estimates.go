package billing

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// barWidth is the width of the cost bars in the estimates table.
const barWidth = 20

// Estimates shows one project's estimate: balance, and each service's estimated cost as
// a table sorted by cost with bars; enter opens the service, a the all-projects summary.
type Estimates struct {
	ctx      *common.Context
	req      *common.Requests
	project  string
	table    *components.Table
	estimate *models.Estimate
	errTxt   string
	w, h     int
}

// NewEstimates builds the estimate view of a project.
func NewEstimates(ctx *common.Context, project string) *Estimates {
	t := components.NewTable(ctx, []components.Column{
		{Title: "Service", Flex: true, Max: 40},
		{Title: "Type", Max: 14},
		{Title: "Estimated cost", Right: true, Numeric: true, Max: 20},
		{Title: "", Width: barWidth, Max: barWidth, Styled: true},
	})
	t.Empty = "No services in this project, so nothing is estimated."
	return &Estimates{ctx: ctx, req: common.NewRequests(), project: project, table: t}
}

func (e *Estimates) Init() tea.Cmd { return e.load() }

func (e *Estimates) load() tea.Cmd {
	if e.project == "" {
		e.errTxt = "No current project; pick one in the Projects tab (1)."
		return nil
	}
	api, p := e.ctx.API, e.project
	return common.Fetch(e.req, "estimate", func(ctx context.Context) (models.Estimate, error) {
		return api.GetEstimate(ctx, p)
	})
}

func (e *Estimates) Title() string    { return "Estimate of " + dash(e.project) }
func (e *Estimates) SetSize(w, h int) { e.w, e.h = w, h; e.table.SetSize(w, max(1, h-2)) }
func (e *Estimates) Capturing() bool  { return e.table.Filtering() }
func (e *Estimates) ID() int64        { return e.req.ID }
func (e *Estimates) ClaimsKey(msg tea.KeyMsg) bool {
	return key.Matches(msg, e.ctx.Keys.Back) && e.table.FilterText() != ""
}
func (e *Estimates) RefreshInterval() time.Duration { return e.ctx.Refresh }
func (e *Estimates) Refresh() tea.Cmd               { return e.load() }
func (e *Estimates) Leave()                         { e.req.CancelAll() }

func (e *Estimates) allKey() key.Binding {
	k := e.ctx.Keys.ToggleAll
	return key.NewBinding(key.WithKeys(k.Keys()...), key.WithHelp(k.Help().Key, "all projects"))
}

func (e *Estimates) ShortHelp() []key.Binding {
	k := e.ctx.Keys
	open := key.NewBinding(key.WithKeys(k.Open.Keys()...), key.WithHelp(k.Open.Help().Key, "open service"))
	return []key.Binding{open, e.allKey(), k.Filter}
}

func (e *Estimates) FullHelp() [][]key.Binding {
	return [][]key.Binding{e.ShortHelp(), e.table.HelpBindings()}
}

func (e *Estimates) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[models.Estimate]:
		if !e.req.Current(msg.Addr) {
			return e, nil
		}
		if msg.Err != nil {
			e.errTxt = errorText(e.ctx, msg.Err)
			e.table.SetError(e.errTxt)
			return e, common.Send(common.RefreshDone{Err: msg.Err})
		}
		e.errTxt = ""
		est := msg.Value
		e.estimate = &est
		e.table.SetRows(estimateRows(est))
		return e, common.Send(common.RefreshDone{})
	case common.RefreshNow:
		return e, e.load()
	case tea.KeyMsg:
		if e.table.Filtering() {
			_, cmd := e.table.Update(msg)
			return e, cmd
		}
		k := e.ctx.Keys
		switch {
		case key.Matches(msg, k.Open):
			name := e.table.SelectedKey()
			if name == "" {
				return e, nil
			}
			return e, common.Send(common.OpenService{Project: e.project, Service: name})
		case key.Matches(msg, k.ToggleAll):
			return e, common.Send(common.PushView{View: NewAllEstimates(e.ctx)})
		}
	}
	_, cmd := e.table.Update(msg)
	return e, cmd
}

// estimateRows sorts services by cost, highest first, with bars scaled to the highest.
func estimateRows(est models.Estimate) []components.Row {
	svcs := append([]models.EstimateService(nil), est.Services...)
	sort.SliceStable(svcs, func(i, j int) bool { return svcs[i].EstimatedCost.Cmp(svcs[j].EstimatedCost) > 0 })
	amounts := make([]models.Amount, len(svcs))
	maxV := 0.0
	for i, s := range svcs {
		amounts[i] = s.EstimatedCost
		maxV = max(maxV, amountFloat(s.EstimatedCost))
	}
	aligned := alignAmounts(amounts)
	rows := make([]components.Row, len(svcs))
	for i, s := range svcs {
		cost := aligned[i]
		if s.EstimatedCost.Set && est.BillingCurrency != "" {
			cost += " " + est.BillingCurrency
		}
		rows[i] = components.Row{Key: s.ServiceName,
			Cells: []string{s.ServiceName, dash(s.ServiceType), cost, components.Bar(amountFloat(s.EstimatedCost), maxV, barWidth)},
			Sort:  []string{s.ServiceName, s.ServiceType, s.EstimatedCost.String(), s.EstimatedCost.String()}}
	}
	return rows
}

func (e *Estimates) View() string {
	if e.estimate == nil {
		return components.Placeholder(e.ctx, e.errTxt, "Loading the estimate of "+e.project+"…")
	}
	st := e.ctx.Styles
	head := fmt.Sprintf("%s  estimated balance %s  (month to date; a: all projects)", st.Bold.Render(e.project),
		st.Accent.Render(e.estimate.EstimatedBalance.Format(e.estimate.BillingCurrency)))
	return ansi.Truncate(head, e.w, "…") + "\n\n" + e.table.View()
}

// projectBalance is one row of the all-projects summary.
type projectBalance struct {
	Project string
	Balance models.Money
	Err     error
}

// AllEstimates lists every project's estimated balance and the totals per currency
// (exact decimals; different currencies are never added together).
type AllEstimates struct {
	ctx    *common.Context
	req    *common.Requests
	table  *components.Table
	rows   []projectBalance
	loaded bool
	errTxt string
	w, h   int
}

// NewAllEstimates builds the all-projects summary.
func NewAllEstimates(ctx *common.Context) *AllEstimates {
	t := components.NewTable(ctx, []components.Column{
		{Title: "Project", Flex: true, Max: 40},
		{Title: "Estimated balance", Right: true, Numeric: true, Max: 24},
		{Title: "Currency", Max: 8},
	})
	t.Empty = "No projects to estimate."
	return &AllEstimates{ctx: ctx, req: common.NewRequests(), table: t}
}

func (a *AllEstimates) Init() tea.Cmd { return a.load() }

func (a *AllEstimates) load() tea.Cmd {
	api, names := a.ctx.API, append([]string(nil), a.ctx.ProjectNames...)
	return common.Fetch(a.req, "all", func(ctx context.Context) ([]projectBalance, error) {
		if len(names) == 0 {
			list, err := api.ListProjects(ctx)
			if err != nil {
				return nil, err
			}
			for _, p := range list.Projects {
				names = append(names, p.ProjectName)
			}
		}
		out := make([]projectBalance, len(names))
		sem := make(chan struct{}, 4) // a few at a time: the platform rate-limits
		var wg sync.WaitGroup
		for i, n := range names {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				est, err := api.GetEstimate(ctx, n)
				out[i] = projectBalance{Project: n, Balance: models.Money{Amount: est.EstimatedBalance, Currency: est.BillingCurrency}, Err: err}
			}()
		}
		wg.Wait()
		return out, nil
	})
}

func (a *AllEstimates) Title() string    { return "All projects" }
func (a *AllEstimates) SetSize(w, h int) { a.w, a.h = w, h; a.layout() }
func (a *AllEstimates) Capturing() bool  { return a.table.Filtering() }
func (a *AllEstimates) ID() int64        { return a.req.ID }
func (a *AllEstimates) ClaimsKey(msg tea.KeyMsg) bool {
	return key.Matches(msg, a.ctx.Keys.Back) && a.table.FilterText() != ""
}
func (a *AllEstimates) RefreshInterval() time.Duration { return a.ctx.Refresh }
func (a *AllEstimates) Refresh() tea.Cmd               { return a.load() }
func (a *AllEstimates) Leave()                         { a.req.CancelAll() }
func (a *AllEstimates) ShortHelp() []key.Binding {
	return []key.Binding{a.ctx.Keys.Filter, a.ctx.Keys.Sort}
}
func (a *AllEstimates) FullHelp() [][]key.Binding { return [][]key.Binding{a.table.HelpBindings()} }

// totals are the per-currency sums of the visible balances.
func (a *AllEstimates) totals() []models.Money {
	var ms []models.Money
	for _, r := range a.rows {
		if r.Err == nil && r.Balance.Amount.Set {
			ms = append(ms, r.Balance)
		}
	}
	return models.SumByCurrency(ms)
}

func (a *AllEstimates) layout() {
	a.table.SetSize(a.w, max(1, a.h-2-len(a.totals())))
}

func (a *AllEstimates) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[[]projectBalance]:
		if !a.req.Current(msg.Addr) {
			return a, nil
		}
		if msg.Err != nil {
			a.errTxt = errorText(a.ctx, msg.Err)
			a.table.SetError(a.errTxt)
			return a, common.Send(common.RefreshDone{Err: msg.Err})
		}
		a.loaded, a.rows, a.errTxt = true, msg.Value, ""
		a.table.SetRows(balanceRows(a.ctx, a.rows))
		a.layout()
		return a, common.Send(common.RefreshDone{})
	case common.RefreshNow:
		return a, a.load()
	}
	_, cmd := a.table.Update(msg)
	return a, cmd
}

func balanceRows(ctx *common.Context, rows []projectBalance) []components.Row {
	amounts := make([]models.Amount, len(rows))
	for i, r := range rows {
		amounts[i] = r.Balance.Amount
	}
	aligned := alignAmounts(amounts)
	out := make([]components.Row, len(rows))
	for i, r := range rows {
		bal, cur := aligned[i], dash(r.Balance.Currency)
		if r.Err != nil {
			bal, cur = "—", "—"
			if ctx.Forbidden(r.Err) {
				bal = "not visible to you"
			}
		}
		out[i] = components.Row{Key: r.Project, Cells: []string{r.Project, bal, cur},
			Sort: []string{r.Project, r.Balance.Amount.String(), r.Balance.Currency}}
	}
	return out
}

func (a *AllEstimates) View() string {
	if !a.loaded {
		return components.Placeholder(a.ctx, a.errTxt, "Loading the estimates of every project…")
	}
	st := a.ctx.Styles
	lines := []string{a.table.View(), ""}
	totals := a.totals()
	if len(totals) == 0 {
		lines = append(lines, st.Muted.Render("No balances to add up."))
	}
	amounts := make([]models.Amount, len(totals))
	for i, t := range totals {
		amounts[i] = t.Amount
	}
	aligned := alignAmounts(amounts)
	w := 0
	for _, s := range aligned {
		w = max(w, len(s))
	}
	for i, t := range totals {
		lines = append(lines, st.Bold.Render(fmt.Sprintf("Total %-3s  %*s %s", t.Currency, w, aligned[i], t.Currency)))
	}
	return strings.Join(lines, "\n")
}
