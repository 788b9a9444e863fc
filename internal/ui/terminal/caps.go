// Package terminal is what the console knows about the terminal it talks to, and the
// few adjustments it makes on the way there and back: the capabilities the environment
// announces (TERM, the locale, a multiplexer), frames cut down to the cells that
// changed (Delta), application-mode keys read as the ones Bubble Tea knows (Keys), and
// the background colour asked through tmux (Background).
package terminal

import (
	"strings"

	"github.com/muesli/termenv"
)

// Getenv reads the environment (os.Getenv, or a map in tests).
type Getenv func(string) string

// Colour is how much colour the terminal shows, as far as TERM says.
type Colour int

const (
	// ColourDetected leaves the choice to termenv (COLORTERM, 256color, …).
	ColourDetected Colour = iota
	// ColourANSI is the 8/16 colours and attributes of GNU screen and tmux's own TERM
	// values, which termenv takes for no colour at all.
	ColourANSI
	// AttributesOnly is a terminal without colour (vt100): bold, underline and reverse
	// still mark selection, focus and state.
	AttributesOnly
)

// Multiplexer is the terminal multiplexer the console runs inside, if any.
type Multiplexer string

// Multiplexers.
const (
	NoMultiplexer Multiplexer = ""
	Tmux          Multiplexer = "tmux"
	Screen        Multiplexer = "screen"
)

// Caps is what the environment says about the terminal.
type Caps struct {
	// Dumb is TERM=dumb: the terminal cannot move the cursor.
	Dumb   bool
	Colour Colour
	// UTF8 is a UTF-8 locale; without it the screen is ASCII.
	UTF8        bool
	Multiplexer Multiplexer
}

// Detect reads TERM, the locale (LC_ALL, then LC_CTYPE, then LANG: the first one set
// decides, as in POSIX) and the multiplexer's variables.
func Detect(getenv Getenv) Caps {
	t := strings.ToLower(getenv("TERM"))
	c := Caps{Dumb: t == "dumb", UTF8: utf8Locale(getenv)}
	family, _, _ := strings.Cut(t, "-")
	family, _, _ = strings.Cut(family, ".")
	switch {
	case strings.HasSuffix(t, "-mono") || decTerminal(family):
		c.Colour = AttributesOnly
	case family == "screen" || family == "tmux":
		c.Colour = ColourANSI
	}
	switch {
	case getenv("TMUX") != "":
		c.Multiplexer = Tmux
	case getenv("STY") != "":
		c.Multiplexer = Screen
	}
	return c
}

// decTerminal reports DEC's terminals and their emulations (vt52, vt100, vt220, …): no colour.
func decTerminal(family string) bool {
	return len(family) > 2 && family[:2] == "vt" && family[2] >= '0' && family[2] <= '9'
}

func utf8Locale(getenv Getenv) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false // no locale at all is the C locale
}

// Profile is the colour profile to render with, given the one termenv detected, and
// whether the theme must do without colour. A terminal termenv finds no colour in but
// whose TERM has 8/16 colours gets them; one without colour keeps its attributes
// (termenv's Ascii profile drops bold and reverse too, leaving no mark at all).
func (c Caps) Profile(detected termenv.Profile) (p termenv.Profile, noColor bool) {
	switch c.Colour {
	case AttributesOnly:
		return termenv.ANSI, true
	case ColourANSI:
		if detected == termenv.Ascii {
			return termenv.ANSI, false
		}
	}
	return detected, false
}
