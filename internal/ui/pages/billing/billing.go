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

	"github.com/charmbracelet/lipgloss"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// errNoAccount is returned when no account id is known yet (no project visible).
//
//lint:ignore ST1005 it is shown to the person as it is, a sentence
var errNoAccount = errors.New("No account is known yet: you are not a member of any project.")

// accountFor picks the account whose billing is shown: the current project's, else the
// first one known. It reads ctx on the UI goroutine.
func accountFor(ctx *common.Context) string {
	if ctx.AccountID() != "" {
		return ctx.AccountID()
	}
	if a := ctx.AccountOf(ctx.Project()); a != "" {
		return a
	}
	for _, n := range ctx.ProjectNames {
		if a := ctx.AccountOf(n); a != "" {
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

// explainer says, for a fetcher, how a failed billing read is told: a 403 says which
// role cannot see billing and whom to ask, instead of the raw refusal. It reads ctx on
// the UI goroutine; the func it returns runs inside the command.
func explainer(ctx *common.Context) func(error) error {
	text, forbidden := forbiddenText(ctx), ctx.Platform.IsForbidden
	return func(err error) error {
		if err != nil && forbidden != nil && forbidden(err) {
			return errors.New(text)
		}
		return err
	}
}

func forbiddenText(ctx *common.Context) string {
	role := string(ctx.Role())
	switch {
	case ctx.Project() != "" && role != "":
		return fmt.Sprintf("Your role in %s (%s) cannot see billing; ask an admin", ctx.Project(), role)
	case ctx.Project() != "":
		return fmt.Sprintf("Your role in %s cannot see billing; ask an admin", ctx.Project())
	}
	return "Your role cannot see billing; ask an admin"
}

// invoiceState is an invoice state as glyph + word (plain text: the detail view shows
// it as a value), and the style that badges it in the table. Unpaid stands out (it
// needs action); any state the spec does not list is shown as it comes.
func invoiceState(ctx *common.Context, s models.InvoiceState) (string, lipgloss.Style) {
	st := ctx.Styles
	switch s {
	case models.InvoiceUnpaid:
		return "▲ unpaid", st.Danger.Bold(true)
	case models.InvoicePaid:
		return "✓ paid", st.OK
	case models.InvoiceVoid:
		return "⊘ void", st.Muted
	case models.InvoiceUncollectible:
		return "✗ uncollectible", st.Warn
	case "":
		return "? unknown", st.Muted
	}
	return "◆ " + safe.Text(string(s)), st.Info
}

// invoiceBadge is the state styled, for the table's Styled column.
func invoiceBadge(ctx *common.Context, s models.InvoiceState) string {
	text, style := invoiceState(ctx, s)
	return style.Render(text)
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
