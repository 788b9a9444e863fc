package opensearch

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/words"
)

// maxTokenLength mirrors the standard tokenizer's default, longer runs are split.
const maxTokenLength = 255

// analyze is the standard analyzer: the standard tokenizer (Unicode word segmentation, UAX #29,
// keeping the segments that hold a letter or a digit, so 203.0.113.61, favicon.ico and v1.2.3 stay
// one token each) and the lowercase filter.
func analyze(s string) []string {
	var out []string
	scanWords(s, func(start, end int, ascii bool) { out = appendToken(out, s[start:end], ascii) })
	return out
}

// scanWords calls f with the byte span of every word of s as the standard tokenizer cuts it, and
// whether the word is plain ASCII. Highlighting needs the spans, analysis the words.
func scanWords(s string, f func(start, end int, ascii bool)) {
	it := words.FromString(s)
	for it.Next() {
		start, end := it.Start(), it.End()
		word, ascii := false, true
		for i := start; i < end; {
			c := s[i]
			if c < utf8.RuneSelf {
				if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
					word = true
				}
				i++
				continue
			}
			ascii = false
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) {
				word = true
			}
			i += size
		}
		if word {
			f(start, end, ascii)
		}
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
