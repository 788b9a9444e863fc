package billing

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// Invoices is the invoices table of one billing group: newest first, filterable by
// state (f cycles) and by text (/), y copies the PDF link, o opens it, D downloads it.
type Invoices struct {
	ctx      *common.Context
	req      *common.Requests
	group    models.BillingGroup
	table    *components.Table
	all      []models.Invoice // newest first
	byNumber map[string]models.Invoice
	state    models.InvoiceState // "" = every state
	loaded   bool
	dl       *download
	w, h     int
}

const (
	colNumber = iota
	colPeriod
	colState
	colIncVAT
	colExVAT
	colCurrency
)

// NewInvoices builds the invoices view of a group.
func NewInvoices(ctx *common.Context, b models.BillingGroup) *Invoices {
	t := components.NewTable(ctx, []components.Column{
		{Title: "Number", Max: 24},
		{Title: "Period", Max: 26, Flex: true},
		// Wide enough for every documented state word: a badge is never cut.
		{Title: "State", Width: 15, Max: 24, Styled: true},
		{Title: "Total incl. VAT", Right: true, Numeric: true, Max: 18},
		// Shown from 120 columns; at 80 the total incl. VAT and the currency stay.
		{Title: "Total excl. VAT", Right: true, Numeric: true, Max: 18, Optional: true},
		{Title: "Currency", Max: 8},
	})
	t.Empty = "No invoices for this billing group yet."
	return &Invoices{ctx: ctx, req: common.NewRequests(), group: b, table: t, byNumber: map[string]models.Invoice{}}
}

func (v *Invoices) Init() tea.Cmd { return v.load() }

func (v *Invoices) load() tea.Cmd {
	api, id := v.ctx.API, v.group.BillingGroupID
	return common.Fetch(v.req, "invoices", func(ctx context.Context) ([]models.Invoice, error) {
		return api.ListInvoices(ctx, id)
	})
}

func (v *Invoices) Title() string {
	t := "Invoices of " + dash(v.group.BillingGroupName)
	if v.state != "" {
		t += " (" + string(v.state) + ")"
	}
	return t
}

func (v *Invoices) SetSize(w, h int) {
	v.w, v.h = w, h
	v.table.SetSize(w, h-v.statusLines())
}

func (v *Invoices) statusLines() int {
	if v.dl != nil {
		return 1
	}
	return 0
}

func (v *Invoices) Capturing() bool { return v.table.Filtering() }
func (v *Invoices) ID() int64       { return v.req.ID }

// ClaimsKey takes esc while a text or state filter is applied (esc clears it first).
func (v *Invoices) ClaimsKey(msg tea.KeyMsg) bool {
	return key.Matches(msg, v.ctx.Keys.Back) && (v.table.FilterText() != "" || v.state != "")
}

func (v *Invoices) RefreshInterval() time.Duration { return v.ctx.Refresh }
func (v *Invoices) Refresh() tea.Cmd               { return v.load() }
func (v *Invoices) Leave() {
	v.req.CancelAll()
	if v.dl != nil {
		v.dl.cancel()
	}
}

func (v *Invoices) ShortHelp() []key.Binding {
	k := v.ctx.Keys
	return []key.Binding{keyState, k.Copy, keyOpen, keyDownload, keyChart}
}

func (v *Invoices) FullHelp() [][]key.Binding {
	k := v.ctx.Keys
	copyLink := key.NewBinding(key.WithKeys(k.Copy.Keys()...), key.WithHelp(k.Copy.Help().Key, "copy the PDF link"))
	return [][]key.Binding{{keyState, copyLink, keyOpen, keyDownload, keyChart, k.Refresh}, v.table.HelpBindings()}
}

func (v *Invoices) selected() (models.Invoice, bool) {
	inv, ok := v.byNumber[v.table.SelectedKey()]
	return inv, ok
}

func (v *Invoices) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[[]models.Invoice]:
		if !v.req.Current(msg.Addr) {
			return v, nil
		}
		if msg.Err != nil {
			v.table.SetError(errorText(v.ctx, msg.Err))
			return v, common.Send(common.RefreshDone{Err: msg.Err})
		}
		v.setInvoices(msg.Value)
		return v, common.Send(common.RefreshDone{})
	case common.RefreshNow:
		return v, v.load()
	case downloadTick, common.Result[downloaded]:
		return v, v.handleDownload(msg)
	case tea.KeyMsg:
		return v, v.handleKey(msg)
	}
	_, cmd := v.table.Update(msg)
	return v, cmd
}

