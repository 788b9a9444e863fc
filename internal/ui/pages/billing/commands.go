package billing

import (
	"context"
	"strings"

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
		{Name: "billing", Help: "billing groups of the account", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return ctx.Go(common.SwitchTab{Tab: common.TabBilling})
		}},
		{Name: "invoices", Help: "invoices of the current billing group (else the current project's)", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return inGroup(ctx, "invoices", func(b models.BillingGroup) common.View { return NewInvoices(ctx, b) })
		}},
		{Name: "estimate", Help: "cost estimate of the current billing group, else of the current project with its services", Run: func(ctx *common.Context, _ string) tea.Cmd {
			// The most specific and most recent place wins: choosing a project clears the
			// billing group, so a group still current was chosen after the project.
			if ctx.BillingGroupID() == "" && ctx.Project() != "" {
				return ctx.Go(common.SwitchTab{Tab: common.TabBilling}, common.PushView{View: NewEstimates(ctx, ctx.Project())})
			}
			return inGroup(ctx, "estimate", func(b models.BillingGroup) common.View {
				return NewGroupEstimates(ctx, b.BillingGroupID, b.BillingGroupName)
			})
		}},
		{Name: "billing group", Arg: common.BillingGroupArg, Help: "make a billing group current and show it", Run: openNamedGroup},
		{Name: "credits", Help: "credits of the account", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return ctx.Go(common.SwitchTab{Tab: common.TabBilling}, common.PushView{View: NewCredits(ctx)})
		}},
	}
}

// inGroup shows, in the Billing tab, the view of the current billing group; without one
// it reads the current project's group (in a command) and makes it current.
func inGroup(ctx *common.Context, what string, view func(models.BillingGroup) common.View) tea.Cmd {
	if ctx.BillingGroupID() != "" {
		b := models.BillingGroup{BillingGroupID: ctx.BillingGroupID(), BillingGroupName: ctx.BillingGroupName()}
		return ctx.Go(common.SwitchTab{Tab: common.TabBilling}, common.PushView{View: view(b)})
	}
	project, pick := ctx.Project(), "pick a group and press "+keyOf(ctx, what)
	if project == "" {
		return tea.Sequence(ctx.Go(common.SwitchTab{Tab: common.TabBilling}), common.Warn("No current billing group or project: "+pick))
	}
	api, errorText := ctx.API, ctx.ErrorText
	// The view is built in the command once the group is known; constructors read only
	// ctx.Keys, which is set once at start.
	return common.Working("Finding the billing group of "+project+"…", func() tea.Msg {
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
		return tea.Sequence(common.Info(""), common.Moves(common.SelectBillingGroup{ID: b.BillingGroupID, Name: b.BillingGroupName},
			common.SwitchTab{Tab: common.TabBilling}, common.PushView{View: view(b)}))()
	})
}

// keyOf is the key that opens what from a group.
func keyOf(ctx *common.Context, what string) string {
	if what == "invoices" {
		return ctx.Keys.Invoices.Help().Key
	}
	return ctx.Keys.Estimates.Help().Key
}

// openNamedGroup makes the group a palette line names current and shows it: its exact
// name, else the one group whose name begins so (any case). Without the groups listed
// yet, the account's groups are read first.
func openNamedGroup(ctx *common.Context, name string) tea.Cmd {
	show := func(id, gname string) []common.Move {
		b := models.BillingGroup{BillingGroupID: id, BillingGroupName: gname}
		return []common.Move{common.SelectBillingGroup{ID: id, Name: gname},
			common.SwitchTab{Tab: common.TabBilling}, common.PushView{View: NewGroupDetail(ctx, b)}}
	}
	if id, gname, ok := findGroup(ctx.BillingGroups, name); ok {
		return ctx.Go(show(id, gname)...)
	}
	api, account, project := ctx.API, accountFor(ctx), ctx.Project()
	return func() tea.Msg {
		c, cancel := context.WithTimeout(context.Background(), common.RequestTimeout)
		defer cancel()
		acc, err := resolveAccount(c, api, account, project)
		if err != nil {
			return common.Notify{Level: theme.LevelError, Text: "No billing group named “" + name + "” is known, and the account could not be read: " + err.Error()}
		}
		groups, err := api.ListBillingGroups(c, acc)
		if err != nil {
			return common.Notify{Level: theme.LevelError, Text: "Could not list the billing groups: " + err.Error()}
		}
		names := make(map[string]string, len(groups))
		for _, b := range groups {
			names[b.BillingGroupID] = b.BillingGroupName
		}
		if id, gname, ok := findGroup(names, name); ok {
			return common.Moves(show(id, gname)...)()
		}
		return common.Notify{Level: theme.LevelWarn, Text: "No billing group named “" + name + "”"}
	}
}

func findGroup(byID map[string]string, name string) (id, gname string, ok bool) {
	var prefix [][2]string
	for id, n := range byID {
		if strings.EqualFold(n, name) {
			return id, n, true
		}
		if strings.HasPrefix(strings.ToLower(n), strings.ToLower(name)) {
			prefix = append(prefix, [2]string{id, n})
		}
	}
	if len(prefix) == 1 {
		return prefix[0][0], prefix[0][1], true
	}
	return "", "", false
}
