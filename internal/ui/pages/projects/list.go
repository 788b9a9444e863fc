// Package projects is the Projects pane (issue 3 §2): the projects table, a project's
// detail, create/edit/delete, and the catalogue views behind ":clouds" and ":types".
package projects

import (
	"context"
	"slices"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// List is the projects table, the Projects tab's root view.
type List struct {
	*base.List[member]
	acts    *actions
	started bool
	cells   []string // row's cells, made again for each row
}

// member is a project with the caller's role in it (the list answer carries both). It
// points into the answer's projects instead of copying them (80,000 copies were 23 MB
// more, kept and at the peak of every refresh), and those are summaries: what the
// table shows, not the whole project (the rest was 10 MB more, twice at every refresh).
type member struct {
	*models.ProjectSummary // with the caller's role in it
	// CreditsCurrency is the currency the account's credits are reported in ("" unknown).
	CreditsCurrency string
}

// New builds the Projects tab's root view.
func New(ctx *common.Context) common.View {
	l := &List{}
	k := ctx.Keys
	l.List = base.NewList(ctx, base.ListSpec[member]{
		Title: "Projects",
		Noun:  "project",
		Columns: []components.Column{
			{Title: "", Width: 1, Max: 1},
			{Title: "Name", Flex: true, Max: 40},
			{Title: "Role", Max: 12},
			{Title: "Cloud", Max: 28},
			{Title: "Billing group", Max: 28, Optional: true},
			{Title: "Est. balance", Right: true, Numeric: true, Max: 16},
			{Title: "Credits", Right: true, Numeric: true, Max: 16, Optional: true},
			{Title: "Cur", Max: 4},
		},
		Empty:  "No projects yet. Press c to create one.",
		Load:   l.load,
		Key:    func(p member) string { return p.ProjectName },
		Row:    l.row,
		Loaded: l.loaded,
		Actions: []base.Action[member]{
			{Key: k.Open, Run: func(p member) tea.Cmd {
				return ctx.Go(common.SelectProject{Name: p.ProjectName},
					common.PushView{View: NewDetail(ctx, p.ProjectName)})
			}},
			{Key: k.Create, NoSelection: true, Run: func(member) tea.Cmd { return l.acts.startCreate() }},
			{Key: k.Edit, Run: func(p member) tea.Cmd { return l.acts.startEdit(p.ProjectName) }},
			{Key: k.Delete, Run: func(p member) tea.Cmd { return l.acts.confirmDelete(p.ProjectName) }},
		},
	})
	l.acts = &actions{ctx: ctx, req: l.Req, created: l.SelectLater}
	return l
}

// load lists the projects with the caller's role in each; the summaries shown now are
// given again where the answer repeats them (a refresh holds only what changed beside
// what is shown).
func (l *List) load() (base.Fetcher[member], string) {
	api := l.Ctx.API
	shown := make([]*models.ProjectSummary, len(l.Items()))
	for i, m := range l.Items() {
		shown[i] = m.ProjectSummary
	}
	return func(ctx context.Context) ([]member, error) {
		pl, err := api.ListProjectSummaries(ctx, shown)
		shown = nil
		var accounts []string
		for _, p := range pl.Projects {
			if p.AccountID != "" && !slices.Contains(accounts, p.AccountID) {
				accounts = append(accounts, p.AccountID)
			}
		}
		credits := creditsCurrencies(ctx, api, accounts)
		out := make([]member, len(pl.Projects))
		for i, p := range pl.Projects {
			out[i] = member{p, creditsCurrency(creditFields(p), credits)}
		}
		return out, err
	}, ""
}

func (l *List) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if _, ok := msg.(createProject); ok {
		return l, l.acts.startCreate()
	}
	if cmd, handled, changed := l.acts.handle(msg); handled {
		if changed {
			return l, tea.Batch(cmd, l.Load())
		}
		return l, cmd
	}
	return l, l.Handle(msg)
}

