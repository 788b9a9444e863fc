package safe

import (
	"strings"
	"testing"
	"unicode"
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

// SGR from platform text that skipped Text is not the console's when it blinks,
// conceals or names anything but an attribute or colour the console writes: such a
// sequence goes whole.
func TestFrameKeepsOnlyTheConsolesSGR(t *testing.T) {
	cases := map[string]string{
		"EUR\x1b[5m":            "EUR",
		"mail\x1b[8m":           "mail",
		"x\x1b[1;5;31my":        "xy",
		"font\x1b[11m":          "font",
		"over\x1b[53m":          "over",
		"\x1b[38;2;300;0;0mred": "red",
		"\x1b[38;5;196;5mblink": "blink",
		"\x1b[1;38;2;10;20;30;48;5;153mok\x1b[0m": "\x1b[1;38;2;10;20;30;48;5;153mok\x1b[0m",
		"\x1b[4:3mcurly\x1b[38:2::1:2:3m\x1b[m":   "\x1b[4:3mcurly\x1b[38:2::1:2:3m\x1b[m",
		"\x1b[7;9;22;23;24;27;29;39;49;97;107m":   "\x1b[7;9;22;23;24;27;29;39;49;97;107m",
	}
	for in, want := range cases {
		if got := Frame(in); got != want {
			t.Errorf("Frame(%q) = %q, want %q", in, got, want)
		}
	}
}

// 500 combining acute accents on one letter of a 10-column cell keep MaxMarks, with
// SGR sequences between them or not; the width does not change.
func TestFrameCapsCombiningMarks(t *testing.T) {
	acute := strings.Repeat("\u0301", 500)
	for _, in := range []string{
		"name" + acute + "   x",
		"\x1b[1mname" + acute + "\x1b[0m",
		"e" + strings.Repeat("\u0301\x1b[1m", 500) + "!",
		"\a" + "e" + acute, // Frame starts its work at the bell
	} {
		out := Frame(in)
		if n := strings.Count(out, "\u0301"); n != MaxMarks {
			t.Errorf("%d marks kept of %q…", n, in[:12])
		}
		if ansi.StringWidth(in) != ansi.StringWidth(out) && !strings.HasPrefix(in, "\a") {
			t.Errorf("width changed: %d → %d", ansi.StringWidth(in), ansi.StringWidth(out))
		}
	}
	if in := "Vi\u1ec7\u0301t t\u0323\u0302"; Frame(in) != in {
		t.Errorf("ordinary marks removed: %q", Frame(in))
	}
}

// The oracle is a terminal's parser (vt, in vt_test.go), not Frame's scanner: whatever
// the input, a terminal reading Frame's output prints text, moves to the next line and
// sets colours and attributes the console uses, and does nothing else.
func FuzzFrame(f *testing.F) {
	f.Add("Evil\x1b]0;pwned\x07\x1b[1mok\x1b[0m")
	f.Add("\xc2\x9b\x9b\xff\x1b[")
	f.Add("a\u0301\u0301\u0301\u0301\x1b[1m\u0301\u0301\x1b[5;8m\u200b")
	f.Add("\x1b[38;2;1;2;3;5m\x1b[?25l\x1bP1$r\x1b\\\x1b(0\x9d0;x\x9c")
	f.Fuzz(func(t *testing.T, s string) {
		out := Frame(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Frame(%q) = %q is not valid UTF-8", s, out)
		}
		term := &vt{}
		term.feed(out)
		if len(term.actions) > 0 || term.state != vtGround {
			t.Fatalf("Frame(%q) = %q makes a terminal act: %v (ends in state %d)", s, out, term.actions, term.state)
		}
		for _, p := range term.sgr {
			if spoofing(p) {
				t.Fatalf("Frame(%q) = %q sets SGR %s", s, out, p)
			}
		}
		for _, r := range term.prints {
			if unicode.Is(unicode.Bidi_Control, r) || r >= 0x200b && r <= 0x200f || r == 0x2028 || r == 0x2029 || r == 0xfeff {
				t.Fatalf("Frame(%q) = %q prints the invisible %U", s, out, r)
			}
		}
		if term.maxMark > MaxMarks {
			t.Fatalf("Frame(%q) = %q stacks %d combining marks", s, out, term.maxMark)
		}
		if Frame(out) != out {
			t.Fatalf("Frame is not idempotent on %q", s)
		}
	})
}
