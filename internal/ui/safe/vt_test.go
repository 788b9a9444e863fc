package safe

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// vt is a terminal's parser, after the DEC ANSI state machine (vt100.net/emu/dec_ansi_parser)
// as xterm runs it on UTF-8: what a terminal would do with a frame, independent of
// Frame's own scanner. It records what would act on the terminal.
type vt struct {
	state   vtState
	params  strings.Builder
	private bool // a CSI with a private marker (< = > ?) or intermediates
	prints  []rune
	actions []string // every execute, ESC dispatch, CSI dispatch other than kept SGR, string
	sgr     []string // the parameters of each SGR dispatched
	marks   int      // combining marks on the last printed character
	maxMark int
}

type vtState int

const (
	vtGround vtState = iota
	vtEscape
	vtEscInter
	vtCSIEntry
	vtCSIParam
	vtCSIInter
	vtCSIIgnore
	vtString // OSC, DCS, SOS, PM, APC: up to ST (or BEL for OSC)
)

func (t *vt) feed(s string) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if r == utf8.RuneError && n == 1 {
			r = unicode.ReplacementChar
		}
		t.rune(r)
	}
}

func (t *vt) act(what string) { t.actions = append(t.actions, what) }

func (t *vt) rune(r rune) {
	// Anywhere: CAN and SUB cancel, ESC starts over, C1 controls act as their 7-bit forms.
	switch {
	case r == 0x18 || r == 0x1a:
		t.act("execute " + string(r))
		t.state = vtGround
		return
	case r == 0x1b:
		if t.state == vtString {
			t.act("string ended by ESC")
		}
		t.state, t.private = vtEscape, false
		t.params.Reset()
		return
	case r >= 0x80 && r <= 0x9f:
		switch r {
		case 0x9b:
			t.state, t.private = vtCSIEntry, false
			t.params.Reset()
		case 0x9d, 0x90, 0x98, 0x9e, 0x9f:
			t.act("C1 string")
			t.state = vtString
		case 0x9c:
			t.state = vtGround
		default:
			t.act("C1 execute")
		}
		return
	}
	switch t.state {
	case vtGround:
		switch {
		case r < 0x20:
			if r != '\n' {
				t.act("execute control")
			}
			t.marks = 0
		case r == 0x7f:
		default:
			t.print(r)
		}
	case vtEscape:
		switch {
		case r < 0x20:
			t.act("execute control")
		case r >= 0x20 && r <= 0x2f:
			t.state = vtEscInter
		case r == '[':
			t.state = vtCSIEntry
		case r == ']' || r == 'P' || r == 'X' || r == '^' || r == '_':
			t.act("string " + string(r))
			t.state = vtString
		case r == 0x7f:
		default:
			t.act("ESC dispatch " + string(r))
			t.state = vtGround
		}
	case vtEscInter:
		switch {
		case r < 0x20:
			t.act("execute control")
		case r >= 0x30 && r <= 0x7e:
			t.act("ESC dispatch with intermediate")
			t.state = vtGround
		}
	case vtCSIEntry, vtCSIParam:
		switch {
		case r < 0x20:
			t.act("execute control")
		case r >= '0' && r <= '9' || r == ';' || r == ':':
			t.params.WriteRune(r)
			t.state = vtCSIParam
		case r >= 0x3c && r <= 0x3f:
			if t.state == vtCSIParam {
				t.state = vtCSIIgnore
			} else {
				t.private = true
			}
		case r >= 0x20 && r <= 0x2f:
			t.private = true
			t.state = vtCSIInter
		case r >= 0x40 && r <= 0x7e:
			t.dispatch(r)
		}
	case vtCSIInter:
		switch {
		case r < 0x20:
			t.act("execute control")
		case r >= 0x30 && r <= 0x3f:
			t.state = vtCSIIgnore
		case r >= 0x40 && r <= 0x7e:
			t.dispatch(r)
		}
	case vtCSIIgnore:
		if r >= 0x40 && r <= 0x7e {
			t.state = vtGround
		}
	case vtString:
		if r == 0x07 {
			t.state = vtGround
		}
	}
}

func (t *vt) dispatch(final rune) {
	t.state = vtGround
	if final != 'm' || t.private {
		t.act("CSI dispatch " + string(final))
		return
	}
	t.sgr = append(t.sgr, t.params.String())
}

func (t *vt) print(r rune) {
	if r >= 0x300 && (unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r)) {
		t.marks++
		t.maxMark = max(t.maxMark, t.marks)
	} else {
		t.marks = 0
	}
	t.prints = append(t.prints, r)
}

// spoofing reports an SGR parameter the console never writes: blink (5, 6) or conceal
// (8), read as a terminal does, skipping the arguments of 38, 48 and 58 colours.
func spoofing(params string) bool {
	ps := strings.Split(params, ";")
	for k := 0; k < len(ps); k++ {
		p, _, _ := strings.Cut(ps[k], ":")
		switch strings.TrimLeft(p, "0") {
		case "5", "6", "8":
			return true
		case "38", "48", "58":
			if strings.Contains(ps[k], ":") || k+1 >= len(ps) {
				continue
			}
			if ps[k+1] == "2" {
				k += 4
			} else {
				k += 2
			}
		}
	}
	return false
}
