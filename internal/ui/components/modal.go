package components

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/theme"
)

// Frame draws a modal's content in a centred box within the screen. Content wider or
// taller than the screen is cut so the frame never exceeds it.
func Frame(ctx *common.Context, title, body, help string, screenW, screenH int) string {
	st := ctx.Styles
	maxW := max(20, screenW-4)
	maxH := max(5, screenH-2)
	var head, tail []string
	if title != "" {
		head = []string{st.ModalTitle.Render(safe.Text(title)), ""}
	}
	if help != "" {
		tail = []string{"", st.Muted.Render(help)}
	}
	// A short screen cuts the body, never the title or the way out.
	bodyLines := strings.Split(body, "\n")
	if room := max(1, maxH-2-len(head)-len(tail)); len(bodyLines) > room {
		bodyLines = bodyLines[:room]
	}
	lines := append(append(head, bodyLines...), tail...)
	if len(lines) > maxH-2 {
		lines = lines[:maxH-2]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > maxW-4 {
			lines[i] = ansi.Truncate(l, maxW-4, "…")
		}
	}
	box := st.ModalBox.Render(strings.Join(lines, "\n"))
	return lipgloss.Place(screenW, screenH, lipgloss.Center, lipgloss.Center, box)
}

// ModalWidth is a comfortable modal content width for a screen.
func ModalWidth(screenW int) int { return max(30, min(72, screenW-8)) }

// Confirm is a yes/no modal. Yes runs OnYes; no or esc closes.
type Confirm struct {
	closing
	ctx          *common.Context
	title, text  string
	onYes        func() tea.Cmd
	yes, no      key.Binding
	screenW, scH int
}

// NewConfirm builds a yes/no confirmation.
func NewConfirm(ctx *common.Context, title, text string, onYes func() tea.Cmd) *Confirm {
	return &Confirm{ctx: ctx, title: title, text: text, onYes: onYes,
		yes: key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", "yes")),
		no:  key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "no")),
	}
}

func (c *Confirm) Init() tea.Cmd            { return nil }
func (c *Confirm) SetSize(w, h int)         { c.screenW, c.scH = w, h }
func (c *Confirm) ShortHelp() []key.Binding { return []key.Binding{c.yes, c.no} }
func (c *Confirm) FullHelp() [][]key.Binding {
	return [][]key.Binding{c.ShortHelp()}
}

func (c *Confirm) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if km, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(km, c.yes):
			return c, tea.Batch(c.close(), c.onYes())
		case key.Matches(km, c.no):
			return c, c.close()
		}
	}
	return c, nil
}

func (c *Confirm) View() string {
	body := lipgloss.NewStyle().Width(ModalWidth(c.screenW)).Render(safe.Block(c.text))
	return Frame(c.ctx, c.title, body, "y / enter: yes   n / esc: no", c.screenW, c.scH)
}

// TypedConfirm explains consequences, then asks for the resource's name; the confirm
// key only works when the typed text matches exactly.
type TypedConfirm struct {
	closing
	ctx          *common.Context
	title, text  string
	name         string
	input        TextLine
	onConfirm    func() tea.Cmd
	screenW, scH int
}

// NewTypedConfirm builds a typed-name confirmation for destroying name.
func NewTypedConfirm(ctx *common.Context, title, consequences, name string, onConfirm func() tea.Cmd) *TypedConfirm {
	return &TypedConfirm{ctx: ctx, title: title, text: consequences, name: name, onConfirm: onConfirm}
}

// Matches reports whether the typed text is the name. An empty name never matches:
// a blank row from a malformed answer must not be destroyed by pressing enter.
func (c *TypedConfirm) Matches() bool {
	return strings.TrimSpace(c.name) != "" && c.input.Value() == c.name
}

func (c *TypedConfirm) Init() tea.Cmd    { return nil }
func (c *TypedConfirm) SetSize(w, h int) { c.screenW, c.scH = w, h }
func (c *TypedConfirm) ShortHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm when the name matches")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}
func (c *TypedConfirm) FullHelp() [][]key.Binding { return [][]key.Binding{c.ShortHelp()} }

func (c *TypedConfirm) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return c, nil
	}
	switch km.Type {
	case tea.KeyEsc:
		return c, c.close()
	case tea.KeyEnter:
		if c.Matches() {
			return c, tea.Batch(c.close(), c.onConfirm())
		}
		return c, nil
	}
	c.input.Update(km)
	return c, nil
}

func (c *TypedConfirm) View() string {
	st := c.ctx.Styles
	w := ModalWidth(c.screenW)
	var b strings.Builder
	b.WriteString(lipgloss.NewStyle().Width(w).Render(safe.Block(c.text)))
	b.WriteString("\n\nType ")
	b.WriteString(st.Bold.Render(safe.Text(c.name)))
	b.WriteString(" to confirm:\n")
	b.WriteString("> " + c.input.View())
	b.WriteString("\n")
	switch {
	case c.input.Value() == "":
		b.WriteString(st.Muted.Render("enter stays disabled until the name matches"))
	case c.Matches():
		b.WriteString(st.Danger.Render("✓ name matches: enter will " + strings.ToLower(c.title)))
	case strings.HasPrefix(c.name, c.input.Value()):
		b.WriteString(st.Muted.Render("keep typing…"))
	default:
		b.WriteString(st.Warn.Render("✗ does not match"))
	}
	return Frame(c.ctx, c.title, b.String(), "enter: confirm   esc: cancel", c.screenW, c.scH)
}

