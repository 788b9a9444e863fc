package safe

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestASCIIKeepsMeaningAndColumns(t *testing.T) {
	in := "\x1b[92m● RUNNING\x1b[0m ◐ REBUILDING › ╭─╮ “café” 日本 e\u0301 ⠼ …"
	got := ASCII(in)
	want := "\x1b[92m* RUNNING\x1b[0m ~ REBUILDING > +-+ \"caf?\" ???? e | ."
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	for i := 0; i < len(got); i++ {
		if got[i] >= 0x80 {
			t.Fatalf("byte %#x at %d", got[i], i)
		}
	}
	if ansi.StringWidth(got) != ansi.StringWidth(in) {
		t.Errorf("width %d, was %d", ansi.StringWidth(got), ansi.StringWidth(in))
	}
	if s := "plain \x1b[1mtext\x1b[m"; ASCII(s) != s {
		t.Error("ASCII text changed")
	}
}

func FuzzASCII(f *testing.F) {
	f.Add("● ◐ › 日本 \x1b[31mred\x1b[0m")
	f.Fuzz(func(t *testing.T, s string) {
		out := ASCII(Frame(s))
		for i := 0; i < len(out); i++ {
			if out[i] >= 0x80 {
				t.Fatalf("byte %#x in %q", out[i], out)
			}
		}
	})
}
