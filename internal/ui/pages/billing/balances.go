package billing

import (
	"context"
	"fmt"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
)

// projectBalance is a row of a balances view: a project's estimated balance, formatted
// so that the decimal points of the column line up.
type projectBalance struct {
	Project string
	Balance models.Money
	Err     error
	text    string
}

// Balances lists projects' estimated balances and the totals per currency (exact
// decimals; different currencies are never added together): every project's, or a
// billing group's. enter opens a project's estimate.
type Balances struct {
	*base.List[projectBalance]
	width, height int
}

// NewAllEstimates builds the all-projects summary.
func NewAllEstimates(ctx *common.Context) *Balances {
	return newBalances(ctx, "All projects", "No projects to estimate.", func() (base.Fetcher[projectBalance], string) {
		api, names, explain := ctx.API, append([]string(nil), ctx.ProjectNames...), explainer(ctx)
		return func(c context.Context) ([]projectBalance, error) {
			if len(names) == 0 {
				list, err := api.ListProjects(c)
				if err != nil {
					return nil, explain(err)
				}
				for _, p := range list.Projects {
					names = append(names, p.ProjectName)
				}
			}
			return balances(estimateAll(c, api, names)), nil
		}, ""
	})
}

// NewGroupEstimates builds the estimate of a billing group: the balance of each of its
// projects (as the group read reports them) and the total.
func NewGroupEstimates(ctx *common.Context, id, name string) *Balances {
	return newBalances(ctx, "Estimate of "+dash(name), "No projects are assigned to this group, so nothing is estimated.",
		func() (base.Fetcher[projectBalance], string) {
			api, explain := ctx.API, explainer(ctx)
			return func(c context.Context) ([]projectBalance, error) {
				g, err := api.GetBillingGroup(c, id)
				if err != nil {
					return nil, explain(err)
				}
				out := make([]projectBalance, len(g.Projects))
				for i, p := range g.Projects {
					out[i] = projectBalance{Project: p.ProjectName,
						Balance: models.Money{Amount: p.EstimatedBalance, Currency: dashIfEmpty(p.BillingCurrency, g.BillingCurrency)}}
				}
				return balances(out), nil
			}, ""
		})
}

func newBalances(ctx *common.Context, title, empty string, load func() (base.Fetcher[projectBalance], string)) *Balances {
	b := &Balances{}
	b.List = base.NewList(ctx, base.ListSpec[projectBalance]{
		Title: title,
		Noun:  "project",
		Columns: []components.Column{
			{Title: "Project", Flex: true, Max: 40},
			{Title: "Estimated balance", Right: true, Numeric: true, Max: 24},
			{Title: "Currency", Max: 8},
		},
		Empty: empty,
		Load:  load,
		Key:   func(r projectBalance) string { return r.Project },
		Row: func(r projectBalance) components.Row {
			bal, cur := r.text, dash(r.Balance.Currency)
			if r.Err != nil {
				bal, cur = "—", "—"
				if ctx.Forbidden(r.Err) {
					bal = "not visible to you"
				}
			}
			return components.Row{Cells: []string{r.Project, bal, cur}, Sort: []string{r.Project, r.Balance.Amount.String(), r.Balance.Currency}}
		},
		Loaded: func([]projectBalance) tea.Cmd { b.layout(); return nil },
		Actions: []base.Action[projectBalance]{
			{Key: ctx.Keys.Open, Help: "project's estimate", Run: func(r projectBalance) tea.Cmd { return ctx.Push(NewEstimates(ctx, r.Project)) }},
		},
	})
	return b
}

// estimateAll reads every project's estimate, a few at a time (the platform rate-limits).
func estimateAll(c context.Context, api common.API, names []string) []projectBalance {
	out := make([]projectBalance, len(names))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			est, err := api.GetEstimate(c, n)
			out[i] = projectBalance{Project: n, Balance: models.Money{Amount: est.EstimatedBalance, Currency: est.BillingCurrency}, Err: err}
		}()
	}
	wg.Wait()
	return out
}

// balances formats the amounts, aligned on the point.
func balances(rows []projectBalance) []projectBalance {
	amounts := make([]models.Amount, len(rows))
	for i, r := range rows {
		amounts[i] = r.Balance.Amount
	}
	for i, s := range alignAmounts(amounts) {
		rows[i].text = s
	}
	return rows
}

func (b *Balances) Update(msg tea.Msg) (common.View, tea.Cmd) { return b, b.Handle(msg) }

func (b *Balances) SetSize(w, h int) {
	b.width, b.height = w, h
	b.layout()
}

// layout leaves room under the table for the totals.
func (b *Balances) layout() { b.List.SetSize(b.width, max(1, b.height-2-len(b.totals()))) }

// totals are the per-currency sums of the balances that could be read.
func (b *Balances) totals() []models.Money {
	var ms []models.Money
	for _, r := range b.Items() {
		if r.Err == nil && r.Balance.Amount.Set {
			ms = append(ms, r.Balance)
		}
	}
	return models.SumByCurrency(ms)
}

func (b *Balances) View() string {
	st := b.Ctx.Styles
	lines := []string{b.List.View(), ""}
	totals := b.totals()
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
		lines = append(lines, st.Bold.Render(fmt.Sprintf("Total %-3s  %*s %s", safe.Text(t.Currency), w, aligned[i], safe.Text(t.Currency))))
	}
	return strings.Join(lines, "\n")
}
