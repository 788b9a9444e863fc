package components

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/theme"
)

// Form shows a huh form inside a modal. Fields validate as the user types (give them
// Validate funcs, e.g. models.ValidateProjectName); esc cancels; when the form
// completes, onSubmit builds the command that sends the request (it reads the values
// the fields were bound to) and the modal closes. When the platform refuses, the view
// calls Refused: the same form comes back with everything typed and the platform's
// message at the field it names, and enter sends again.
type Form struct {
	closing
	ctx          *common.Context
	title        string
	groups       []*huh.Group
	form         *huh.Form
	onSubmit     func() tea.Cmd
	screenW, scH int
	done         bool
	live         []liveCheck
	names        []fieldName
	refusal      *refusal
	// seen holds each field's value when it first had focus: a field whose value
	// differs now has been changed, and esc asks before dropping it.
	seen map[huh.Field]string
	// discarding: esc was pressed on a changed form; y drops it, n or esc goes back.
	discarding bool
}

// fieldName ties a platform field name ("disk_space_mb") to the form field showing it.
type fieldName struct {
	api, title string
	explain    func(msg string) string
}

// refusal is the platform's last answer to this form, or a check the console made.
type refusal struct {
	title, msg string
	local      bool
}

// liveCheck validates a field while it is typed into: huh itself validates only when
// the user leaves a field, docs/interaction.md wants feedback as the user types.
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
	f := &Form{ctx: ctx, title: title, groups: groups, onSubmit: onSubmit}
	f.form = f.build()
	return f
}

// build makes the huh form over the groups; the fields keep their values (they are
// bound to the view's variables), so a rebuilt form shows everything typed.
func (f *Form) build() *huh.Form {
	h := huh.NewForm(f.groups...).WithShowHelp(true).WithShowErrors(true)
	h = h.WithTheme(HuhTheme(f.ctx.Styles))
	// ctrl+c must still reach the root (quit anywhere), so the form never quits itself.
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithDisabled())
	h = h.WithKeyMap(km)
	if f.screenW > 0 {
		h = h.WithWidth(ModalWidth(f.screenW))
	}
	return h
}

// frameLines is what Frame adds around a body: the screen's margin, the box's border,
// the title and its gap, the help and its gap.
const frameLines = 8

// fit bounds the huh form to the room the modal leaves it once its fields need more
// (a long form on a short screen; the Kafka create form at 120×40): huh then scrolls the
// focused field into view, with its key help under it, instead of the frame cutting
// the form's end. A form that fits keeps its own height: a bound pads it with blank
// lines.
func (f *Form) fit() {
	if f.scH <= 0 {
		return
	}
	room := max(minFormLines, f.scH-frameLines)
	over := lipgloss.Height(f.body()) - room
	if over <= 0 {
		return
	}
	// huh adds a blank line above its help beyond the height it is given, and the
	// lines this form puts above huh's (a refusal, a live check) vary: measure.
	height := lipgloss.Height(f.form.View()) - over
	for i := 0; i < 4 && over > 0 && height >= minFormLines; i++ {
		f.form = f.form.WithHeight(height)
		over = lipgloss.Height(f.body()) - room
		height -= max(0, over)
	}
}

// minFormLines is the least height a form is given: a field and its help.
const minFormLines = 6

// Names ties the platform's name of a field (as its refusals name it: "disk_space_mb",
// "user_config.pg_version") to the title of the form field that edits it. explain, when
// given, adds what the message means in the form's own units ("92160 MB is 90 GB").
func (f *Form) Names(apiName, title string, explain func(msg string) string) *Form {
	f.names = append(f.names, fieldName{apiName, title, explain})
	return f
}

// Refused brings the form back after the platform refused what it sent: everything
// typed stays, the message shows at the field it names (else on top), enter sends again.
func (f *Form) Refused(msg string) tea.Cmd { return f.back(&refusal{msg: msg}) }

// Invalid brings the form back after a check the console made before sending (a file
// that does not exist), worded as such: nothing was sent.
func (f *Form) Invalid(msg string) tea.Cmd { return f.back(&refusal{msg: msg, local: true}) }

func (f *Form) back(r *refusal) tea.Cmd {
	f.refuse(r)
	return f.ctx.Open(f)
}

