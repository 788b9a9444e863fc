package access

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// Databases is a PostgreSQL or MySQL service's databases.
type Databases struct{ sub[models.Database] }

// NewDatabases builds the databases view of a service.
func NewDatabases(ctx *common.Context, t target) *Databases {
	v := &Databases{}
	name := func(d models.Database) string { return d.DatabaseName }
	v.sub = newSub(ctx, t, common.AccessDatabases, ctx.API.ListDatabases, name, base.ListSpec[models.Database]{
		Noun:    "database",
		Columns: []components.Column{{Title: "Database", Flex: true, Max: 64}},
		Empty:   "No databases yet. Press c to create one.",
		Key:     name,
		Row:     func(d models.Database) components.Row { return components.Row{Cells: []string{d.DatabaseName}} },
		Actions: []base.Action[models.Database]{
			{Key: ctx.Keys.Create, Help: "create database", NoSelection: true, Run: func(models.Database) tea.Cmd { return v.startCreate() }},
			{Key: ctx.Keys.Delete, Hidden: true, NoSelection: true, Run: func(models.Database) tea.Cmd { return noDelete("databases") }},
		},
	})
	return v
}

func (v *Databases) Update(msg tea.Msg) (common.View, tea.Cmd) { return v, v.handle(msg) }

func (v *Databases) startCreate() tea.Cmd {
	if cmd := v.svc.refuse("create", false); cmd != nil {
		return cmd
	}
	return v.Ctx.Open(v.form())
}

func (v *Databases) form() *components.Form {
	var name string
	t := v.svc.t
	check := nameCheck(v.List, "database", t.Service, models.ValidateDatabaseName)
	input := huh.NewInput().Title("Database name").Description("1-63 characters, starting with a letter or underscore").
		Value(&name).Validate(required(check, "database name"))
	var f *components.Form
	f = components.NewForm(v.Ctx, "Create database on "+t.Service, func() tea.Cmd {
		if cmd := unnamed("database", name); cmd != nil {
			return cmd
		}
		db := name
		return v.mk.send(creation[models.Database]{noun: "database", name: db, form: f,
			find: func(d models.Database) bool { return d.DatabaseName == db }},
			func(ctx context.Context, wr common.Writer) (made, error) {
				return made{key: db, text: "Created database " + db + " on " + t.Service}, wr.CreateDatabase(ctx, t.Project, t.Service, db)
			})
	}, huh.NewGroup(input)).Live(input, live(check, &name)).Names("database", "Database name", nil)
	return f
}
