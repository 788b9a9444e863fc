package components

import (
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// Palette is the ':' command palette: fuzzy completion over registered commands and
// resource names from the context caches ("project acme-prod", "service pg-main");
// tab completes, enter runs, esc closes.
type Palette struct {
	closing
	ctx          *common.Context
	input        TextLine
	candidates   []candidate
	matches      []candidate
	cursor       int
	screenW, scH int
}

type candidate struct {
	text string
	help string
}

// NewPalette builds the palette from the context's commands and caches.
func NewPalette(ctx *common.Context) *Palette {
	p := &Palette{ctx: ctx}
	for _, c := range ctx.Commands.All() {
		if c.OptionalArg && c.Arg != common.NoArg {
			p.candidates = append(p.candidates, candidate{c.Name, c.Help})
		}
		switch c.Arg {
		case common.NoArg:
			p.candidates = append(p.candidates, candidate{c.Name, c.Help})
		case common.ProjectArg:
			for _, n := range ctx.ProjectNames {
				p.addArg(c, n)
			}
		case common.ServiceArg:
			for _, n := range ctx.ServiceNames[ctx.Project()] {
				p.addArg(c, n)
			}
		case common.AnyServiceArg:
			for _, n := range ctx.ServiceNames[ctx.Project()] {
				p.addArg(c, n)
			}
			projects := make([]string, 0, len(ctx.ServiceNames))
			for pr := range ctx.ServiceNames {
				if pr != ctx.Project() {
					projects = append(projects, pr)
				}
			}
			sort.Strings(projects)
			for _, pr := range projects {
				for _, n := range ctx.ServiceNames[pr] {
					if c.Accepts == nil || c.Accepts(p.ctx, pr+"/"+n) {
						p.candidates = append(p.candidates, candidate{c.Name + " " + pr + "/" + n, "in " + pr + ": " + c.Help})
					}
				}
			}
		case common.BillingGroupArg:
			names := make([]string, 0, len(ctx.BillingGroups))
			for _, n := range ctx.BillingGroups {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				p.addArg(c, n)
			}
		case common.ProfileArg:
			for _, n := range ctx.Profiles {
				p.candidates = append(p.candidates, candidate{c.Name + " " + n, c.Help})
			}
		case common.FreeArg:
			p.candidates = append(p.candidates, candidate{c.Name + " ", c.Help})
		}
	}
	aliases := ctx.Commands.Aliases()
	names := make([]string, 0, len(aliases))
	for a := range aliases {
		names = append(names, a)
	}
	sort.Strings(names)
	for _, a := range names {
		if cmd, _, ok := ctx.Commands.Lookup(aliases[a]); ok {
			p.candidates = append(p.candidates, candidate{a, "= " + cmd.Name + ": " + cmd.Help})
		}
	}
	p.filter()
	return p
}

// addArg offers "command name" when the command accepts that name.
func (p *Palette) addArg(c common.Command, name string) {
	if c.Accepts == nil || c.Accepts(p.ctx, name) {
		p.candidates = append(p.candidates, candidate{c.Name + " " + name, c.Help})
	}
}

type candidates []candidate

func (c candidates) String(i int) string { return c[i].text }
func (c candidates) Len() int            { return len(c) }

// Matches returns the current completions, best first.
func (p *Palette) Matches() []string {
	out := make([]string, len(p.matches))
	for i, m := range p.matches {
		out[i] = m.text
	}
	return out
}

// Input is the typed text.
func (p *Palette) Input() string { return p.input.Value() }

func (p *Palette) filter() {
	q := strings.TrimSpace(p.input.Value())
	if q == "" {
		p.matches = p.candidates
	} else {
		res := fuzzy.FindFrom(q, candidates(p.candidates))
		p.matches = make([]candidate, 0, len(res))
		for _, r := range res {
			p.matches = append(p.matches, p.candidates[r.Index])
		}
	}
	p.cursor = min(p.cursor, max(0, len(p.matches)-1))
}

func (p *Palette) Init() tea.Cmd    { return nil }
func (p *Palette) SetSize(w, h int) { p.screenW, p.scH = w, h }
func (p *Palette) ShortHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}
func (p *Palette) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

