package plans

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/fleet"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/theme"
)

// List is ":plans": the plans kept because they were interrupted, enter resumes one
// from where it stopped (each row left is checked before it is sent), d forgets one.
type List struct{ *base.List[fleet.Plan] }

// NewList builds the kept plans' view.
func NewList(ctx *common.Context) *List {
	v := &List{}
	dir := fleet.Dir(ctx.StateDir, ctx.Profile)
	v.List = base.NewList(ctx, base.ListSpec[fleet.Plan]{
		Title: "Plans", Noun: "plan",
		Empty: "No interrupted plans: a plan is kept here while it runs and until every row is done.",
		Columns: []components.Column{{Title: "Plan", Flex: true, Max: 50}, {Title: "Made", Max: 16},
			{Title: "Left", Right: true, Numeric: true}, {Title: "Rows", Right: true, Numeric: true}, {Title: "Id", Optional: true, Max: 24}},
		Load: func() (base.Fetcher[fleet.Plan], string) {
			return func(context.Context) ([]fleet.Plan, error) {
				ps, skipped, err := fleet.List(dir)
				if err == nil && len(skipped) > 0 {
					err = &base.Partial{Text: "Some files in " + dir + " are not plans and were left out: " + strings.Join(skipped, ", ")}
				}
				return ps, err
			}, ""
		},
		Key: func(p fleet.Plan) string { return p.ID },
		Row: func(p fleet.Plan) components.Row {
			return components.Row{Cells: []string{p.Title, p.Created.Local().Format("2006-01-02 15:04"),
				fmt.Sprint(p.Left()), fmt.Sprint(len(p.Rows)), p.ID}}
		},
		Interval: func() time.Duration { return -1 },
		Actions: []base.Action[fleet.Plan]{
			{Key: ctx.Keys.Open, Help: "resume", Run: func(p fleet.Plan) tea.Cmd { return Open(ctx, p, nil, true) }},
			{Key: ctx.Keys.Delete, Help: "forget", Run: func(p fleet.Plan) tea.Cmd { return v.forget(dir, p) }},
		},
	})
	return v
}

// forget removes a kept plan after a yes; nothing on the platform changes.
func (v *List) forget(dir string, p fleet.Plan) tea.Cmd {
	text := fmt.Sprintf("Forget the plan “%s”? %d of its %d rows are not done; nothing on the platform changes.", p.Title, p.Left(), len(p.Rows))
	return v.Ctx.Open(components.NewConfirm(v.Ctx, "Forget plan", text, func() tea.Cmd {
		id := p.ID
		return func() tea.Msg {
			if err := fleet.Remove(dir, id); err != nil {
				return common.Notify{Level: theme.LevelError, Text: "Could not forget the plan: " + err.Error()}
			}
			return common.RefreshNow{}
		}
	}))
}

// Update is the list's.
func (v *List) Update(msg tea.Msg) (common.View, tea.Cmd) { return v, v.Handle(msg) }
