package safe

import (
	"strconv"
	"strings"
)

// JSON prepares JSON text for the clipboard: every character Copy would remove (C0 and
// C1 controls, DEL, bidi and zero-width characters) is written as the \uXXXX escape
// JSON has for it, so the copy still equals the data instead of losing those
// characters. In valid JSON they can only be inside strings, where the escape means
// the same character.
func JSON(s string) string {
	if !strings.ContainsFunc(s, jsonEscaped) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		if !jsonEscaped(r) {
			b.WriteRune(r)
			continue
		}
		h := strconv.FormatInt(int64(r), 16)
		b.WriteString(`\u` + strings.Repeat("0", 4-len(h)) + h)
	}
	return b.String()
}

// jsonEscaped are the runes JSON writes as escapes for the clipboard: what Copy
// removes, except the newline, tab and carriage return that lay JSON text out.
func jsonEscaped(r rune) bool {
	switch {
	case r == '\n' || r == '\t' || r == '\r':
		return false
	case r < 0x20 || r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	}
	return invisible(r)
}
