package terminal

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
)

// Delta sits between Bubble Tea's renderer and the terminal and turns each frame into
// the cells that changed. Bubble Tea v1 rewrites every changed line in full: a spinner
// glyph or a ticking "for 12s" cost a whole 160-column row with its colours, about
// 200 bytes, several times a second. Delta remembers what each screen line holds and,
// for a line the renderer repaints, sends a cursor move and the changed span only.
//
// It understands the one shape the renderer writes in the alternate screen (cursor
// home, then per line either "\n" for an unchanged line or the line, an optional
// erase-to-end and "\r\n", then a final cursor position). A frame that repaints every
// line (first frame, resize, return from an external program) and anything else the
// program writes (mode switches, clears) pass through unchanged; the latter also make
// Delta forget the screen, so the next lines go out whole.
//
// Delta embeds the terminal's *os.File so Bubble Tea still sees a terminal (size,
// raw mode, resize).
type Delta struct {
	*os.File
	out io.Writer // where the bytes go (the File, or a buffer in tests)

	mu    sync.Mutex
	lines []screenLine // what the terminal shows, by row; known=false after a clear
}

type screenLine struct {
	cells []cell
	known bool
}

// cell is one grapheme on screen with the SGR sequences in effect for it (those since
// the last reset), which is all that is needed to redraw it on its own.
type cell struct {
	text  string
	style string
	width int
}

// NewDelta wraps the terminal f; out receives the bytes (nil: f itself).
func NewDelta(f *os.File, out io.Writer) *Delta {
	if out == nil {
		out = f
	}
	return &Delta{File: f, out: out}
}

