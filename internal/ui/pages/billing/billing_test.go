package billing

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/uitest"
)

func amounts(ss ...string) []models.Amount {
	out := make([]models.Amount, len(ss))
	for i, s := range ss {
		out[i] = models.MustAmount(s)
	}
	return out
}

func TestAlignAmountsLinesUpDecimalPoints(t *testing.T) {
	in := append(amounts("0.0415", "12.5", "1234.50", "1000000"), models.Amount{})
	got := alignAmounts(in)
	want := []string{"0.0415", "12.50  ", "1,234.50  ", "1,000,000.00  ", "—     "}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("row %d: got %q, want %q (all: %q)", i, got[i], want[i], got)
		}
	}
	// Right-aligned, every point sits in the same column counted from the right.
	for _, s := range got[:4] {
		if fromRight := len(s) - strings.IndexByte(s, '.'); fromRight != 5 {
			t.Fatalf("%q: point %d from the right", s, fromRight)
		}
	}
}

func TestInvoiceRowsMoneyAlignedAndNeverRounded(t *testing.T) {
	ctx := common.NewContext()
	invs := []models.Invoice{
		{InvoiceNumber: "A", State: models.InvoicePaid, Currency: "EUR", TotalIncVAT: models.MustAmount("3996.17"), TotalVATZero: models.MustAmount("3184.2")},
		{InvoiceNumber: "B", State: models.InvoicePaid, Currency: "EUR", TotalIncVAT: models.MustAmount("0.005"), TotalVATZero: models.MustAmount("0.004")},
	}
	items := invoiceItems(invs) // newest first: same period, so by number, B first
	rows := []components.Row{invoiceRow(ctx, items[1]), invoiceRow(ctx, items[0])}
	if rows[0].Cells[colIncVAT] != "3,996.17 " || rows[1].Cells[colIncVAT] != "0.005" {
		t.Fatalf("incl. VAT cells: %q %q", rows[0].Cells[colIncVAT], rows[1].Cells[colIncVAT])
	}
	if rows[0].Cells[colExVAT] != "3,184.20 " || rows[1].Cells[colExVAT] != "0.004" {
		t.Fatalf("excl. VAT cells: %q %q", rows[0].Cells[colExVAT], rows[1].Cells[colExVAT])
	}
	if rows[0].Cells[colCurrency] != "EUR" {
		t.Fatalf("currency: %q", rows[0].Cells[colCurrency])
	}
}

func TestAllProjectsTotalsPerCurrencyExactly(t *testing.T) {
	ctx := common.NewContext()
	a := NewAllEstimates(ctx)
	a.SetSize(100, 20)
	a.SetItems(balances([]projectBalance{
		{Project: "p1", Balance: models.Money{Amount: models.MustAmount("0.1"), Currency: "EUR"}},
		{Project: "p2", Balance: models.Money{Amount: models.MustAmount("0.2"), Currency: "EUR"}},
		{Project: "p3", Balance: models.Money{Amount: models.MustAmount("980.42"), Currency: "USD"}},
		{Project: "p4", Err: errors.New("boom")},
	}))
	totals := a.totals()
	if len(totals) != 2 || totals[0].String() != "0.30 EUR" || totals[1].String() != "980.42 USD" {
		t.Fatalf("totals: %v", totals)
	}
	view := ansi.Strip(a.View())
	if !strings.Contains(view, "Total EUR") || !strings.Contains(view, "0.30 EUR") || !strings.Contains(view, "980.42 USD") {
		t.Fatalf("view:\n%s", view)
	}
	if strings.Contains(view, "980.72") {
		t.Fatal("currencies were added together")
	}
}

func TestStateFilterCyclesKnownThenUnknownStates(t *testing.T) {
	invs := []models.Invoice{{State: "refunded"}, {State: models.InvoicePaid}, {State: "disputed"}}
	var got []string
	s := models.InvoiceState("")
	for range 8 {
		s = nextState(s, invs)
		got = append(got, string(s))
	}
	want := "unpaid,paid,void,uncollectible,disputed,refunded,,unpaid"
	if strings.Join(got, ",") != want {
		t.Fatalf("cycle: %s", strings.Join(got, ","))
	}
	ctx := common.NewContext()
	rows := byState(invoiceItems(append(invs, models.Invoice{InvoiceNumber: "X", State: models.InvoicePaid})), models.InvoicePaid)
	if len(rows) != 2 {
		t.Fatalf("paid filter: %d rows", len(rows))
	}
	if b := ansi.Strip(invoiceBadge(ctx, "refunded")); b != "◆ refunded" {
		t.Fatalf("unknown state badge: %q", b)
	}
	if b := ansi.Strip(invoiceBadge(ctx, models.InvoiceUnpaid)); b != "▲ unpaid" {
		t.Fatalf("unpaid badge: %q", b)
	}
}

