package components

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// Placeholder is what a view shows before its first load succeeds: the load's
// error with how to recover, or else the loading sentence.
func Placeholder(ctx *common.Context, errText, loading string) string {
	if errText != "" {
		return ctx.Styles.Danger.Render("  ✗ "+safe.Text(errText)) + "\n" + ctx.Styles.Muted.Render("  Press ctrl+r to retry, esc to go back.")
	}
	return ctx.Styles.Muted.Render("  " + safe.Text(loading))
}

// ViewWithError renders the detail and, when a refresh failed, keeps the error
// on the bottom line: the data stays visible and the height is never exceeded.
func (d *Detail) ViewWithError(errText string) string {
	out := d.View()
	if errText == "" || d.height <= 1 {
		return out
	}
	lines := strings.Split(out, "\n")
	if len(lines) >= d.height {
		lines = lines[:d.height-1]
	}
	return strings.Join(append(lines, d.ctx.Styles.Danger.Render(ansi.Truncate("✗ "+safe.Text(errText), d.width, "…"))), "\n")
}
