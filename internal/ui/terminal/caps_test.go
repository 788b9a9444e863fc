package terminal

import (
	"testing"

	"github.com/muesli/termenv"
)

func envOf(m map[string]string) Getenv { return func(k string) string { return m[k] } }

func TestDetect(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want Caps
	}{
		{map[string]string{"TERM": "xterm-256color", "LANG": "en_US.UTF-8"}, Caps{UTF8: true}},
		{map[string]string{"TERM": "screen", "LANG": "C", "STY": "1.pts"}, Caps{Colour: ColourANSI, Multiplexer: Screen}},
		{map[string]string{"TERM": "screen.xterm-256color", "LC_ALL": "en_GB.utf8"}, Caps{Colour: ColourANSI, UTF8: true}},
		{map[string]string{"TERM": "tmux-256color", "TMUX": "/tmp/x,1,0", "LANG": "C.UTF-8"}, Caps{Colour: ColourANSI, UTF8: true, Multiplexer: Tmux}},
		{map[string]string{"TERM": "vt100"}, Caps{Colour: AttributesOnly}},
		{map[string]string{"TERM": "vt220", "LANG": "de_DE.UTF-8", "LC_CTYPE": "POSIX"}, Caps{Colour: AttributesOnly}},
		{map[string]string{"TERM": "vte-256color", "LC_ALL": "C.UTF-8", "LANG": "C"}, Caps{UTF8: true}},
		{map[string]string{"TERM": "dumb", "LANG": "C.UTF-8"}, Caps{Dumb: true, UTF8: true}},
	}
	for _, c := range cases {
		if got := Detect(envOf(c.env)); got != c.want {
			t.Errorf("%v: got %+v, want %+v", c.env, got, c.want)
		}
	}
}

// TERM=screen and vt100 get attributes (and screen its 8/16 colours) where termenv
// gave them its no-colour profile, which drops bold and reverse too.
func TestProfileKeepsAttributes(t *testing.T) {
	if p, noColor := (Caps{Colour: ColourANSI}).Profile(termenv.Ascii); p != termenv.ANSI || noColor {
		t.Errorf("screen: %v %v", p, noColor)
	}
	if p, noColor := (Caps{Colour: ColourANSI}).Profile(termenv.ANSI256); p != termenv.ANSI256 || noColor {
		t.Errorf("screen-256color with COLORTERM: %v %v", p, noColor)
	}
	if p, noColor := (Caps{Colour: AttributesOnly}).Profile(termenv.Ascii); p != termenv.ANSI || !noColor {
		t.Errorf("vt100: %v %v", p, noColor)
	}
	if p, noColor := (Caps{}).Profile(termenv.TrueColor); p != termenv.TrueColor || noColor {
		t.Errorf("xterm: %v %v", p, noColor)
	}
}

func TestKeysTranslatesApplicationHomeEnd(t *testing.T) {
	p := []byte("a\x1bOH\x1bOF\x1bOA\x1bOHz")
	translateKeys(p)
	if string(p) != "a\x1b[H\x1b[F\x1bOA\x1b[Hz" {
		t.Errorf("got %q", p)
	}
}
