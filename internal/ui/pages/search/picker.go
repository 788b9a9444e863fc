package search

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
)

// pickItem is one choice of a picker: a label, a muted detail and what choosing does.
type pickItem struct {
	label, detail string
	choose        func() tea.Cmd
}

// picker is a searchable list drawn in the editor's place (templates, history, users).
type picker struct {
	title  string
	all    []pickItem
	shown  []pickItem
	filter components.TextLine
	cursor int
	// search replaces substring filtering (history searches bodies too).
	search func(q string) []pickItem
}

func (k *picker) refilter() {
	q := k.filter.Value()
	if k.search != nil {
		k.shown = k.search(q)
	} else {
		k.shown = k.shown[:0]
		lq := strings.ToLower(q)
		for _, it := range k.all {
			if strings.Contains(strings.ToLower(it.label+" "+it.detail), lq) {
				k.shown = append(k.shown, it)
			}
		}
	}
	k.cursor = max(0, min(k.cursor, len(k.shown)-1))
}

func (k *picker) view(w, h int) string {
	lines := []string{ansi.Truncate(k.title+"  (type to search)", w, "…"), "search: " + safe.Text(k.filter.View())}
	rows := max(1, h-3)
	start := max(0, k.cursor-rows+1)
	for i := start; i < len(k.shown) && i < start+rows; i++ {
		it := k.shown[i]
		prefix := "  "
		if i == k.cursor {
			prefix = "▸ "
		}
		lines = append(lines, ansi.Truncate(prefix+safe.Text(it.label)+"  "+safe.Text(it.detail), w, "…"))
	}
	if len(k.shown) == 0 {
		lines = append(lines, "  nothing matches")
	}
	return strings.Join(lines, "\n")
}

func (p *Pane) updatePicker(msg tea.KeyMsg) tea.Cmd {
	k := p.picker
	keys := p.ctx.Keys
	// Letters are the search: only keys that type nothing move.
	typed := msg.Type == tea.KeyRunes
	switch {
	case key.Matches(msg, keys.Back):
		p.picker = nil
		return nil
	case key.Matches(msg, keys.Down) && !typed:
		k.cursor = min(k.cursor+1, len(k.shown)-1)
		return nil
	case key.Matches(msg, keys.Up) && !typed:
		k.cursor = max(k.cursor-1, 0)
		return nil
	case key.Matches(msg, keys.Open):
		if k.cursor < len(k.shown) {
			it := k.shown[k.cursor]
			p.picker = nil
			return it.choose()
		}
		return nil
	}
	k.filter.Update(msg)
	k.refilter()
	return nil
}

func (p *Pane) openPicker(k *picker) {
	k.shown = append([]pickItem(nil), k.all...)
	k.refilter()
	p.picker = k
}
