package watch

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// listView is :watches: the watched services; w stops watching the one under the cursor.
type listView struct{ *base.List[Watched] }

func newListView(ctx *common.Context, m *Model) *listView {
	v := &listView{}
	v.List = base.NewList(ctx, base.ListSpec[Watched]{
		Title: "Watches",
		Noun:  "watched service",
		Columns: []components.Column{
			{Title: "Project", Max: 24},
			{Title: "Service", Flex: true, Width: 8},
			{Title: "State", Max: 24, Styled: true},
			{Title: "Why", Max: 20},
			{Title: "Since", Max: 10},
		},
		Empty: "Nothing watched. Press w on a service (list or detail) to watch it; create, plan, cloud and power changes watch by themselves.",
		Load: func() (base.Fetcher[Watched], string) {
			ws := sorted(m.List()) // read now, in Update: the fetcher runs elsewhere
			return func(context.Context) ([]Watched, error) { return ws, nil }, ""
		},
		Key: func(w Watched) string { return w.key() },
		Row: func(w Watched) components.Row {
			state := ctx.Styles.Muted.Render("not seen yet")
			if w.State != "" {
				state = components.Badge(ctx, string(w.State))
			}
			why := w.Reason
			if why == "" {
				why = "w"
			}
			return components.Row{Cells: []string{w.Project, w.Service, state, why, w.Since.Format("15:04:05")}}
		},
		Actions: []base.Action[Watched]{
			{Key: ctx.Keys.Watch, Help: "stop watching", Run: func(w Watched) tea.Cmd {
				return tea.Sequence(common.Send(Toggle{Project: w.Project, Service: w.Service}), common.Send(common.RefreshNow{}))
			}},
		},
		Interval: func() time.Duration { return 2 * time.Second },
	})
	return v
}

func (v *listView) Update(msg tea.Msg) (common.View, tea.Cmd) { return v, v.Handle(msg) }
