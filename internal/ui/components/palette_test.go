package components

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
)

type gotoProject struct{ name string }

func paletteCtx() *common.Context {
	c := testCtx()
	c.SetProjects(models.ProjectList{Projects: []models.Project{{ProjectName: "acme-prod"}, {ProjectName: "acme-staging"}}})
	uitest.Session(c).SetProject("acme-prod")
	c.SetServiceNames("acme-prod", []string{"pg-main", "kafka-events"})
	c.Commands.Register(
		common.Command{Name: "projects", Run: func(*common.Context, string) tea.Cmd { return common.Send(common.SwitchTab{Tab: common.TabProjects}) }},
		common.Command{Name: "services", Run: func(*common.Context, string) tea.Cmd { return common.Send(common.SwitchTab{Tab: common.TabServices}) }},
		common.Command{Name: "services all", Run: func(*common.Context, string) tea.Cmd { return common.Send(gotoProject{"*"}) }},
		common.Command{Name: "project", Arg: common.ProjectArg, Run: func(_ *common.Context, a string) tea.Cmd { return common.Send(gotoProject{a}) }},
		common.Command{Name: "service", Arg: common.ServiceArg, Run: func(_ *common.Context, a string) tea.Cmd { return common.Send(gotoProject{"svc:" + a}) }},
		common.Command{Name: "create-thing", Mutating: true, Run: func(*common.Context, string) tea.Cmd { return common.Send(gotoProject{"mutated"}) }},
	)
	return c
}

