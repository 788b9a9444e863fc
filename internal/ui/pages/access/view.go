package access

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/theme"
)

// listing is one load of a sub-view: the rows of its kind (and, for ACLs, the users the
// create form offers).
type listing struct {
	Users     []models.ServiceUser
	ACLs      []models.ACL
	Topics    []models.Topic
	Databases []models.Database
	// Type is the service type, looked up when the opener did not know it.
	Type string
}

// Access is one of a service's access sub-views: users, Kafka ACLs, topics or databases.
type Access struct {
	ctx    *common.Context
	req    *common.Requests
	t      target
	kind   string
	table  *components.Table
	data   listing
	loaded bool
}

// NewAccess builds the sub-view kind (common.AccessUsers, AccessACL, AccessTopics,
// AccessDatabases) of a service.
func NewAccess(ctx *common.Context, t target, kind string) *Access {
	var cols []components.Column
	switch kind {
	case common.AccessACL:
		cols = []components.Column{{Title: "Username", Flex: true, Max: 40}, {Title: "Topic", Flex: true, Max: 60}, {Title: "Permission", Max: 12}}
	case common.AccessTopics:
		cols = []components.Column{{Title: "Topic", Flex: true, Max: 60}, {Title: "Partitions", Right: true, Numeric: true, Max: 10},
			{Title: "Replication", Right: true, Numeric: true, Max: 11}, {Title: "State", Max: 16, Styled: true}}
	case common.AccessDatabases:
		cols = []components.Column{{Title: "Database", Flex: true, Max: 64}}
	default:
		kind = common.AccessUsers
		cols = []components.Column{{Title: "Username", Flex: true, Max: 48}, {Title: "Type", Max: 12, Styled: true}}
	}
	tb := components.NewTable(ctx, cols)
	tb.Empty = "Nothing here yet. Press c to create one."
	return &Access{ctx: ctx, req: common.NewRequests(), t: t, kind: kind, table: tb}
}

// unsupported says why a service type has no rows of this kind ("" when it has).
func unsupported(kind, service, serviceType string) string {
	if serviceType == "" {
		return "" // unknown yet: the platform decides
	}
	switch kind {
	case common.AccessACL, common.AccessTopics:
		if serviceType != models.TypeKafka {
			what := "ACLs"
			if kind == common.AccessTopics {
				what = "Topics"
			}
			return fmt.Sprintf("%s exist only on Kafka services; %s is a %s service.", what, service, serviceType)
		}
	case common.AccessDatabases:
		if !models.HasDatabases(serviceType) {
			return fmt.Sprintf("Databases exist only on PostgreSQL and MySQL services; %s is a %s service.", service, serviceType)
		}
	}
	return ""
}

func (a *Access) Init() tea.Cmd { return a.load() }

func (a *Access) load() tea.Cmd {
	if why := unsupported(a.kind, a.t.Service, a.t.Type); why != "" {
		a.table.Empty = why
		a.table.SetRows(nil)
		return nil
	}
	api, t, kind := a.ctx.API, a.t, a.kind
	return common.Fetch(a.req, "list", func(ctx context.Context) (listing, error) {
		var l listing
		var err error
		if t.Type == "" {
			sv, err := api.GetService(ctx, t.Project, t.Service)
			if err != nil {
				return l, err
			}
			l.Type = sv.ServiceType
			if unsupported(kind, t.Service, l.Type) != "" {
				return l, nil
			}
		}
		switch kind {
		case common.AccessUsers:
			l.Users, err = api.ListUsers(ctx, t.Project, t.Service)
		case common.AccessACL:
			if l.ACLs, err = api.ListACLs(ctx, t.Project, t.Service); err == nil {
				l.Users, err = api.ListUsers(ctx, t.Project, t.Service)
			}
		case common.AccessTopics:
			l.Topics, err = api.ListTopics(ctx, t.Project, t.Service)
		case common.AccessDatabases:
			l.Databases, err = api.ListDatabases(ctx, t.Project, t.Service)
		}
		return l, err
	})
}

// Title is the sub-view's breadcrumb segment (the picker below shows the service).
func (a *Access) Title() string {
	if a.t.Project != "" && a.t.Project != a.ctx.Project {
		return a.t.Project + "/" + a.t.Service + " › " + a.kind
	}
	return a.kind
}

func (a *Access) SetSize(w, h int) { a.table.SetSize(w, h) }
func (a *Access) Capturing() bool  { return a.table.Filtering() }
func (a *Access) ID() int64        { return a.req.ID }
func (a *Access) Leave()           { a.req.CancelAll() }

// View re-renders the rows while a topic is configuring, so its spinner turns.
func (a *Access) View() string {
	if a.configuring() {
		a.render()
	}
	return a.table.View()
}

func (a *Access) Refresh() tea.Cmd { return a.load() }

// RefreshInterval is fast while a topic is still being configured.
func (a *Access) RefreshInterval() time.Duration {
	if a.configuring() {
		return common.FastRefresh
	}
	return a.ctx.Refresh
}

// Animating keeps the spinner of configuring topics turning.
func (a *Access) Animating() bool { return a.configuring() }

func (a *Access) configuring() bool {
	for _, t := range a.data.Topics {
		if t.State != "" && t.State != "ACTIVE" {
			return true
		}
	}
	return false
}

// ClaimsKey takes esc while a filter is applied (esc clears it before going back).
func (a *Access) ClaimsKey(msg tea.KeyMsg) bool {
	return key.Matches(msg, a.ctx.Keys.Back) && a.table.FilterText() != ""
}

