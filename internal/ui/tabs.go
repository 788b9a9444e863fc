package ui

import (
	"github.com/svcui/svcui/internal/apilog"
	"github.com/svcui/svcui/internal/ui/app"
	"github.com/svcui/svcui/internal/ui/changes"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/pages/access"
	apilogpage "github.com/svcui/svcui/internal/ui/pages/apilog"
	"github.com/svcui/svcui/internal/ui/pages/billing"
	"github.com/svcui/svcui/internal/ui/pages/projects"
	searchpane "github.com/svcui/svcui/internal/ui/pages/search"
	"github.com/svcui/svcui/internal/ui/pages/services"
	"github.com/svcui/svcui/internal/ui/plans"
	"github.com/svcui/svcui/internal/ui/watch"
)

// Tabs is the pane registry: the five tabs in order. A pane's helper sets New on its
// tab (and drops Missing) — the only line outside its own package it needs to touch.
func Tabs() []app.Tab {
	return []app.Tab{
		{ID: common.TabProjects, Name: "Projects", New: projects.New},
		{ID: common.TabServices, Name: "Services", New: services.New},
		{ID: common.TabUsers, Name: "Users", New: access.New, UsesService: true},
		{ID: common.TabBilling, Name: "Billing", New: billing.New},
		{ID: common.TabSearch, Name: "Search", New: searchpane.New, UsesService: true},
	}
}

// Commands collects the palette commands of every pane (appended after the root's
// defaults, so a pane's command replaces a default of the same name).
func Commands() []common.Command {
	var out []common.Command
	out = append(out, projects.Commands()...)
	out = append(out, billing.Commands()...)
	out = append(out, services.Commands()...)
	out = append(out, access.Commands()...)
	out = append(out, searchpane.Commands()...)
	out = append(out, apilogpage.Commands(apilog.Session)...)
	out = append(out, watch.Commands()...)
	out = append(out, changes.Commands()...)
	out = append(out, plans.Commands()...)
	return out
}
