package services

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
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
	*base.Detail[detailData]
	acts          *actions
	project, name string
	// elsewhere is the project made current since this view opened: the service is not
	// shown under another project's name and role.
	elsewhere string
	gone      bool
	width     int
}

// NewDetail builds a service's detail view.
func NewDetail(ctx *common.Context, project, name string) *Detail {
	d := &Detail{project: project, name: name}
	d.Detail = base.NewDetail(ctx, base.DetailSpec[detailData]{
		Title:    name,
		Load:     d.load,
		Sections: func(dd detailData) []components.Section { return sections(ctx, project, dd) },
		Loaded:   d.loaded,
		Interval: func() time.Duration {
			if d.Animating() {
				return common.FastRefresh
			}
			return ctx.Refresh
		},
	})
	d.Spec.Actions = d.actionsFor("")
	d.acts = &actions{ctx: ctx, req: d.Req, target: d}
	return d
}

func (d *Detail) load() func(ctx context.Context) (detailData, error) {
	api, project, name := d.Ctx.API, d.project, d.name
	return func(ctx context.Context) (detailData, error) {
		var out detailData
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); out.Conn, out.ConnErr = api.GetConnectionInfo(ctx, project, name) }()
		s, err := api.GetService(ctx, project, name)
		wg.Wait()
		out.Service = s
		return out, err
	}
}

// loaded offers the keys of the service's type, and tells the root the type of the
// current service when it did not know it (opened from the palette).
func (d *Detail) loaded(dd detailData) tea.Cmd {
	typ := dd.Service.ServiceType
	d.Spec.Actions = d.actionsFor(typ)
	if c := d.Ctx; c.Project() == d.project && (c.Service() != d.name || c.ServiceType() != typ) {
		return common.Send(common.SelectService{Project: d.project, Name: d.name, Type: typ})
	}
	return nil
}

// actionsFor lists the keys a service of type typ answers: its sub-views by type, then
// edit, delete and connect.
func (d *Detail) actionsFor(typ string) []base.Action[detailData] {
	k := d.Ctx.Keys
	access := func(view string) func(detailData) tea.Cmd {
		return func(dd detailData) tea.Cmd {
			return d.Ctx.Go(common.OpenAccess{Project: d.project, Service: d.name, ServiceType: dd.Service.ServiceType, View: view})
		}
	}
	acts := []base.Action[detailData]{{Key: k.Users, Run: access(common.AccessUsers)}}
	switch {
	case typ == models.TypeKafka:
		acts = append(acts, base.Action[detailData]{Key: k.ACL, Run: access(common.AccessACL)},
			base.Action[detailData]{Key: k.Topics, Run: access(common.AccessTopics)})
	case models.HasDatabases(typ):
		acts = append(acts, base.Action[detailData]{Key: k.Databases, Run: access(common.AccessDatabases)})
	case typ == models.TypeOpenSearch:
		acts = append(acts, base.Action[detailData]{Key: k.SearchTab, Run: func(detailData) tea.Cmd {
			return searchTab(d.Ctx, d.project, d.name)
		}})
	}
	launch := "connect"
	switch typ {
	case models.TypeOpenSearch:
		launch = "query in the Search tab"
	case models.TypeGrafana:
		launch = "open the dashboards"
	}
	return append(acts,
		base.Action[detailData]{Key: k.Launch, Help: launch, Run: func(detailData) tea.Cmd {
			return newConnector(d.Ctx, d.project, d.name).cmd()
		}},
		base.Action[detailData]{Key: k.Edit, Run: func(dd detailData) tea.Cmd { return d.acts.startEdit(d.project, dd.Service) }},
		base.Action[detailData]{Key: k.Watch, Hidden: true, Run: func(dd detailData) tea.Cmd { return watchToggle(d.project, dd.Service) }},
		base.Action[detailData]{Key: k.Delete, Run: func(dd detailData) tea.Cmd { return d.acts.confirmDelete(d.project, dd.Service) }},
	)
}