func (v *Invoices) handleKey(msg tea.KeyMsg) tea.Cmd {
	if v.table.Filtering() {
		_, cmd := v.table.Update(msg)
		return cmd
	}
	k := v.ctx.Keys
	switch {
	case key.Matches(msg, k.Back) && v.table.FilterText() == "" && v.state != "":
		v.state = ""
		v.render()
		return common.Info("Showing invoices in every state")
	case key.Matches(msg, keyState):
		v.state = nextState(v.state, v.all)
		v.render()
		if v.state == "" {
			return common.Info("Showing invoices in every state")
		}
		return common.Info("Showing " + string(v.state) + " invoices (f: next state)")
	case key.Matches(msg, keyChart):
		return common.Send(common.PushView{View: NewChart(v.ctx, v.group, v.all)})
	case key.Matches(msg, k.Copy):
		inv, ok := v.selected()
		if !ok {
			return common.Warn("No invoice selected")
		}
		if inv.DownloadURL == "" {
			return common.Warn("Invoice " + inv.InvoiceNumber + " has no download link")
		}
		return common.Send(common.CopyRequest{Label: "download link of invoice " + inv.InvoiceNumber, Value: inv.DownloadURL})
	case key.Matches(msg, keyOpen):
		inv, ok := v.selected()
		if !ok {
			return common.Warn("No invoice selected")
		}
		return openLink(inv)
	case key.Matches(msg, keyDownload):
		inv, ok := v.selected()
		if !ok {
			return common.Warn("No invoice selected")
		}
		if v.dl != nil {
			return common.Warn("A download is already running; wait for it to finish")
		}
		if inv.DownloadURL == "" {
			return common.Warn("Invoice " + inv.InvoiceNumber + " has no download link")
		}
		return common.Send(common.OpenModal{Modal: v.folderForm(inv)})
	}
	_, cmd := v.table.Update(msg)
	return cmd
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

func (v *Invoices) setInvoices(invs []models.Invoice) {
	v.loaded = true
	v.all = newestFirst(invs)
	v.byNumber = make(map[string]models.Invoice, len(v.all))
	for _, inv := range v.all {
		v.byNumber[inv.InvoiceNumber] = inv
	}
	v.render()
}

// invoiceRows builds the rows shown for a state filter, money aligned on the point.
func invoiceRows(ctx *common.Context, invs []models.Invoice, state models.InvoiceState) []components.Row {
	shown := invs
	if state != "" {
		shown = make([]models.Invoice, 0, len(invs))
		for _, inv := range invs {
			if inv.State == state {
				shown = append(shown, inv)
			}
		}
	}
	inc := make([]models.Amount, len(shown))
	ex := make([]models.Amount, len(shown))
	for i, inv := range shown {
		inc[i], ex[i] = inv.TotalIncVAT, inv.TotalVATZero
	}
	incS, exS := alignAmounts(inc), alignAmounts(ex)
	rows := make([]components.Row, len(shown))
	for i, inv := range shown {
		period := ""
		if !inv.PeriodBegin.IsZero() {
			period = inv.PeriodBegin.UTC().Format(time.RFC3339)
		}
		cells := []string{dash(inv.InvoiceNumber), inv.Period(), invoiceBadge(ctx, inv.State), incS[i], exS[i], dash(inv.Currency)}
		srt := []string{inv.InvoiceNumber, period, string(inv.State), inv.TotalIncVAT.String(), inv.TotalVATZero.String(), inv.Currency}
		rows[i] = components.Row{Key: inv.InvoiceNumber, Cells: cells, Sort: srt}
	}
	return rows
}

func (v *Invoices) render() {
	if v.state != "" {
		v.table.Empty = "No " + string(v.state) + " invoices. Press f for the next state, esc for all."
	} else {
		v.table.Empty = "No invoices for this billing group yet."
	}
	v.table.SetRows(invoiceRows(v.ctx, v.all, v.state))
}

func (v *Invoices) View() string {
	out := v.table.View()
	if v.dl != nil {
		out = strings.TrimRight(out, "\n") + "\n" + v.dl.line(v.ctx, v.w)
	}
	return out
}
