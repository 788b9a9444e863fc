package search

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/svcui/svcui/internal/ui/safe"
)

// mainView draws the banner, then the index list, editor (with suggestions) and
// results; or the results alone when zoomed.
func (p *Pane) mainView() string {
	st := p.ctx.Styles
	bodyH := max(1, p.h-1)
	banner := p.banner()
	p.reader.res.title = p.paneTitle("Results", focusResults)
	if p.zoom {
		// The pickers T and F open are drawn here too: full screen hides only the
		// index list and the editor.
		if p.picker != nil {
			return banner + "\n" + p.picker.view(p.w, bodyH)
		}
		if p.reader.columns != nil {
			return banner + "\n" + p.reader.columns.view(p.ctx, p.w, bodyH)
		}
		return banner + "\n" + p.reader.res.View()
	}
	leftW, rightW := p.leftWidth(), p.rightWidth()
	left := p.paneTitle("Indices", focusIndices) + "\n" + p.indices.list.View()

	edTitle := "Editor"
	if p.editor.sqlMode {
		edTitle = "SQL (" + p.ctx.Keys.SQLMode.Help().Key + " for requests)"
	}
	if p.reader.running {
		edTitle += " · running…"
	}
	edTitle = p.paneTitle(edTitle, focusEditor)
	if n := min(len(p.editor.suggest.Items), maxSuggestions); n > 0 {
		s := make([]string, n)
		for i, it := range p.editor.suggest.Items[:n] {
			label := safe.Text(it.Label)
			if i == p.editor.sugSel {
				label = st.Accent.Render("[" + label + "]")
			}
			s[i] = label
		}
		edTitle += st.Muted.Render("  "+p.ctx.Keys.Complete.Help().Key+": ") + strings.Join(s, " ")
	}
	ed := edTitle + "\n" + p.editor.ta.View()
	var right string
	switch {
	case p.picker != nil:
		right = p.picker.view(rightW, bodyH)
	case p.reader.columns != nil:
		right = ed + "\n" + p.reader.columns.view(p.ctx, rightW, p.reader.res.h)
	case p.bulk.shown():
		right = ed + "\n" + p.bulk.job.view(p.ctx, rightW)
	default:
		right = ed + "\n" + p.reader.res.View()
	}
	body := lipgloss.JoinHorizontal(lipgloss.Top,
		lipgloss.NewStyle().Width(leftW).MaxWidth(leftW).Height(bodyH).MaxHeight(bodyH).Render(left),
		" ",
		lipgloss.NewStyle().Width(rightW).MaxWidth(rightW).MaxHeight(bodyH).Render(right))
	return banner + "\n" + body
}

// paneTitle marks the focused part.
func (p *Pane) paneTitle(title string, f focus) string {
	if p.focus == f {
		return p.ctx.Styles.Title.Render("▸ " + title)
	}
	return title
}

// banner names the service, user and cluster health, and warns when TLS is unverified.
func (p *Pane) banner() string {
	st := p.ctx.Styles
	parts := []string{st.Bold.Render(safe.Text(p.link.conn.service)), "user " + safe.Text(p.link.conn.user)}
	if h := p.indices.health; h != nil {
		parts = append(parts, "cluster "+healthGlyph(p.ctx, h.Status)+" "+safe.Text(h.Status))
	}
	if p.link.conn.client.Insecure() {
		parts = append(parts, st.Danger.Render("TLS NOT VERIFIED (profile setting)"))
	}
	if p.link.conn.historyErr != "" {
		parts = append(parts, st.Warn.Render(safe.Text(p.link.conn.historyErr)))
	}
	if p.zoom {
		parts = append(parts, st.Muted.Render("results full screen ("+p.ctx.Keys.Back.Help().Key+" returns)"))
	}
	return strings.Join(parts, " · ")
}
