package billing

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
)

// monthTotal is one bar: a month's invoiced total in one currency.
type monthTotal struct {
	Month time.Time
	Total models.Money
}

// monthlyTotals sums the invoices' totals incl. VAT per month (of the period start) and
// currency, newest month first. Void invoices are left out: they were cancelled (the
// platform re-issues a corrected one), so counting them would bill a month twice.
func monthlyTotals(invs []models.Invoice) []monthTotal {
	byMonth := map[time.Time][]models.Money{}
	for _, inv := range invs {
		if inv.State == models.InvoiceVoid || inv.PeriodBegin.IsZero() || !inv.TotalIncVAT.Set {
			continue
		}
		b := inv.PeriodBegin.UTC()
		m := time.Date(b.Year(), b.Month(), 1, 0, 0, 0, 0, time.UTC)
		byMonth[m] = append(byMonth[m], models.Money{Amount: inv.TotalIncVAT, Currency: inv.Currency})
	}
	months := make([]time.Time, 0, len(byMonth))
	for m := range byMonth {
		months = append(months, m)
	}
	sort.Slice(months, func(i, j int) bool { return months[i].After(months[j]) })
	var out []monthTotal
	for _, m := range months {
		for _, t := range models.SumByCurrency(byMonth[m]) {
			out = append(out, monthTotal{Month: m, Total: t})
		}
	}
	return out
}

// Chart is a bar chart of a group's invoice totals per month, one block per currency
// (bars compare months within a currency only).
type Chart struct {
	id     int64
	ctx    *common.Context
	group  models.BillingGroup
	totals []monthTotal
	w, h   int
	offset int
}

// NewChart builds the chart of invs (already loaded by the invoices view).
func NewChart(ctx *common.Context, b models.BillingGroup, invs []models.Invoice) *Chart {
	return &Chart{id: common.NewViewID(), ctx: ctx, group: b, totals: monthlyTotals(invs)}
}

func (c *Chart) Init() tea.Cmd             { return nil }
func (c *Chart) Title() string             { return "Totals per month" }
func (c *Chart) SetSize(w, h int)          { c.w, c.h = w, h }
func (c *Chart) Capturing() bool           { return false }
func (c *Chart) ID() int64                 { return c.id }
func (c *Chart) ShortHelp() []key.Binding  { return c.Keys().Help(true) }
func (c *Chart) FullHelp() [][]key.Binding { return [][]key.Binding{c.Keys().Help(false)} }

// Keys are the scrolling keys the chart answers (the footer shows up and down).
func (c *Chart) Keys() keys.Actions {
	k := c.ctx.Keys
	return append(keys.Bindings(k.Up, k.Down), keys.Action{Binding: k.Top, Hidden: true})
}

func (c *Chart) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if km, ok := msg.(tea.KeyMsg); ok {
		k := c.ctx.Keys
		lines := len(c.lines())
		switch {
		case key.Matches(km, k.Down):
			c.offset = min(c.offset+1, max(0, lines-c.h))
		case key.Matches(km, k.Up):
			c.offset = max(0, c.offset-1)
		case key.Matches(km, k.Top):
			c.offset = 0
		}
	}
	return c, nil
}

func (c *Chart) lines() []string {
	st := c.ctx.Styles
	out := []string{st.Muted.Render(fmt.Sprintf("Invoiced totals incl. VAT per month, %s (void invoices left out)", dash(c.group.BillingGroupName)))}
	if len(c.totals) == 0 {
		return append(out, "", "No invoices to chart yet.")
	}
	byCur := map[string][]monthTotal{}
	var curs []string
	for _, t := range c.totals {
		if _, ok := byCur[t.Total.Currency]; !ok {
			curs = append(curs, t.Total.Currency)
		}
		byCur[t.Total.Currency] = append(byCur[t.Total.Currency], t)
	}
	sort.Strings(curs)
	for _, cur := range curs {
		ts := byCur[cur]
		amounts := make([]models.Amount, len(ts))
		maxV := 0.0
		for i, t := range ts {
			amounts[i] = t.Total.Amount
			maxV = max(maxV, amountFloat(t.Total.Amount))
		}
		aligned := alignAmounts(amounts)
		numW := 0
		for _, a := range aligned {
			numW = max(numW, len(a))
		}
		barW := min(50, max(10, c.w-8-1-numW-1-len(cur)-4))
		out = append(out, "", st.Bold.Render(dash(cur)))
		for i, t := range ts {
			out = append(out, fmt.Sprintf("%-8s %s %*s %s", t.Month.Format("Jan 2006"),
				st.Accent.Render(components.Bar(amountFloat(t.Total.Amount), maxV, barW)), numW, aligned[i], cur))
		}
	}
	return out
}

func (c *Chart) View() string {
	lines := c.lines()
	start := min(c.offset, max(0, len(lines)-1))
	end := min(len(lines), start+max(1, c.h))
	for i := start; i < end; i++ {
		lines[i] = ansi.Truncate(lines[i], c.w, "…")
	}
	return strings.Join(lines[start:end], "\n")
}
