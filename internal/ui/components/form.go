package components

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
)

// Form shows a huh form inside a modal. Fields validate as the user types (give them
// Validate funcs, e.g. models.ValidateProjectName); esc cancels; when the form
// completes, onSubmit builds the command that sends the request (it reads the values
// the fields were bound to) and the modal closes.
type Form struct {
	ctx          *common.Context
	title        string
	form         *huh.Form
	onSubmit     func() tea.Cmd
	screenW, scH int
	done         bool
	live         []liveCheck
}

// liveCheck validates a field while it is typed into: huh itself validates only when
// the user leaves a field, UX.md wants feedback as the user types.
type liveCheck struct {
	field huh.Field
	check func() error
}

// Live adds a validation shown under the form while field has focus, re-run on every
// key. check reads the variable the field is bound to (huh updates it as keys arrive).
// Give the same func to the field's Validate so submit is refused too.
func (f *Form) Live(field huh.Field, check func() error) *Form {
	f.live = append(f.live, liveCheck{field, check})
	return f
}

// LiveError is the message of the focused field's live check ("" when it passes).
func (f *Form) LiveError() string {
	focused := f.form.GetFocusedField()
	for _, l := range f.live {
		if l.field == focused {
			if err := l.check(); err != nil {
				return err.Error()
			}
		}
	}
	return ""
}

// NewForm wraps groups in a modal form.
func NewForm(ctx *common.Context, title string, onSubmit func() tea.Cmd, groups ...*huh.Group) *Form {
	f := huh.NewForm(groups...).WithShowHelp(true).WithShowErrors(true)
	f = f.WithTheme(HuhTheme(ctx.Styles))
	// ctrl+c must still reach the root (quit anywhere), so the form never quits itself.
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithDisabled())
	f = f.WithKeyMap(km)
	return &Form{ctx: ctx, title: title, form: f, onSubmit: onSubmit}
}

// Huh exposes the underlying form (tests read its state).
func (f *Form) Huh() *huh.Form { return f.form }

func (f *Form) Init() tea.Cmd { return f.form.Init() }

func (f *Form) SetSize(w, h int) {
	f.screenW, f.scH = w, h
	f.form = f.form.WithWidth(ModalWidth(w))
	// Bound the height only on short screens: a fixed height pads small forms with blank lines.
	if h < 40 {
		f.form = f.form.WithHeight(max(8, h-10))
	}
}

func (f *Form) ShortHelp() []key.Binding {
	return append(f.form.KeyBinds(), key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")))
}

func (f *Form) FullHelp() [][]key.Binding { return [][]key.Binding{f.ShortHelp()} }

func (f *Form) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if f.done {
		return f, nil
	}
	if km, ok := msg.(tea.KeyMsg); ok && km.Type == tea.KeyEsc {
		f.done = true
		return f, tea.Batch(common.Send(common.CloseModal{}), common.Info(f.title+": cancelled"))
	}
	m, cmd := f.form.Update(msg)
	if hf, ok := m.(*huh.Form); ok {
		f.form = hf
	}
	switch f.form.State {
	case huh.StateCompleted:
		f.done = true
		return f, tea.Batch(common.Send(common.CloseModal{}), f.onSubmit())
	case huh.StateAborted:
		f.done = true
		return f, common.Send(common.CloseModal{})
	}
	return f, cmd
}

func (f *Form) View() string {
	body := f.form.View()
	if msg := f.LiveError(); msg != "" {
		// On top, so a form cut by a short screen still shows it.
		body = f.ctx.Styles.Danger.Render("✗ "+msg) + "\n" + body
	}
	return Frame(f.ctx, f.title, body, "esc: cancel", f.screenW, f.scH)
}

// HuhTheme is the huh theme matching the UI theme. Without colour it is huh's base theme
// with its few colours replaced by attributes (buttons reversed, placeholders faint), so
// NO_COLOR output carries no colour codes at all.
func HuhTheme(t *theme.Theme) *huh.Theme {
	if !t.NoColor {
		return huh.ThemeCharm()
	}
	h := huh.ThemeBase()
	for _, fs := range []*huh.FieldStyles{&h.Focused, &h.Blurred} {
		fs.FocusedButton = fs.FocusedButton.UnsetForeground().UnsetBackground().Reverse(true).Bold(true)
		fs.BlurredButton = fs.BlurredButton.UnsetForeground().UnsetBackground()
		fs.TextInput.Placeholder = fs.TextInput.Placeholder.UnsetForeground().Faint(true)
	}
	return h
}
