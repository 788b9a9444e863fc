// Package safe is the one boundary between outside text and the terminal.
//
// Text and Block turn outside text (the platform's answers, search documents, the config)
// into screen text: every control character that a terminal would act on — C0 controls,
// DEL, C1 controls and ESC — is replaced by a visible escape such as \x1b, so a name
// can neither rewrite the screen, retitle the window or write the clipboard, nor hide
// part of itself; bidi overrides and zero-width characters become escapes too, and
// presentation selectors are dropped so widths agree with the terminal. Components
// apply them where they take such text.
//
// Frame is the backstop that makes forgetting harmless: the root filters every frame
// it renders, keeping only what the console itself emits (text, newlines and SGR
// colour sequences), so a view that passes platform text without Text cannot make the
// terminal act on it. Copy does the same for what goes to the clipboard.
package safe

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text is for one-line places (cells, crumbs, footer): newlines and tabs become spaces.
func Text(s string) string { return clean(s, false) }

// Block is for multi-line places (detail values, messages in a box): newlines stay,
// tabs become spaces, every other control is escaped.
func Block(s string) string { return clean(s, true) }

// invisible reports the format characters that change how text reads without showing:
// bidi embeddings, overrides and isolates (U+202E makes "gpj.exe" read "exe.jpg"), the
// zero-width space, joiners and word joiner, the byte-order mark and the line and
// paragraph separators. They become visible escapes.
func invisible(r rune) bool {
	switch {
	case r == 0x061c, r == 0x180e, r >= 0x200b && r <= 0x200f, r >= 0x2028 && r <= 0x202e,
		r >= 0x2060 && r <= 0x2069, r == 0xfeff:
		return true
	}
	return false
}

// variation reports the emoji and text presentation selectors. They are dropped: a
// terminal draws "❤️" one column wide where the layout counts two, which shifted every
// cell after it one column left.
func variation(r rune) bool { return r == 0xfe0e || r == 0xfe0f }

// needs reports whether s holds anything to replace, so the common case allocates nothing.
func needs(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x20 || b == 0x7f {
			return true
		}
		// U+061C is D8 9C; U+180E is E1 A0 8E; U+200B–U+206F start E2 80/E2 81; U+FE0E/F
		// and U+FEFF start EF B8/EF BB: decode only those.
		if b == 0xd8 || b == 0xe1 || b == 0xe2 || b == 0xef {
			r, n := utf8.DecodeRuneInString(s[i:])
			if invisible(r) || variation(r) {
				return true
			}
			if r == utf8.RuneError && n == 1 {
				return true
			}
			i += n - 1
			continue
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
		case invisible(r):
			b.WriteString(fmt.Sprintf(`\u%04x`, r))
		case variation(r):
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