// Animating: the state badge spins while the service is being built or rebalanced.
func (d *Detail) Animating() bool {
	dd, ok := d.Item()
	return ok && d.elsewhere == "" && dd.Service.State.InProgress()
}

// Refresh stops once the service's project is no longer current.
func (d *Detail) Refresh() tea.Cmd {
	if d.elsewhere != "" {
		return nil
	}
	return d.Load()
}

func (d *Detail) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.ProjectSelected:
		if msg.Name != d.project {
			d.elsewhere = msg.Name
			d.Req.CancelAll()
		} else {
			d.elsewhere = ""
		}
		return d, nil
	case common.SpinnerTick:
		if dd, ok := d.Item(); ok {
			d.Set(dd) // the time in state moves
		}
		return d, nil
	case common.OpenService, showAll:
		// Handed to the tab root while a detail is on top: show that instead.
		return d, tea.Sequence(common.Send(common.PopView{}), common.Send(msg))
	case tea.KeyMsg:
		if d.elsewhere != "" {
			return d, nil
		}
	}
	if r, ok := msg.(common.Result[detailData]); ok && r.Kind == base.KindDetail && d.Ctx.NotFound(r.Err) && d.Req.Current(r.Addr) {
		// Deleted elsewhere: the session lets go of it; the view says the platform's words.
		return d, tea.Batch(d.Handle(msg), common.Send(common.Gone{What: common.GoneService, Project: d.project, Name: d.name}))
	}
	if cmd, handled := d.acts.handle(msg); handled {
		if d.gone {
			// The service is deleted: back to the list, which reloads.
			return d, tea.Batch(cmd, tea.Sequence(common.Send(common.PopView{}), common.Send(common.RefreshNow{})))
		}
		return d, cmd
	}
	return d, d.Handle(msg)
}

// View says so instead of the service once another project is current.
func (d *Detail) View() string {
	if d.elsewhere != "" {
		text := safe.Text(d.name + " is a service of " + d.project + ", and the current project is now " +
			d.elsewhere + ". Press esc to go back, or :project " + d.project + " to see it again.")
		return d.Ctx.Styles.Muted.Width(max(20, d.width-2)).PaddingLeft(2).Render(text)
	}
	return d.Detail.View()
}

// SetSize keeps the width for the sentence above.
func (d *Detail) SetSize(w, h int) {
	d.width = w
	d.Detail.SetSize(w, h)
}

// upsert, created and remove make Detail an action target: a saved service is shown at
// once, a deleted one closes the view.
func (d *Detail) upsert(_ string, s models.Service) {
	if dd, ok := d.Item(); ok && s.ServiceName == d.name {
		dd.Service = s
		d.Set(dd)
	}
}

func (d *Detail) created(string, string) {}

func (d *Detail) remove(string, string) { d.gone = true }

func sections(ctx *common.Context, project string, dd detailData) []components.Section {
	s := dd.Service
	now := ctx.Now()
	// Detail values are outside text and escaped whole: the badge goes as its glyph and
	// word without styling (the state itself went through safe.Text inside Badge).
	state := ansi.Strip(components.Badge(ctx, string(s.State)))
	if f := timeInState(ctx, s, now); f != "" {
		state += " " + f
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
		maint = strings.TrimSpace(m.DOW + " " + models.ShortMaintenanceTime(m.Time) + " UTC") // as the edit form and its review say it
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
		if password == models.Redacted {
			password = ""
		}
		conn = append(conn,
			components.Field{Label: "Host", Value: host},
			components.Field{Label: "Port", Value: port},
			components.Field{Label: "User", Value: user},
			components.Field{Label: "Database", Value: db},
			components.Field{Label: "Password", Value: password, Secret: true},
			components.Field{Label: "URI", Value: uri, Secret: true, Masked: maskedURI(uri)},
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

// maskedURI is a URI with only its password hidden, or "" (all dots) when it carries no
// password to hide or cannot be read.
func maskedURI(uri string) string {
	if m := models.MaskURI(uri); m != uri {
		return m
	}
	return ""
}
