package search

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// bulkRequest asks the Search tab's pane to open the bulk form with values filled in.
type bulkRequest struct{ path, index string }

// Commands are the pane's palette commands.
func Commands() []common.Command {
	return []common.Command{
		{Name: "search", Arg: common.ServiceArg, OptionalArg: true, Help: "the search console (optionally of an opensearch service)", Run: func(ctx *common.Context, svc string) tea.Cmd {
			if svc == "" {
				return common.Send(common.SwitchTab{Tab: 5})
			}
			return tea.Sequence(common.Send(common.SwitchTab{Tab: 5}), common.Send(selectService{name: svc}))
		}},
		{Name: "bulk", Arg: common.FreeArg, Mutating: true, Help: "bulk load FILE INDEX into the search service", Run: func(ctx *common.Context, arg string) tea.Cmd {
			f := strings.Fields(arg)
			var path, index string
			if len(f) > 0 {
				path = f[0]
			}
			if len(f) > 1 {
				index = f[1]
			}
			return tea.Sequence(common.Send(common.SwitchTab{Tab: 5}), common.Send(bulkRequest{path: path, index: index}))
		}},
	}
}

// selectService asks the Search tab to connect to a named service.
type selectService struct{ name string }
