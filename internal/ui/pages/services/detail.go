package services

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/theme"
)

// detailData is a service with its connection information (which may fail on its own,
// e.g. while the service is being built).
type detailData struct {
	Service models.Service
	Conn    models.ConnectionInfo
	ConnErr error
}

// Detail is one service: overview, maintenance, user_config and connection information.
type Detail struct {
	ctx              *common.Context
	req              *common.Requests
	project, name    string
	detail           *components.Detail
	acts             *actions
	data             *detailData
	errText          string
	gone             bool
	users, acl       key.Binding
	topics, dbs      key.Binding
	openDash, search key.Binding
	// opener opens a URL in a browser; nil when none is available (tests replace it).
	opener func(string) error
}

// NewDetail builds a service's detail view.
func NewDetail(ctx *common.Context, project, name string) *Detail {
	req := common.NewRequests()
	return &Detail{ctx: ctx, req: req, project: project, name: name, detail: components.NewDetail(ctx),
		acts:     &actions{ctx: ctx, req: req},
		users:    key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "users")),
		acl:      key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "ACL")),
		topics:   key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "topics")),
		dbs:      key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "databases")),
		openDash: key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open dashboards")),
		search:   key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "search tab")),
		opener:   browserOpener(),
	}
}

func (d *Detail) Init() tea.Cmd { return d.load() }

func (d *Detail) load() tea.Cmd {
	api, project, name := d.ctx.API, d.project, d.name
	return common.Fetch(d.req, "detail", func(ctx context.Context) (detailData, error) {
		var out detailData
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); out.Conn, out.ConnErr = api.GetConnectionInfo(ctx, project, name) }()
		s, err := api.GetService(ctx, project, name)
		wg.Wait()
		out.Service = s
		return out, err
	})
}

func (d *Detail) Title() string    { return d.name }
func (d *Detail) SetSize(w, h int) { d.detail.SetSize(w, h) }
func (d *Detail) Capturing() bool  { return false }
func (d *Detail) ID() int64        { return d.req.ID }
func (d *Detail) Leave()           { d.req.CancelAll() }
func (d *Detail) Refresh() tea.Cmd { return d.load() }

func (d *Detail) inProgress() bool { return d.data != nil && d.data.Service.State.InProgress() }

func (d *Detail) RefreshInterval() time.Duration {
	if d.inProgress() {
		return common.FastRefresh
	}
	return d.ctx.Refresh
}

func (d *Detail) Animating() bool { return d.inProgress() }

func (d *Detail) typ() string {
	if d.data == nil {
		return ""
	}
	return d.data.Service.ServiceType
}

// subViewKeys are the keys that open the service's sub-views, by type.
func (d *Detail) subViewKeys() []key.Binding {
	out := []key.Binding{d.users}
	switch t := d.typ(); {
	case t == models.TypeKafka:
		out = append(out, d.acl, d.topics)
	case models.HasDatabases(t):
		out = append(out, d.dbs)
	case t == models.TypeOpenSearch:
		out = append(out, d.openDash, d.search)
	}
	return out
}

func (d *Detail) ShortHelp() []key.Binding {
	k := d.ctx.Keys
	return append(d.subViewKeys(), keys.Enabled(k.Edit, k.Delete, k.Copy, k.Reveal)...)
}

func (d *Detail) FullHelp() [][]key.Binding {
	k := d.ctx.Keys
	return [][]key.Binding{d.subViewKeys(), keys.Enabled(k.Edit, k.Delete, k.Refresh), d.detail.HelpBindings()}
}

func (d *Detail) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[detailData]:
		if !d.req.Current(msg.Addr) {
			return d, nil
		}
		if msg.Err != nil {
			d.errText = d.ctx.ErrorText(msg.Err)
			return d, common.Send(common.RefreshDone{Err: msg.Err})
		}
		d.errText = ""
		v := msg.Value
		d.data = &v
		d.render()
		return d, common.Send(common.RefreshDone{})
	case common.RefreshNow:
		return d, d.load()
	case common.OpenService:
		// Handed to the tab root while a detail is on top: show that service instead.
		return d, tea.Sequence(common.Send(common.PopView{}), common.Send(msg))
	case showAll:
		return d, tea.Sequence(common.Send(common.PopView{}), common.Send(msg))
	case tea.KeyMsg:
		return d, d.handleKey(msg)
	}
	if cmd, handled := d.acts.handle(msg, d); handled {
		if d.gone {
			// The service is deleted: back to the list, which reloads.
			return d, tea.Batch(cmd, tea.Sequence(common.Send(common.PopView{}), common.Send(common.RefreshNow{})))
		}
		return d, cmd
	}
	return d, nil
}

// upsert and remove make Detail an action target: a saved service is shown at once, a
// deleted one closes the view.
func (d *Detail) upsert(_ string, s models.Service) {
	if d.data != nil && s.ServiceName == d.name {
		d.data.Service = s
		d.render()
	}
}

func (d *Detail) remove(string, string) { d.gone = true }

func (d *Detail) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := d.ctx.Keys
	access := func(view string) tea.Cmd {
		return common.Send(common.OpenAccess{Project: d.project, Service: d.name, ServiceType: d.typ(), View: view})
	}
	t := d.typ()
	switch {
	case key.Matches(msg, k.Edit):
		if d.data == nil {
			return common.Warn("Still loading " + d.name)
		}
		return d.acts.startEdit(d.project, d.data.Service)
	case key.Matches(msg, k.Delete):
		if d.data == nil {
			return common.Warn("Still loading " + d.name)
		}
		return d.acts.confirmDelete(d.project, d.data.Service)
	case key.Matches(msg, d.users):
		return access(common.AccessUsers)
	case key.Matches(msg, d.acl) && t == models.TypeKafka:
		return access(common.AccessACL)
	case key.Matches(msg, d.topics) && t == models.TypeKafka:
		return access(common.AccessTopics)
	case key.Matches(msg, d.dbs) && models.HasDatabases(t):
		return access(common.AccessDatabases)
	case key.Matches(msg, d.search) && t == models.TypeOpenSearch:
		return common.Send(common.SwitchTab{Tab: 5})
	case key.Matches(msg, d.openDash) && t == models.TypeOpenSearch:
		return d.openDashboards()
	}
	_, cmd := d.detail.Update(msg)
	return cmd
}