func (a *Access) bindings() []key.Binding {
	k := a.ctx.Keys
	if unsupported(a.kind, a.t.Service, a.t.Type) != "" {
		return keys.Enabled(k.Filter)
	}
	if a.kind == common.AccessUsers {
		return keys.Enabled(withHelp(k.Create, "create user"), withHelp(k.Reset, "reset credentials"), withHelp(k.Delete, "delete user"), k.Filter)
	}
	what := map[string]string{common.AccessACL: "create ACL", common.AccessTopics: "create topic", common.AccessDatabases: "create database"}[a.kind]
	return keys.Enabled(withHelp(k.Create, what), k.Filter)
}

func (a *Access) ShortHelp() []key.Binding { return a.bindings() }

func (a *Access) FullHelp() [][]key.Binding {
	return [][]key.Binding{append(a.bindings(), a.ctx.Keys.Refresh), a.table.HelpBindings()}
}

func (a *Access) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[listing]:
		if !a.req.Current(msg.Addr) {
			return a, nil
		}
		if msg.Value.Type != "" {
			a.t.Type = msg.Value.Type
			if why := unsupported(a.kind, a.t.Service, a.t.Type); why != "" {
				a.table.Empty = why
				a.table.SetRows(nil)
				return a, common.Send(common.RefreshDone{})
			}
		}
		if msg.Err != nil {
			a.table.SetError(a.ctx.ErrorText(msg.Err))
			return a, common.Send(common.RefreshDone{Err: msg.Err})
		}
		a.data, a.loaded = msg.Value, true
		a.render()
		return a, common.Send(common.RefreshDone{})
	case common.RefreshNow:
		return a, a.load()
	case tea.KeyMsg:
		if a.table.Filtering() {
			_, cmd := a.table.Update(msg)
			return a, cmd
		}
		if cmd, ok := a.handleKey(msg); ok {
			return a, cmd
		}
	}
	if cmd, handled, changed := a.handleResult(msg); handled {
		if changed {
			return a, tea.Batch(cmd, a.load())
		}
		return a, cmd
	}
	_, cmd := a.table.Update(msg)
	return a, cmd
}

// undeletable names the sub-views' resources the platform API offers no delete for.
var undeletable = map[string]string{common.AccessACL: "ACL entries", common.AccessTopics: "topics", common.AccessDatabases: "databases"}

func (a *Access) handleKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := a.ctx.Keys
	switch {
	case key.Matches(msg, k.Create):
		return a.startCreate(), true
	case a.kind == common.AccessUsers && key.Matches(msg, k.Reset):
		return a.confirmReset(), true
	case a.kind == common.AccessUsers && key.Matches(msg, k.Delete):
		return a.confirmDelete(), true
	case key.Matches(msg, k.Delete):
		// The platform API lists and creates these but has no delete; say so rather than
		// ignore the key.
		if what := undeletable[a.kind]; what != "" {
			return common.Info("The platform cannot delete " + what + ": its API only lists and creates them"), true
		}
	}
	return nil, false
}

func (a *Access) render() {
	var rows []components.Row
	st := a.ctx.Styles
	switch a.kind {
	case common.AccessUsers:
		for _, u := range a.data.Users {
			typ := safe.Text(string(u.Type))
			if u.Type == models.UserPrimary {
				typ = st.Bold.Render("★ primary")
			}
			rows = append(rows, components.Row{Key: u.Username, Cells: []string{u.Username, typ},
				Sort: []string{u.Username, string(u.Type)}})
		}
	case common.AccessACL:
		for _, e := range a.data.ACLs {
			k := e.ID
			if k == "" {
				k = e.Username + "\x00" + e.Topic + "\x00" + string(e.Permission)
			}
			rows = append(rows, components.Row{Key: k, Cells: []string{e.Username, e.Topic, string(e.Permission)}})
		}
	case common.AccessTopics:
		for _, t := range a.data.Topics {
			p, r := strconv.Itoa(int(t.Partitions)), strconv.Itoa(int(t.Replication))
			rows = append(rows, components.Row{Key: t.TopicName, Cells: []string{t.TopicName, p, r, topicBadge(st, t.State, a.ctx.SpinnerFrame)},
				Sort: []string{t.TopicName, p, r, t.State}})
		}
	case common.AccessDatabases:
		for _, d := range a.data.Databases {
			rows = append(rows, components.Row{Key: d.DatabaseName, Cells: []string{d.DatabaseName}})
		}
	}
	sortRows(rows)
	a.table.SetRows(rows)
}

// topicBadge shows ACTIVE as ready and CONFIGURING (or any other state) as in progress.
func topicBadge(st *theme.Theme, state string, frame int) string {
	switch state {
	case "ACTIVE":
		return st.OK.Render("● ACTIVE")
	case "":
		return st.Muted.Render("? unknown")
	}
	f := theme.SpinnerFrames[((frame%len(theme.SpinnerFrames))+len(theme.SpinnerFrames))%len(theme.SpinnerFrames)]
	return st.Warn.Render(f + " " + safe.Text(state))
}

func sortRows(rows []components.Row) {
	// By what is shown (name first), not by key: ACL keys are platform ids.
	sort.SliceStable(rows, func(i, j int) bool {
		return strings.Join(rows[i].Cells, "\x00") < strings.Join(rows[j].Cells, "\x00")
	})
}
