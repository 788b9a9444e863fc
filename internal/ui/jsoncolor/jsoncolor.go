// Package jsoncolor splits JSON text into tokens and colours them.
//
// It replaces a general syntax highlighter that was used only for JSON. The tokenizer
// is lossless on any input (the tokens concatenate back to the text, valid or not), and
// on valid JSON each token has the kind the JSON grammar gives it, object keys told
// apart from string values.
package jsoncolor

import (
	"strings"
	"unicode/utf8"
)

// Kind is what a token is.
type Kind uint8

const (
	Space   Kind = iota // spaces, tabs, newlines
	Key                 // a string naming an object member, quotes included
	String              // any other string, quotes included
	Number              // a number
	Literal             // true, false or null
	Punct               // { } [ ] , :
	Other               // anything JSON does not have (invalid input)

	// NumKinds is the number of kinds, for tables indexed by Kind.
	NumKinds
)

// Token is one piece of the text.
type Token struct {
	Kind Kind
	Text string
}

// Tokens splits s into tokens; their texts concatenate to s. A string is a Key when the
// next token that is not space is ':'.
func Tokens(s string) []Token {
	var out []Token
	lastString := -1 // index in out of a string that a ':' would make a key
	for i := 0; i < len(s); {
		c := s[i]
		j := i + 1
		var k Kind
		switch {
		case isSpace(c):
			for j < len(s) && isSpace(s[j]) {
				j++
			}
			k = Space
		case c == '"':
			j = stringEnd(s, i)
			k = String
		case c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':':
			k = Punct
			if c == ':' && lastString >= 0 {
				out[lastString].Kind = Key
			}
		case c == '-' || (c >= '0' && c <= '9'):
			for j < len(s) && isNumberByte(s[j]) {
				j++
			}
			k = Number
		case isWordByte(c):
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			switch s[i:j] {
			case "true", "false", "null":
				k = Literal
			default:
				k = Other
			}
		default:
			// Anything else, one character at a time (a broken UTF-8 byte alone).
			_, n := utf8.DecodeRuneInString(s[i:])
			j = i + n
			k = Other
		}
		switch {
		case k == String:
			lastString = len(out)
		case k != Space:
			lastString = -1
		}
		out = append(out, Token{k, s[i:j]})
		i = j
	}
	return out
}

// stringEnd is the index just past the string that opens at s[i] ('"'): after its
// closing quote, or at the end of the line (or text) when it is never closed.
func stringEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if j+1 < len(s) && s[j+1] != '\n' {
				j++
			}
		case '"':
			return j + 1
		case '\n':
			return j
		}
	}
	return len(s)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

func isWordByte(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
}

// Styles holds, per kind, the escape sequences that open and close its colour; a kind
// with an empty pair is written plain.
type Styles [NumKinds][2]string

// Colour writes s with each token wrapped in its kind's sequences. Space stays plain.
func Colour(s string, st *Styles) string {
	var b strings.Builder
	b.Grow(len(s) * 2)
	for _, t := range Tokens(s) {
		sgr := st[t.Kind]
		if t.Kind == Space || sgr[0] == "" {
			b.WriteString(t.Text)
			continue
		}
		b.WriteString(sgr[0])
		b.WriteString(t.Text)
		b.WriteString(sgr[1])
	}
	return b.String()
}
