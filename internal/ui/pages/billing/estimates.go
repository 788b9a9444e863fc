package billing

import (
	"context"
	"fmt"
	"sort"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
)

// barWidth is the width of the cost bars in the estimates table.
const barWidth = 20

// cost is a row of a project's estimate: a service's estimated cost, formatted and
// barred against the costliest, and the project's balance (every row carries it).
type cost struct {
	models.EstimateService
	text, bar string
	balance   models.Money
	// forecast is the project's month-end estimate ("" when it cannot be made).
	forecast string
}

// Estimates shows one project's estimate: balance, and each service's estimated cost as
// a table sorted by cost with bars; enter opens the service, a the all-projects summary.
type Estimates struct {
	*base.List[cost]
	project string
	width   int
}

// NewEstimates builds the estimate view of a project.
func NewEstimates(ctx *common.Context, project string) *Estimates {
	e := &Estimates{project: project}
	k := ctx.Keys
	e.List = base.NewList(ctx, base.ListSpec[cost]{
		Title: "Estimate of " + dash(project),
		Noun:  "service",
		Columns: []components.Column{
			{Title: "Service", Flex: true, Max: 40},
			{Title: "Type", Max: 14},
			{Title: "Estimated cost", Right: true, Numeric: true, Max: 20},
			{Title: "", Width: barWidth, Max: barWidth, Styled: true},
		},
		Empty: "No services in this project, so nothing is estimated.",
		Load: func() (base.Fetcher[cost], string) {
			if project == "" {
				return nil, "No current project; pick one in the Projects tab (1)."
			}
			api, explain, now := ctx.API, explainer(ctx), ctx.Now()
			return func(c context.Context) ([]cost, error) {
				est, err := api.GetEstimate(c, project)
				if err != nil {
					return nil, explain(err)
				}
				rows := costs(est)
				if f := forecast(c, api, project, est, now); f != "" {
					for i := range rows {
						rows[i].forecast = f
					}
				}
				return rows, nil
			}, ""
		},
		Key: func(c cost) string { return c.ServiceName },
		Row: func(c cost) components.Row {
			return components.Row{Cells: []string{c.ServiceName, dash(c.ServiceType), c.text, c.bar},
				Sort: []string{c.ServiceName, c.ServiceType, c.EstimatedCost.String(), c.EstimatedCost.String()}}
		},
		Actions: []base.Action[cost]{
			{Key: k.Open, Help: "open service", Run: func(c cost) tea.Cmd {
				return ctx.Go(common.OpenService{Project: project, Service: c.ServiceName})
			}},
			{Key: k.ToggleAll, NoSelection: true, Help: "all projects", Run: func(cost) tea.Cmd { return ctx.Push(NewAllEstimates(ctx)) }},
		},
	})
	return e
}

func (e *Estimates) Update(msg tea.Msg) (common.View, tea.Cmd) { return e, e.Handle(msg) }

// SetSize keeps two lines for the balance above the table.
func (e *Estimates) SetSize(w, h int) { e.width = w; e.List.SetSize(w, max(1, h-2)) }

// costs sorts services by cost, highest first, with bars scaled to the highest.
func costs(est models.Estimate) []cost {
	svcs := append([]models.EstimateService(nil), est.Services...)
	sort.SliceStable(svcs, func(i, j int) bool { return svcs[i].EstimatedCost.Cmp(svcs[j].EstimatedCost) > 0 })
	amounts := make([]models.Amount, len(svcs))
	maxV := 0.0
	for i, s := range svcs {
		amounts[i] = s.EstimatedCost
		maxV = max(maxV, amountFloat(s.EstimatedCost))
	}
	aligned := alignAmounts(amounts)
	out := make([]cost, len(svcs))
	balance := models.Money{Amount: est.EstimatedBalance, Currency: est.BillingCurrency}
	for i, s := range svcs {
		text := aligned[i]
		if s.EstimatedCost.Set && est.BillingCurrency != "" {
			text += " " + est.BillingCurrency
		}
		out[i] = cost{EstimateService: s, text: text, bar: components.Bar(amountFloat(s.EstimatedCost), maxV, barWidth), balance: balance}
	}
	return out
}

func (e *Estimates) View() string {
	st := e.Ctx.Styles
	head := st.Bold.Render(safe.Text(e.project))
	if items := e.Items(); len(items) > 0 {
		b := items[0].balance
		head += "  estimated balance " + st.Accent.Render(b.Amount.Format(b.Currency))
	}
	head += fmt.Sprintf("  (month to date; %s: all projects)", e.Ctx.Keys.ToggleAll.Help().Key)
	next := ""
	if items := e.Items(); len(items) > 0 {
		next = items[0].forecast
	}
	return ansi.Truncate(head, e.width, "…") + "\n" + ansi.Truncate(next, e.width, "…") + "\n" + e.List.View()
}
