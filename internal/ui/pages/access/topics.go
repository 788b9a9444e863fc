package access

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/theme"
)

// Topics is a Kafka service's topics; a new topic is CONFIGURING for a while, shown
// with a spinner and refreshed fast until it is ACTIVE.
type Topics struct{ sub[models.Topic] }

// NewTopics builds the topics view of a service.
func NewTopics(ctx *common.Context, t target) *Topics {
	v := &Topics{}
	name := func(tp models.Topic) string { return tp.TopicName }
	v.sub = newSub(ctx, t, common.AccessTopics, ctx.API.ListTopics, name, base.ListSpec[models.Topic]{
		Noun: "topic",
		Columns: []components.Column{{Title: "Topic", Flex: true, Max: 60}, {Title: "Partitions", Right: true, Numeric: true, Max: 10},
			{Title: "Replication", Right: true, Numeric: true, Max: 11}, {Title: "State", Max: 16, Styled: true}},
		Empty: "No topics yet. Press c to create one.",
		Key:   name,
		Row: func(tp models.Topic) components.Row {
			p, r := strconv.Itoa(int(tp.Partitions)), strconv.Itoa(int(tp.Replication))
			return components.Row{Cells: []string{tp.TopicName, p, r, topicBadge(ctx.Styles, tp.State)},
				Sort: []string{tp.TopicName, p, r, tp.State}}
		},
		Actions: []base.Action[models.Topic]{
			{Key: ctx.Keys.Create, Help: "create topic", NoSelection: true, Run: func(models.Topic) tea.Cmd { return v.startCreate() }},
			{Key: ctx.Keys.Delete, Hidden: true, NoSelection: true, Run: func(models.Topic) tea.Cmd { return noDelete("topics") }},
		},
		Interval: func() time.Duration {
			if v.configuring() {
				return common.FastRefresh
			}
			return ctx.Refresh
		},
	})
	return v
}

// Animating shows the screen's spinner while a topic is being configured (the rows
// carry a still glyph).
func (v *Topics) Animating() bool { return v.configuring() }

func (v *Topics) configuring() bool {
	for _, tp := range v.Items() {
		if tp.State != "" && tp.State != "ACTIVE" {
			return true
		}
	}
	return false
}

func (v *Topics) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.SpinnerTick:
		return v, nil // nothing on a row moves
	case common.Result[models.Service]:
		if msg.Kind != kindTopicService || !v.Req.Current(msg.Addr) {
			return v, nil
		}
		return v, v.openForm(msg.Value, msg.Err)
	}
	return v, v.handle(msg)
}

// topicBadge shows ACTIVE as ready and CONFIGURING (or any other state) as in progress.
func topicBadge(st *theme.Theme, state string) string {
	switch state {
	case "ACTIVE":
		return st.OK.Render("● ACTIVE")
	case "":
		return st.Muted.Render("? unknown")
	}
	return st.Warn.Render(theme.InProgressGlyph + " " + safe.Text(state))
}

// startCreate reads the service first: replication may not exceed its node count.
func (v *Topics) startCreate() tea.Cmd {
	if cmd := v.svc.refuse("create", false); cmd != nil {
		return cmd
	}
	api, t := v.Ctx.API, v.svc.t
	return tea.Sequence(common.Info("Reading "+t.Service+"'s node count…"),
		common.Fetch(v.Req, kindTopicService, func(ctx context.Context) (models.Service, error) {
			return api.GetService(ctx, t.Project, t.Service)
		}))
}

// openForm opens the create form; without the node count (the read failed) the
// platform checks replication alone, and the form says so.
func (v *Topics) openForm(sv models.Service, err error) tea.Cmd {
	nodes := sv.NodeCount
	note := tea.Cmd(common.Info(""))
	if err != nil {
		nodes = 0
		note = common.Warn("Could not read " + v.svc.t.Service + "'s node count (" + v.Ctx.ErrorText(err) + "); the platform will check replication")
	}
	return tea.Batch(note, v.Ctx.Open(v.form(nodes)))
}

// replicationRule is the spec's limit and, when known, the service's node count.
func replicationRule(nodes int, service string) func(int) error {
	return func(n int) error {
		if err := models.ValidateReplication(n); err != nil {
			return err
		}
		if nodes > 0 && n > nodes {
			return fmt.Errorf("replication %d is more than %s's %d nodes", n, service, nodes)
		}
		return nil
	}
}

func (v *Topics) form(nodes int) *components.Form {
	t := v.svc.t
	name, parts, repl := "", "1", "2"
	replDesc := "1-10, at most the service's node count"
	if nodes > 0 {
		repl = strconv.Itoa(min(2, nodes))
		replDesc = fmt.Sprintf("1-%d (%s has %d nodes)", min(10, nodes), t.Service, nodes)
	}
	check := nameCheck(v.List, "topic", t.Service, models.ValidateTopicName)
	partsCheck := intCheck("partitions", models.ValidatePartitions)
	replCheck := intCheck("replication", replicationRule(nodes, t.Service))
	nameInput := huh.NewInput().Title("Topic name").Description("letters, digits, '.', '_' and '-'").
		Value(&name).Validate(required(check, "topic name"))
	partsInput := huh.NewInput().Title("Partitions").Description("1-1000").Value(&parts).Validate(partsCheck)
	replInput := huh.NewInput().Title("Replication").Description(replDesc).
		Value(&repl).Validate(replCheck)
	var f *components.Form
	f = components.NewForm(v.Ctx, "Create topic on "+t.Service, func() tea.Cmd {
		if cmd := unnamed("topic", name); cmd != nil {
			return cmd
		}
		p, _ := strconv.Atoi(strings.TrimSpace(parts))
		r, _ := strconv.Atoi(strings.TrimSpace(repl))
		req := models.CreateTopicRequest{TopicName: name, Partitions: p, Replication: r}
		return v.mk.send(creation[models.Topic]{noun: "topic", name: req.TopicName, form: f,
			find: func(tp models.Topic) bool { return tp.TopicName == req.TopicName }},
			func(ctx context.Context, wr common.Writer) (made, error) {
				return made{key: req.TopicName, text: "Created topic " + req.TopicName + "; it is being configured"},
					wr.CreateTopic(ctx, t.Project, t.Service, req)
			})
	}, huh.NewGroup(nameInput, partsInput, replInput)).
		Live(nameInput, live(check, &name)).Live(partsInput, live(partsCheck, &parts)).Live(replInput, live(replCheck, &repl)).
		Names("topic_name", "Topic name", nil).Names("partitions", "Partitions", nil).Names("replication", "Replication", nil)
	return f
}
