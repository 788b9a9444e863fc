package access

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// Commands are the pane's palette commands. Each opens a sub-view in the Users tab: of
// the service named, else of the current service, else the picker asks for one. A
// command offers only the services it can show (acl and topics: Kafka; databases:
// PostgreSQL and MySQL) when their type is known.
func Commands() []common.Command {
	cmd := func(view, help string) common.Command {
		return common.Command{Name: view, Arg: common.ServiceArg, OptionalArg: true, Help: help,
			Accepts: func(ctx *common.Context, name string) bool { return accepts(ctx, view, name) },
			Run: func(ctx *common.Context, name string) tea.Cmd {
				return open(ctx, view, name)
			}}
	}
	return []common.Command{
		cmd(common.AccessUsers, "users of the current service (or of SERVICE)"),
		cmd(common.AccessACL, "Kafka ACLs of the current service (or of SERVICE)"),
		cmd(common.AccessTopics, "Kafka topics of the current service (or of SERVICE)"),
		cmd(common.AccessDatabases, "databases of the current service (or of SERVICE)"),
	}
}

// open asks the Users tab for view of the named service, else of the current one.
func open(ctx *common.Context, view, name string) tea.Cmd {
	msg := common.OpenAccess{Project: ctx.Project(), View: view}
	switch {
	case name != "":
		if names, ok := ctx.ServiceNames[ctx.Project()]; ok && !slices.Contains(names, name) {
			return common.Warn("No service named “" + name + "” in " + ctx.Project())
		}
		msg.Service = name
		if name == ctx.Service() {
			msg.ServiceType = ctx.ServiceType()
		}
	case ctx.Service() != "":
		msg.Service, msg.ServiceType = ctx.Service(), ctx.ServiceType()
	}
	return common.Send(msg)
}

// accepts reports whether a service can show view: every service has users; the others
// depend on the type, which is known for the current service (unknown types are offered:
// the view says why when it has nothing).
func accepts(ctx *common.Context, view, name string) bool {
	typ, ok := ctx.ServiceTypeOf(ctx.Project(), name)
	if name == ctx.Service() && ctx.ServiceType() != "" {
		typ, ok = ctx.ServiceType(), true
	}
	return !ok || unsupported(view, name, typ) == ""
}
