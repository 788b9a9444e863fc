package opensearch

import (
	"net/http"
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

// analyzeToken is one token of the _analyze API.
type analyzeToken struct {
	token      string
	start, end int
	typ        string
	position   int
}

// tokenType is the standard tokenizer's type of a word: <NUM> when it is made of digits (with
// the separators UAX #29 keeps inside numbers), else <ALPHANUM>.
func tokenType(w string) string {
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

// tokenize cuts text with a tokenizer: standard (UAX #29), whitespace, letter or keyword.
func tokenize(tokenizer, s string) []analyzeToken {
	var out []analyzeToken
	switch tokenizer {
	case "standard":
		scanWords(s, func(start, end int, _ bool) {
			for len(s[start:end]) > maxTokenLength {
				cut := start + maxTokenLength
				for cut > start && !utf8.RuneStart(s[cut]) {
					cut--
				}
				out = append(out, analyzeToken{token: s[start:cut], start: start, end: cut, typ: tokenType(s[start:cut])})
				start = cut
			}
			out = append(out, analyzeToken{token: s[start:end], start: start, end: end, typ: tokenType(s[start:end])})
		})
	case "keyword":
		if s != "" {
			out = append(out, analyzeToken{token: s, start: 0, end: len(s), typ: "word"})
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
				out = append(out, analyzeToken{token: s[start:i], start: start, end: i, typ: "word"})
				start = -1
			}
		}
		if start >= 0 {
			out = append(out, analyzeToken{token: s[start:], start: start, end: len(s), typ: "word"})
		}
	}
	for i := range out {
		out[i].position = i
	}
	return out
}

// builtinAnalyzers are the analyzers _analyze knows: a tokenizer and token filters.
var builtinAnalyzers = map[string]struct {
	tokenizer string
	filters   []string
}{
	"standard":   {"standard", []string{"lowercase"}},
	"simple":     {"letter", []string{"lowercase"}},
	"whitespace": {"whitespace", nil},
	"keyword":    {"keyword", nil},
}

func applyFilter(name string, toks []analyzeToken) ([]analyzeToken, *apiError) {
	switch name {
	case "lowercase":
		for i := range toks {
			toks[i].token = strings.ToLower(toks[i].token)
		}
	case "uppercase":
		for i := range toks {
			toks[i].token = strings.ToUpper(toks[i].token)
		}
	default:
		return nil, badRequest("failed to find global token filter under [%s]", name)
	}
	return toks, nil
}

// handleAnalyze answers GET/POST /_analyze and /{index}/_analyze (text, analyzer or field or
// tokenizer and filter), as TransportAnalyzeAction: positions and offsets continue across the
// values of a text array (gaps 100 and 1).
func (c *Cluster) handleAnalyze(w http.ResponseWriter, r *http.Request, indexName string, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := asMap(v)
	var texts []string
	analyzer, field, tokenizer := "", "", ""
	var filters []string
	for k, x := range m {
		switch k {
		case "text":
			for _, e := range asList(x) {
				s, ok := e.(string)
				if !ok {
					c.fail(w, r, parsingErr("[analyze_request] text must be a string or an array of strings"))
					return
				}
				texts = append(texts, s)
			}
		case "analyzer":
			analyzer, _ = asString(x)
		case "field":
			field, _ = asString(x)
		case "tokenizer":
			tokenizer, _ = asString(x)
		case "filter", "token_filter":
			for _, e := range asList(x) {
				s, ok := e.(string)
				if !ok {
					c.fail(w, r, badRequest("custom token filters are not supported by this emulation"))
					return
				}
				filters = append(filters, s)
			}
		case "char_filter", "normalizer", "explain", "attributes":
			if k == "explain" {
				if b, _ := asBool(x); !b {
					continue
				}
			}
			c.fail(w, r, badRequest("[%s] is not supported by this emulation's _analyze", k))
			return
		default:
			c.fail(w, r, withLocation(parsingErr("[analyze_request] unknown field [%s]", k), body))
			return
		}
	}
	if len(texts) == 0 {
		c.fail(w, r, errf(400, "action_request_validation_exception", "Validation Failed: 1: text is missing;"))
		return
	}
	if field != "" {
		if indexName == "" {
			c.fail(w, r, badRequest("analyzer [%s] not found for field [%s]", analyzer, field))
			return
		}
		c.mu.RLock()
		ix, err := c.docTarget(indexName)
		var fd *fieldDef
		if err == nil {
			fd = ix.fields[field]
		}
		c.mu.RUnlock()
		if err != nil {
			c.fail(w, r, err)
			return
		}
		if analyzer == "" {
			analyzer = "standard"
			if fd != nil && fd.kind != kindText {
				analyzer = "keyword"
			}
		}
	}
	if tokenizer == "" {
		if analyzer == "" {
			analyzer = "standard"
		}
		a, ok := builtinAnalyzers[analyzer]
		if !ok {
			c.fail(w, r, badRequest("failed to find global analyzer [%s]", analyzer))
			return
		}
		tokenizer, filters = a.tokenizer, append(append([]string(nil), a.filters...), filters...)
	} else if _, ok := map[string]bool{"standard": true, "whitespace": true, "letter": true, "keyword": true}[tokenizer]; !ok {
		c.fail(w, r, badRequest("failed to find global tokenizer under [%s]", tokenizer))
		return
	}
	out := []obj{}
	pos, off := 0, 0
	for i, text := range texts {
		toks := tokenize(tokenizer, text)
		for _, f := range filters {
			if toks, err = applyFilter(f, toks); err != nil {
				c.fail(w, r, err)
				return
			}
		}
		if i > 0 {
			pos += 100
		}
		last := -1
		for _, t := range toks {
			out = append(out, obj{{"token", t.token}, {"start_offset", off + utf16Len(text[:t.start])}, {"end_offset", off + utf16Len(text[:t.end])},
				{"type", t.typ}, {"position", pos + t.position}})
			last = t.position
		}
		pos += last + 1
		off += utf16Len(text) + 1
	}
	c.reply(w, r, 200, obj{{"tokens", out}})
}

// utf16Len is a length in UTF-16 code units, the unit of the engine's offsets.
func utf16Len(s string) int {
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
