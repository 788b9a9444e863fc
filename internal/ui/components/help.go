package components

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
)

// HelpGroup is a titled list of bindings.
type HelpGroup struct {
	Title    string
	Bindings []key.Binding
}

// Help is the '?' overlay: every enabled binding of the focused view, then the global
// ones, in columns bounded by the window; it scrolls when they do not fit.
type Help struct {
	ctx          *common.Context
	groups       []HelpGroup
	offset       int
	screenW, scH int
}

// NewHelp builds the overlay; disabled bindings (read-only) are left out.
func NewHelp(ctx *common.Context, groups ...HelpGroup) *Help {
	h := &Help{ctx: ctx}
	for _, g := range groups {
		seen := map[string]bool{}
		var bs []key.Binding
		for _, b := range keys.Enabled(g.Bindings...) {
			id := b.Help().Key + b.Help().Desc
			if seen[id] || b.Help().Key == "" {
				continue
			}
			seen[id] = true
			bs = append(bs, b)
		}
		if len(bs) > 0 {
			h.groups = append(h.groups, HelpGroup{g.Title, bs})
		}
	}
	return h
}

func (h *Help) Init() tea.Cmd     { return nil }
func (h *Help) SetSize(w, ht int) { h.screenW, h.scH = w, ht }
func (h *Help) ShortHelp() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("esc", "?", "q"), key.WithHelp("esc/?", "close"))}
}
func (h *Help) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }

func (h *Help) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return h, nil
	}
	switch km.String() {
	case "esc", "?", "q":
		return h, common.Send(common.CloseModal{})
	case "down", "j":
		h.offset++
	case "up", "k":
		h.offset = max(0, h.offset-1)
	}
	return h, nil
}

// Lines renders the groups one binding per line.
func (h *Help) Lines() []string {
	st := h.ctx.Styles
	var lines []string
	for gi, g := range h.groups {
		if gi > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, st.HelpGroup.Render(g.Title))
		for _, b := range g.Bindings {
			lines = append(lines, "  "+st.HelpKey.Render(pad(b.Help().Key, 10, false))+" "+st.HelpDesc.Render(b.Help().Desc))
		}
	}
	return lines
}

func (h *Help) View() string {
	lines := h.Lines()
	avail := max(3, h.scH-8)
	// Two columns when the lines do not fit in one and the screen is wide enough.
	if len(lines) > avail && h.screenW >= 70 {
		half := (len(lines) + 1) / 2
		colW := min(40, (h.screenW-14)/2)
		var merged []string
		for i := 0; i < half; i++ {
			left := pad(ansi.Truncate(lines[i], colW, "…"), colW, false)
			right := ""
			if i+half < len(lines) {
				right = lines[i+half]
			}
			merged = append(merged, left+"  "+right)
		}
		lines = merged
	}
	h.offset = max(0, min(h.offset, len(lines)-avail))
	end := min(len(lines), h.offset+avail)
	body := lines[h.offset:end]
	for i, l := range body {
		body[i] = ansi.Truncate(l, max(20, h.screenW-8), "…")
	}
	more := ""
	if end < len(lines) {
		more = "   ↓ more"
	}
	return Frame(h.ctx, "Keys", strings.Join(body, "\n"), "esc / ?: close"+more, h.screenW, h.scH)
}
