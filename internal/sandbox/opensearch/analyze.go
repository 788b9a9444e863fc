package opensearch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTokenLength mirrors the standard tokenizer's default, longer runs are split.
const maxTokenLength = 255

// analyze is the standard analyzer as far as this emulation needs it: split on anything that is
// not a letter or digit, lowercase each token.
func analyze(s string) []string {
	var out []string
	scanWords(s, func(start, end int, ascii bool) { out = appendToken(out, s[start:end], ascii) })
	return out
}

// scanWords calls f with the byte span of every word of s (a run of letters, digits and combining
// marks), and whether the word is plain ASCII. Highlighting needs the spans, analysis the words.
func scanWords(s string, f func(start, end int, ascii bool)) {
	start := -1
	ascii := true
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			isWord := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
			if isWord {
				if start < 0 {
					start = i
					ascii = true
				}
			} else if start >= 0 {
				f(start, i, ascii)
				start = -1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if start < 0 {
				start = i
			}
			ascii = false
		} else if start >= 0 {
			f(start, i, ascii)
			start = -1
		}
		i += size
	}
	if start >= 0 {
		f(start, len(s), ascii)
	}
}

func appendToken(out []string, tok string, ascii bool) []string {
	if ascii {
		tok = lowerASCII(tok)
	} else {
		tok = strings.ToLower(tok)
	}
	for len(tok) > maxTokenLength {
		cut := maxTokenLength
		for cut > 0 && !utf8.RuneStart(tok[cut]) {
			cut--
		}
		out = append(out, tok[:cut])
		tok = tok[cut:]
	}
	return append(out, tok)
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
