// Package plans is fleet work in the console: the palette's :unmark and :export, a plan
// of one change to many marked resources built on components.Plan and applied through
// base.Write paced to the request budget, the plans kept while they run (":plans"
// resumes an interrupted one) and runbooks.
package plans

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// Commands are the palette's fleet commands.
func Commands() []common.Command {
	return []common.Command{
		{Name: "unmark", Help: "clear the marks of this table", Run: func(*common.Context, string) tea.Cmd {
			return common.Send(common.Unmark{})
		}},
		{Name: "plans", Help: "plans kept because they were interrupted: enter resumes one", Run: func(ctx *common.Context, _ string) tea.Cmd {
			return ctx.Push(NewList(ctx))
		}},
		{Name: "export", Arg: common.FreeArg, Help: "csv FILE or json FILE: write every row the filter shows (mode 0600)",
			Run: func(_ *common.Context, arg string) tea.Cmd {
				msg, err := parseExport(arg)
				if err != "" {
					return common.Error(err)
				}
				return common.Send(msg)
			}},
	}
}

// parseExport reads "csv FILE" or "json FILE".
func parseExport(arg string) (common.Export, string) {
	format, file, _ := strings.Cut(strings.TrimSpace(arg), " ")
	file = strings.TrimSpace(file)
	f := common.ExportFormat(strings.ToLower(format))
	if f != common.ExportCSV && f != common.ExportJSON {
		return common.Export{}, "Export what? Type :export csv FILE or :export json FILE"
	}
	if file == "" {
		return common.Export{}, "Export to which file? Type :export " + string(f) + " FILE"
	}
	return common.Export{Format: f, File: file}, ""
}
