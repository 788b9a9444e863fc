package services

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// flow is one modal that goes through an edit's steps: the form, the review of what
// changes, and the typed confirmation of a power off or a migration. Each step replaces
// the previous one inside it, so no step is opened just before the close of the one it
// follows (a close and an open sent together may arrive in either order).
type flow struct {
	form *components.Form
	cur  common.Modal
	// next is set by a step's callback (the form's submit, the review's send): the
	// step shown after the current one's update, instead of closing.
	next common.Modal
	// prev is the step esc goes back to from the current one (nil: the step's own esc,
	// which cancels).
	prev          common.Modal
	width, height int
}

func newFlow(form *components.Form) *flow { return &flow{form: form, cur: form} }

// then shows m after the current step's update (call it from a step's callback).
func (f *flow) then(m common.Modal) { f.next = m }

func (f *flow) Init() tea.Cmd { return f.cur.Init() }

func (f *flow) SetSize(w, h int) {
	f.width, f.height = w, h
	f.cur.SetSize(w, h)
}

func (f *flow) ShortHelp() []key.Binding  { return f.cur.ShortHelp() }
func (f *flow) FullHelp() [][]key.Binding { return f.cur.FullHelp() }
func (f *flow) View() string              { return f.cur.View() }

func (f *flow) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if km, ok := msg.(tea.KeyMsg); ok && km.Type == tea.KeyEsc && f.prev != nil {
		return f, f.show(f.prev)
	}
	m, cmd := f.cur.Update(msg)
	if m != nil {
		f.cur = m
	}
	if next := f.next; next != nil {
		// The step's own command closes the modal: dropped, the next step follows.
		f.next = nil
		return f, f.show(next)
	}
	return f, cmd
}

// show makes m the current step; the form comes back as it was left.
func (f *flow) show(m common.Modal) tea.Cmd {
	switch m.(type) {
	case *components.Form:
		_ = f.form.Reopen() // rebuilt as it was typed; the flow stays the open modal
		f.prev = nil
	case *components.Review:
		f.prev = f.form
	default:
		// A typed confirmation says "esc: cancel", and does so.
		f.prev = nil
	}
	f.cur = m
	f.cur.SetSize(f.width, f.height)
	return f.cur.Init()
}

// refused brings the form back inside the flow with the platform's message at its field.
func (f *flow) refused(msg string) tea.Cmd {
	_ = f.form.Refused(msg)
	f.cur, f.prev = f.form, nil
	return common.Send(common.OpenModal{Modal: f})
}