// refuse rebuilds the form with r at its field, without opening it (a flow holding the
// form stays the open modal).
func (f *Form) refuse(r *refusal) {
	msg := r.msg
	// The field the message names first is the one it is about ("Invalid disk_space_mb:
	// plan startup-4 takes …" is about the disk, though it mentions the plan).
	first := -1
	for _, n := range f.names {
		at := mentions(msg, n.api)
		if at < 0 || (first >= 0 && at >= first) {
			continue
		}
		first, r.title, r.msg = at, n.title, msg
		if n.explain != nil {
			if extra := n.explain(msg); extra != "" {
				r.msg += " (" + extra + ")"
			}
		}
	}
	f.refusal = r
	f.done, f.closed = false, false
	f.form = f.build()
	f.focus(r.title)
	f.fit()
}

// focus moves the rebuilt form's focus to the field titled title (the refused one), so
// the correction starts there, not four shift+tabs away. Fields are recognised by their
// rendered title; huh moves focus within a group by message, and across groups only
// forward, never past the last (that would submit).
func (f *Form) focus(title string) {
	if title == "" {
		return
	}
	f.form.Init()
	// The groups keep their place from the last time: back to the first field first.
	for g := 0; g <= len(f.groups); g++ {
		for i := 0; i < 64; i++ {
			field := f.form.GetFocusedField()
			if f.form.PrevField(); f.form.GetFocusedField() == field {
				break
			}
		}
		field := f.form.GetFocusedField()
		if f.form.PrevGroup(); f.form.GetFocusedField() == field {
			break
		}
	}
	for g := 0; g < len(f.groups); g++ {
		for i := 0; i < 64; i++ {
			field := f.form.GetFocusedField()
			if field == nil {
				return
			}
			if first, _, _ := strings.Cut(ansi.Strip(field.View()), "\n"); strings.Contains(first, title) {
				return
			}
			f.form.NextField()
			if f.form.GetFocusedField() == field {
				break // the group's last field: huh asked for the next group instead
			}
		}
		if g == len(f.groups)-1 {
			return
		}
		f.form.NextGroup()
	}
}

// mentions is where msg names the field as a word ("disk_space_mb" in "disk_space_mb:
// must be at least …", not "mb" inside it), or -1.
func mentions(msg, name string) int {
	for i := 0; ; {
		j := strings.Index(msg[i:], name)
		if j < 0 {
			return -1
		}
		start, end := i+j, i+j+len(name)
		if (start == 0 || !isNameByte(msg[start-1])) && (end == len(msg) || !isNameByte(msg[end])) {
			return start
		}
		i = end
	}
}

