package app

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/theme"
)

// messagesView is ":messages": this session's footer messages in full, wrapped, newest
// first, so an error cut at 80 columns can be read.
type messagesView struct {
	id     int64
	ctx    *common.Context
	log    []LoggedMessage // newest first
	offset int
	w, h   int
}

func newMessages(ctx *common.Context, log []LoggedMessage) *messagesView {
	v := &messagesView{id: common.NewViewID(), ctx: ctx}
	for i := len(log) - 1; i >= 0; i-- {
		v.log = append(v.log, log[i])
	}
	return v
}

func (v *messagesView) ID() int64                 { return v.id }
func (v *messagesView) Init() tea.Cmd             { return nil }
func (v *messagesView) Title() string             { return "Messages" }
func (v *messagesView) SetSize(w, h int)          { v.w, v.h = w, h }
func (v *messagesView) Capturing() bool           { return false }
func (v *messagesView) ShortHelp() []key.Binding  { return v.Keys().Help(true) }
func (v *messagesView) FullHelp() [][]key.Binding { return [][]key.Binding{v.Keys().Help(false)} }

// Keys are the scrolling keys (the footer shows up and down).
func (v *messagesView) Keys() keys.Actions {
	k := v.ctx.Keys
	return append(keys.Bindings(k.Up, k.Down), keys.Actions{{Binding: k.PgUp, Hidden: true}, {Binding: k.PgDn, Hidden: true},
		{Binding: k.Top, Hidden: true}, {Binding: k.Bottom, Hidden: true}}...)
}

func (v *messagesView) Update(msg tea.Msg) (common.View, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return v, nil
	}
	k := v.ctx.Keys
	last := max(0, len(v.lines())-v.h)
	switch {
	case key.Matches(km, k.Up):
		v.offset = max(0, v.offset-1)
	case key.Matches(km, k.Down):
		v.offset = min(last, v.offset+1)
	case key.Matches(km, k.PgUp):
		v.offset = max(0, v.offset-v.h/2)
	case key.Matches(km, k.PgDn):
		v.offset = min(last, v.offset+v.h/2)
	case key.Matches(km, k.Top):
		v.offset = 0
	case key.Matches(km, k.Bottom):
		v.offset = last
	}
	return v, nil
}

// lines renders every message: its clock time and level glyph, then the text wrapped
// to the width under it.
func (v *messagesView) lines() []string {
	st := v.ctx.Styles
	if len(v.log) == 0 {
		return []string{st.Muted.Render("  No messages yet in this session.")}
	}
	wrap := lipgloss.NewStyle().Width(max(20, v.w-4))
	var out []string
	for _, m := range v.log {
		head := st.Muted.Render("  "+m.At.Format("15:04:05")+" ") + st.LevelStyle(m.Level).Render(theme.LevelGlyph(m.Level))
		out = append(out, head)
		for _, l := range strings.Split(wrap.Render(safe.Text(m.Text)), "\n") {
			out = append(out, "    "+strings.TrimRight(l, " "))
		}
	}
	return out
}

func (v *messagesView) View() string {
	ls := v.lines()
	end := min(len(ls), v.offset+max(1, v.h))
	return strings.Join(ls[min(v.offset, end):end], "\n")
}
