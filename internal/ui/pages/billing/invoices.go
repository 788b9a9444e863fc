package billing

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/open"
	"github.com/svcui/svcui/internal/ui/theme"
)

// invoice is a row: the invoice and its totals formatted so that, right-aligned, the
// decimal points of every invoice of the group line up.
type invoice struct {
	models.Invoice
	inc, ex string
}

// Invoices is the invoices table of one billing group: newest first, filterable by
// state and by text (/); the PDF can be copied as a link, opened and downloaded.
type Invoices struct {
	*base.List[invoice]
	group models.BillingGroup
	all   []invoice           // newest first, every state
	state models.InvoiceState // "" = every state
	dl    *download
	w, h  int
}

const (
	colNumber = iota
	colPeriod
	colState
	colIncVAT
	colExVAT
	colCurrency
)

// NewInvoices builds the invoices view of a group (its id and name are enough).
func NewInvoices(ctx *common.Context, b models.BillingGroup) *Invoices {
	v := &Invoices{group: b}
	k := ctx.Keys
	v.List = base.NewList(ctx, base.ListSpec[invoice]{
		Title: "Invoices of " + dash(b.BillingGroupName),
		Noun:  "invoice",
		Columns: []components.Column{
			{Title: "Number", Max: 24},
			{Title: "Period", Max: 26, Flex: true},
			// Wide enough for every documented state word: a badge is never cut.
			{Title: "State", Width: 15, Max: 24, Styled: true},
			{Title: "Total incl. VAT", Right: true, Numeric: true, Max: 18},
			// Shown from 120 columns; at 80 the total incl. VAT and the currency stay.
			{Title: "Total excl. VAT", Right: true, Numeric: true, Max: 18, Optional: true},
			{Title: "Currency", Max: 8},
		},
		Empty: "No invoices for this billing group yet.",
		Load: func() (base.Fetcher[invoice], string) {
			api, id, explain := ctx.API, b.BillingGroupID, explainer(ctx)
			return func(c context.Context) ([]invoice, error) {
				invs, err := api.ListInvoices(c, id)
				return invoiceItems(invs), explain(err)
			}, ""
		},
		Key:    func(i invoice) string { return i.InvoiceNumber },
		Row:    func(i invoice) components.Row { return invoiceRow(ctx, i) },
		Loaded: v.loaded,
		Actions: []base.Action[invoice]{
			{Key: k.Open, Help: "compare with the previous", Run: func(i invoice) tea.Cmd {
				return ctx.Push(NewCompare(ctx, v.group, i.Invoice, v.invoices()))
			}},
			{Key: k.StateFilter, NoSelection: true, Run: func(invoice) tea.Cmd { return v.nextState() }},
			{Key: k.Copy, Help: "copy the PDF link", Run: v.copyLink},
			{Key: k.Launch, Help: "open PDF", Run: v.open},
			{Key: k.Download, Run: v.askFolder},
			{Key: k.Chart, NoSelection: true, Run: func(invoice) tea.Cmd {
				return ctx.Push(NewChart(ctx, v.group, v.invoices()))
			}},
		},
	})
	return v
}

// Title says the state filter too.
func (v *Invoices) Title() string {
	t := v.List.Title()
	if v.state != "" {
		t += " (" + string(v.state) + ")"
	}
	return t
}

func (v *Invoices) SetSize(w, h int) {
	v.w, v.h = w, h
	status := 0
	if v.dl != nil {
		status = 1
	}
	v.List.SetSize(w, h-status)
}

// ClaimsKey takes esc while a text or state filter is applied (esc clears it first).
func (v *Invoices) ClaimsKey(msg tea.KeyMsg) bool {
	return v.List.ClaimsKey(msg) || key.Matches(msg, v.Ctx.Keys.Back) && v.state != ""
}

func (v *Invoices) Leave() {
	v.List.Leave()
	if v.dl != nil {
		v.dl.cancel()
	}
}

func (v *Invoices) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case downloadTick, common.Result[downloaded], common.Result[folderProposal], startDownload:
		return v, v.handleDownload(msg)
	case opened:
		return v, msg.notify()
	case tea.KeyMsg:
		if key.Matches(msg, v.Ctx.Keys.Back) && !v.Table.Filtering() && v.Table.FilterText() == "" && v.state != "" {
			v.state = ""
			v.show()
			return v, common.Info("Showing invoices in every state")
		}
	}
	return v, v.Handle(msg)
}

// loaded keeps every invoice and shows those of the state filter.
func (v *Invoices) loaded(items []invoice) tea.Cmd {
	v.all = items
	v.show()
	return nil
}

func (v *Invoices) invoices() []models.Invoice {
	out := make([]models.Invoice, len(v.all))
	for i, inv := range v.all {
		out[i] = inv.Invoice
	}
	return out
}

