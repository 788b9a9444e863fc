package search

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
)

// The editor marks the request ctrl+r will run with a bar in its gutter, beside every
// screen line of it (soft-wrapped ones too), and keeps the cursor in view after the
// text changes under it (a template inserted below the fold, a history entry, SQL mode).

// gutterMark is the editor's prompt beside the lines of the request that would run.
const (
	gutterMark  = "┃ "
	gutterBlank = "  "
	gutterWidth = 2
)

// runMark is the range of screen lines (soft wraps counted) of the request under the
// cursor; from > to when there is none.
type runMark struct{ from, to int }

// gutter is the editor's prompt function: it is called with each screen line.
func (e *editor) gutter(displayLine int) string {
	if displayLine >= e.mark.from && displayLine <= e.mark.to {
		return gutterMark
	}
	return gutterBlank
}

// refreshMark finds the request under the cursor and the screen lines it takes.
func (e *editor) refreshMark() {
	e.mark = runMark{0, -1}
	if e.link.conn == nil {
		return
	}
	text := e.ta.Value()
	lines := strings.Split(text, "\n")
	from, to := 0, len(lines)-1 // SQL mode: the whole buffer is the statement
	if !e.sqlMode {
		r, ok := search.RequestAt(text, e.ta.Line()+1)
		if !ok {
			return
		}
		from, to = r.StartLine-1, r.EndLine-1
	} else if strings.TrimSpace(text) == "" {
		return
	}
	w := e.ta.Width()
	screen := 0
	for i, l := range lines {
		if i > to {
			break
		}
		n := wrappedRows([]rune(l), w)
		if i == from {
			e.mark.from = screen
		}
		screen += n
		if i == to {
			e.mark.to = screen - 1
		}
	}
}

// follow scrolls the editor so its cursor is in view. The textarea repositions only at
// the end of its own Update, against the content of its last View: after the text
// changed under it, both are run once.
func (e *editor) follow() {
	_ = e.ta.View()
	focused := e.ta.Focused()
	if !focused {
		e.ta.Focus()
	}
	e.ta, _ = e.ta.Update(nil)
	if !focused {
		e.ta.Blur()
	}
}

// wrappedRows is how many screen lines the textarea gives a line of width w: its own
// word wrap (bubbles v1 textarea), counted the same way.
func wrappedRows(runes []rune, width int) int {
	if width <= 0 {
		return 1
	}
	var (
		rowW   int // width of the current row
		rows   = 1
		word   []rune
		spaces int
	)
	wordW := func() int { return ansi.StringWidth(string(word)) }
	for _, r := range runes {
		if unicode.IsSpace(r) {
			spaces++
		} else {
			word = append(word, r)
		}
		if spaces > 0 {
			if rowW+wordW()+spaces > width {
				rows++
				rowW = wordW() + spaces
			} else {
				rowW += wordW() + spaces
			}
			spaces, word = 0, nil
		} else {
			lastCharLen := ansi.StringWidth(string(word[len(word)-1]))
			if wordW()+lastCharLen > width {
				if rowW > 0 {
					rows++
				}
				rowW = wordW()
				word = nil
			}
		}
	}
	if rowW+wordW()+spaces >= width {
		rows++
	}
	return rows
}
