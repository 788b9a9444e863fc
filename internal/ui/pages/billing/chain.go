package billing

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// chain is one modal that goes through an action's steps: the form, then the review of
// what it will do. The review replaces the form inside it, so it is never opened just
// before the form's close (a close and an open sent together arrive in either order).
// esc in the review goes back to the form as it was typed.
type chain struct {
	form          *components.Form
	cur           common.Modal
	next          common.Modal // set by the form's submit: shown instead of closing
	width, height int
}

func newChain(form *components.Form) *chain { return &chain{form: form, cur: form} }

// then shows m after the current step's update (call it from the form's submit).
func (c *chain) then(m common.Modal) { c.next = m }

func (c *chain) Init() tea.Cmd { return c.cur.Init() }

func (c *chain) SetSize(w, h int) {
	c.width, c.height = w, h
	c.cur.SetSize(w, h)
}

func (c *chain) ShortHelp() []key.Binding  { return c.cur.ShortHelp() }
func (c *chain) FullHelp() [][]key.Binding { return c.cur.FullHelp() }
func (c *chain) View() string              { return c.cur.View() }

func (c *chain) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if km, ok := msg.(tea.KeyMsg); ok && km.Type == tea.KeyEsc && c.cur != common.Modal(c.form) {
		_ = c.form.Reopen() // rebuilt as typed; the chain stays the open modal
		return c, c.show(c.form)
	}
	m, cmd := c.cur.Update(msg)
	if m != nil {
		c.cur = m
	}
	if next := c.next; next != nil {
		// The form's own command closes the modal: dropped, the next step follows.
		c.next = nil
		return c, c.show(next)
	}
	return c, cmd
}

func (c *chain) show(m common.Modal) tea.Cmd {
	c.cur = m
	c.cur.SetSize(c.width, c.height)
	return c.cur.Init()
}

// refused brings the form back inside the chain with the platform's message at its field.
func (c *chain) refused(msg string) tea.Cmd {
	_ = c.form.Refused(msg)
	c.cur = c.form
	c.cur.SetSize(c.width, c.height)
	return common.Send(common.OpenModal{Modal: c})
}
