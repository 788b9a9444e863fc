package safe

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Frame returns a rendered frame with only what the console itself emits: printable
// text, newlines and SGR sequences (ESC [ digits ; : m, the colours and attributes
// lipgloss writes). Every other escape sequence is removed whole, payload included
// (OSC up to BEL or ST, DCS/SOS/PM/APC up to ST, CSI to its final byte, two-byte ESC
// sequences), and so are C0 and C1 controls, DEL and the invisible format characters.
// An unterminated string sequence ends at the line's end, as the layout measured it.
//
// The layout measured removed sequences as zero columns wide, so what stays keeps its
// place. A clean frame is returned as it is, without a copy.
func Frame(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	marks := trailingMarks(s[:i]) // combining marks on the character before
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' {
			marks = 0 // a character (an escape sequence or a control is none)
		}
		switch {
		case c == 0x1b:
			end, keep := escape(s, i)
			if keep {
				b.WriteString(s[i:end])
			}
			i = end
		case c == '\n':
			b.WriteByte(c)
			i++
		case c == '\t':
			b.WriteByte(' ')
			i++
		case c < 0x20 || c == 0x7f:
			i++
		case c < 0x80:
			b.WriteByte(c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				b.WriteRune(utf8.RuneError)
				marks = 0
			case r >= 0x80 && r <= 0x9f, invisible(r):
				// Removed: the marks after it still sit on the character before.
			case combining(r):
				if marks++; marks <= MaxMarks {
					b.WriteString(s[i : i+n])
				}
			default:
				b.WriteString(s[i : i+n])
				marks = 0
			}
			i += n
		}
	}
	return b.String()
}

// MaxMarks is how many combining marks one character keeps (written languages use
// two or three): 500 × U+0301 on one letter once went to the terminal whole.
const MaxMarks = 4

// combining reports a nonspacing or enclosing mark, drawn over the character before.
func combining(r rune) bool {
	return r >= 0x300 && (unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r))
}

// trailingMarks counts the combining marks at the end of s, escape sequences between
// them left out.
func trailingMarks(s string) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		switch {
		case combining(r):
			n++
		case r == 'm' || r >= '0' && r <= '9' || r == ';' || r == ':' || r == '[' || r == 0x1b:
			// Part of an SGR sequence the scan kept: look before it.
		default:
			return n
		}
		s = s[:len(s)-size]
	}
	return n
}

// firstUnsafe is the index of the first byte Frame must look at, or -1.
func firstUnsafe(s string) int {
	marks := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' {
			marks = 0
		}
		switch {
		case c == 0x1b:
			if end, keep := escape(s, i); !keep {
				return i
			} else {
				i = end - 1
			}
		case c == '\n':
		case c < 0x20 || c == 0x7f:
			return i
		case c >= 0x80:
			r, n := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && n == 1) || (r >= 0x80 && r <= 0x9f) || invisible(r) {
				return i
			}
			if marks = marks + 1; !combining(r) {
				marks = 0
			} else if marks > MaxMarks {
				return i
			}
			i += n - 1
		}
	}
	return -1
}

// escape reads the escape sequence at s[i] (an ESC) and says where it ends and whether
// it is an SGR sequence the frame may keep.
func escape(s string, i int) (end int, keep bool) {
	if i+1 >= len(s) {
		return len(s), false
	}
	switch s[i+1] {
	case '[':
		j := i + 2
		sgr := true
		for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
			if c := s[j]; !(c >= '0' && c <= '9' || c == ';' || c == ':') {
				sgr = false
			}
			j++
		}
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			sgr = false
			j++
		}
		if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
			return j + 1, sgr && s[j] == 'm' && consoleSGR(s[i+2:j])
		}
		// Not a complete CSI: drop what was read; the next byte is looked at on its own.
		return j, false
	case ']', 'P', 'X', '^', '_':
		osc := s[i+1] == ']'
		for j := i + 2; j < len(s); j++ {
			switch {
			case osc && s[j] == 0x07:
				return j + 1, false
			case s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\':
				return j + 2, false
			case s[j] == '\n':
				return j, false
			case s[j] == 0xc2 && j+1 < len(s) && s[j+1] == 0x9c: // C1 ST
				return j + 2, false
			}
		}
		return len(s), false
	default:
		// ESC with an intermediate (charset designation ESC ( 0) takes one more byte.
		j := i + 1
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
			j++
		}
		return j, false
	}
}

