package terminal

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// emulator is a second, stricter test terminal, written apart from Delta so that the two
// do not share a blind spot: it keeps what a real terminal (xterm, tmux) keeps and
// nothing more. Line feed at the bottom scrolls; the last column holds the cursor until
// the next glyph wraps it; a wide glyph that does not fit wraps; overwriting half of a
// wide glyph blanks the other half; erases fill with the current background; SGR is
// kept as attributes (two spellings of one style are one style); the alternate screen
// is a second buffer; OSC, DCS, bell and modes change nothing on screen.
type emulator struct {
	w, h     int
	x, y     int
	wrapNext bool
	pen      sgr
	grid     [][]emuCell
	saved    [][]emuCell // the main screen while the alternate one shows
	unknowns []string
}

type emuCell struct {
	text string // "" for the right half of a wide glyph
	pen  sgr
}

// sgr is the attributes a cell is drawn with.
type sgr struct {
	bold, faint, italic, underline, blink, reverse, strike bool
	fg, bg                                                 string
}

func newEmulator(w, h int) *emulator {
	e := &emulator{w: w, h: h}
	e.grid = e.blankGrid()
	return e
}

func (e *emulator) blankGrid() [][]emuCell {
	g := make([][]emuCell, e.h)
	for y := range g {
		g[y] = e.blankRow()
	}
	return g
}

func (e *emulator) blankRow() []emuCell {
	r := make([]emuCell, e.w)
	for x := range r {
		r[x] = emuCell{text: " ", pen: sgr{bg: e.pen.bg}}
	}
	return r
}

func (e *emulator) Write(p []byte) (int, error) {
	s := string(p)
	var state byte
	for len(s) > 0 {
		if strings.HasPrefix(s, "\x1bP") {
			s = s[dcsLen(s):] // a passthrough (tmux, screen): for the terminal outside
			continue
		}
		seq, w, n, ns := ansi.DecodeSequence(s, state, nil)
		state = ns
		s = s[n:]
		switch {
		case w > 0 || (len(seq) > 0 && seq[0] >= 0x20 && seq[0] != 0x7f && !strings.HasPrefix(seq, "\u009b")):
			e.put(seq, w)
		case seq == "\r":
			e.x, e.wrapNext = 0, false
		case seq == "\n" || seq == "\v" || seq == "\f":
			e.lineFeed()
		case seq == "\b":
			e.x, e.wrapNext = max(e.x-1, 0), false
		case seq == "\a":
		case strings.HasPrefix(seq, "\x1b]"), strings.HasPrefix(seq, "\x1bP"):
			// OSC (title, clipboard, notification) and DCS (tmux passthrough).
		case strings.HasPrefix(seq, "\x1b["):
			e.csi(seq)
		default:
			e.unknowns = append(e.unknowns, seq)
		}
	}
	return len(p), nil
}

// put draws one grapheme of width w at the cursor.
func (e *emulator) put(g string, w int) {
	if w == 0 {
		// A mark on its own joins the glyph before the cursor.
		x := e.x - 1
		if e.wrapNext {
			x = e.x
		}
		for x > 0 && e.grid[e.y][x].text == "" {
			x--
		}
		if x >= 0 {
			e.grid[e.y][x].text += g
		}
		return
	}
	if e.wrapNext || e.x+w > e.w {
		if w > e.w {
			return
		}
		e.x, e.wrapNext = 0, false
		e.lineFeed()
	}
	e.free(e.x)
	if w == 2 {
		e.free(e.x + 1)
	}
	e.grid[e.y][e.x] = emuCell{text: g, pen: e.pen}
	if w == 2 {
		e.grid[e.y][e.x+1] = emuCell{pen: e.pen}
	}
	e.x += w
	if e.x >= e.w {
		e.x, e.wrapNext = e.w-1, true
	}
}

// free blanks the other half of a wide glyph that column x is part of.
func (e *emulator) free(x int) {
	row := e.grid[e.y]
	if row[x].text == "" && x > 0 {
		row[x-1] = emuCell{text: " ", pen: row[x-1].pen}
	}
	if row[x].text != "" && x+1 < e.w && row[x+1].text == "" {
		row[x+1] = emuCell{text: " ", pen: row[x+1].pen}
	}
}

func (e *emulator) lineFeed() {
	e.wrapNext = false
	if e.y < e.h-1 {
		e.y++
		return
	}
	copy(e.grid, e.grid[1:])
	e.grid[e.h-1] = e.blankRow()
}

// erase blanks columns [from, to) of row y (a wide glyph cut in two goes whole).
func (e *emulator) erase(y, from, to int) {
	row := e.grid[y]
	if from > 0 && from < e.w && row[from].text == "" {
		from--
	}
	if to < e.w && to > 0 && row[to].text == "" {
		to++
	}
	for x := from; x < to; x++ {
		row[x] = emuCell{text: " ", pen: sgr{bg: e.pen.bg}}
	}
}

