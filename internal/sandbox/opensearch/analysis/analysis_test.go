package analysis

import (
	"strings"
	"testing"
)

// The standard tokenizer follows UAX #29 word boundaries (Lucene StandardTokenizer): numbers and
// words joined by '.' stay one token, "_" joins words (ExtendNumLet), punctuation and spaces are
// dropped. docs/search.md "Facts checked": 203.0.113.61, favicon.ico and v1.2.3 stay one token.
func TestStandard(t *testing.T) {
	got := Standard("GET /Favicon.ico from 203.0.113.61, v1.2.3 foo_bar — Ünïcode 日本")
	want := []string{"get", "favicon.ico", "from", "203.0.113.61", "v1.2.3", "foo_bar", "ünïcode", "日", "本"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Standard = %q, want %q", got, want)
	}
	long := strings.Repeat("a", MaxTokenLength+10)
	if got := Standard(long); len(got) != 2 || len(got[0]) != MaxTokenLength {
		t.Errorf("a %d-letter word: %d tokens", len(long), len(got))
	}
}

// The _analyze API's tokenizers and filters (opensearch-api-specification
// tests/default/_core/analyze/filter/uppercase.yaml: keyword tokenizer + uppercase).
func TestTokenizeAndFilter(t *testing.T) {
	toks := Tokenize("standard", "Moneyball, 2011 v1.2")
	if len(toks) != 3 || toks[0].Text != "Moneyball" || toks[0].End != 9 || toks[1].Type != "<NUM>" || toks[2].Type != "<ALPHANUM>" || toks[2].Position != 2 {
		t.Errorf("standard: %+v", toks)
	}
	toks, err := Filter("uppercase", Tokenize("keyword", "Moneyball"))
	if err != nil || len(toks) != 1 || toks[0].Text != "MONEYBALL" || toks[0].Type != "word" {
		t.Errorf("keyword+uppercase: %+v %v", toks, err)
	}
	if toks := Tokenize("whitespace", " a-b  c "); len(toks) != 2 || toks[0].Text != "a-b" || toks[1].Start != 6 {
		t.Errorf("whitespace: %+v", toks)
	}
	if toks := Tokenize("letter", "it's 42"); len(toks) != 2 || toks[1].Text != "s" {
		t.Errorf("letter: %+v", toks)
	}
	if _, err := Filter("stemmer", nil); err != ErrUnknownFilter {
		t.Errorf("unknown filter: %v", err)
	}
	if n := UTF16Len("a😀"); n != 3 {
		t.Errorf("UTF16Len = %d", n)
	}
}
