package billing

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"

	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// comparison is an invoice next to the previous one of its group: the totals, the
// estimates the journal last read in each period's month by project and service, and the
// changes the journal saw in between that move a bill (plans, disks, power, clouds,
// services created or deleted). The platform's invoices carry no lines, so the split
// by project and service is the journal's.
type comparison struct {
	inv, prev models.Invoice
	hasPrev   bool
	costs     []costChange
	explain   []journal.Entry
	began     time.Time
	noJournal bool
}

type costChange struct {
	where, then, now string
}

// Compare is the invoice comparison view (enter on an invoice).
type Compare struct {
	*base.Detail[comparison]
}

// NewCompare builds the comparison of inv with the previous invoice of the group (all
// holds every invoice of it, newest first).
func NewCompare(ctx *common.Context, group models.BillingGroup, inv models.Invoice, all []models.Invoice) *Compare {
	prev, hasPrev := previous(inv, all)
	v := &Compare{}
	v.Detail = base.NewDetail(ctx, base.DetailSpec[comparison]{
		Title: "Invoice " + dash(inv.InvoiceNumber) + " next to " + map[bool]string{true: dash(prev.InvoiceNumber), false: "none"}[hasPrev],
		Load: func() func(context.Context) (comparison, error) {
			j := ctx.Journal
			return func(context.Context) (comparison, error) {
				return compare(j, group.BillingGroupID, inv, prev, hasPrev), nil
			}
		},
		Sections: func(c comparison) []components.Section { return c.sections() },
		Interval: func() time.Duration { return -1 },
	})
	return v
}

func (v *Compare) Update(msg tea.Msg) (common.View, tea.Cmd) { return v, v.Handle(msg) }

// previous is the newest invoice of the group whose period ends before inv's begins;
// void invoices (re-issued) do not count.
func previous(inv models.Invoice, all []models.Invoice) (models.Invoice, bool) {
	var best models.Invoice
	found := false
	for _, o := range all {
		if o.InvoiceNumber == inv.InvoiceNumber || o.State == models.InvoiceVoid || !o.PeriodEnd.Before(inv.PeriodBegin) {
			continue
		}
		if !found || o.PeriodEnd.After(best.PeriodEnd) {
			best, found = o, true
		}
	}
	return best, found
}

// moves reports the changes that move a bill.
func moves(e journal.Entry) bool {
	if e.Kind != journal.KindService {
		return false
	}
	switch e.Field {
	case "", "plan", "disk", "nodes", "cloud":
		return true
	case "state":
		return e.Before == string(models.StatePowerOff) || e.After == string(models.StatePowerOff)
	}
	return false
}

func compare(j *journal.Journal, group string, inv, prev models.Invoice, hasPrev bool) comparison {
	c := comparison{inv: inv, prev: prev, hasPrev: hasPrev}
	if j == nil {
		c.noJournal = true
		return c
	}
	c.began = j.Began()
	projects := j.Last(journal.Projects())
	if projects == nil {
		return c
	}
	inGroup := map[string]bool{}
	for _, it := range projects.Items() {
		if it.Value(journal.KindProject, "billing group") == group {
			inGroup[it.Name()] = true
		}
	}
	from := inv.PeriodBegin
	if hasPrev {
		from = prev.PeriodBegin
	}
	c.explain = j.Between(from, inv.PeriodEnd.Add(time.Second), func(e journal.Entry) bool { return inGroup[e.Project] && moves(e) })
	for _, p := range slices.Sorted(maps.Keys(inGroup)) {
		for _, n := range j.LedgerLines(p) {
			cur, okNow := j.MonthCost(p, n, inv.PeriodBegin)
			then, okThen := "", false
			if hasPrev {
				then, okThen = j.MonthCost(p, n, prev.PeriodBegin)
			}
			if okNow || okThen {
				c.costs = append(c.costs, costChange{where: p + " / " + n, then: then, now: cur})
			}
		}
	}
	return c
}

