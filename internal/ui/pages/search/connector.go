package search

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/safe"
)

// connector finds and keeps the pane's opensearch service: it resolves the project's
// services, lets the person pick one when there are several, and (re)connects, as
// another user too. It owns the resolution's messages, the chooser's keys and the
// screen shown until there is a connection.
type connector struct {
	ctx     *common.Context
	req     *common.Requests
	project string
	wanted  string // service named with ":search NAME" or current in the context

	loading bool
	reason  string   // why there is nothing to search
	choices []string // opensearch services to pick from
	pick    int
	loadErr string

	conn *connection // nil until connected
	// connected is the pane's part of a new connection (keep: the same service as
	// before, another user).
	connected func(keep bool) tea.Cmd
	// openPicker shows the users to connect as (the pane draws pickers).
	openPicker func(*picker)
}

// update takes the connection's messages; ok is false for others.
func (c *connector) update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case common.Result[targetResult]:
		if !c.req.Current(msg.Addr) {
			return nil, true
		}
		return c.resolved(msg.Value, msg.Err), true
	case common.Result[serviceUsers]:
		if !c.req.Current(msg.Addr) {
			return nil, true
		}
		return c.openUserPicker(msg.Value, msg.Err), true
	case reconnectAs:
		if c.conn != nil {
			c.wanted = c.conn.service
		}
		return c.resolve(msg.user, msg.password), true
	}
	return nil, false
}

// resolve (re)connects: to the wanted service, or by looking the project's services up.
func (c *connector) resolve(user, password string) tea.Cmd {
	c.loading, c.loadErr = true, ""
	d := newDialer(c.ctx)
	project, wanted := c.project, c.wanted
	return common.Fetch(c.req, kindTarget, func(ctx context.Context) (targetResult, error) {
		if wanted != "" && user != "" {
			return d.connectTo(ctx, project, wanted, user, password)
		}
		return d.resolveTarget(ctx, project, wanted)
	})
}

// resolved takes the resolution's outcome: a connection, a choice or a reason.
func (c *connector) resolved(r targetResult, err error) tea.Cmd {
	c.loading = false
	if err != nil {
		c.loadErr = c.ctx.ErrorText(err)
		return common.Send(common.RefreshDone{Err: err})
	}
	c.reason, c.choices = r.reason, r.choices
	if r.conn == nil {
		return common.Send(common.RefreshDone{})
	}
	keep := c.conn != nil && c.conn.service == r.conn.service
	c.conn = r.conn
	c.wanted = r.conn.service
	return c.connected(keep)
}

// serves says the pane is, or is becoming, name's console.
func (c *connector) serves(name string) bool {
	return c.wanted == name && (c.conn != nil || c.loading)
}

// notReady says why the pane has no connection yet.
func (c *connector) notReady() string {
	switch {
	case c.reason != "":
		return c.reason
	case c.loadErr != "":
		return c.loadErr
	case len(c.choices) > 0:
		return "pick one first"
	}
	return "still connecting"
}

// actions are the chooser's keys (several opensearch services to pick from).
func (c *connector) actions() []paneAction {
	if len(c.choices) == 0 {
		return nil
	}
	k := c.ctx.Keys
	return []paneAction{
		{keys.Action{Binding: k.Down}, func() tea.Cmd { c.pick = min(c.pick+1, len(c.choices)-1); return nil }},
		{keys.Action{Binding: k.Up}, func() tea.Cmd { c.pick = max(c.pick-1, 0); return nil }},
		{keys.Action{Binding: help(k.Open, "connect")}, func() tea.Cmd {
			c.wanted = c.choices[c.pick]
			return c.resolve("", "")
		}},
	}
}

// key drives the chooser.
func (c *connector) key(msg tea.KeyMsg) tea.Cmd {
	acts := c.actions()
	if i := keysOf(acts).Find(msg); i >= 0 {
		return acts[i].run()
	}
	return nil
}

// view is the screen until there is a connection: looking, why not, or the choice.
func (c *connector) view(w int) string {
	st := c.ctx.Styles
	switch {
	case c.loading:
		return st.Muted.Render("Looking for the project's opensearch service…")
	case c.loadErr != "":
		// Wrapped: these sentences are the whole screen, a cut one says half of why.
		return st.Danger.Render(ansi.Wordwrap("Could not reach the platform: "+safe.Text(c.loadErr), w, "")) + "\n" +
			st.Muted.Render(c.ctx.Keys.Refresh.Help().Key+" retries.")
	case c.reason != "":
		return ansi.Wordwrap(safe.Text(c.reason), w, "")
	case len(c.choices) > 0:
		lines := []string{"Project " + safe.Text(c.project) + " has several opensearch services; pick one (" + c.ctx.Keys.Open.Help().Key + "):", ""}
		for i, name := range c.choices {
			prefix := "  "
			if i == c.pick {
				prefix = st.Accent.Render("▸ ")
			}
			lines = append(lines, prefix+safe.Text(name))
		}
		return strings.Join(lines, "\n")
	}
	return ""
}
