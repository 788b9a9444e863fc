// Package billing is the Billing pane (issue 4): billing groups of the current account
// with their detail, create/edit forms and project assignment; a group's invoices with
// state filter, copy/open/download of the PDF and a chart of monthly totals; cost
// estimates per project and for all projects; and the account's credits.
package billing

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// Pane keys. They avoid every default binding of ctx.Keys (c e d R x y u a s S g G j k q).
var (
	keyInvoices  = key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "invoices"))
	keyEstimates = key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "estimates"))
	keyCredits   = key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "credits"))
	keyAssign    = key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "assign a project"))
	keyOpen      = key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open PDF"))
	keyDownload  = key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "download PDF"))
	keyState     = key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "cycle state filter"))
	keyChart     = key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "totals per month"))
)

// errNoAccount is returned when no account id is known yet (no project visible).
var errNoAccount = errors.New("no account is known yet: you are not a member of any project")

// accountFor picks the account whose billing is shown: the current project's, else the
// first one known. It reads ctx on the UI goroutine.
func accountFor(ctx *common.Context) string {
	if ctx.AccountID != "" {
		return ctx.AccountID
	}
	if a := ctx.Accounts[ctx.Project]; a != "" {
		return a
	}
	for _, n := range ctx.ProjectNames {
		if a := ctx.Accounts[n]; a != "" {
			return a
		}
	}
	return ""
}

// resolveAccount returns account, or asks the platform when the UI has not loaded the
// project list yet (billing opened first from the palette). Runs off the UI goroutine.
func resolveAccount(ctx context.Context, api common.API, account, project string) (string, error) {
	if account != "" {
		return account, nil
	}
	list, err := api.ListProjects(ctx)
	if err != nil {
		return "", err
	}
	for _, p := range list.Projects {
		if p.ProjectName == project && p.AccountID != "" {
			return p.AccountID, nil
		}
	}
	for _, p := range list.Projects {
		if p.AccountID != "" {
			return p.AccountID, nil
		}
	}
	return "", errNoAccount
}

// errorText explains a failed billing read: a 403 says which role cannot see billing
// and whom to ask, instead of the raw refusal.
func errorText(ctx *common.Context, err error) string {
	if ctx.Forbidden(err) {
		return forbiddenText(ctx)
	}
	if errors.Is(err, errNoAccount) {
		return "No account is known yet: you are not a member of any project."
	}
	return ctx.ErrorText(err)
}

func forbiddenText(ctx *common.Context) string {
	role := string(ctx.Role)
	switch {
	case ctx.Project != "" && role != "":
		return fmt.Sprintf("Your role in %s (%s) cannot see billing; ask an admin", ctx.Project, role)
	case ctx.Project != "":
		return fmt.Sprintf("Your role in %s cannot see billing; ask an admin", ctx.Project)
	}
	return "Your role cannot see billing; ask an admin"
}

// invoiceBadge renders an invoice state as glyph + word. Unpaid stands out (it needs
// action); any state the spec does not list is shown as it comes.
func invoiceBadge(ctx *common.Context, s models.InvoiceState) string {
	st := ctx.Styles
	switch s {
	case models.InvoiceUnpaid:
		return st.Danger.Bold(true).Render("▲ unpaid")
	case models.InvoicePaid:
		return st.OK.Render("✓ paid")
	case models.InvoiceVoid:
		return st.Muted.Render("⊘ void")
	case models.InvoiceUncollectible:
		return st.Warn.Render("✗ uncollectible")
	case "":
		return st.Muted.Render("? unknown")
	}
	return st.Info.Render("◆ " + safe.Text(string(s)))
}

// alignAmounts formats amounts so that, right-aligned in a column, their decimal points
// line up: shorter fractions are padded with spaces (never rounded, never zero-filled).
func alignAmounts(amounts []models.Amount) []string {
	out := make([]string, len(amounts))
	maxFrac := 0
	for i, a := range amounts {
		out[i] = a.FormatNumber()
		maxFrac = max(maxFrac, fracLen(out[i]))
	}
	for i, s := range out {
		if n := fracLen(s); n < maxFrac {
			pad := maxFrac - n
			if !strings.Contains(s, ".") {
				pad++ // room for the missing point ("—")
			}
			out[i] = s + strings.Repeat(" ", pad)
		}
	}
	return out
}

// fracLen is the number of characters after the decimal point (0 without one).
func fracLen(s string) int {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// amountFloat is for drawing bars only (a ratio on screen); money is never computed in floats.
func amountFloat(a models.Amount) float64 {
	f, _ := a.Value.Float64()
	return f
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}
