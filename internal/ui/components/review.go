package components

import (
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

// Review is the last step of every edit: what will change, old → new, before anything
// is sent. enter sends, esc goes back to the form with everything as it was typed.
type Review struct {
	closing
	ctx          *common.Context
	title        string
	changes      []Change
	send         func() tea.Cmd
	back         tea.Cmd
	screenW, scH int
	keys         []key.Binding
}

// NewReview builds the review of changes; back reopens the form (nil: esc cancels).
func NewReview(ctx *common.Context, title string, changes []Change, send func() tea.Cmd, back tea.Cmd) *Review {
	return &Review{ctx: ctx, title: title, changes: changes, send: send, back: back, keys: []key.Binding{
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send these changes")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the form")),
	}}
}

func (r *Review) Init() tea.Cmd             { return nil }
func (r *Review) SetSize(w, h int)          { r.screenW, r.scH = w, h }
func (r *Review) ShortHelp() []key.Binding  { return r.keys }
func (r *Review) FullHelp() [][]key.Binding { return [][]key.Binding{r.keys} }
func (r *Review) Changes() []Change         { return r.changes }

func (r *Review) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return r, nil
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

func (r *Review) View() string {
	st := r.ctx.Styles
	w := ModalWidth(r.screenW)
	fieldW := 0
	for _, c := range r.changes {
		fieldW = max(fieldW, ansi.StringWidth(c.Field))
	}
	var b strings.Builder
	b.WriteString("Nothing is sent until you press enter.\n\n")
	for _, c := range r.changes {
		glyph := "  "
		if c.Warn {
			glyph = st.Warn.Render("! ")
		}
		line := glyph + pad(safe.Text(c.Field), fieldW, false) + "  " + st.Muted.Render(orNone(c.Old)) + " → " + st.Bold.Render(orNone(c.New))
		b.WriteString(ansi.Truncate(line, w, "…") + "\n")
		if c.Note != "" {
			b.WriteString(lipgloss.NewStyle().Width(w).PaddingLeft(fieldW+4).Render(st.Muted.Render(safe.Text(c.Note))) + "\n")
		}
	}
	return Frame(r.ctx, r.title+": review", strings.TrimRight(b.String(), "\n"), "enter: send   esc: back to the form", r.screenW, r.scH)
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none)"
	}
	return safe.Text(s)
}
