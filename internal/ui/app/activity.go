package app

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
)

// tooSmallText says the terminal's size first and wraps to it, so even a narrow
// terminal shows what it is and what is needed (one line was cut before the size).
func tooSmallText(w, h int) string {
	s := fmt.Sprintf("Terminal %d×%d is too small: svcui needs at least %d×%d.", w, h, common.MinWidth, common.MinHeight)
	lines := strings.Split(ansi.Wrap(s, w, ""), "\n")
	return strings.Join(lines[:min(len(lines), h)], "\n")
}

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