func TestInvoicesViewFilterKeyAndPeriods(t *testing.T) {
	ctx := common.NewContext()
	ctx.ScreenWidth = 120
	v := NewInvoices(ctx, models.BillingGroup{BillingGroupName: "G"})
	v.SetSize(120, 20)
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	v.loaded(invoiceItems([]models.Invoice{
		{InvoiceNumber: "INV-1", PeriodBegin: d(2026, 1, 1), PeriodEnd: d(2026, 2, 1), State: models.InvoicePaid, Currency: "EUR", TotalIncVAT: models.MustAmount("10")},
		{InvoiceNumber: "INV-3", PeriodBegin: d(2026, 3, 3), PeriodEnd: d(2026, 3, 17), State: models.InvoiceUnpaid, Currency: "EUR", TotalIncVAT: models.MustAmount("30")},
		{InvoiceNumber: "INV-2", PeriodBegin: d(2026, 2, 1), PeriodEnd: d(2026, 2, 28), State: models.InvoicePaid, Currency: "EUR", TotalIncVAT: models.MustAmount("20")},
	}))
	view := ansi.Strip(v.View())
	i3, i2, i1 := strings.Index(view, "INV-3"), strings.Index(view, "INV-2"), strings.Index(view, "INV-1")
	if i3 < 0 || i3 > i2 || i2 > i1 {
		t.Fatalf("not newest first:\n%s", view)
	}
	for _, p := range []string{"Jan 2026", "Feb 2026", "3 Mar – 17 Mar 2026"} {
		if !strings.Contains(view, p) {
			t.Fatalf("period %q missing:\n%s", p, view)
		}
	}
	v.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")}) // unpaid
	view = ansi.Strip(v.View())
	if !strings.Contains(view, "INV-3") || strings.Contains(view, "INV-1") {
		t.Fatalf("unpaid filter:\n%s", view)
	}
	if !strings.Contains(v.Title(), "(unpaid)") {
		t.Fatalf("title: %q", v.Title())
	}
	v.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")}) // paid
	v.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")}) // void: none
	if view = ansi.Strip(v.View()); !strings.Contains(view, "No void invoices") {
		t.Fatalf("empty filter:\n%s", view)
	}
	if !v.ClaimsKey(tea.KeyMsg{Type: tea.KeyEsc}) {
		t.Fatal("esc should clear the state filter first")
	}
	v.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if view = ansi.Strip(v.View()); !strings.Contains(view, "INV-1") {
		t.Fatalf("esc did not clear the filter:\n%s", view)
	}
}

func TestMonthlyTotalsPerCurrencyWithoutVoid(t *testing.T) {
	d := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	got := monthlyTotals([]models.Invoice{
		{PeriodBegin: d, Currency: "EUR", State: models.InvoicePaid, TotalIncVAT: models.MustAmount("1.10")},
		{PeriodBegin: d, Currency: "EUR", State: models.InvoiceUnpaid, TotalIncVAT: models.MustAmount("2.20")},
		{PeriodBegin: d, Currency: "EUR", State: models.InvoiceVoid, TotalIncVAT: models.MustAmount("99")},
		{PeriodBegin: d, Currency: "USD", State: models.InvoicePaid, TotalIncVAT: models.MustAmount("5")},
		{PeriodBegin: d.AddDate(0, 1, 0), Currency: "EUR", State: models.InvoicePaid, TotalIncVAT: models.MustAmount("7")},
	})
	var s []string
	for _, m := range got {
		s = append(s, m.Month.Format("2006-01")+" "+m.Total.String())
	}
	if strings.Join(s, "; ") != "2026-04 7.00 EUR; 2026-03 3.30 EUR; 2026-03 5.00 USD" {
		t.Fatalf("totals: %s", strings.Join(s, "; "))
	}
}

func TestForbiddenExplainsRole(t *testing.T) {
	ctx := uitest.NewContext()
	uitest.Session(ctx).SetProject("acme-analytics")
	uitest.Roles(ctx, map[string]models.Role{"acme-analytics": models.RoleDeveloper})
	ctx.Platform.IsForbidden = func(error) bool { return true }
	if got := explainer(ctx)(errors.New("403")).Error(); got != "Your role in acme-analytics (developer) cannot see billing; ask an admin" {
		t.Fatalf("got %q", got)
	}
}

func TestCheckFolder(t *testing.T) {
	dir := t.TempDir()
	if p, err := checkFolder(dir); err != nil || p != dir {
		t.Fatal(p, err)
	}
	if _, err := checkFolder(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing: %v", err)
	}
	f := filepath.Join(dir, "file")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := checkFolder(f); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("file: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("probe file left behind: %v", entries)
	}
	if got := freePath(dir, "new.pdf"); got != filepath.Join(dir, "new.pdf") {
		t.Fatalf("free path: %s", got)
	}
	if got := freePath(dir, "file"); got != filepath.Join(dir, "file-2.pdf") {
		t.Fatalf("taken path: %s", got)
	}
	if fileName("../x/y") != "-x-y.pdf" {
		t.Fatalf("file name: %s", fileName("../x/y"))
	}
}

func BenchmarkInvoicesView5000(b *testing.B) {
	ctx := common.NewContext()
	ctx.ScreenWidth = 160
	v := NewInvoices(ctx, models.BillingGroup{BillingGroupName: "G"})
	v.SetSize(160, 46)
	invs := make([]models.Invoice, 5000)
	start := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	states := append(models.InvoiceStates, "refunded")
	for i := range invs {
		p := start.AddDate(0, i, 0)
		invs[i] = models.Invoice{InvoiceNumber: fmt.Sprintf("INV-%06d", i), PeriodBegin: p, PeriodEnd: p.AddDate(0, 1, 0),
			State: states[i%len(states)], Currency: "EUR", TotalIncVAT: models.MustAmount(fmt.Sprintf("%d.%02d", 1000+i*7, i%100)),
			TotalVATZero: models.MustAmount(fmt.Sprintf("%d.%02d", 800+i*5, i%100))}
	}
	v.loaded(invoiceItems(invs))
	if lines := strings.Count(v.View(), "\n") + 1; lines > 46 {
		b.Fatalf("view has %d lines for a height of 46", lines)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_ = v.View()
	}
}