func (e *emulator) csi(seq string) {
	final := seq[len(seq)-1]
	body := seq[2 : len(seq)-1]
	if strings.HasPrefix(body, "?") {
		if final == 'h' || final == 'l' {
			for _, m := range strings.Split(body[1:], ";") {
				if m == "1049" {
					e.altScreen(final == 'h')
				}
			}
		}
		return
	}
	params := strings.Split(body, ";")
	arg := func(i, def int) int {
		if i >= len(params) || params[i] == "" {
			return def
		}
		n, err := strconv.Atoi(params[i])
		if err != nil {
			return def
		}
		return n
	}
	switch final {
	case 'H', 'f':
		e.y = min(max(arg(0, 1), 1), e.h) - 1
		e.x = min(max(arg(1, 1), 1), e.w) - 1
		e.wrapNext = false
	case 'A':
		e.y, e.wrapNext = max(e.y-max(arg(0, 1), 1), 0), false
	case 'B':
		e.y, e.wrapNext = min(e.y+max(arg(0, 1), 1), e.h-1), false
	case 'C':
		e.x, e.wrapNext = min(e.x+max(arg(0, 1), 1), e.w-1), false
	case 'D':
		e.x, e.wrapNext = max(e.x-max(arg(0, 1), 1), 0), false
	case 'G':
		e.x, e.wrapNext = min(max(arg(0, 1), 1), e.w)-1, false
	case 'K':
		switch arg(0, 0) {
		case 0:
			e.erase(e.y, e.x, e.w)
		case 1:
			e.erase(e.y, 0, e.x+1)
		case 2:
			e.erase(e.y, 0, e.w)
		}
	case 'J':
		switch arg(0, 0) {
		case 0:
			e.erase(e.y, e.x, e.w)
			for y := e.y + 1; y < e.h; y++ {
				e.erase(y, 0, e.w)
			}
		case 1:
			for y := 0; y < e.y; y++ {
				e.erase(y, 0, e.w)
			}
			e.erase(e.y, 0, e.x+1)
		case 2, 3:
			for y := range e.h {
				e.erase(y, 0, e.w)
			}
		}
	case 'm':
		e.style(params)
	default:
		e.unknowns = append(e.unknowns, seq)
	}
}

func (e *emulator) altScreen(on bool) {
	switch {
	case on && e.saved == nil:
		e.saved, e.grid = e.grid, e.blankGrid()
	case !on && e.saved != nil:
		e.grid, e.saved = e.saved, nil
	}
}

func (e *emulator) style(params []string) {
	for i := 0; i < len(params); i++ {
		n, _ := strconv.Atoi(params[i])
		switch {
		case n == 0:
			e.pen = sgr{}
		case n == 1:
			e.pen.bold = true
		case n == 2:
			e.pen.faint = true
		case n == 3:
			e.pen.italic = true
		case n == 4:
			e.pen.underline = true
		case n == 5:
			e.pen.blink = true
		case n == 7:
			e.pen.reverse = true
		case n == 9:
			e.pen.strike = true
		case n == 22:
			e.pen.bold, e.pen.faint = false, false
		case n == 23:
			e.pen.italic = false
		case n == 24:
			e.pen.underline = false
		case n == 27:
			e.pen.reverse = false
		case n == 29:
			e.pen.strike = false
		case n == 39:
			e.pen.fg = ""
		case n == 49:
			e.pen.bg = ""
		case n == 38 || n == 48:
			c := ""
			if i+2 < len(params) && params[i+1] == "5" {
				c, i = "5;"+params[i+2], i+2
			} else if i+4 < len(params) && params[i+1] == "2" {
				c, i = "2;"+strings.Join(params[i+2:i+5], ";"), i+4
			}
			if n == 38 {
				e.pen.fg = c
			} else {
				e.pen.bg = c
			}
		case n >= 30 && n <= 37 || n >= 90 && n <= 97:
			e.pen.fg = strconv.Itoa(n)
		case n >= 40 && n <= 47 || n >= 100 && n <= 107:
			e.pen.bg = strconv.Itoa(n)
		}
	}
}

// diff names the first cell where two screens differ, or "".
func (e *emulator) diff(o *emulator) string {
	for y := range e.h {
		for x := range e.w {
			if e.grid[y][x] != o.grid[y][x] {
				return fmt.Sprintf("row %d col %d: %q %+v, want %q %+v", y+1, x+1, o.grid[y][x].text, o.grid[y][x].pen, e.grid[y][x].text, e.grid[y][x].pen)
			}
		}
	}
	return ""
}

// text is the screen's glyphs, one line a row, for failure messages.
func (e *emulator) text() string {
	var b strings.Builder
	for y, row := range e.grid {
		fmt.Fprintf(&b, "%2d|", y+1)
		for _, c := range row {
			b.WriteString(c.text)
		}
		b.WriteString("|\n")
	}
	return b.String()
}

// dcsLen is the length of the DCS string starting s, up to its ST; an ESC doubled inside
// (tmux's passthrough) is part of the string.
func dcsLen(s string) int {
	for i := 2; i+1 < len(s); i++ {
		if s[i] != '\x1b' {
			continue
		}
		if s[i+1] == '\\' {
			return i + 2
		}
		if s[i+1] == '\x1b' {
			i++
		}
	}
	return len(s)
}
