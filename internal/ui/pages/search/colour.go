package search

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/svcui/svcui/internal/ui/jsoncolor"
	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/theme"
)

// maxColouredBytes bounds syntax colouring: beyond it raw JSON is shown plain, so a huge
// answer never stalls the UI.
const maxColouredBytes = 2 << 20

// colourJSON makes JSON text safe for the screen (control characters escaped) and
// colours it: jsoncolor finds the tokens, the theme's palette colours them (keys accent,
// strings ok, numbers info, true/false/null warn, punctuation muted), so dark, light
// and the terminal's own colours hold. Without colour (NO_COLOR, an ASCII terminal) it
// stays plain.
func colourJSON(th *theme.Theme, text string) string {
	text = safe.Block(text)
	if th.NoColor || len(text) > maxColouredBytes || lipgloss.ColorProfile() == termenv.Ascii {
		return text
	}
	return jsoncolor.Colour(text, jsonStyles(th))
}

// jsonStyles are the escape sequences that open and close each token kind's style,
// taken from the theme's styles once per call (rendering each token would be slow).
func jsonStyles(th *theme.Theme) *jsoncolor.Styles {
	var out jsoncolor.Styles
	add := func(k jsoncolor.Kind, st lipgloss.Style) {
		s := st.Render("x")
		if i := strings.IndexByte(s, 'x'); i > 0 {
			out[k] = [2]string{s[:i], s[i+1:]}
		}
	}
	add(jsoncolor.Key, th.Accent)
	add(jsoncolor.String, th.OK)
	add(jsoncolor.Number, th.Info)
	add(jsoncolor.Literal, th.Warn)
	add(jsoncolor.Punct, th.Muted)
	return &out
}
