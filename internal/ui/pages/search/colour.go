package search

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/theme"
)

// maxColouredBytes bounds syntax colouring: beyond it raw JSON is shown plain, so a huge
// answer never stalls the UI.
const maxColouredBytes = 2 << 20

// colourJSON makes JSON text safe for the screen (control characters escaped) and
// colours it: chroma finds the tokens, the theme's palette colours them (keys accent,
// strings ok, numbers info, true/false/null warn, punctuation muted), so dark, light
// and the terminal's own colours hold. Without colour (NO_COLOR, an ASCII terminal) it
// stays plain.
func colourJSON(th *theme.Theme, text string) string {
	text = safe.Block(text)
	if th.NoColor || len(text) > maxColouredBytes || lipgloss.ColorProfile() == termenv.Ascii {
		return text
	}
	lex := lexers.Get("json")
	if lex == nil {
		return text
	}
	it, err := chroma.Coalesce(lex).Tokenise(nil, text)
	if err != nil {
		return text
	}
	styles := jsonStyles(th)
	var b strings.Builder
	b.Grow(len(text) * 2)
	for tok := it(); tok != chroma.EOF; tok = it() {
		sgr, ok := styles[tok.Type]
		if !ok {
			sgr, ok = styles[tok.Type.SubCategory()]
		}
		if !ok {
			sgr, ok = styles[tok.Type.Category()]
		}
		if !ok || strings.TrimSpace(tok.Value) == "" {
			b.WriteString(tok.Value)
			continue
		}
		b.WriteString(sgr[0])
		b.WriteString(tok.Value)
		b.WriteString(sgr[1])
	}
	return b.String()
}

// jsonStyles are the escape sequences that open and close each token kind's style,
// taken from the theme's styles once per call (rendering each token would be slow).
func jsonStyles(th *theme.Theme) map[chroma.TokenType][2]string {
	out := map[chroma.TokenType][2]string{}
	add := func(t chroma.TokenType, st lipgloss.Style) {
		s := st.Render("x")
		if i := strings.IndexByte(s, 'x'); i > 0 {
			out[t] = [2]string{s[:i], s[i+1:]}
		}
	}
	add(chroma.NameTag, th.Accent)
	add(chroma.LiteralString, th.OK)
	add(chroma.LiteralNumber, th.Info)
	add(chroma.KeywordConstant, th.Warn)
	add(chroma.Punctuation, th.Muted)
	return out
}
