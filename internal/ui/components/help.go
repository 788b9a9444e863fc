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
	closing
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
		return h, h.close()
	case "down", "j":
		h.offset++
	case "up", "k":
		h.offset = max(0, h.offset-1)
	}
	return h, nil
}

// Lines renders the groups one binding per line.
func (h *Help) Lines() []string {
	lines, _ := h.layoutLines()
	return lines
}

// layoutLines is Lines with the index of each group's title line.
func (h *Help) layoutLines() (lines []string, starts []int) {
	st := h.ctx.Styles
	for gi, g := range h.groups {
		if gi > 0 {
			lines = append(lines, "")
		}
		starts = append(starts, len(lines))
		lines = append(lines, st.HelpGroup.Render(g.Title))
		for _, b := range g.Bindings {
			lines = append(lines, "  "+st.HelpKey.Render(pad(b.Help().Key, 10, false))+" "+st.HelpDesc.Render(b.Help().Desc))
		}
	}
	return lines, starts
}

// splitColumns cuts the lines in two: at the group boundary that balances the columns
// when both then fit, otherwise in the middle with the cut group's title repeated on top
// of the right column, so no binding there appears without its group.
func (h *Help) splitColumns(lines []string, starts []int, avail int) (left, right []string) {
	best := -1
	for _, b := range starts[1:] {
		if max(b-1, len(lines)-b) <= avail && (best < 0 || max(b-1, len(lines)-b) < max(best-1, len(lines)-best)) {
			best = b
		}
	}
	if best > 0 {
		return lines[:best-1], lines[best:]
	}
	half := (len(lines) + 1) / 2
	right = lines[half:]
	if len(right) > 0 && right[0] != "" {
		gi := 0
		for i, st := range starts {
			if st < half {
				gi = i
			}
		}
		if starts[gi] < half {
			right = append([]string{h.ctx.Styles.HelpGroup.Render(h.groups[gi].Title + " (continued)")}, right...)
		}
	}
	return lines[:half], right
}

func (h *Help) View() string {
	lines, starts := h.layoutLines()
	avail := max(3, h.scH-8)
	// Two columns when the lines do not fit in one and the screen is wide enough.
	if len(lines) > avail && h.screenW >= 70 {
		left, right := h.splitColumns(lines, starts, avail)
		colW := min(40, (h.screenW-14)/2)
		var merged []string
		for i := range max(len(left), len(right)) {
			l, r := "", ""
			if i < len(left) {
				l = left[i]
			}
			if i < len(right) {
				r = right[i]
			}
			merged = append(merged, pad(ansi.Truncate(l, colW, "…"), colW, false)+"  "+r)
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