func (p *Palette) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	switch km.Type {
	case tea.KeyEsc:
		return p, p.close()
	case tea.KeyUp, tea.KeyCtrlP:
		p.cursor = max(0, p.cursor-1)
		return p, nil
	case tea.KeyDown, tea.KeyCtrlN:
		p.cursor = min(len(p.matches)-1, p.cursor+1)
		return p, nil
	case tea.KeyTab:
		if len(p.matches) > 0 {
			p.input = TextLine{runes: []rune(p.matches[p.cursor].text)}
			p.cursor = 0
			p.filter()
		}
		return p, nil
	case tea.KeyEnter:
		return p, p.run()
	}
	p.input.Update(km)
	p.cursor = 0
	p.filter()
	return p, nil
}

// run runs what enter points at: the typed line when it is itself one of the offered
// lines (or a free-text command), else the highlighted completion, so ":service kaf"
// with "service kafka-events" highlighted opens kafka-events. Only with no completion
// left is the line taken as typed (a name the caches do not know yet).
func (p *Palette) run() tea.Cmd {
	line := strings.Join(strings.Fields(p.input.Value()), " ")
	if line == "" {
		return p.close()
	}
	target := line
	if len(p.matches) > 0 && !p.offered(line) {
		if c, _, ok := p.ctx.Commands.Lookup(line); !ok || c.Arg != common.FreeArg {
			target = p.matches[p.cursor].text
		}
	}
	cmd, arg, ok := p.ctx.Commands.Lookup(target)
	closeCmd := p.close()
	if !ok {
		if line == "" {
			return closeCmd
		}
		return tea.Batch(closeCmd, common.Warn("Unknown command “"+line+"”. Press : and tab to see the commands."))
	}
	if cmd.Arg != common.NoArg && cmd.Arg != common.FreeArg && arg == "" && !cmd.OptionalArg {
		return tea.Batch(closeCmd, common.Warn("“"+cmd.Name+"” needs a name, e.g. "+cmd.Name+" NAME"))
	}
	if cmd.Mutating && p.ctx.ReadOnly {
		return tea.Batch(closeCmd, common.Warn("Read-only mode: “"+cmd.Name+"” changes the platform and is disabled"))
	}
	return tea.Batch(closeCmd, cmd.Run(p.ctx, arg))
}

// offered reports whether line is exactly one of the palette's lines.
func (p *Palette) offered(line string) bool {
	for _, c := range p.candidates {
		if strings.EqualFold(strings.TrimSpace(c.text), line) {
			return true
		}
	}
	return false
}

func (p *Palette) View() string {
	st := p.ctx.Styles
	w := ModalWidth(p.screenW)
	var b strings.Builder
	b.WriteString(st.FilterPrompt.Render(": ") + safe.Text(p.input.Value()) + "█\n")
	rows := max(3, min(12, p.scH-10))
	start := 0
	if p.cursor >= rows {
		start = p.cursor - rows + 1
	}
	if len(p.matches) == 0 {
		b.WriteString(st.Muted.Render("no matching command"))
	}
	for i := start; i < len(p.matches) && i < start+rows; i++ {
		m := p.matches[i]
		// Both hold platform names ("service X in PROJECT").
		text, help := pad(safe.Text(m.text), min(30, w/2), false), safe.Text(m.help)
		line := "  " + text + "  " + st.Muted.Render(help)
		if i == p.cursor {
			line = st.Selected.Render("› "+text) + "  " + st.Muted.Render(help)
		}
		b.WriteString(ansi.Truncate(line, w, "…") + "\n")
	}
	return Frame(p.ctx, "Command", strings.TrimRight(b.String(), "\n"), "tab: complete   enter: run   esc: close", p.screenW, p.scH)
}
