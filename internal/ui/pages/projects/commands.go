package projects

import (
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// Commands are the pane's palette commands.
func Commands() []common.Command {
	return []common.Command{
		{Name: "projects", Help: "the projects table", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return ctx.Go(common.SwitchTab{Tab: common.TabProjects})
		}},
		{Name: "project", Arg: common.ProjectArg, Help: "make a project current and show it", Run: func(ctx *common.Context, name string) tea.Cmd {
			known := false
			for _, n := range ctx.ProjectNames {
				known = known || n == name
			}
			if !known && len(ctx.ProjectNames) > 0 {
				return common.Warn("No project named “" + name + "”")
			}
			return tea.Sequence(ctx.Go(common.SelectProject{Name: name}, common.SwitchTab{Tab: common.TabProjects},
				common.PushView{View: NewDetail(ctx, name)}),
				common.Info("Current project: "+name))
		}},
		{Name: "create project", Mutating: true, Help: "create a project", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return tea.Sequence(ctx.Go(common.SwitchTab{Tab: common.TabProjects}), common.Send(createProject{}))
		}},
		{Name: "clouds", Help: "cloud regions, grouped by region", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return ctx.Go(common.SwitchTab{Tab: common.TabProjects}, common.PushView{View: NewClouds(ctx)})
		}},
		{Name: "types", Help: "service types and their latest versions", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return ctx.Go(common.SwitchTab{Tab: common.TabProjects}, common.PushView{View: NewTypes(ctx)})
		}},
	}
}

// createProject asks the Projects tab's focused view to open the create form.
type createProject struct{}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }
