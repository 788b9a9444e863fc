package search

import (
	"context"
	"sort"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
)

// Connecting as another user (U): the connector lists the service's users in a picker,
// asks for the chosen one's password and reconnects (reconnectAs).

// serviceUsers are the user names of the connected service.
type serviceUsers []string

// loadUsers fetches the service's users (connect as another user).
func (c *connector) loadUsers() tea.Cmd {
	if c.conn == nil {
		return common.Warn("Connect to an opensearch service first: " + c.notReady())
	}
	api, project, service := c.ctx.API, c.conn.project, c.conn.service
	return common.Fetch(c.req, kindUsers, func(ctx context.Context) (serviceUsers, error) {
		us, err := api.ListUsers(ctx, project, service)
		if err != nil {
			return nil, err
		}
		names := make(serviceUsers, 0, len(us))
		for _, u := range us {
			names = append(names, u.Username)
		}
		sort.Strings(names)
		return names, nil
	})
}

type reconnectAs struct {
	id             int64
	user, password string
}

func (m reconnectAs) Target() int64 { return m.id }

func (c *connector) openUserPicker(users serviceUsers, err error) tea.Cmd {
	if err != nil {
		return common.Error("Could not list the service's users: " + c.ctx.ErrorText(err))
	}
	var items []pickItem
	for _, u := range users {
		items = append(items, pickItem{label: u, choose: func() tea.Cmd { return c.askPassword(u) }})
	}
	c.openPicker(&picker{title: "Connect as", all: items})
	return nil
}

// askPassword asks for user's password; the connector then reconnects as that user.
func (c *connector) askPassword(user string) tea.Cmd {
	var pw string
	id := c.req.ID
	field := huh.NewInput().Title("Password of " + safe.Text(user)).EchoMode(huh.EchoModePassword).Value(&pw)
	form := components.NewForm(c.ctx, "Connect as "+safe.Text(user), func() tea.Cmd {
		return common.Send(reconnectAs{id: id, user: user, password: pw})
	}, huh.NewGroup(field))
	return c.ctx.Open(form)
}
