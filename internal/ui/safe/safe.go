// Package safe turns outside text (the platform's answers, search documents, the config)
// into screen text: every control character that a terminal would act on — C0 controls,
// DEL, C1 controls and ESC — is replaced by a visible escape such as \x1b, so a name
// can neither rewrite the screen, retitle the window or write the clipboard, nor hide
// part of itself. Components apply it where they take such text; UI code never writes
// outside text to the terminal any other way.
package safe

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text is for one-line places (cells, crumbs, footer): newlines and tabs become spaces.
func Text(s string) string { return clean(s, false) }

// Block is for multi-line places (detail values, messages in a box): newlines stay,
// tabs become spaces, every other control is escaped.
func Block(s string) string { return clean(s, true) }

// needs reports whether s holds anything to replace, so the common case allocates nothing.
func needs(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x20 || b == 0x7f {
			return true
		}
		// C1 controls are U+0080–U+009F, encoded 0xC2 0x80–0x9F; a lone byte 0x80–0x9F
		// is invalid UTF-8 that some terminals still take as C1.
		if b == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
			return true
		}
		if b >= 0x80 && !utf8.FullRuneInString(s[i:]) {
			return true
		}
		if b >= 0x80 {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return true
			}
			i += n - 1
		}
	}
	return false
}

func clean(s string, keepNewlines bool) string {
	if !needs(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			// An invalid byte: show it, never pass it on.
			b.WriteString(`\x` + hex2(s[i]))
		case r == '\n' && keepNewlines:
			b.WriteByte('\n')
		case r == '\n' || r == '\t' || r == '\r' && !keepNewlines:
			b.WriteByte(' ')
		case r == '\r':
			// A lone CR in a block would move the cursor back over the line.
			if i+1 >= len(s) || s[i+1] != '\n' {
				b.WriteString(`\r`)
			}
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x` + hex2(byte(r)))
		case r >= 0x80 && r <= 0x9f:
			b.WriteString(`\u00` + hex2(byte(r)))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func hex2(b byte) string {
	h := strconv.FormatUint(uint64(b), 16)
	if len(h) == 1 {
		h = "0" + h
	}
	return h
}