// loaded selects the default project on the first load (the profile's, else the first
// admin project, else the first) and again when the current one is gone. The projects
// are kept once, as the list's items: the context's caches are built from them, not
// from a copy (80,000 projects: a copy was 22 MB, its membership map 8 MB more).
func (l *List) loaded(ms []member) tea.Cmd {
	l.Ctx.SetProjectsOf(len(ms), func(i int) (string, string, models.Role) {
		return ms[i].ProjectName, ms[i].AccountID, ms[i].Role
	})
	l.acts.account = firstAccount(ms)
	first := !l.started
	l.started = true
	if _, ok := l.byName(l.Ctx.Project()); ok {
		if first {
			l.Table.Select(l.Ctx.Project())
		}
		return nil
	}
	name := pickDefault(ms, l.Ctx.DefaultProject)
	if name == "" {
		return nil
	}
	l.Table.Select(name)
	cmd := common.Send(common.SelectProject{Name: name})
	if first && l.Ctx.DefaultProject != "" && name != l.Ctx.DefaultProject {
		cmd = tea.Batch(cmd, common.Warn("Default project “"+l.Ctx.DefaultProject+"” not found; using "+name))
	}
	return cmd
}

// firstAccount is the account of the first project that names one.
func firstAccount(ms []member) string {
	for _, m := range ms {
		if m.AccountID != "" {
			return m.AccountID
		}
	}
	return ""
}

func (l *List) byName(name string) (member, bool) {
	for _, p := range l.Items() {
		if p.ProjectName == name {
			return p, true
		}
	}
	return member{}, false
}

func pickDefault(ms []member, preferred string) string {
	for _, p := range ms {
		if preferred != "" && p.ProjectName == preferred {
			return preferred
		}
	}
	for _, p := range ms {
		if p.Role == models.RoleAdmin {
			return p.ProjectName
		}
	}
	if len(ms) > 0 {
		return ms[0].ProjectName
	}
	return ""
}

func (l *List) row(p member) components.Row {
	cur := " "
	if p.ProjectName == l.Ctx.Project() {
		cur = "●"
	}
	role := string(p.Role)
	if role == "" {
		role = "—"
	}
	bg := p.BillingGroupName
	if bg == "" {
		bg = p.BillingGroupID
	}
	// The table copies a row's cells as it is made: one slice serves every row (a slice
	// per row was 10 MB of garbage at every refresh of 80,000 projects, at its peak).
	l.cells = append(l.cells[:0], cur, p.ProjectName, role, dash(p.DefaultCloud), dash(bg),
		p.EstimatedBalance.FormatNumber(), creditsCell(creditFields(p.ProjectSummary), p.CreditsCurrency), dash(p.BillingCurrency))
	return components.Row{Cells: l.cells}
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

// creditFields is the part of a project the credits column reads.
func creditFields(p *models.ProjectSummary) models.Project {
	return models.Project{AccountID: p.AccountID, BillingCurrency: p.BillingCurrency, AvailableCredits: p.AvailableCredits}
}

// creditsCurrencies says, per account, in which currency its projects' credits are:
// the platform reports a currency only on the account's credits. A project whose
// available_credits is the account's figure carries it unconverted, in that currency; a
// different figure is the platform's conversion into the project's billing currency.
// An account whose credits cannot be read is left out ("?"), never guessed.
func creditsCurrencies(ctx context.Context, api common.API, accounts []string) map[string]models.Credits {
	out := make(map[string]models.Credits, len(accounts))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, acc := range accounts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if c, err := api.GetCredits(ctx, acc); err == nil && c.Currency != "" {
				mu.Lock()
				out[acc] = c
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out
}

// creditsCurrency is the currency of a project's available_credits ("" unknown).
func creditsCurrency(p models.Project, accounts map[string]models.Credits) string {
	cr, ok := accounts[p.AccountID]
	switch {
	case !ok:
		return ""
	case cr.Currency == p.BillingCurrency || p.AvailableCredits.Cmp(cr.AvailableCredits) == 0:
		return cr.Currency
	}
	return p.BillingCurrency
}

// creditsCell is the credits column: the number alone when it is in the row's currency
// (the Cur column), else with its own currency, or "?" when that is unknown. It is never
// converted: the platform gives no rate.
func creditsCell(p models.Project, currency string) string {
	n := p.AvailableCredits.FormatNumber()
	switch {
	case n == "" || n == "—":
		return n
	case currency == "":
		return n + " ?"
	case currency != p.BillingCurrency:
		return n + " " + currency
	}
	return n
}

// creditsText is the detail's line: always with the currency the platform reports.
func creditsText(p models.Project, currency string) string {
	if currency == "" {
		return p.AvailableCredits.FormatNumber() + " (the account's credits could not be read, so their currency is unknown)"
	}
	s := p.AvailableCredits.Format(currency)
	if currency != p.BillingCurrency && p.BillingCurrency != "" {
		s += " (the account's credits, in " + currency + "; the project is billed in " + p.BillingCurrency + " and no rate is given, so it is not converted)"
	}
	return s
}
