package components

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// Flow is one modal that goes through an action's steps: the form, the review of what
// changes, and a typed confirmation where one is needed (power off, migration). Each
// step replaces the previous one inside it, so the screen never shows the form close
// and the review open as two events; esc in the review goes back to the form as typed.
type Flow struct {
	form *Form
	cur  common.Modal
	// next is set by a step's callback (the form's submit, the review's send): the
	// step shown after the current one's update, instead of closing.
	next common.Modal
	// prev is the step esc goes back to from the current one (nil: the step's own esc,
	// which cancels).
	prev          common.Modal
	width, height int
}

// NewFlow starts a flow on its form.
func NewFlow(form *Form) *Flow { return &Flow{form: form, cur: form} }

// Then shows m after the current step's update (call it from a step's callback: the
// form's submit, the review's send).
func (f *Flow) Then(m common.Modal) { f.next = m }

func (f *Flow) Init() tea.Cmd { return f.cur.Init() }

func (f *Flow) SetSize(w, h int) {
	f.width, f.height = w, h
	f.cur.SetSize(w, h)
}

func (f *Flow) ShortHelp() []key.Binding  { return f.cur.ShortHelp() }
func (f *Flow) FullHelp() [][]key.Binding { return f.cur.FullHelp() }
func (f *Flow) View() string              { return f.cur.View() }

func (f *Flow) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if km, ok := msg.(tea.KeyMsg); ok && km.Type == tea.KeyEsc && f.prev != nil {
		return f, f.show(f.prev)
	}
	m, cmd := f.cur.Update(msg)
	if m != nil {
		f.cur = m
	}
	if next := f.next; next != nil {
		// The step closed itself: the next step follows inside the flow.
		f.next = nil
		return f, f.show(next)
	}
	return f, cmd
}

// show makes m the current step; the form comes back as it was left.
func (f *Flow) show(m common.Modal) tea.Cmd {
	switch step := m.(type) {
	case *Form:
		f.form.Rebuild() // as it was typed; the flow stays the open modal
		f.prev = nil
	case *Review:
		f.prev = f.form
		step.inFlow = true
	default:
		// A typed confirmation says "esc: cancel", and does so.
		f.prev = nil
	}
	f.cur = m
	f.cur.SetSize(f.width, f.height)
	return f.cur.Init()
}

// Refused brings the form back inside the flow with the platform's message at its field.
func (f *Flow) Refused(msg string) tea.Cmd {
	f.form.refuse(&refusal{msg: msg})
	f.cur, f.prev = f.form, nil
	return f.form.ctx.Open(f)
}

// Closed: the flow is over when its current step closed itself with nothing after it.
func (f *Flow) Closed() bool { return f.cur.Closed() && f.next == nil }

// Current is the step shown now.
func (f *Flow) Current() common.Modal { return f.cur }

// Form is the flow's form.
func (f *Flow) Form() *Form { return f.form }
