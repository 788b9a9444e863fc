package services

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// Commands are the pane's palette commands.
func Commands() []common.Command {
	return []common.Command{
		{Name: "services", Help: "services of the current project", Run: func(*common.Context, string) tea.Cmd {
			return tea.Sequence(common.Send(common.SwitchTab{Tab: 2}), common.Send(showAll(false)))
		}},
		{Name: "services all", Help: "services of every project", Run: func(*common.Context, string) tea.Cmd {
			return tea.Sequence(common.Send(common.SwitchTab{Tab: 2}), common.Send(showAll(true)))
		}},
		{Name: "service", Arg: common.ServiceArg, Help: "open a service of the current project", Run: func(ctx *common.Context, name string) tea.Cmd {
			if names, ok := ctx.ServiceNames[ctx.Project]; ok {
				known := false
				for _, n := range names {
					known = known || n == name
				}
				if !known {
					return common.Warn("No service named “" + name + "” in " + ctx.Project)
				}
			}
			return common.Send(common.OpenService{Project: ctx.Project, Service: name})
		}},
	}
}