func (v *Invoices) nextState() tea.Cmd {
	v.state = nextState(v.state, v.invoices())
	v.show()
	if v.state == "" {
		return common.Info("Showing invoices in every state")
	}
	return common.Info("Showing " + string(v.state) + " invoices (" + v.Ctx.Keys.StateFilter.Help().Key + ": next state)")
}

func (v *Invoices) show() {
	v.Table.Empty = v.Spec.Empty
	if v.state != "" {
		v.Table.Empty = "No " + string(v.state) + " invoices. Press " + v.Ctx.Keys.StateFilter.Help().Key + " for the next state, esc for all."
	}
	v.SetItems(byState(v.all, v.state))
}

func byState(all []invoice, state models.InvoiceState) []invoice {
	if state == "" {
		return all
	}
	out := make([]invoice, 0, len(all))
	for _, inv := range all {
		if inv.State == state {
			out = append(out, inv)
		}
	}
	return out
}

func (v *Invoices) copyLink(inv invoice) tea.Cmd {
	if inv.DownloadURL == "" {
		return common.Warn("Invoice " + inv.InvoiceNumber + " has no download link")
	}
	return common.Send(common.CopyRequest{Label: "download link of invoice " + inv.InvoiceNumber, Value: inv.DownloadURL})
}

// opened is the opener's answer for an invoice.
type opened struct {
	number string
	err    error
}

func (o opened) notify() tea.Cmd {
	if o.err != nil {
		return common.Send(common.Notify{Level: theme.LevelWarn,
			Text: "Not opened: " + o.err.Error() + "; y copies the link of " + o.number})
	}
	return common.Success("Opened invoice " + o.number + " with the desktop's PDF viewer")
}

// open hands the PDF link to the desktop's opener. The link is never shown: it is a
// capability.
func (v *Invoices) open(inv invoice) tea.Cmd {
	if inv.DownloadURL == "" {
		return common.Warn("Invoice " + inv.InvoiceNumber + " has no download link")
	}
	number := inv.InvoiceNumber
	return open.Cmd(inv.DownloadURL, func(err error) tea.Msg { return opened{number, err} })
}

// nextState cycles every documented state, then any other state the invoices carry,
// then back to all.
func nextState(cur models.InvoiceState, invs []models.Invoice) models.InvoiceState {
	order := append([]models.InvoiceState{""}, models.InvoiceStates...)
	seen := map[models.InvoiceState]bool{}
	for _, s := range order {
		seen[s] = true
	}
	var extra []string
	for _, inv := range invs {
		if !seen[inv.State] {
			seen[inv.State] = true
			extra = append(extra, string(inv.State))
		}
	}
	sort.Strings(extra)
	for _, s := range extra {
		order = append(order, models.InvoiceState(s))
	}
	for i, s := range order {
		if s == cur {
			return order[(i+1)%len(order)]
		}
	}
	return ""
}

// newestFirst sorts a copy by period start, newest first (then by number, stable).
func newestFirst(invs []models.Invoice) []models.Invoice {
	out := append([]models.Invoice(nil), invs...)
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].PeriodBegin.Equal(out[j].PeriodBegin) {
			return out[i].PeriodBegin.After(out[j].PeriodBegin)
		}
		return out[i].InvoiceNumber > out[j].InvoiceNumber
	})
	return out
}

// invoiceItems sorts newest first and formats the money, aligned on the point.
func invoiceItems(invs []models.Invoice) []invoice {
	sorted := newestFirst(invs)
	inc := make([]models.Amount, len(sorted))
	ex := make([]models.Amount, len(sorted))
	for i, inv := range sorted {
		inc[i], ex[i] = inv.TotalIncVAT, inv.TotalVATZero
	}
	incS, exS := alignAmounts(inc), alignAmounts(ex)
	out := make([]invoice, len(sorted))
	for i, inv := range sorted {
		out[i] = invoice{Invoice: inv, inc: incS[i], ex: exS[i]}
	}
	return out
}

func invoiceRow(ctx *common.Context, inv invoice) components.Row {
	period := ""
	if !inv.PeriodBegin.IsZero() {
		period = inv.PeriodBegin.UTC().Format(time.RFC3339)
	}
	return components.Row{
		Cells: []string{dash(inv.InvoiceNumber), inv.Period(), invoiceBadge(ctx, inv.State), inv.inc, inv.ex, dash(inv.Currency)},
		Sort:  []string{inv.InvoiceNumber, period, string(inv.State), inv.TotalIncVAT.String(), inv.TotalVATZero.String(), inv.Currency},
	}
}

func (v *Invoices) View() string {
	out := v.List.View()
	if v.dl != nil {
		out = strings.TrimRight(out, "\n") + "\n" + v.dl.line(v.Ctx, v.w)
	}
	return out
}
