package components

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// Change is one line of a review: a field's value before and after, and what the
// change means when that is not obvious ("migrates the service", "+$12.41/month").
type Change struct {
	Field, Old, New string
	Note            string
	// Warn marks changes that cost money or can lose data.
	Warn bool
}

// Fact is a line of what the review is about (name, plan, cloud, disk, monthly cost),
// shown above the changes.
type Fact struct{ Label, Value string }

// Review is the last step of every edit: what will change, old → new, before anything
// is sent. enter sends, esc goes back to the form with everything as it was typed. A
// review longer than the screen scrolls (j/k, pgup/pgdn, home/end).
type Review struct {
	closing
	ctx          *common.Context
	title        string
	facts        []Fact
	changes      []Change
	send         func() tea.Cmd
	back         tea.Cmd
	screenW, scH int
	keys         []key.Binding
	offset       int
	// inFlow: a Flow shows it after its form, and esc goes back to that form.
	inFlow bool
}

// escHelp is what esc does here: back to the form inside a flow or with back set,
// else cancel.
func (r *Review) escHelp() string {
	if r.inFlow || r.back != nil {
		return "back to the form"
	}
	return "cancel"
}

// WithFacts adds what the review is about, above the changes.
func (r *Review) WithFacts(facts ...Fact) *Review {
	r.facts = append(r.facts, facts...)
	return r
}

// NewReview builds the review of changes; back reopens the form (nil: esc cancels).
func NewReview(ctx *common.Context, title string, changes []Change, send func() tea.Cmd, back tea.Cmd) *Review {
	return &Review{ctx: ctx, title: title, changes: changes, send: send, back: back, keys: []key.Binding{
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send these changes")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the form")),
		key.NewBinding(key.WithKeys("j", "k", "pgdown", "pgup"), key.WithHelp("j/k pgdn/pgup", "scroll")),
	}}
}

func (r *Review) Init() tea.Cmd    { return nil }
func (r *Review) SetSize(w, h int) { r.screenW, r.scH = w, h }
func (r *Review) ShortHelp() []key.Binding {
	r.keys[1].SetHelp("esc", r.escHelp())
	return r.keys
}
func (r *Review) FullHelp() [][]key.Binding { return [][]key.Binding{r.keys} }
func (r *Review) Changes() []Change         { return r.changes }

func (r *Review) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return r, nil
	}
	switch km.String() {
	case "j", "down":
		r.scroll(1)
	case "k", "up":
		r.scroll(-1)
	case "pgdown", " ", "ctrl+d":
		r.scroll(r.room() - 1)
	case "pgup", "ctrl+u":
		r.scroll(-(r.room() - 1))
	case "home", "g":
		r.offset = 0
	case "end", "G":
		r.scroll(len(r.lines()))
	}
	switch km.Type {
	case tea.KeyEnter:
		return r, tea.Batch(r.close(), r.send())
	case tea.KeyEsc:
		if r.back != nil {
			return r, r.back
		}
		return r, tea.Batch(r.close(), common.Info(r.title+": cancelled"))
	}
	return r, nil
}

// room is how many body lines the modal shows (Frame keeps the title and the help).
func (r *Review) room() int { return max(1, r.scH-8) }

func (r *Review) scroll(n int) {
	r.offset = max(0, min(r.offset+n, len(r.lines())-r.room()+1))
}

// lines is the whole review, one screen line each.
func (r *Review) lines() []string {
	st := r.ctx.Styles
	w := ModalWidth(r.screenW)
	fieldW := 0
	for _, c := range r.changes {
		fieldW = max(fieldW, ansi.StringWidth(c.Field))
	}
	for _, f := range r.facts {
		fieldW = max(fieldW, ansi.StringWidth(f.Label))
	}
	out := []string{"Nothing is sent until you press enter.", ""}
	for _, f := range r.facts {
		// Values wrap under themselves: a cost or a note is read whole, never cut.
		value := lipgloss.NewStyle().Width(max(10, w-fieldW-4)).Render(st.Bold.Render(orNone(f.Value)))
		for i, l := range strings.Split(value, "\n") {
			label := strings.Repeat(" ", fieldW)
			if i == 0 {
				label = pad(safe.Text(f.Label), fieldW, false)
			}
			out = append(out, ansi.Truncate("  "+label+"  "+l, w, "…"))
		}
	}
	if len(r.facts) > 0 && len(r.changes) > 0 {
		out = append(out, "", st.Muted.Render("Changes"))
	}
	for _, c := range r.changes {
		glyph := "  "
		if c.Warn {
			glyph = st.Warn.Render("! ")
		}
		line := glyph + pad(safe.Text(c.Field), fieldW, false) + "  " + st.Muted.Render(orNone(c.Old)) + " → " + st.Bold.Render(orNone(c.New))
		out = append(out, ansi.Truncate(line, w, "…"))
		if c.Note != "" {
			out = append(out, strings.Split(lipgloss.NewStyle().Width(w).PaddingLeft(fieldW+4).Render(st.Muted.Render(safe.Text(c.Note))), "\n")...)
		}
	}
	return out
}

func (r *Review) View() string {
	lines := r.lines()
	room := r.room()
	if len(lines) > room {
		// The last row says what is out of sight and how to reach it.
		r.offset = max(0, min(r.offset, len(lines)-room+1))
		end := min(len(lines), r.offset+room-1)
		more := r.ctx.Styles.Muted.Render(fmt.Sprintf("lines %d–%d of %d · j/k pgdn/pgup scroll", r.offset+1, end, len(lines)))
		lines = append(append([]string{}, lines[r.offset:end]...), more)
	}
	return Frame(r.ctx, r.title+": review", strings.Join(lines, "\n"), "enter: send   esc: "+r.escHelp(), r.screenW, r.scH)
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none)"
	}
	return safe.Text(s)
}
