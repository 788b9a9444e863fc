package search

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
)

// bulkRequest asks the Search tab's pane to open the bulk form with values filled in.
type bulkRequest struct{ path, index string }

// selectService asks the Search tab to connect to a named service.
type selectService struct{ name string }

// Commands are the pane's palette commands.
func Commands() []common.Command {
	return []common.Command{
		{Name: "search", Arg: common.ServiceArg, OptionalArg: true, Accepts: acceptsSearch,
			Help: "the search console of the current opensearch service (or of SERVICE)", Run: runSearch},
		{Name: "bulk", Arg: common.FreeArg, Mutating: true, Help: "bulk load FILE INDEX into the search service", Run: func(ctx *common.Context, arg string) tea.Cmd {
			f := strings.Fields(arg)
			var path, index string
			if len(f) > 0 {
				path = f[0]
			}
			if len(f) > 1 {
				index = f[1]
			}
			return tea.Sequence(ctx.Go(common.SwitchTab{Tab: common.TabSearch}), common.Send(bulkRequest{path: path, index: index}))
		}},
		{Name: "save", Arg: common.FreeArg, Help: "save the search under the editor's cursor as NAME (a YAML file in the config folder)", Run: func(ctx *common.Context, arg string) tea.Cmd {
			return tea.Sequence(ctx.Go(common.SwitchTab{Tab: common.TabSearch}), common.Send(saveSearchAs{name: arg}))
		}},
		{Name: "saved", Help: "the saved searches (every console of this user on the host)", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return tea.Sequence(ctx.Go(common.SwitchTab{Tab: common.TabSearch}), common.Send(listSaved{}))
		}},
	}
}

// acceptsSearch offers opensearch services only. The type is known for the current
// service; other names are offered, and the pane says when one is not opensearch (the
// context has no cache of other services' types).
func acceptsSearch(ctx *common.Context, name string) bool {
	typ, ok := ctx.ServiceTypeOf(ctx.Project(), name)
	if name == ctx.Service() && ctx.ServiceType() != "" {
		typ, ok = ctx.ServiceType(), true
	}
	return !ok || typ == models.TypeOpenSearch
}

// runSearch opens the named service, else the current one when it is opensearch; with
// neither the tab finds the project's opensearch service (a picker when several).
func runSearch(ctx *common.Context, svc string) tea.Cmd {
	if svc == "" && ctx.ServiceType() == models.TypeOpenSearch {
		svc = ctx.Service()
	}
	if svc == "" {
		return common.Send(common.SwitchTab{Tab: common.TabSearch})
	}
	return tea.Sequence(common.Send(common.SwitchTab{Tab: common.TabSearch}), common.Send(selectService{name: svc}))
}
