package app

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// withActivity puts the screen's one spinner at the right end of the tab line while the
// view on top shows something in progress. Rows carry a still glyph, so motion costs
// one cell a frame however many rows wait (a spinner per row rewrote every such row
// eight times a second).
func (m *Model) withActivity(tabs string, w int) string {
	if m.ctx.NoMotion || !m.animating() {
		return tabs
	}
	st := m.ctx.Styles
	mark := st.Warn.Render(st.Spinner(m.ctx.SpinnerFrame)) + " " + st.Muted.Render("in progress")
	gap := w - ansi.StringWidth(tabs) - ansi.StringWidth(mark)
	if gap < 2 {
		return tabs
	}
	return tabs + strings.Repeat(" ", gap) + mark
}
