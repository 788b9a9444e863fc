package search

import "strings"

// SplitSQL cuts SQL mode's text into statements, in order: a statement ends at a `;`
// outside quotes ('…', "…", `…`) or at a blank line; empty statements are left out.
// The SQL plugin takes one statement a request, so each is sent on its own.
func SplitSQL(text string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, s)
		}
		cur.Reset()
	}
	var quote rune
	lineBlank := true // only spaces so far on this line
	for _, r := range text {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"' || r == '`':
			quote = r
		case r == ';':
			flush()
			lineBlank = true
			continue
		case r == '\n':
			if lineBlank {
				flush() // a blank line ends the statement
			}
			lineBlank = true
			cur.WriteRune(r)
			continue
		}
		if r != ' ' && r != '\t' && r != '\r' {
			lineBlank = false
		}
		cur.WriteRune(r)
	}
	flush()
	return out
}