// collect runs a command tree and returns the messages it produces (Batch flattened).
func collect(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, collect(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func runPalette(c *common.Context, keys ...string) []tea.Msg {
	p := NewPalette(c)
	p.SetSize(120, 40)
	var cmd tea.Cmd
	for _, k := range keys {
		_, cmd = p.Update(keyMsg(k))
	}
	msgs := collect(cmd)
	if p.Closed() {
		msgs = append(msgs, closedMsg{})
	}
	return msgs
}

// closedMsg stands for "the modal reported Closed" among a test's messages.
type closedMsg struct{}

func TestPaletteCompletesCommandsAndNames(t *testing.T) {
	c := paletteCtx()
	p := NewPalette(c)
	for _, r := range "stag" {
		p.Update(keyMsg(string(r)))
	}
	if m := p.Matches(); len(m) == 0 || m[0] != "project acme-staging" {
		t.Fatalf("matches for stag: %v", m)
	}
	p.Update(keyMsg("tab"))
	if p.Input() != "project acme-staging" {
		t.Fatalf("tab completion: %q", p.Input())
	}
	p2 := NewPalette(c)
	for _, r := range "pgm" {
		p2.Update(keyMsg(string(r)))
	}
	if m := p2.Matches(); len(m) == 0 || m[0] != "service pg-main" {
		t.Fatalf("service completion: %v", m)
	}
}

func has(msgs []tea.Msg, want tea.Msg) bool {
	for _, m := range msgs {
		if m == want {
			return true
		}
	}
	return false
}

func TestPaletteRuns(t *testing.T) {
	c := paletteCtx()
	if msgs := runPalette(c, "p", "r", "o", "j", "e", "c", "t", "s", "enter"); !has(msgs, common.SwitchTab{Tab: common.TabProjects}) || !has(msgs, closedMsg{}) {
		t.Errorf("projects: %v", msgs)
	}
	typed := []string{}
	for _, r := range "services all" {
		typed = append(typed, string(r))
	}
	if msgs := runPalette(c, append(typed, "enter")...); !has(msgs, gotoProject{"*"}) {
		t.Errorf("services all: %v", msgs)
	}
	typed = typed[:0]
	for _, r := range "project acme-staging" {
		typed = append(typed, string(r))
	}
	if msgs := runPalette(c, append(typed, "enter")...); !has(msgs, gotoProject{"acme-staging"}) {
		t.Errorf("project NAME: %v", msgs)
	}
	// A fuzzy fragment runs the best completion.
	if msgs := runPalette(c, "k", "a", "f", "enter"); !has(msgs, gotoProject{"svc:kafka-events"}) {
		t.Errorf("fuzzy run: %v", msgs)
	}
	// Unknown input says so.
	msgs := runPalette(c, "z", "z", "z", "z", "enter")
	found := false
	for _, m := range msgs {
		if n, ok := m.(common.Notify); ok && n.Text != "" {
			found = true
		}
	}
	if !found {
		t.Errorf("unknown command: %v", msgs)
	}
	// esc closes without running anything.
	if msgs := runPalette(c, "p", "esc"); len(msgs) != 1 || msgs[0] != (closedMsg{}) {
		t.Errorf("esc: %v", msgs)
	}
	// Read-only refuses mutating commands before running them.
	c.ReadOnly = true
	typed = typed[:0]
	for _, r := range "create-thing" {
		typed = append(typed, string(r))
	}
	msgs = runPalette(c, append(typed, "enter")...)
	if has(msgs, gotoProject{"mutated"}) {
		t.Error("mutating command ran in read-only mode")
	}
}

func TestPaletteOptionalArgRunsBareAndIsListed(t *testing.T) {
	c := paletteCtx()
	c.Commands.Register(common.Command{Name: "search", Arg: common.ServiceArg, OptionalArg: true,
		Run: func(_ *common.Context, a string) tea.Cmd { return common.Send(gotoProject{"search:" + a}) }})
	p := NewPalette(c)
	for _, r := range "search" {
		p.Update(keyMsg(string(r)))
	}
	if m := p.Matches(); len(m) == 0 || m[0] != "search" {
		t.Fatalf("bare search should be the first completion: %v", m)
	}
	// Bare, it must not pick a service from the completions.
	if msgs := runPalette(c, "s", "e", "a", "r", "c", "h", "enter"); !has(msgs, gotoProject{"search:"}) {
		t.Errorf("search without a service: %v", msgs)
	}
	typed := []string{}
	for _, r := range "search pg-main" {
		typed = append(typed, string(r))
	}
	if msgs := runPalette(c, append(typed, "enter")...); !has(msgs, gotoProject{"search:pg-main"}) {
		t.Errorf("search NAME: %v", msgs)
	}
}

func typeKeys(s string, then ...string) []string {
	var out []string
	for _, r := range s {
		out = append(out, string(r))
	}
	return append(out, then...)
}

func TestPaletteEnterRunsTheHighlightedCompletion(t *testing.T) {
	c := paletteCtx()
	// "service kaf" parses as a command with an argument, but the argument names no
	// service: enter runs what is highlighted, "service kafka-events".
	if msgs := runPalette(c, typeKeys("service kaf", "enter")...); !has(msgs, gotoProject{"svc:kafka-events"}) {
		t.Fatalf("service kaf: %v", msgs)
	}
	// The k9s words are aliases, not fuzzy matches of some service.
	c.Commands.Alias("svc", "services")
	if msgs := runPalette(c, typeKeys("svc", "enter")...); !has(msgs, common.SwitchTab{Tab: common.TabServices}) {
		t.Fatalf("svc: %v", msgs)
	}
	// Enter on nothing typed only closes.
	if msgs := runPalette(c, "enter"); len(msgs) != 1 || msgs[0] != (closedMsg{}) {
		t.Fatalf("empty enter: %v", msgs)
	}
}

func TestPaletteOffersOnlyValidTargets(t *testing.T) {
	c := paletteCtx()
	c.Commands.Register(common.Command{Name: "search", Arg: common.ServiceArg, OptionalArg: true,
		Accepts: func(_ *common.Context, name string) bool { return name == "pg-main" },
		Run:     func(_ *common.Context, a string) tea.Cmd { return common.Send(gotoProject{"search:" + a}) }})
	p := NewPalette(c)
	for _, r := range "search" {
		p.Update(keyMsg(string(r)))
	}
	for _, m := range p.Matches() {
		if m == "search kafka-events" {
			t.Fatalf("offered a target the command does not accept: %v", p.Matches())
		}
	}
}

func TestPaletteOffersOnlyServicesOfTheRightTypeFromTheCache(t *testing.T) {
	c := paletteCtx()
	c.SetServices("acme-prod", []models.Service{{ServiceName: "pg-main", ServiceType: "pg"}, {ServiceName: "logs", ServiceType: "opensearch"}})
	c.Commands.Register(common.Command{Name: "search", Arg: common.ServiceArg, OptionalArg: true,
		Accepts: func(ctx *common.Context, name string) bool {
			typ, ok := ctx.ServiceTypeOf(ctx.Project(), name)
			return !ok || typ == "opensearch"
		},
		Run: func(*common.Context, string) tea.Cmd { return nil }})
	p := NewPalette(c)
	got := strings.Join(p.Matches(), "|")
	if !strings.Contains(got, "search logs") || strings.Contains(got, "search pg-main") {
		t.Fatalf("offered: %s", got)
	}
}

// The palette's lines hold platform names in their help ("in PROJECT: …"): a project
// named with SGR and OSC sequences shows them escaped, never as colour, blink or a title.
func TestPaletteHelpEscapesPlatformNames(t *testing.T) {
	c := paletteCtx()
	c.Commands.Register(common.Command{Name: "svc", Arg: common.AnyServiceArg, Run: func(*common.Context, string) tea.Cmd { return nil }})
	evil := "evil\x1b[31m\x1b[5m\x1b]0;t\x07"
	c.SetServiceNames(evil, []string{"pg"})
	p := NewPalette(c)
	p.SetSize(200, 60)
	for _, r := range "svc evil" {
		p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	v := p.View()
	if strings.Contains(v, "\x1b[31m\x1b[5m") || strings.Contains(v, "\x1b]") || !strings.Contains(v, `evil\x1b[31m`) {
		t.Fatalf("palette:\n%q", v)
	}
}