func isNameByte(b byte) bool {
	return b == '_' || b == '.' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// Huh exposes the underlying form (tests read its state).
func (f *Form) Huh() *huh.Form { return f.form }

func (f *Form) Init() tea.Cmd { return f.form.Init() }

func (f *Form) SetSize(w, h int) {
	f.screenW, f.scH = w, h
	f.form = f.form.WithWidth(ModalWidth(w))
	f.fit()
}

// Title is the form's title (the review step of an edit names it).
func (f *Form) Title() string { return f.title }

// Reopen shows the form again as it was left (esc in a review goes back to it).
func (f *Form) Reopen() tea.Cmd {
	f.Rebuild()
	return f.ctx.Open(f)
}

// Rebuild makes the form as it was left, without opening it: for a modal that holds the
// form and stays the open one.
func (f *Form) Rebuild() {
	f.done, f.closed = false, false
	f.form = f.build()
	f.fit()
}

func (f *Form) ShortHelp() []key.Binding {
	return append(f.form.KeyBinds(), key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")))
}

func (f *Form) FullHelp() [][]key.Binding { return [][]key.Binding{f.ShortHelp()} }

func (f *Form) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if f.done {
		return f, nil
	}
	km, isKey := msg.(tea.KeyMsg)
	if isKey && f.discarding {
		switch km.String() {
		case "y", "Y":
			f.done = true
			return f, tea.Batch(f.close(), common.Info(f.title+": cancelled, changes discarded"))
		case "n", "N", "esc":
			f.discarding = false
		}
		return f, nil
	}
	if isKey && km.Type == tea.KeyEsc && !f.fieldTakesEsc() {
		if f.Changed() {
			f.discarding = true
			return f, nil
		}
		f.done = true
		return f, tea.Batch(f.close(), common.Info(f.title+": cancelled"))
	}
	f.remember()
	before := f.focusedValue()
	m, cmd := f.form.Update(msg)
	if hf, ok := m.(*huh.Form); ok {
		f.form = hf
	}
	if f.refusal != nil && isKey && f.focusedValue() != before {
		// The person is correcting it: the old message no longer describes the form.
		f.refusal = nil
	}
	// A field that grew (its error, a live check above the form) must not push the
	// focused one out of the frame.
	f.fit()
	switch f.form.State {
	case huh.StateCompleted:
		f.done = true
		// What is sent now gets its own answer; the last refusal is history.
		f.refusal = nil
		return f, tea.Batch(f.close(), f.onSubmit())
	case huh.StateAborted:
		f.done = true
		return f, f.close()
	}
	return f, cmd
}

// fieldTakesEsc: the focused field uses esc itself (a select's filter being typed, or
// one set, which esc clears), so esc there must not leave the form.
func (f *Form) fieldTakesEsc() bool {
	field := f.form.GetFocusedField()
	if field == nil {
		return false
	}
	if fl, ok := field.(interface{ GetFiltering() bool }); ok && fl.GetFiltering() {
		return true
	}
	for _, b := range field.KeyBinds() {
		if b.Enabled() && slices.Contains(b.Keys(), "esc") {
			return true
		}
	}
	return false
}

func (f *Form) focusedValue() string {
	if field := f.form.GetFocusedField(); field != nil {
		return fmt.Sprint(field.GetValue())
	}
	return ""
}

// remember notes the focused field's value the first time it has focus.
func (f *Form) remember() {
	field := f.form.GetFocusedField()
	if field == nil {
		return
	}
	if f.seen == nil {
		f.seen = map[huh.Field]string{}
	}
	if _, ok := f.seen[field]; !ok {
		f.seen[field] = fmt.Sprint(field.GetValue())
	}
}

// Changed reports whether anything was typed or chosen that esc would drop: a field
// whose value differs from when it first had focus, or a form the platform refused
// (it holds what was sent).
func (f *Form) Changed() bool {
	if f.refusal != nil {
		return true
	}
	for field, was := range f.seen {
		if fmt.Sprint(field.GetValue()) != was {
			return true
		}
	}
	return false
}

func (f *Form) View() string {
	if f.discarding {
		st := f.ctx.Styles
		body := st.Warn.Render("Discard changes?") + "\n\nWhat you typed in " + safe.Text(f.title) + " is lost if you discard it."
		return Frame(f.ctx, f.title, body, "y: discard   n/esc: back to the form", f.screenW, f.scH)
	}
	body := f.body()
	help := "esc: cancel"
	if f.refusal != nil {
		help = "enter: send again   esc: cancel"
	}
	return Frame(f.ctx, f.title, body, help, f.screenW, f.scH)
}

// body is the huh form with the refusal and the live check above it.
func (f *Form) body() string {
	body := f.form.View()
	if r := f.refusal; r != nil {
		body = f.withRefusal(body, r)
	}
	if msg := f.LiveError(); msg != "" {
		// On top, so a form cut by a short screen still shows it.
		body = f.ctx.Styles.Danger.Render("✗ "+msg) + "\n" + body
	}
	return body
}

// withRefusal puts the platform's message under the title of the field it names, and
// a line on top saying the platform refused (a short screen may cut the field).
func (f *Form) withRefusal(body string, r *refusal) string {
	st := f.ctx.Styles
	msg := safe.Text(r.msg)
	// Wrapped to the modal: the message is the point, it must not be cut.
	lead := "✗ The platform refused this: "
	if r.local {
		lead = "✗ Nothing was sent: "
	}
	top := st.Danger.Width(max(20, ModalWidth(f.screenW)-2)).Render(lead + msg)
	if r.title == "" {
		return top + "\n" + body
	}
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		if strings.Contains(ansi.Strip(l), r.title) {
			// Wrapped to the modal: the message is the point, it must not be cut.
			at := strings.Split(st.Danger.Width(max(20, ModalWidth(f.screenW)-2)).PaddingLeft(2).Render("✗ "+msg), "\n")
			lines = append(lines[:i+1], append(at, lines[i+1:]...)...)
			head := "✗ The platform refused this; see " + r.title + "."
			if r.local {
				head = "✗ Nothing was sent; see " + r.title + "."
			}
			return st.Danger.Render(head) + "\n" + strings.Join(lines, "\n")
		}
	}
	return top + "\n" + body
}

