package access

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// Commands are the pane's palette commands; each opens a sub-view of the chosen service
// in the Users tab, or the service picker when none is chosen yet.
func Commands() []common.Command {
	open := func(view string) func(*common.Context, string) tea.Cmd {
		return func(ctx *common.Context, _ string) tea.Cmd {
			return common.Send(common.OpenAccess{Project: ctx.Project, View: view})
		}
	}
	return []common.Command{
		{Name: "users", Help: "users of the chosen service", Run: open(common.AccessUsers)},
		{Name: "acl", Help: "Kafka ACLs of the chosen service", Run: open(common.AccessACL)},
		{Name: "topics", Help: "Kafka topics of the chosen service", Run: open(common.AccessTopics)},
		{Name: "databases", Help: "databases of the chosen service", Run: open(common.AccessDatabases)},
	}
}
