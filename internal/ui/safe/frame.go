package safe

import (
	"strings"
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
	for i < len(s) {
		c := s[i]
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
			case r >= 0x80 && r <= 0x9f, invisible(r):
			default:
				b.WriteString(s[i : i+n])
			}
			i += n
		}
	}
	return b.String()
}

// firstUnsafe is the index of the first byte Frame must look at, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
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
			return j + 1, sgr && s[j] == 'm'
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