// HuhTheme is the huh theme built from the UI theme's palette, so forms follow dark,
// light and NO_COLOR like everything else. Without colour every colour is dropped and
// attributes carry the meaning (buttons reversed, placeholders faint); the help line
// under a form uses the theme's help styles, not bubbles' coloured defaults.
func HuhTheme(t *theme.Theme) *huh.Theme {
	p := t.Palette
	h := huh.ThemeBase()
	f := &h.Focused
	f.Base = f.Base.BorderForeground(p.Border)
	f.Card = f.Base
	f.Title = f.Title.Foreground(p.Accent).Bold(true)
	f.NoteTitle = f.NoteTitle.Foreground(p.Accent).Bold(true).MarginBottom(1)
	f.Directory = f.Directory.Foreground(p.Accent)
	f.Description = f.Description.Foreground(p.Muted)
	f.ErrorIndicator = f.ErrorIndicator.Foreground(p.Danger)
	f.ErrorMessage = f.ErrorMessage.Foreground(p.Danger)
	f.SelectSelector = f.SelectSelector.Foreground(p.Accent)
	f.NextIndicator = f.NextIndicator.Foreground(p.Accent)
	f.PrevIndicator = f.PrevIndicator.Foreground(p.Accent)
	f.MultiSelectSelector = f.MultiSelectSelector.Foreground(p.Accent)
	f.SelectedOption = f.SelectedOption.Foreground(p.OK)
	f.SelectedPrefix = lipgloss.NewStyle().Foreground(p.OK).SetString("✓ ")
	f.UnselectedPrefix = lipgloss.NewStyle().Foreground(p.Muted).SetString("• ")
	f.TextInput.Cursor = f.TextInput.Cursor.Foreground(p.Accent)
	f.TextInput.Prompt = f.TextInput.Prompt.Foreground(p.Accent)
	if t.NoColor {
		f.FocusedButton = f.FocusedButton.UnsetForeground().UnsetBackground().Reverse(true).Bold(true)
		f.BlurredButton = f.BlurredButton.UnsetForeground().UnsetBackground()
		f.TextInput.Placeholder = f.TextInput.Placeholder.UnsetForeground().Faint(true)
	} else {
		f.FocusedButton = f.FocusedButton.Foreground(p.BadgeFg).Background(p.Accent)
		f.BlurredButton = f.BlurredButton.Foreground(p.Muted).UnsetBackground()
		f.TextInput.Placeholder = f.TextInput.Placeholder.Foreground(p.Muted)
	}
	f.Next = f.FocusedButton
	h.Blurred = h.Focused
	h.Blurred.Base = h.Blurred.Base.BorderStyle(lipgloss.HiddenBorder())
	h.Blurred.Card = h.Blurred.Base
	h.Blurred.MultiSelectSelector = lipgloss.NewStyle().SetString("  ")
	h.Blurred.NextIndicator = lipgloss.NewStyle()
	h.Blurred.PrevIndicator = lipgloss.NewStyle()
	h.Group.Title = f.Title
	h.Group.Description = f.Description
	h.Help.ShortKey, h.Help.FullKey = t.HelpKey, t.HelpKey
	h.Help.ShortDesc, h.Help.FullDesc = t.HelpDesc, t.HelpDesc
	h.Help.ShortSeparator, h.Help.FullSeparator, h.Help.Ellipsis = t.Muted, t.Muted, t.Muted
	return h
}

// CurrentFirst moves the option holding the current value to the top. huh v1 scrolls a
// select of fixed height so that its current option is the first row shown
// (charmbracelet/huh#679): a value late in the list would stand alone above blank rows,
// as if it were the only choice. Listed first, it shows with the alternatives under it.
func CurrentFirst[T comparable](opts []huh.Option[T], current T) []huh.Option[T] {
	for i, o := range opts {
		if o.Value == current {
			out := make([]huh.Option[T], 0, len(opts))
			out = append(out, o)
			out = append(out, opts[:i]...)
			return append(out, opts[i+1:]...)
		}
	}
	return opts
}

// Option is a select option whose label may hold platform text (a cloud's description,
// a plan or group name): the label passes safe.Text, so it shows as visible escapes.
func Option[T comparable](label string, value T) huh.Option[T] {
	return huh.NewOption(safe.Text(label), value)
}