func (c comparison) sections() []components.Section {
	head := components.Section{Title: "Totals"}
	head.Fields = append(head.Fields, components.Field{Label: "This invoice", Value: describe(c.inv)})
	if !c.hasPrev {
		head.Fields = append(head.Fields, components.Field{Label: "Previous", Value: "none: this is the group's first invoice"})
		return []components.Section{head}
	}
	head.Fields = append(head.Fields, components.Field{Label: "Previous", Value: describe(c.prev)},
		components.Field{Label: "Difference", Value: difference(c.prev.TotalIncVAT, c.inv.TotalIncVAT, c.inv.Currency)})
	split := components.Section{Title: "By project and service (the estimates the journal last read in each period's month)"}
	switch {
	case c.noJournal:
		split.Fields = append(split.Fields, components.Field{Label: "Not known", Value: "the journal is still being read"})
	case len(c.costs) == 0:
		when := "it has not read this account yet"
		if !c.began.IsZero() {
			when = "it began reading this account on " + c.began.Local().Format("Jan 2 15:04") + ", after these periods ended"
		}
		split.Fields = append(split.Fields, components.Field{Label: "Not known",
			Value: "the platform's invoices carry no lines, and the journal has no reads of these periods: " + when})
	}
	for _, cc := range c.costs {
		split.Fields = append(split.Fields, components.Field{Label: cc.where, Value: dash(cc.then) + " → " + dash(cc.now) + changeOf(cc.then, cc.now)})
	}
	why := components.Section{Title: "Changes the journal saw from the previous period's start to this one's end"}
	for _, e := range c.explain {
		by := "elsewhere"
		if e.Here {
			by = "here"
		} else if e.Away {
			by = "while closed"
		}
		what := e.Change.String()
		if e.Change == journal.Changed {
			what = e.Field + " " + dash(e.Before) + " → " + dash(e.After)
		}
		why.Fields = append(why.Fields, components.Field{Label: e.At.Local().Format("Jan 2 15:04"), Value: e.Project + "/" + e.Name + " " + what + " (" + by + ")"})
	}
	if len(why.Fields) == 0 {
		why.Fields = append(why.Fields, components.Field{Label: "None seen", Value: "no plan, disk, power or cloud change in these periods while the journal was reading"})
	}
	return []components.Section{head, split, why}
}

func describe(inv models.Invoice) string {
	period := "—"
	if !inv.PeriodBegin.IsZero() {
		period = inv.PeriodBegin.Format("2006-01-02") + " – " + inv.PeriodEnd.Format("2006-01-02")
	}
	return dash(inv.InvoiceNumber) + " · " + period + " · " + dash(string(inv.State)) + " · " + inv.TotalIncVAT.Format(inv.Currency)
}

// difference is "+95.40 EUR (+3.1 %)".
func difference(before, after models.Amount, currency string) string {
	d := after.Sub(before)
	s := d.Format(currency)
	if d.Value.Sign() > 0 {
		s = "+" + s
	}
	if !before.IsZero() {
		pct := d.Value.Div(before.Value).Mul(decimal.NewFromInt(100)).Round(1)
		sign := ""
		if pct.Sign() > 0 {
			sign = "+"
		}
		s += " (" + sign + pct.StringFixed(1) + " %)"
	}
	return s
}

// changeOf is " (+4.80)" between two journal amounts ("55.30 EUR"), "" when either
// is unknown.
func changeOf(then, now string) string {
	a, errA := models.ParseAmount(strings.Fields(then + " x")[0])
	b, errB := models.ParseAmount(strings.Fields(now + " x")[0])
	if then == "" || now == "" || errA != nil || errB != nil {
		return ""
	}
	d := b.Sub(a)
	sign := ""
	if d.Value.Sign() > 0 {
		sign = "+"
	}
	return " (" + sign + d.FormatNumber() + ")"
}
