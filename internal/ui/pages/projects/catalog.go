package projects

import (
	"context"
	"sort"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// catalog is a read-only table of catalogue data pushed by ":clouds" and ":types"; it
// is on the Projects tab's stack, so ":create project" may reach it.
type catalog[T any] struct {
	*base.List[T]
	acts *actions
}

func newCatalog[T any](ctx *common.Context, spec base.ListSpec[T]) *catalog[T] {
	c := &catalog[T]{List: base.NewList(ctx, spec)}
	c.acts = &actions{ctx: ctx, req: c.Req}
	return c
}

func (c *catalog[T]) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if _, ok := msg.(createProject); ok {
		return c, c.acts.startCreate()
	}
	if cmd, handled, _ := c.acts.handle(msg); handled {
		return c, cmd
	}
	return c, c.Handle(msg)
}

// NewClouds lists the cloud regions grouped (sorted) by geo_region.
func NewClouds(ctx *common.Context) common.View {
	return newCatalog(ctx, base.ListSpec[models.Cloud]{
		Title: "Clouds",
		Noun:  "cloud",
		Columns: []components.Column{
			{Title: "Region", Max: 16}, {Title: "Cloud", Max: 32}, {Title: "Description", Flex: true, Max: 50},
			{Title: "Lat", Right: true, Numeric: true, Optional: true}, {Title: "Lon", Right: true, Numeric: true, Optional: true},
		},
		Empty: "The platform lists no clouds.",
		Load: func() (base.Fetcher[models.Cloud], string) {
			api := ctx.API
			return func(c context.Context) ([]models.Cloud, error) {
				cs, err := api.ListClouds(c)
				sort.SliceStable(cs, func(i, j int) bool {
					if cs[i].GeoRegion != cs[j].GeoRegion {
						return cs[i].GeoRegion < cs[j].GeoRegion
					}
					return cs[i].CloudName < cs[j].CloudName
				})
				return cs, err
			}, ""
		},
		Key: func(c models.Cloud) string { return c.CloudName },
		Row: func(cl models.Cloud) components.Row {
			return components.Row{Cells: []string{dash(cl.GeoRegion), cl.CloudName, dash(cl.CloudDescription),
				trimFloat(cl.GeoLatitude), trimFloat(cl.GeoLongitude)}}
		},
		Interval: notLive,
	})
}

// NewTypes lists the service types.
func NewTypes(ctx *common.Context) common.View {
	return newCatalog(ctx, base.ListSpec[models.ServiceType]{
		Title:   "Service types",
		Noun:    "service type",
		Columns: []components.Column{{Title: "Type", Max: 16}, {Title: "Latest version", Max: 16}, {Title: "Description", Flex: true, Max: 80}},
		Empty:   "The platform lists no service types.",
		Load: func() (base.Fetcher[models.ServiceType], string) {
			api := ctx.API
			return api.ListServiceTypes, ""
		},
		Key: func(t models.ServiceType) string { return t.ServiceType },
		Row: func(t models.ServiceType) components.Row {
			return components.Row{Cells: []string{t.ServiceType, dash(t.LatestAvailableVersion), dash(t.Description)}}
		},
		Interval: notLive,
	})
}

// notLive: the catalogue does not change while one looks at it; ctrl+r reloads.
func notLive() time.Duration { return -1 }