// Write forwards p, shrinking a frame to the cells that changed.
func (d *Delta) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := parseFrame(p)
	if !ok {
		// A mode switch, a clear, the renderer's goodbye: the screen is no longer
		// what we remember.
		d.lines = nil
		return d.out.Write(p)
	}
	if f.full() {
		d.remember(f)
		return d.out.Write(p)
	}
	var b bytes.Buffer
	b.Grow(256)
	for row, l := range f.rows {
		if !l.painted {
			continue
		}
		d.patch(&b, row, l)
	}
	d.remember(f)
	if strings.HasPrefix(f.tail, ansi.EraseScreenBelow) {
		// The renderer erases below from where its own bytes left the cursor: the end
		// of its last line, or the start of that line when it left the line alone
		// (which the erase then blanks). The patches left the cursor elsewhere.
		last := f.rows[len(f.rows)-1]
		col := 0
		if last.painted {
			col = width(cells(last.text))
		}
		writeAt(&b, len(f.rows)-1, col, nil, false)
	}
	b.WriteString(f.tail)
	if _, err := d.out.Write(b.Bytes()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// forget drops what Delta remembers of the screen: something else draws on it.
func (d *Delta) forget() {
	d.mu.Lock()
	d.lines = nil
	d.mu.Unlock()
}

// WriteString lets io.WriteString reach Write (the embedded File has its own).
func (d *Delta) WriteString(s string) (int, error) { return d.Write([]byte(s)) }

// remember records the painted lines; lines below a frame that erased them are forgotten.
func (d *Delta) remember(f frame) {
	if strings.HasPrefix(f.tail, ansi.EraseScreenBelow) && len(d.lines) > len(f.rows) {
		d.lines = d.lines[:len(f.rows)]
	}
	if len(d.lines) < len(f.rows) {
		d.lines = append(d.lines, make([]screenLine, len(f.rows)-len(d.lines))...)
	}
	for row, l := range f.rows {
		if l.painted {
			d.lines[row] = screenLine{cells: cells(l.text), known: true}
		}
	}
	if strings.HasPrefix(f.tail, ansi.EraseScreenBelow) {
		// The erase starts on the last line: blank when the renderer left that line
		// alone, its last cell gone when the line filled the width.
		d.lines[len(f.rows)-1] = screenLine{}
	}
}

// patch writes the part of row that differs from what the terminal shows.
func (d *Delta) patch(b *bytes.Buffer, row int, l frameLine) {
	next := cells(l.text)
	if row >= len(d.lines) || !d.lines[row].known {
		writeAt(b, row, 0, next, l.erase)
		return
	}
	prev := d.lines[row].cells
	first := 0
	for first < len(prev) && first < len(next) && prev[first] == next[first] {
		first++
	}
	if first == len(prev) && first == len(next) {
		return
	}
	if !aligned(prev, next) {
		// The line moved: from the first change to its end.
		writeAt(b, row, width(next[:first]), next[first:], l.erase)
		return
	}
	// Cells stay in their columns, so only the runs that differ go out; runs a few
	// cells apart go as one (a cursor move costs about as much).
	const gap = 6
	col := width(next[:first])
	for i := first; i < len(next); {
		if prev[i] == next[i] {
			col += next[i].width
			i++
			continue
		}
		start, startCol, same := i, col, 0
		for i < len(next) && same <= gap {
			if prev[i] == next[i] {
				same++
			} else {
				same = 0
			}
			col += next[i].width
			i++
		}
		writeAt(b, row, startCol, next[start:i-same], false)
	}
}

// writeAt moves to (row, col) and draws cs, restating the style whenever it changes,
// and resets the pen after. The pen is reset when writeAt starts: every frame line
// ends with a reset (lipgloss closes what it opens), and so does every patch.
func writeAt(b *bytes.Buffer, row, col int, cs []cell, erase bool) {
	b.WriteString("\x1b[")
	b.WriteString(strconv.Itoa(row + 1))
	if col > 0 {
		b.WriteByte(';')
		b.WriteString(strconv.Itoa(col + 1))
	}
	b.WriteByte('H')
	pen := ""
	for _, c := range cs {
		if c.style != pen {
			if pen != "" {
				b.WriteString(ansi.ResetStyle)
			}
			b.WriteString(c.style)
			pen = c.style
		}
		b.WriteString(c.text)
	}
	if pen != "" {
		b.WriteString(ansi.ResetStyle)
	}
	if erase {
		b.WriteString(ansi.EraseLineRight)
	}
}

// aligned reports whether every cell of next sits in the column of the same cell of
// prev (same count, same widths).
func aligned(prev, next []cell) bool {
	if len(prev) != len(next) {
		return false
	}
	for i := range prev {
		if prev[i].width != next[i].width {
			return false
		}
	}
	return true
}

func width(cs []cell) int {
	w := 0
	for _, c := range cs {
		w += c.width
	}
	return w
}

// cells splits a line into graphemes with the styles in effect for each.
func cells(s string) []cell {
	var out []cell
	var style strings.Builder
	var state byte
	for len(s) > 0 {
		seq, w, n, ns := ansi.DecodeSequence(s, state, nil)
		state = ns
		s = s[n:]
		if w == 0 && len(seq) > 0 && (seq[0] == '\x1b' || seq[0] == 0x9b) {
			if seq == "\x1b[m" || seq == "\x1b[0m" {
				style.Reset()
			} else {
				style.WriteString(seq)
			}
			continue
		}
		if w == 0 && len(out) > 0 {
			out[len(out)-1].text += seq // a mark joins the grapheme before it
			continue
		}
		out = append(out, cell{text: seq, style: style.String(), width: w})
	}
	return out
}

// frame is one renderer frame: its lines (painted or left as they were) and the bytes
// after them (the erase below and the final cursor position).
type frame struct {
	rows []frameLine
	tail string
}

type frameLine struct {
	painted bool
	text    string
	erase   bool // the renderer erased to the end of the line after it
}

func (f frame) full() bool {
	for _, l := range f.rows {
		if !l.painted {
			return false
		}
	}
	return true
}

// parseFrame recognizes a frame of Bubble Tea v1's standard renderer in the alternate
// screen; anything else is not a frame.
func parseFrame(p []byte) (frame, bool) {
	const home = "\x1b[H"
	s := string(p)
	if !strings.HasPrefix(s, home) || len(s) == len(home) {
		return frame{}, false
	}
	body := s[len(home):]
	tailAt, count := finalCursor(body)
	if tailAt < 0 {
		return frame{}, false
	}
	tail := body[tailAt:]
	body = body[:tailAt]
	if strings.HasSuffix(body, ansi.EraseScreenBelow) {
		body = body[:len(body)-len(ansi.EraseScreenBelow)]
		tail = ansi.EraseScreenBelow + tail
	}
	// A frame after a repaint (the first, a resize) starts with a carriage return; it
	// paints every line, so it goes out as it is, and is remembered.
	body = strings.TrimPrefix(body, "\r")
	f := frame{tail: tail}
	for len(f.rows) < count {
		switch {
		case body == "" || body[0] == '\n':
			// Unchanged: the renderer moved down a line (or, for the last, wrote nothing).
			f.rows = append(f.rows, frameLine{})
			body = strings.TrimPrefix(body, "\n")
			continue
		}
		line, rest, _ := strings.Cut(body, "\r\n")
		if strings.ContainsAny(line, "\r\n") {
			return frame{}, false
		}
		l := frameLine{painted: true}
		l.text, l.erase = strings.CutSuffix(line, ansi.EraseLineRight)
		f.rows = append(f.rows, l)
		body = rest
	}
	if body != "" {
		return frame{}, false
	}
	return f, true
}

// finalCursor finds the cursor position sequence ending body ("\x1b[24;H": the cursor
// at the start of the frame's last line) and the frame's line count, or -1.
func finalCursor(body string) (at, lines int) {
	if !strings.HasSuffix(body, "H") {
		return -1, 0
	}
	i := strings.LastIndex(body, "\x1b[")
	if i < 0 {
		return -1, 0
	}
	row, col, _ := strings.Cut(body[i+2:len(body)-1], ";")
	if col != "" && col != "1" {
		return -1, 0
	}
	if row == "" {
		return i, 1
	}
	n, err := strconv.Atoi(row)
	if err != nil || n < 1 {
		return -1, 0
	}
	return i, n
}
