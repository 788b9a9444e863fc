package safe

import (
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestFrameKeepsWhatTheConsoleEmits(t *testing.T) {
	in := "\x1b[1;38;2;10;20;30mbold\x1b[0m plain ★ näme\n\x1b[38:5:12mx\x1b[m"
	if got := Frame(in); got != in {
		t.Fatalf("Frame changed a clean frame: %q", got)
	}
	if allocs := testing.AllocsPerRun(100, func() { _ = Frame(in) }); allocs != 0 {
		t.Fatalf("a clean frame allocated %v times", allocs)
	}
}

func TestFrameRemovesEverySequenceTheConsoleDoesNotEmit(t *testing.T) {
	cases := map[string]string{
		"› evil\x1b]0;pwned\x07\x1b[2J-proj":                "› evil-proj",
		"a\x1b]52;c;aGk=\x1b\\b":                            "ab",
		"J. Doe\x1b]8;;https://e/\x1b\\click\x1b]8;;\x1b\\": "J. Doeclick",
		"\x1bP+q544e\x1b\\x":                                "x",
		"F\x1b(0I":                                          "FI",
		"hide\x1b[?25l":                                     "hide",
		"alt\x1b[?1049h":                                    "alt",
		"dsr\x1b[6n":                                        "dsr",
		"c1\u009b2J \u009d0;t\u009c":                        "c12J 0;t",
		"bell\a bs\b del\x7f nul\x00":                       "bell bs del nul",
		"cr\r\x1b[Kforged":                                  "crforged",
		"bidi\u202egpj.exe zw\u200bsp bom\ufeff":            "bidigpj.exe zwsp bom",
		"unterminated \x1b]0;title\nnext":                   "unterminated \nnext",
		"bad \xff byte":                                     "bad \ufffd byte",
		"lone esc\x1b":                                      "lone esc",
		"tab\tx":                                            "tab x",
	}
	for in, want := range cases {
		if got := Frame(in); got != want {
			t.Errorf("Frame(%q) = %q, want %q", in, got, want)
		}
	}
}

// The layout measured what Frame removes as zero columns, so no line changes width.
func TestFrameKeepsWidths(t *testing.T) {
	for _, in := range []string{"› evil\x1b]0;pwned\x07\x1b[2J-proj", "a\x1b]52;c;aGk=\x1b\\b", "hide\x1b[?25lx", "\x1b[1mb\x1b[0m\x1bP+q\x1b\\"} {
		if a, b := ansi.StringWidth(in), ansi.StringWidth(Frame(in)); a != b {
			t.Errorf("%q: width %d before, %d after", in, a, b)
		}
	}
}

func TestCopyCarriesNoControls(t *testing.T) {
	got, n := Copy("evil\x1b]0;pwned\x07\x1b[2J\r-name\b\u202e")
	if got != "evil-name" || n == 0 {
		t.Fatalf("Copy = %q, %d removed", got, n)
	}
	got, n = Copy("{\n\t\"a\": 1\r\n}")
	if got != "{\n\t\"a\": 1\r\n}" || n != 0 {
		t.Fatalf("Copy changed clean text: %q, %d", got, n)
	}
}

func TestTextEscapesInvisiblesAndDropsSelectors(t *testing.T) {
	cases := map[string]string{
		"report\u202egpj.exe": `report\u202egpj.exe`,
		"zero\u200bwidth":     `zero\u200bwidth`,
		"bom\ufeff":           `bom\ufeff`,
		"heart ❤\ufe0f ok":    "heart ❤ ok",
		"joiner 👨\u200d👩":     `joiner 👨\u200d👩`,
	}
	for in, want := range cases {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
	// The emoji keeps one column, as tmux and most terminals draw U+2764 without VS16.
	if w := ansi.StringWidth(Text("❤\ufe0f")); w != 1 {
		t.Errorf("width of the sanitized heart = %d, want 1", w)
	}
}

func FuzzFrame(f *testing.F) {
	f.Add("Evil\x1b]0;pwned\x07\x1b[1mok\x1b[0m")
	f.Add("\xc2\x9b\x9b\xff\x1b[")
	f.Fuzz(func(t *testing.T, s string) {
		out := Frame(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Frame(%q) = %q is not valid UTF-8", s, out)
		}
		for i := 0; i < len(out); i++ {
			c := out[i]
			if c == 0x1b {
				end, keep := escape(out, i)
				if !keep {
					t.Fatalf("Frame(%q) = %q keeps a non-SGR escape", s, out)
				}
				i = end - 1
				continue
			}
			if (c < 0x20 && c != '\n') || c == 0x7f {
				t.Fatalf("Frame(%q) = %q holds control %#x", s, out, c)
			}
		}
		for _, r := range out {
			if r >= 0x80 && r <= 0x9f || invisible(r) {
				t.Fatalf("Frame(%q) = %q holds %U", s, out, r)
			}
		}
		if Frame(out) != out {
			t.Fatalf("Frame is not idempotent on %q", s)
		}
	})
}
