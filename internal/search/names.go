package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names from the service (indices, fields) enter the editor's text only through these,
// so that a name holding a newline, a tab or an escape can never become a second
// request on the next line, or a raw control sequence on the screen.

// PathName is name as one segment of a path typed in the editor: printable text as it
// is, and whatever would end the segment, the path or the line (/ ? # % space, control
// and other non-printing characters) percent-encoded. The engine decodes it back.
func PathName(name string) string {
	var b strings.Builder
	for i, r := range name {
		if r == utf8.RuneError && !strings.HasPrefix(name[i:], "\uFFFD") {
			fmt.Fprintf(&b, "%%%02X", name[i])
			continue
		}
		switch {
		case strings.ContainsRune("/?#% \\\"", r), !unicode.IsPrint(r):
			var buf [utf8.UTFMax]byte
			for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// JSONQuote is s as a JSON string, control characters escaped (\n, \u001b).
func JSONQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// JSONInner is s escaped for the inside of a JSON string: JSONQuote without its quotes.
func JSONInner(s string) string {
	q := JSONQuote(s)
	return q[1 : len(q)-1]
}

// Printable reports a name that shows as it is: no control or other non-printing
// character (a newline, a tab, an escape).
func Printable(name string) bool {
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return utf8.ValidString(name)
}