func (d *Detail) openDashboards() tea.Cmd {
	uri := d.data.Service.DashboardsURI()
	if uri == "" {
		return common.Warn("This service has no dashboards address")
	}
	if d.opener == nil {
		return common.Warn("No browser is available here (no xdg-open or open); press y on the Dashboards line to copy the address")
	}
	open := d.opener
	return func() tea.Msg {
		if err := open(uri); err != nil {
			return common.Notify{Level: theme.LevelWarn, Text: "Could not open a browser: " + err.Error()}
		}
		return common.Notify{Level: theme.LevelSuccess, Text: "Opened the dashboards in your browser"}
	}
}

func (d *Detail) render() {
	d.detail.SetSections(sections(d.ctx, d.project, *d.data))
}

func sections(ctx *common.Context, project string, dd detailData) []components.Section {
	s := dd.Service
	now := ctx.Now()
	state := components.Badge(ctx, string(s.State))
	if !s.UpdateTime.IsZero() {
		state += " " + common.For(now.Sub(s.UpdateTime))
	}
	protection := "off"
	if s.TerminationProtection {
		protection = "on (delete and power off are refused until removed)"
	}
	overview := []components.Field{
		{Label: "Name", Value: s.ServiceName},
		{Label: "Project", Value: project},
		{Label: "State", Value: state},
		{Label: "Type", Value: s.ServiceType},
		{Label: "Plan", Value: s.Plan},
		{Label: "Cloud", Value: s.CloudName},
		{Label: "Nodes", Value: strconv.Itoa(s.NodeCount)},
		{Label: "Disk", Value: diskGB(s.DiskSpaceMB) + " GB"},
		{Label: "Created", Value: timeField(now, s.CreateTime)},
		{Label: "Updated", Value: timeField(now, s.UpdateTime)},
		{Label: "Termination protection", Value: protection},
	}
	if s.ProjectVPCID != "" {
		overview = append(overview, components.Field{Label: "Project VPC", Value: s.ProjectVPCID})
	}
	maint := "not set"
	if m := s.Maintenance; m != nil && (m.DOW != "" || m.Time != "") {
		maint = strings.TrimSpace(m.DOW + " " + m.Time + " UTC")
	}
	overview = append(overview, components.Field{Label: "Maintenance", Value: maint})
	out := []components.Section{{Title: "Overview", Fields: overview}}

	if len(s.UserConfig) > 0 {
		keys := make([]string, 0, len(s.UserConfig))
		for k := range s.UserConfig {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var fs []components.Field
		for _, k := range keys {
			fs = append(fs, components.Field{Label: k, Value: configValue(s.UserConfig, k)})
		}
		out = append(out, components.Section{Title: "User config", Fields: fs})
	}

	c := dd.Conn
	var conn []components.Field
	if dd.ConnErr != nil {
		conn = append(conn, components.Field{Label: "Unavailable", Value: ctx.ErrorText(dd.ConnErr)})
	} else {
		host, port, user, db := c.Host, "", c.User, c.Database
		if c.Port > 0 {
			port = strconv.Itoa(int(c.Port))
		}
		// Fill what connection_info lacks from the service's own connection fields.
		for _, eps := range s.ConnectionInfo {
			if len(eps) == 0 {
				continue
			}
			ep := eps[0]
			host = firstNonEmpty(host, ep.Host)
			if port == "" && ep.Port > 0 {
				port = strconv.Itoa(int(ep.Port))
			}
			user, db = firstNonEmpty(user, ep.User), firstNonEmpty(db, ep.DBName)
			break
		}
		host, port = firstNonEmpty(host, s.ServiceURIParams["host"]), firstNonEmpty(port, s.ServiceURIParams["port"])
		uri := firstNonEmpty(c.URI, s.ServiceURI)
		password := c.Password
		if password == "<redacted>" {
			password = ""
		}
		conn = append(conn,
			components.Field{Label: "Host", Value: host},
			components.Field{Label: "Port", Value: port},
			components.Field{Label: "User", Value: user},
			components.Field{Label: "Database", Value: db},
			components.Field{Label: "Password", Value: password, Secret: true},
			components.Field{Label: "URI", Value: uri, Secret: true},
		)
		if c.CACert != "" {
			conn = append(conn, components.Field{Label: "CA certificate", Value: c.CACert, Multiline: true})
		}
	}
	if s.ServiceType == models.TypeOpenSearch {
		conn = append(conn, components.Field{Label: "Dashboards", Value: s.DashboardsURI(), Secret: strings.Contains(s.DashboardsURI(), "@")})
	}
	return append(out, components.Section{Title: "Connection", Fields: conn})
}

func configValue(u models.UserConfig, k string) string {
	if k == models.UCIPFilter {
		return strings.Join(u.IPFilter(), ", ")
	}
	if s, ok := u.String(k); ok {
		return s
	}
	return fmt.Sprintf("%v", u[k])
}

func timeField(now, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC") + " (" + common.Ago(now.Sub(t)) + ")"
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (d *Detail) View() string {
	if d.data == nil {
		return components.Placeholder(d.ctx, d.errText, "Loading "+d.name+"…")
	}
	return d.detail.ViewWithError(d.errText)
}