// TextLine is a minimal single-line input (no cursor movement), enough for typed
// confirmations; it ignores control keys.
type TextLine struct{ runes []rune }

// Update applies a key press.
func (t *TextLine) Update(km tea.KeyMsg) {
	switch km.Type {
	case tea.KeyBackspace:
		if len(t.runes) > 0 {
			t.runes = t.runes[:len(t.runes)-1]
		}
	case tea.KeyCtrlU:
		t.runes = nil
	case tea.KeyRunes, tea.KeySpace:
		if !km.Paste || len(t.runes)+len(km.Runes) < 256 {
			t.runes = append(t.runes, km.Runes...)
		}
	}
}

// Value is the text typed.
func (t *TextLine) Value() string { return string(t.runes) }

// View shows the text and a block cursor.
func (t *TextLine) View() string { return string(t.runes) + "█" }

// Secret is the one-time secret modal: shows a secret once, y copies it, another key
// copies a full URI, with a plain warning that it will not be shown again. Only esc
// closes it: an enter typed once too often (the form's submit pressed twice) would
// otherwise throw the secret away unseen.
type Secret struct {
	closing
	ctx          *common.Context
	title        string
	fields       [][2]string // label, value shown
	secretLabel  string
	secret       string
	uriLabel     string
	uri          string
	copyKey      key.Binding
	copyURIKey   key.Binding
	closeKey     key.Binding
	screenW, scH int
	// copied is the last copy's outcome, shown inside: the footer is hidden behind the
	// modal, and a person must not close it believing a copy landed that did not.
	copied *common.CopyDone
	// alsoAt is where else the secret can be read ("" when this is its only showing).
	alsoAt string
}

// AlsoAt says where else the secret can be read later (the primary user's password is
// part of the service's connection details), instead of claiming it is shown only once.
func (s *Secret) AlsoAt(where string) *Secret {
	s.alsoAt = where
	return s
}

// NewSecret builds the modal. fields are shown as "label: value" lines (the secret is
// among them, in clear: this is its only showing). uri may be "".
func NewSecret(ctx *common.Context, title string, fields [][2]string, secretLabel, secret, uriLabel, uri string) *Secret {
	return &Secret{ctx: ctx, title: title, fields: fields, secretLabel: secretLabel, secret: secret,
		uriLabel: uriLabel, uri: uri,
		copyKey:    key.NewBinding(key.WithKeys(ctx.Keys.Copy.Keys()...), key.WithHelp(ctx.Keys.Copy.Help().Key, "copy "+secretLabel)),
		copyURIKey: key.NewBinding(key.WithKeys(ctx.Keys.CopyURI.Keys()...), key.WithHelp(ctx.Keys.CopyURI.Help().Key, "copy "+uriLabel), key.WithDisabled()),
		closeKey:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

func (s *Secret) Init() tea.Cmd    { return nil }
func (s *Secret) SetSize(w, h int) { s.screenW, s.scH = w, h }
func (s *Secret) ShortHelp() []key.Binding {
	b := []key.Binding{s.copyKey}
	if s.uri != "" {
		s.copyURIKey.SetEnabled(true)
		b = append(b, s.copyURIKey)
	}
	return append(b, s.closeKey)
}
func (s *Secret) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

func (s *Secret) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if d, ok := msg.(common.CopyDone); ok {
		s.copied = &d
		return s, nil
	}
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return s, nil
	}
	switch {
	case key.Matches(km, s.copyKey):
		return s, common.Send(common.CopyRequest{Label: s.secretLabel, Value: s.secret})
	case s.uri != "" && key.Matches(km, key.NewBinding(key.WithKeys(s.ctx.Keys.CopyURI.Keys()...))):
		return s, common.Send(common.CopyRequest{Label: s.uriLabel, Value: s.uri})
	case key.Matches(km, s.closeKey):
		return s, s.close()
	}
	return s, nil
}

func (s *Secret) View() string {
	st := s.ctx.Styles
	var b strings.Builder
	for _, f := range s.fields {
		b.WriteString(st.Muted.Render(safe.Text(f[0])+": ") + safe.Text(f[1]) + "\n")
	}
	b.WriteString("\n")
	// Wrapped to the modal's width: the frame cuts long lines, and at 80 columns it cut the warning.
	warning := "! This " + s.secretLabel + " is shown only once. Copy it now; it will not be shown again."
	if s.alsoAt != "" {
		warning = "! Copy this " + s.secretLabel + " now, or read it later in " + s.alsoAt + "."
	}
	b.WriteString(st.Warn.Width(ModalWidth(s.screenW)).Render(warning))
	if c := s.copied; c != nil {
		b.WriteString("\n\n" + st.LevelStyle(c.Level).Width(ModalWidth(s.screenW)).Render(theme.LevelGlyph(c.Level)+" "+safe.Text(c.Text)))
	}
	help := s.copyKey.Help().Key + ": copy " + s.secretLabel
	if s.uri != "" {
		help += "   " + s.copyURIKey.Help().Key + ": copy " + s.uriLabel
	}
	help += "   esc: close"
	return Frame(s.ctx, s.title, b.String(), help, s.screenW, s.scH)
}

// closing is embedded by modals: close marks the modal done, and the root removes it
// right after the Update that closed it (common.Modal's Closed).
type closing struct{ closed bool }

// Closed reports that the modal has closed itself.
func (c *closing) Closed() bool { return c.closed }

// close marks the modal done; it returns no command (a nil one, so call sites read
// as tea.Batch(c.close(), result)).
func (c *closing) close() tea.Cmd {
	c.closed = true
	return nil
}
