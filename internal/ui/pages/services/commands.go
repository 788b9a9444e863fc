package services

import (
	"context"
	"fmt"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
)

// Commands are the pane's palette commands.
func Commands() []common.Command {
	return []common.Command{
		{Name: "services", Help: "services of the current project", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return tea.Sequence(ctx.Go(common.SwitchTab{Tab: common.TabServices}), common.Send(showAll(false)))
		}},
		{Name: "services all", Help: "services of every project", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return tea.Sequence(ctx.Go(common.SwitchTab{Tab: common.TabServices}), common.Send(showAll(true)))
		}},
		{Name: "service", Arg: common.AnyServiceArg, Help: "open a service: of the current project, else of any project (PROJECT/NAME)", Run: openNamed},
		{Name: "connect", Arg: common.ServiceArg, OptionalArg: true, Help: "open a service in its own client (the current service when none is named)",
			Run: func(ctx *common.Context, name string) tea.Cmd {
				if name == "" {
					name = ctx.Service()
				}
				if name == "" {
					return common.Warn("No current service: open one in tab 2, or type :connect NAME")
				}
				if cmd := unknownService(ctx, name); cmd != nil {
					return cmd
				}
				return newConnector(ctx, ctx.Project(), name).cmd()
			}},
	}
}

// unknownService says so when the current project's services are known and name is
// not one of them.
func unknownService(ctx *common.Context, name string) tea.Cmd {
	names, ok := ctx.ServiceNames[ctx.Project()]
	if !ok {
		return nil
	}
	for _, n := range names {
		if n == name {
			return nil
		}
	}
	return common.Warn("No service named “" + name + "” in " + ctx.Project())
}

// openNamed opens the service a palette line names: PROJECT/NAME, a name of the current
// project, else the one service of that name (or, failing that, that begins so) in the
// projects whose services are known; when none is known, every project is asked.
func openNamed(ctx *common.Context, arg string) tea.Cmd {
	if project, name, ok := strings.Cut(arg, "/"); ok {
		return ctx.Go(common.OpenService{Project: project, Service: name})
	}
	if project, name, ok := findService(ctx.Project(), ctx.ServiceNames, arg); ok {
		return ctx.Go(common.OpenService{Project: project, Service: name})
	}
	api, current, projects := ctx.API, ctx.Project(), append([]string(nil), ctx.ProjectNames...)
	if len(projects) == 0 {
		return common.Warn("No service named “" + arg + "” is known yet: the projects have not loaded")
	}
	return common.Working("Looking for "+arg+" in every project…", func() tea.Msg {
		c, cancel := context.WithTimeout(context.Background(), common.RequestTimeout)
		defer cancel()
		all, failed := api.ListServicesAcrossProjects(c, projects)
		names := map[string][]string{}
		for _, ps := range all {
			names[ps.Project] = append(names[ps.Project], ps.Service.ServiceName)
		}
		if project, name, ok := findService(current, names, arg); ok {
			return tea.Sequence(common.Info(""), common.Send(common.OpenService{Project: project, Service: name}))()
		}
		if len(failed) > 0 {
			return common.Notify{Level: theme.LevelWarn, Text: fmt.Sprintf("No service named “%s” found; %d of %d projects could not be listed", arg, len(failed), len(projects))}
		}
		return common.Notify{Level: theme.LevelWarn, Text: "No service named “" + arg + "” in any project"}
	})
}

// findService resolves name among services by project: in the current project its name
// or the one name that begins so, then an exact name in one other project, then the one
// service anywhere whose name begins so. Ambiguity is no match.
func findService(current string, byProject map[string][]string, name string) (project, service string, ok bool) {
	var mine []string
	for _, n := range byProject[current] {
		if n == name {
			return current, n, true
		}
		if strings.HasPrefix(n, name) {
			mine = append(mine, n)
		}
	}
	if len(mine) == 1 {
		return current, mine[0], true
	}
	var exact, prefix [][2]string
	projects := make([]string, 0, len(byProject))
	for p := range byProject {
		projects = append(projects, p)
	}
	sort.Strings(projects)
	for _, p := range projects {
		for _, n := range byProject[p] {
			switch {
			case n == name:
				exact = append(exact, [2]string{p, n})
			case strings.HasPrefix(n, name):
				prefix = append(prefix, [2]string{p, n})
			}
		}
	}
	switch {
	case len(exact) == 1:
		return exact[0][0], exact[0][1], true
	case len(exact) == 0 && len(prefix) == 1:
		return prefix[0][0], prefix[0][1], true
	}
	return "", "", false
}
