package billing

import (
	"context"
	"strconv"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// group is a row of the groups table: a billing group and how many of the caller's
// projects it bills (Counted is false when the project list could not be read).
type group struct {
	models.BillingGroup
	Count   int
	Counted bool
}

// Groups is the Billing tab's root: the billing groups of the current account.
type Groups struct {
	*base.List[group]
	acts   *actions
	counts *projectCounts
}

// projectCounts keeps each group's project count for a minute: the live refresh lists
// the groups every few seconds, and reading every group again each time would spend the
// rate budget on a column that rarely changes. Loads run in commands, hence the lock.
type projectCounts struct {
	mu   sync.Mutex
	byID map[string]countedAt
	// writes is the session's billing writes the counts were read after.
	writes int
}

type countedAt struct {
	n  int
	at time.Time
}

const countLife = time.Minute

func (c *projectCounts) get(id string, now time.Time, writes int) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if writes != c.writes {
		// A group or a project move changed since: read every group again.
		c.byID, c.writes = nil, writes
	}
	e, ok := c.byID[id]
	return e.n, ok && now.Sub(e.at) < countLife
}

func (c *projectCounts) put(id string, n int, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]countedAt{}
	}
	c.byID[id] = countedAt{n, now}
}

// New builds the Billing tab's root view.
func New(ctx *common.Context) common.View {
	g := &Groups{counts: &projectCounts{}}
	k := ctx.Keys
	g.List = base.NewList(ctx, base.ListSpec[group]{
		Title: "Billing groups",
		Noun:  "billing group",
		Columns: []components.Column{
			{Title: "Name", Flex: true, Max: 40},
			{Title: "Currency", Max: 8},
			{Title: "Payment", Max: 10},
			{Title: "Company", Max: 30, Optional: true},
			{Title: "Country", Max: 7},
			{Title: "Projects", Right: true, Numeric: true, Max: 8},
		},
		Empty:          "No billing groups in this account. Press c to create one.",
		Load:           g.load,
		Key:            func(b group) string { return b.BillingGroupID },
		Row:            groupRow,
		FollowsProject: true,
		Loaded: func(gs []group) tea.Cmd {
			names := make(map[string]string, len(gs))
			for _, b := range gs {
				names[b.BillingGroupID] = b.BillingGroupName
			}
			ctx.BillingGroups = names
			return nil
		},
		Actions: []base.Action[group]{
			{Key: k.Open, Run: func(b group) tea.Cmd { return openGroup(ctx, b.BillingGroup) }},
			{Key: k.Create, NoSelection: true, Run: func(group) tea.Cmd { return g.acts.startCreate(g.account()) }},
			{Key: k.Edit, Run: func(b group) tea.Cmd { return g.acts.startEdit(b.BillingGroup) }},
			{Key: k.Assign, Hidden: true, Run: func(b group) tea.Cmd { return g.acts.startAssign(b.BillingGroup) }},
			{Key: k.Invoices, Run: func(b group) tea.Cmd { return ctx.Push(NewInvoices(ctx, b.BillingGroup)) }},
			{Key: k.Estimates, Help: "group estimate", Run: func(b group) tea.Cmd {
				return ctx.Push(NewGroupEstimates(ctx, b.BillingGroupID, b.BillingGroupName))
			}},
			{Key: k.Credits, NoSelection: true, Run: func(group) tea.Cmd { return ctx.Push(NewCredits(ctx)) }},
		},
	})
	g.acts = &actions{ctx: ctx, req: g.Req, created: g.SelectLater}
	return g
}

// load lists the account's groups and counts the projects each bills from the group's
// own read, as its detail does (the caller's project list undercounts: a developer's
// projects carry no billing group). A group whose read fails says "—".
func (g *Groups) load() (base.Fetcher[group], string) {
	api, account, project, explain := g.Ctx.API, accountFor(g.Ctx), g.Ctx.Project(), explainer(g.Ctx)
	counts, now, writes := g.counts, g.Ctx.Now, g.Ctx.BillingWrites
	return func(ctx context.Context) ([]group, error) {
		acc, err := resolveAccount(ctx, api, account, project)
		if err != nil {
			return nil, explain(err)
		}
		groups, err := api.ListBillingGroups(ctx, acc)
		out := make([]group, len(groups))
		var wg sync.WaitGroup
		sem := make(chan struct{}, 4)
		for i, b := range groups {
			out[i] = group{BillingGroup: b}
			if n, ok := counts.get(b.BillingGroupID, now(), writes); ok {
				out[i].Count, out[i].Counted = n, true
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				if full, err := api.GetBillingGroup(ctx, b.BillingGroupID); err == nil {
					out[i].Count, out[i].Counted = len(full.Projects), true
					counts.put(b.BillingGroupID, len(full.Projects), now())
				}
			}()
		}
		wg.Wait()
		return out, explain(err)
	}, ""
}

// account is the account shown: the groups carry it once loaded.
func (g *Groups) account() string {
	for _, b := range g.Items() {
		if b.AccountID != "" {
			return b.AccountID
		}
	}
	return ""
}

func (g *Groups) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if cmd, handled := g.acts.route(msg, g.Load); handled {
		return g, cmd
	}
	return g, g.Handle(msg)
}

func groupRow(b group) components.Row {
	count := "—"
	if b.Counted {
		count = strconv.Itoa(b.Count)
	}
	return components.Row{Cells: []string{
		dash(b.BillingGroupName), dash(b.BillingCurrency), dash(string(b.PaymentMethod)),
		dash(b.Company), dash(b.CountryCode), count,
	}}
}

// openGroup makes the group current (:invoices and :estimate use it) and shows it.
func openGroup(ctx *common.Context, b models.BillingGroup) tea.Cmd {
	return ctx.Go(common.SelectBillingGroup{ID: b.BillingGroupID, Name: b.BillingGroupName},
		common.PushView{View: NewGroupDetail(ctx, b)})
}
