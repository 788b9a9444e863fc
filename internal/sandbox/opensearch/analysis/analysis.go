// Package analysis is the text analysis of the OpenSearch emulation: the standard analyzer
// (Unicode word segmentation, UAX #29, then lower case) used to index and query text fields, and
// the tokenizers and token filters the _analyze API offers.
package analysis

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// MaxTokenLength mirrors the standard tokenizer's default, longer runs are split.
const MaxTokenLength = 255

// Standard is the standard analyzer: the standard tokenizer (Unicode word segmentation, UAX #29,
// keeping the segments that hold a letter or a digit, so 203.0.113.61, favicon.ico and v1.2.3 stay
// one token each) and the lowercase filter.
func Standard(s string) []string {
	var out []string
	Words(s, func(start, end int, ascii bool) { out = appendToken(out, s[start:end], ascii) })
	return out
}

// Words calls f with the byte span of every word of s as the standard tokenizer cuts it, and
// whether the word is plain ASCII. Highlighting needs the spans, analysis the words.
func Words(s string, f func(start, end int, ascii bool)) {
	state, start := -1, 0
	for rest := s; rest != ""; {
		var w string
		w, rest, state = uniseg.FirstWordInString(rest, state)
		end := start + len(w)
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
		start = end
	}
}

func appendToken(out []string, tok string, ascii bool) []string {
	if ascii {
		tok = LowerASCII(tok)
	} else {
		tok = strings.ToLower(tok)
	}
	for len(tok) > MaxTokenLength {
		cut := MaxTokenLength
		for cut > 0 && !utf8.RuneStart(tok[cut]) {
			cut--
		}
		out = append(out, tok[:cut])
		tok = tok[cut:]
	}
	return append(out, tok)
}

func LowerASCII(s string) string {
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

// Token is one token of the _analyze API.
type Token struct {
	Text       string
	Start, End int
	Type       string
	Position   int
}

// TokenType is the standard tokenizer's type of a word: <NUM> when it is made of digits (with
// the separators UAX #29 keeps inside numbers), else <ALPHANUM>.
func TokenType(w string) string {
	digit := false
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			digit = true
		case r == '.' || r == ',' || r == '\'' || r == ';' || r == ':':
		default:
			return "<ALPHANUM>"
		}
	}
	if digit {
		return "<NUM>"
	}
	return "<ALPHANUM>"
}

// Tokenize cuts text with a tokenizer: standard (UAX #29), whitespace, letter or keyword.
func Tokenize(tokenizer, s string) []Token {
	var out []Token
	switch tokenizer {
	case "standard":
		Words(s, func(start, end int, _ bool) {
			for len(s[start:end]) > MaxTokenLength {
				cut := start + MaxTokenLength
				for cut > start && !utf8.RuneStart(s[cut]) {
					cut--
				}
				out = append(out, Token{Text: s[start:cut], Start: start, End: cut, Type: TokenType(s[start:cut])})
				start = cut
			}
			out = append(out, Token{Text: s[start:end], Start: start, End: end, Type: TokenType(s[start:end])})
		})
	case "keyword":
		if s != "" {
			out = append(out, Token{Text: s, Start: 0, End: len(s), Type: "word"})
		}
	case "whitespace", "letter":
		start := -1
		in := func(r rune) bool {
			if tokenizer == "letter" {
				return unicode.IsLetter(r)
			}
			return !unicode.IsSpace(r)
		}
		for i, r := range s {
			if in(r) {
				if start < 0 {
					start = i
				}
			} else if start >= 0 {
				out = append(out, Token{Text: s[start:i], Start: start, End: i, Type: "word"})
				start = -1
			}
		}
		if start >= 0 {
			out = append(out, Token{Text: s[start:], Start: start, End: len(s), Type: "word"})
		}
	}
	for i := range out {
		out[i].Position = i
	}
	return out
}

// Analyzers are the analyzers _analyze knows: a tokenizer and token filters.
var Analyzers = map[string]struct {
	Tokenizer string
	Filters   []string
}{
	"standard":   {"standard", []string{"lowercase"}},
	"simple":     {"letter", []string{"lowercase"}},
	"whitespace": {"whitespace", nil},
	"keyword":    {"keyword", nil},
}

// ErrUnknownFilter is the error of Filter for a filter it does not know.
var ErrUnknownFilter = errors.New("unknown token filter")

// Filter applies a token filter (lowercase, uppercase) to tokens.
func Filter(name string, toks []Token) ([]Token, error) {
	switch name {
	case "lowercase":
		for i := range toks {
			toks[i].Text = strings.ToLower(toks[i].Text)
		}
	case "uppercase":
		for i := range toks {
			toks[i].Text = strings.ToUpper(toks[i].Text)
		}
	default:
		return nil, ErrUnknownFilter
	}
	return toks, nil
}

// UTF16Len is a length in UTF-16 code units, the unit of the engine's offsets.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
