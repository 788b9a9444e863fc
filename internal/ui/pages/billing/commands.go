package billing

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
)

// Commands are the pane's palette commands. :invoices and :estimate use the current
// billing group, else the current project's group; only without either do they ask
// the user to pick a group.
func Commands() []common.Command {
	return []common.Command{
		{Name: "billing", Help: "billing groups of the account", Run: func(*common.Context, string) tea.Cmd {
			return common.Send(common.SwitchTab{Tab: common.TabBilling})
		}},
		{Name: "invoices", Help: "invoices of the current billing group (else the current project's)", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return inGroup(ctx, "invoices", func(b models.BillingGroup) common.View { return NewInvoices(ctx, b) })
		}},
		{Name: "estimate", Help: "cost estimate of the current billing group (else the current project's)", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return inGroup(ctx, "estimate", func(b models.BillingGroup) common.View {
				return NewGroupEstimates(ctx, b.BillingGroupID, b.BillingGroupName)
			})
		}},
		{Name: "credits", Help: "credits of the account", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return tea.Sequence(common.Send(common.SwitchTab{Tab: common.TabBilling}), push(NewCredits(ctx)))
		}},
	}
}

// inGroup shows, in the Billing tab, the view of the current billing group; without one
// it reads the current project's group (in a command) and makes it current.
func inGroup(ctx *common.Context, what string, view func(models.BillingGroup) common.View) tea.Cmd {
	if ctx.BillingGroupID != "" {
		b := models.BillingGroup{BillingGroupID: ctx.BillingGroupID, BillingGroupName: ctx.BillingGroupName}
		return tea.Sequence(common.Send(common.SwitchTab{Tab: common.TabBilling}), push(view(b)))
	}
	project, pick := ctx.Project, "pick a group and press "+keyOf(ctx, what)
	if project == "" {
		return tea.Sequence(common.Send(common.SwitchTab{Tab: common.TabBilling}), common.Warn("No current billing group or project: "+pick))
	}
	api, errorText := ctx.API, ctx.ErrorText
	// The view is built in the command once the group is known; constructors read only
	// ctx.Keys, which is set once at start.
	return tea.Batch(common.Info("Finding the billing group of "+project+"…"), func() tea.Msg {
		c, cancel := context.WithTimeout(context.Background(), common.RequestTimeout)
		defer cancel()
		p, err := api.GetProject(c, project)
		switch {
		case err != nil:
			return common.Notify{Level: theme.LevelError, Text: "Could not read the billing group of " + project + ": " + errorText(err)}
		case p.BillingGroupID == "":
			return tea.Sequence(common.Send(common.SwitchTab{Tab: common.TabBilling}),
				common.Warn(project+" has no billing group: "+pick))()
		}
		b := models.BillingGroup{BillingGroupID: p.BillingGroupID, BillingGroupName: p.BillingGroupName}
		// The footer's "Finding…" is cleared: the view itself says what it shows.
		return tea.Sequence(common.Info(""), common.Send(common.SelectBillingGroup{ID: b.BillingGroupID, Name: b.BillingGroupName}),
			common.Send(common.SwitchTab{Tab: common.TabBilling}), push(view(b)))()
	})
}

// keyOf is the key that opens what from a group.
func keyOf(ctx *common.Context, what string) string {
	if what == "invoices" {
		return ctx.Keys.Invoices.Help().Key
	}
	return ctx.Keys.Estimates.Help().Key
}
