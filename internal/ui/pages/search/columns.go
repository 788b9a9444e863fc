package search

import (
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// columnPicker chooses and orders the hits table's columns: enter adds a field at the
// end of the chosen list or removes it, so the order is the order of choosing; none
// chosen means the automatic layout. esc applies and remembers the choice.
type columnPicker struct {
	pattern string
	fields  []string // every field offered, in table order
	chosen  []string
	initial []string
	cursor  int
}

// openColumns offers the hits' columns and the mapping's fields of the index pattern.
func (rd *reader) openColumns() tea.Cmd {
	a := rd.res.ans
	if a == nil || a.hits == nil {
		return common.Warn("Columns are chosen for search hits: run a _search first")
	}
	pattern := rd.res.pattern()
	chosen := append([]string(nil), rd.res.chosen[pattern]...)
	if len(chosen) == 0 {
		for _, c := range rd.res.plan.Columns {
			chosen = append(chosen, c.Name)
		}
	}
	fields := append([]string(nil), a.hits.Columns...)
	for _, f := range search.FieldsFor(rd.indices.mapping, pattern) {
		if f.Type != "object" && f.Type != "nested" && !slices.Contains(fields, f.Path) {
			fields = append(fields, f.Path)
		}
	}
	for _, c := range chosen {
		if !slices.Contains(fields, c) {
			fields = append(fields, c)
		}
	}
	rd.columns = &columnPicker{pattern: pattern, fields: fields, chosen: chosen, initial: append([]string(nil), chosen...)}
	return nil
}

func (rd *reader) columnsKey(msg tea.KeyMsg) tea.Cmd {
	c := rd.columns
	k := rd.ctx.Keys
	switch {
	case key.Matches(msg, k.Back):
		rd.columns = nil
		if slices.Equal(c.chosen, c.initial) {
			return nil
		}
		return rd.res.choose(c.chosen)
	case key.Matches(msg, k.Down):
		c.cursor = min(c.cursor+1, len(c.fields)-1)
	case key.Matches(msg, k.Up):
		c.cursor = max(c.cursor-1, 0)
	case key.Matches(msg, k.Top):
		c.cursor = 0
	case key.Matches(msg, k.Bottom):
		c.cursor = max(0, len(c.fields)-1)
	case key.Matches(msg, k.Open):
		if c.cursor >= len(c.fields) {
			return nil
		}
		f := c.fields[c.cursor]
		if i := slices.Index(c.chosen, f); i >= 0 {
			c.chosen = slices.Delete(c.chosen, i, i+1)
		} else {
			c.chosen = append(c.chosen, f)
		}
	}
	return nil
}

func (c *columnPicker) view(ctx *common.Context, w, h int) string {
	st := ctx.Styles
	k := ctx.Keys
	where := "this session"
	if c.pattern != "" {
		where = safe.Text(c.pattern)
	}
	lines := []string{
		st.Title.Render("Columns for " + where),
		st.Muted.Render(k.Open.Help().Key + " adds a field at the end or removes it · none chosen: automatic · " + k.Back.Help().Key + " applies"),
	}
	rows := max(1, h-len(lines))
	start := max(0, c.cursor-rows+1)
	for i := start; i < len(c.fields) && i < start+rows; i++ {
		f := c.fields[i]
		mark := "[ ]"
		if n := slices.Index(c.chosen, f); n >= 0 {
			mark = "[" + strconv.Itoa(n+1) + "]"
		}
		prefix := "  "
		if i == c.cursor {
			prefix = st.Accent.Render("▸ ")
		}
		lines = append(lines, prefix+mark+" "+safe.Text(f))
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}
