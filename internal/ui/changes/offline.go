package changes

import (
	"context"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
)

// Offline shows the last snapshot, read-only, while the platform cannot be reached at
// start: every service as the console last read it, under a line that says when that
// was. It gives way to the live view when the platform answers (Online).
type Offline struct {
	*base.List[offlineRow]
	j   *journal.Journal
	err string
	// live reports that the platform answers again (read on the UI goroutine).
	live func() bool
}

type offlineRow struct {
	project, service string
	item             journal.Item
}

func newOffline(ctx *common.Context, j *journal.Journal, err error, live func() bool) *Offline {
	v := &Offline{j: j, err: ctx.ErrorText(err), live: live}
	v.List = base.NewList(ctx, base.ListSpec[offlineRow]{
		Title: "Last snapshot (read-only)",
		Noun:  "service",
		Columns: []components.Column{
			{Title: "Project", Max: 30, Flex: true},
			{Title: "Service", Max: 40, Flex: true},
			{Title: "Type", Max: 12},
			{Title: "State", Max: 12},
			{Title: "Plan", Max: 20},
			{Title: "Cloud", Max: 28, Optional: true},
		},
		Empty: "The last snapshot holds no services.",
		Load: func() (base.Fetcher[offlineRow], string) {
			return func(context.Context) ([]offlineRow, error) { return snapshotRows(j), nil }, ""
		},
		Key: func(r offlineRow) string { return r.project + "/" + r.service },
		Row: func(r offlineRow) components.Row {
			v := func(f string) string { return r.item.Value(journal.KindService, f) }
			return components.Row{Cells: []string{r.project, r.service, v("type"), v("state"), v("plan"), v("cloud")}}
		},
		// Nothing to refresh: it is what was kept.
		Interval: func() time.Duration { return -1 },
	})
	return v
}

func snapshotRows(j *journal.Journal) []offlineRow {
	var out []offlineRow
	projects := j.Last(journal.Projects())
	if projects == nil {
		return nil
	}
	for _, p := range projects.Names() {
		s := j.Last(journal.ServicesOf(p))
		if s == nil {
			continue
		}
		for _, it := range s.Items() {
			out = append(out, offlineRow{project: p, service: it.Name(), item: it})
		}
	}
	return out
}

// AsOf is the line above the snapshot: "as of 14:02, 3h ago; reconnecting".
func (v *Offline) AsOf() string {
	at := v.j.LastRead()
	return "As of " + at.Local().Format("15:04") + ", " + common.Ago(v.Ctx.Now().Sub(at)) + "; reconnecting (" +
		strings.TrimSuffix(v.err, ".") + ")"
}

func (v *Offline) SetSize(w, h int) { v.List.SetSize(w, max(1, h-1)) }

func (v *Offline) View() string {
	line := v.Ctx.Styles.Warn.Render(ansi.Truncate(safe.Text(v.AsOf()), v.Ctx.Width, "…"))
	return line + "\n" + v.List.View()
}

func (v *Offline) Update(msg tea.Msg) (common.View, tea.Cmd) {
	// Online comes to the focused view; a snapshot the person left under another tab
	// gives way the next time it has a message (coming back to it refreshes it).
	if _, ok := msg.(Online); ok || v.live() {
		return v, tea.Batch(common.Send(common.PopView{}), common.Success("The platform answers again: showing the live view"))
	}
	return v, v.Handle(msg)
}
