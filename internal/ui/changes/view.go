package changes

import (
	"context"
	"strconv"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// View is :changes: the journal newest first. The table's filter (/) matches every
// column, so typing a project, a service or a kind ("user", "plan") narrows it;
// enter goes to the entry's resource.
type View struct {
	*base.List[journal.Entry]
}

// ShowChanges opens the :changes view.
type ShowChanges struct{}

// Commands is the palette's :changes.
func Commands() []common.Command {
	return []common.Command{{Name: "changes", Help: "what changed in this account, newest first: here (this console) or elsewhere",
		Run: func(ctx *common.Context, _ string) tea.Cmd { return ctx.Push(NewView(ctx)) }}}
}

// NewView builds the :changes view.
func NewView(ctx *common.Context) *View {
	v := &View{}
	v.List = base.NewList(ctx, base.ListSpec[journal.Entry]{
		Title: "Changes",
		Noun:  "change",
		Columns: []components.Column{
			{Title: "Seen", Width: 8, Max: 12},
			{Title: "By", Width: 9, Max: 12},
			{Title: "Kind", Max: 13},
			{Title: "Where", Max: 40, Flex: true},
			{Title: "Resource", Max: 40, Flex: true},
			{Title: "Change", Max: 60, Flex: true},
		},
		Empty: "Nothing has changed since this console first read the account. Changes show here as they are seen.",
		Load: func() (base.Fetcher[journal.Entry], string) {
			j := ctx.Journal
			switch {
			case j == nil:
				return nil, "The journal is being read…"
			case j.TooLarge() > 0:
				return nil, "This account has " + strconv.Itoa(j.TooLarge()) + " projects; the journal follows accounts of up to " +
					strconv.Itoa(LargeAccount) + ", so nothing is recorded."
			case !j.Covered() && j.Len() == 0:
				return nil, "Reading the whole account for the first time; what changes from then on shows here."
			}
			return func(context.Context) ([]journal.Entry, error) { return j.Entries(), nil }, ""
		},
		Key: key,
		Row: func(e journal.Entry) components.Row { return row(ctx.Now(), e) },
		Actions: []base.Action[journal.Entry]{
			{Key: ctx.Keys.Open, Help: "go to the resource", Run: func(e journal.Entry) tea.Cmd { return open(ctx, e) }},
		},
	})
	return v
}

// Title says how many changes were made while the console was last closed.
func (v *View) Title() string {
	n := 0
	if j := v.Ctx.Journal; j != nil {
		opened := j.Opened()
		for _, e := range v.Items() {
			if announced(e) && !e.At.Before(opened) {
				n++
			}
		}
	}
	if n > 0 {
		return "Changes (since you last looked: " + count(n) + ")"
	}
	return "Changes"
}

// Init loads the journal and tells the reader its notice has been read.
func (v *View) Init() tea.Cmd { return tea.Batch(v.List.Init(), common.Send(Seen{})) }

func (v *View) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if _, ok := msg.(Changed); ok {
		return v, v.Load()
	}
	return v, v.Handle(msg)
}

func key(e journal.Entry) string {
	return strconv.FormatInt(e.At.UnixNano(), 36) + "\x00" + e.Kind.String() + "\x00" + e.Project + "\x00" + e.Service + "\x00" +
		e.Owner + "\x00" + e.Name + "\x00" + e.Field
}

func row(now time.Time, e journal.Entry) components.Row {
	seen := e.At.Local().Format("15:04:05")
	if now.Sub(e.At) > 20*time.Hour {
		seen = e.At.Local().Format("Jan 2 15:04")
	}
	return components.Row{Cells: []string{seen, By(e), e.Kind.String(), Where(e), e.Name, What(e)},
		Sort: []string{e.At.UTC().Format(time.RFC3339Nano), By(e), e.Kind.String(), Where(e), e.Name, What(e)}}
}

// By says who made a change: this console, elsewhere, or unknown because it happened
// while the console was closed.
func By(e journal.Entry) string {
	switch {
	case e.Here:
		return "here"
	case e.Away:
		return "while closed"
	}
	return "elsewhere"
}

// Where is the entry's place: project/service, the account or the billing group.
func Where(e journal.Entry) string {
	switch {
	case e.Service != "":
		return e.Project + "/" + e.Service
	case e.Project != "":
		return e.Project
	}
	return e.Owner
}

// What is the change in words: "plan startup-4 → business-4", "created (pg · ...)".
func What(e journal.Entry) string {
	switch e.Change {
	case journal.Created:
		if e.After != "" {
			return "created: " + e.After
		}
		return "created"
	case journal.Deleted:
		if e.Before != "" {
			return "deleted (was " + e.Before + ")"
		}
		return "deleted"
	}
	return e.Field + " " + dash(e.Before) + " → " + dash(e.After)
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// open goes to an entry's resource: a deleted one to where it was.
func open(ctx *common.Context, e journal.Entry) tea.Cmd {
	gone := e.Change == journal.Deleted
	switch e.Kind {
	case journal.KindProject:
		if gone {
			return common.Info("Project " + e.Name + " was deleted; there is nothing to open")
		}
		return ctx.Go(common.SelectProject{Name: e.Name}, common.SwitchTab{Tab: common.TabServices})
	case journal.KindService:
		if gone {
			return tea.Sequence(ctx.Go(common.SelectProject{Name: e.Project}, common.SwitchTab{Tab: common.TabServices}),
				common.Info("Service "+e.Name+" was deleted; showing the services of "+e.Project))
		}
		return ctx.Go(common.OpenService{Project: e.Project, Service: e.Name})
	case journal.KindUser, journal.KindACL, journal.KindTopic, journal.KindDatabase:
		sub := map[journal.Kind]string{journal.KindUser: common.AccessUsers, journal.KindACL: common.AccessACL,
			journal.KindTopic: common.AccessTopics, journal.KindDatabase: common.AccessDatabases}[e.Kind]
		typ, _ := ctx.ServiceTypeOf(e.Project, e.Service)
		if typ == "" && ctx.Journal != nil {
			if s := ctx.Journal.Last(journal.ServicesOf(e.Project)); s != nil {
				it, _ := s.Get(e.Service)
				typ = it.Value(journal.KindService, "type")
			}
		}
		return ctx.Go(common.OpenAccess{Project: e.Project, Service: e.Service, ServiceType: typ, View: sub})
	case journal.KindEstimate:
		return ctx.Go(common.SelectProject{Name: e.Project}, common.SwitchTab{Tab: common.TabBilling})
	}
	// Billing groups, invoices, credits: the Billing tab.
	return ctx.Go(common.SwitchTab{Tab: common.TabBilling})
}
