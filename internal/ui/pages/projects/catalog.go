package projects

import (
	"context"
	"sort"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// Catalog is a read-only table of catalogue data (clouds grouped by region, or service
// types), pushed by the ":clouds" and ":types" commands.
type Catalog struct {
	ctx   *common.Context
	req   *common.Requests
	table *components.Table
	title string
	load  func() tea.Cmd
}

// NewClouds lists the cloud regions grouped (sorted) by geo_region.
func NewClouds(ctx *common.Context) *Catalog {
	c := &Catalog{ctx: ctx, req: common.NewRequests(), title: "Clouds"}
	c.table = components.NewTable(ctx, []components.Column{
		{Title: "Region", Max: 16}, {Title: "Cloud", Max: 32}, {Title: "Description", Flex: true, Max: 50},
		{Title: "Lat", Right: true, Numeric: true, Optional: true}, {Title: "Lon", Right: true, Numeric: true, Optional: true},
	})
	c.table.Empty = "The platform lists no clouds."
	api := ctx.API
	c.load = func() tea.Cmd {
		return common.Fetch(c.req, "clouds", func(ctx context.Context) ([]models.Cloud, error) { return api.ListClouds(ctx) })
	}
	return c
}

// NewTypes lists the service types.
func NewTypes(ctx *common.Context) *Catalog {
	c := &Catalog{ctx: ctx, req: common.NewRequests(), title: "Service types"}
	c.table = components.NewTable(ctx, []components.Column{
		{Title: "Type", Max: 16}, {Title: "Latest version", Max: 16}, {Title: "Description", Flex: true, Max: 80},
	})
	c.table.Empty = "The platform lists no service types."
	api := ctx.API
	c.load = func() tea.Cmd {
		return common.Fetch(c.req, "types", func(ctx context.Context) ([]models.ServiceType, error) { return api.ListServiceTypes(ctx) })
	}
	return c
}

func (c *Catalog) Init() tea.Cmd    { return c.load() }
func (c *Catalog) Title() string    { return c.title }
func (c *Catalog) SetSize(w, h int) { c.table.SetSize(w, h) }
func (c *Catalog) Capturing() bool  { return c.table.Filtering() }
func (c *Catalog) Leave()           { c.req.CancelAll() }
func (c *Catalog) View() string     { return c.table.View() }
func (c *Catalog) ShortHelp() []key.Binding {
	k := c.ctx.Keys
	return []key.Binding{k.Filter, k.Sort}
}
func (c *Catalog) FullHelp() [][]key.Binding { return [][]key.Binding{c.table.HelpBindings()} }

// ClaimsKey takes esc while a filter is applied.
func (c *Catalog) ClaimsKey(msg tea.KeyMsg) bool {
	return key.Matches(msg, c.ctx.Keys.Back) && c.table.FilterText() != ""
}

func (c *Catalog) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[formData], common.Result[models.Project], common.Result[deleted]:
		cmd, _, _ := (&actions{ctx: c.ctx, req: c.req}).handle(msg)
		return c, cmd
	case common.Result[[]models.Cloud]:
		if !c.req.Current(msg.Addr) {
			return c, nil
		}
		if msg.Err != nil {
			c.table.SetError(c.ctx.ErrorText(msg.Err))
			return c, nil
		}
		cs := append([]models.Cloud(nil), msg.Value...)
		sort.SliceStable(cs, func(i, j int) bool {
			if cs[i].GeoRegion != cs[j].GeoRegion {
				return cs[i].GeoRegion < cs[j].GeoRegion
			}
			return cs[i].CloudName < cs[j].CloudName
		})
		rows := make([]components.Row, 0, len(cs))
		for _, cl := range cs {
			rows = append(rows, components.Row{Key: cl.CloudName, Cells: []string{dash(cl.GeoRegion), cl.CloudName, dash(cl.CloudDescription),
				formatCoord(cl.GeoLatitude), formatCoord(cl.GeoLongitude)}})
		}
		c.table.SetRows(rows)
		return c, nil
	case common.Result[[]models.ServiceType]:
		if !c.req.Current(msg.Addr) {
			return c, nil
		}
		if msg.Err != nil {
			c.table.SetError(c.ctx.ErrorText(msg.Err))
			return c, nil
		}
		rows := make([]components.Row, 0, len(msg.Value))
		for _, t := range msg.Value {
			rows = append(rows, components.Row{Key: t.ServiceType, Cells: []string{t.ServiceType, dash(t.LatestAvailableVersion), dash(t.Description)}})
		}
		c.table.SetRows(rows)
		return c, nil
	case common.RefreshNow:
		return c, c.load()
	case createProject:
		return c, (&actions{ctx: c.ctx, req: c.req}).startCreate()
	}
	_, cmd := c.table.Update(msg)
	return c, cmd
}

func formatCoord(f float64) string {
	return trimFloat(f)
}
