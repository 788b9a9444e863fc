package billing

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// Commands are the pane's palette commands.
func Commands() []common.Command {
	return []common.Command{
		{Name: "billing", Help: "billing groups of the account", Run: func(*common.Context, string) tea.Cmd {
			return common.Send(common.SwitchTab{Tab: 4})
		}},
		{Name: "invoices", Help: "invoices of the selected billing group", Run: func(*common.Context, string) tea.Cmd {
			return tea.Sequence(common.Send(common.SwitchTab{Tab: 4}), common.Send(openSub{what: "invoices"}))
		}},
		{Name: "estimate", Help: "cost estimate of the current project", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return tea.Sequence(common.Send(common.SwitchTab{Tab: 4}), common.Send(common.PushView{View: NewEstimates(ctx, ctx.Project)}))
		}},
		{Name: "credits", Help: "credits of the account", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return tea.Sequence(common.Send(common.SwitchTab{Tab: 4}), common.Send(common.PushView{View: NewCredits(ctx)}))
		}},
	}
}
