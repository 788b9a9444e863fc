package services

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// Commands are the pane's palette commands.
func Commands() []common.Command {
	return []common.Command{
		{Name: "services", Help: "services of the current project", Run: func(*common.Context, string) tea.Cmd {
			return tea.Sequence(common.Send(common.SwitchTab{Tab: common.TabServices}), common.Send(showAll(false)))
		}},
		{Name: "services all", Help: "services of every project", Run: func(*common.Context, string) tea.Cmd {
			return tea.Sequence(common.Send(common.SwitchTab{Tab: common.TabServices}), common.Send(showAll(true)))
		}},
		{Name: "service", Arg: common.ServiceArg, Help: "open a service of the current project", Run: func(ctx *common.Context, name string) tea.Cmd {
			if cmd := unknownService(ctx, name); cmd != nil {
				return cmd
			}
			return common.Send(common.OpenService{Project: ctx.Project, Service: name})
		}},
		{Name: "connect", Arg: common.ServiceArg, OptionalArg: true, Help: "open a service in its own client (the current service when none is named)",
			Run: func(ctx *common.Context, name string) tea.Cmd {
				if name == "" {
					name = ctx.Service
				}
				if name == "" {
					return common.Warn("No current service: open one in tab 2, or type :connect NAME")
				}
				if cmd := unknownService(ctx, name); cmd != nil {
					return cmd
				}
				return newConnector(ctx, ctx.Project, name).cmd()
			}},
	}
}

// unknownService says so when the current project's services are known and name is
// not one of them.
func unknownService(ctx *common.Context, name string) tea.Cmd {
	names, ok := ctx.ServiceNames[ctx.Project]
	if !ok {
		return nil
	}
	for _, n := range names {
		if n == name {
			return nil
		}
	}
	return common.Warn("No service named “" + name + "” in " + ctx.Project)
}
