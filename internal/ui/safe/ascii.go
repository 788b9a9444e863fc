package safe

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// ASCII turns a frame into one without a byte ≥ 0x80, for a locale that is not UTF-8
// (LANG=C over ssh): there a terminal shows UTF-8 as "_" or worse, and RUNNING and
// REBUILDING look alike. The console's own glyphs get ASCII look-alikes that keep their
// meaning (● * RUNNING, ○ o POWEROFF, ◐ ~ in progress, › > selection, box lines - | +);
// anything else, platform text included, becomes one "?" per column it took, so columns
// stay aligned, as Text makes other unsafe text visible rather than passing it on.
// Escape sequences in the frame (its SGR, which Frame kept) pass unchanged.
func ASCII(frame string) string {
	if isASCII(frame) {
		return frame
	}
	var b strings.Builder
	b.Grow(len(frame))
	var state byte
	for len(frame) > 0 {
		seq, w, n, ns := ansi.DecodeSequence(frame, state, nil)
		state = ns
		frame = frame[n:]
		switch {
		case isASCII(seq):
			b.WriteString(seq)
		case w == 0:
			// A lone combining mark or zero-width character: nothing to show.
		default:
			if r, ok := asciiGlyphs[seq]; ok && len(r) == w {
				b.WriteString(r)
			} else {
				b.WriteString(strings.Repeat("?", w))
			}
		}
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiGlyphs are the console's glyphs (and those of the widgets it uses) with an ASCII
// look-alike of the same width.
var asciiGlyphs = map[string]string{
	// States and levels.
	"●": "*", "○": "o", "◐": "~", "◆": "+", "✓": "+", "✗": "x", "⛨": "#", "⊘": "/", "★": "*",
	// Marks and punctuation.
	"›": ">", "▸": ">", "•": "*", "·": ".", "…": ".", "—": "-", "–": "-", "“": "\"", "”": "\"",
	"‘": "'", "’": "'", "×": "x", "≥": ">", "≤": "<", "→": ">", "←": "<", "↑": "^", "↓": "v",
	"▲": "^", "▼": "v", "↻": "@", "§": "S", "❚": "|",
	// Lines and boxes (lipgloss borders, huh's focus bar).
	"─": "-", "━": "-", "│": "|", "┃": "|", "╭": "+", "╮": "+", "╰": "+", "╯": "+", "┌": "+",
	"┐": "+", "└": "+", "┘": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
	// Bars and histograms.
	"█": "#", "▉": "#", "▊": "#", "▋": "#", "▌": "#", "▍": "=", "▎": "=", "▏": "|", "░": ".",
	"▇": "#", "▆": "#", "▅": "=", "▄": "=", "▃": "_", "▂": "_", "▁": "_",
	// The spinner's frames, should one be drawn from the UTF-8 set.
	"⠋": "|", "⠙": "/", "⠹": "-", "⠸": "\\", "⠼": "|", "⠴": "/", "⠦": "-", "⠧": "\\", "⠇": "|", "⠏": "/",
}
