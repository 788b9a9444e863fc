package safe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscapesEveryControl(t *testing.T) {
	cases := map[string]string{
		"Evil\x1b]0;pwned\x07": `Evil\x1b]0;pwned\x07`,
		"\x1b]52;c;aGk=\x07":   `\x1b]52;c;aGk=\x07`,
		"clear\x1b[2J":         `clear\x1b[2J`,
		"del\x7f":              `del\x7f`,
		"c1 \u009b31m":         `c1 \u009b31m`,
		"raw \x9b31m":          `raw \x9b31m`,
		"st \x1b\\":            `st \x1b\`,
		"tab\there":            "tab here",
		"line\nbreak":          "line break",
		"cr\rback":             "cr back",
		"plain näme ★":         "plain näme ★",
		"":                     "",
	}
	for in, want := range cases {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
		if strings.ContainsAny(Text(in), "\x1b\x07\x7f\u009b\n\t\r") {
			t.Errorf("Text(%q) still holds a control", in)
		}
	}
}

func TestBlockKeepsNewlines(t *testing.T) {
	if got := Block("a\r\nb\x1b[2Jc\rd\te"); got != "a\nb\\x1b[2Jc\\rd e" {
		t.Fatalf("Block = %q", got)
	}
}

func TestCleanTextIsNotCopied(t *testing.T) {
	s := strings.Repeat("kafka-events ", 10)
	if allocs := testing.AllocsPerRun(100, func() { _ = Text(s) }); allocs != 0 {
		t.Fatalf("clean text allocated %v times", allocs)
	}
}

func FuzzText(f *testing.F) {
	f.Add("Evil\x1b]0;pwned\x07")
	f.Add("\xc2\x9b\x9b\xff")
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		for _, r := range out {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
				t.Fatalf("Text(%q) = %q holds control %U", s, out, r)
			}
		}
		// Invalid bytes are escaped too, so nothing raw in 0x80–0x9f survives.
		if !utf8.ValidString(out) {
			t.Fatalf("Text(%q) = %q is not valid UTF-8", s, out)
		}
	})
}