// consoleSGR reports an SGR parameter list made only of what the console's styles
// write: resets, bold, faint, italic, underline (and its styles), reverse, strike,
// their undoing, and colours (basic, bright, 256 and true colour, foreground,
// background and underline). Blink, conceal, fonts, overline and the rest are never
// the console's: a sequence holding one is removed whole.
func consoleSGR(params string) bool {
	var buf [32]string
	ps, ok := split(params, ';', buf[:0])
	if !ok {
		return false
	}
	for k := 0; k < len(ps); k++ {
		p := ps[k]
		if head, sub, colon := strings.Cut(p, ":"); colon {
			// Colon forms: 4:n (underline style), 38:5:n, 38:2::r:g:b and the like.
			switch head {
			case "4":
				if !digits(sub) {
					return false
				}
			case "38", "48", "58":
				var cb [8]string
				cs, ok := split(sub, ':', cb[:0])
				if !ok || !extendedColour(cs) {
					return false
				}
			default:
				return false
			}
			continue
		}
		if !digits(p) {
			return false
		}
		n := atoi(p)
		switch {
		case n == 0, n == 1, n == 2, n == 3, n == 4, n == 7, n == 9,
			n >= 22 && n <= 24, n == 27, n == 29,
			n >= 30 && n <= 37, n == 39, n >= 40 && n <= 47, n == 49, n == 59,
			n >= 90 && n <= 97, n >= 100 && n <= 107:
		case n == 38 || n == 48 || n == 58:
			// 38;5;n or 38;2;r;g;b: the colour's parameters follow.
			if k+1 >= len(ps) {
				return false
			}
			take := 2
			if ps[k+1] == "2" {
				take = 4
			}
			if k+take >= len(ps) || !extendedColour(ps[k+1:k+1+take]) {
				return false
			}
			k += take
		default:
			return false
		}
	}
	return true
}

// split cuts s at sep into out (no allocation); false when out's room is too small:
// the console never writes that many parameters.
func split(s string, sep byte, out []string) ([]string, bool) {
	for {
		if len(out) == cap(out) {
			return out, false
		}
		i := strings.IndexByte(s, sep)
		if i < 0 {
			return append(out, s), true
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
}

// extendedColour is the rest of a 38/48/58 colour: 5;n, or 2;r;g;b (in the colon
// form 2::r:g:b, with an empty colour space).
func extendedColour(ps []string) bool {
	if len(ps) == 0 {
		return false
	}
	switch ps[0] {
	case "5":
		return len(ps) == 2 && digits(ps[1]) && atoi(ps[1]) <= 255
	case "2":
		rgb := ps[1:]
		if len(rgb) == 4 && rgb[0] == "" {
			rgb = rgb[1:]
		}
		if len(rgb) != 3 {
			return false
		}
		for _, c := range rgb {
			if !digits(c) || atoi(c) > 255 {
				return false
			}
		}
		return true
	}
	return false
}

// digits reports 0 to 3 decimal digits (an empty parameter is 0).
func digits(s string) bool {
	if len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// Copy returns outside text as it may go to the clipboard: escape sequences removed
// whole, control characters other than newline and tab removed, invisible format
// characters removed, and how many characters went, so the console can say so.
func Copy(s string) (string, int) {
	if firstUnsafe(s) < 0 && !strings.ContainsRune(s, '\r') {
		return s, 0
	}
	var b strings.Builder
	removed := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			end, _ := escape(s, i)
			removed += utf8.RuneCountInString(s[i:end])
			i = end
		case c == '\n' || c == '\t':
			b.WriteByte(c)
			i++
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			b.WriteByte(c)
			i++
		case c < 0x20 || c == 0x7f:
			removed++
			i++
		case c < 0x80:
			b.WriteByte(c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && n == 1) || (r >= 0x80 && r <= 0x9f) || invisible(r) {
				removed++
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
		}
	}
	return b.String(), removed
}
