package search

import (
	"context"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
)

// newIndexList is the index list on the list base. It shares the pane's requests, so
// its results are addressed to the pane (the view on the stack).
func newIndexList(p *Pane) *base.List[search.IndexInfo] {
	k := p.ctx.Keys
	l := base.NewList(p.ctx, base.ListSpec[search.IndexInfo]{
		Title: "Indices",
		Noun:  "index",
		Columns: []components.Column{
			{Title: "", Width: 1, Max: 1, Styled: true},
			{Title: "Index", Flex: true, Max: 30},
			{Title: "Docs", Right: true, Numeric: true, Max: 9},
			{Title: "Size", Right: true, Max: 8, Optional: true},
		},
		Empty: "No indices.",
		Load:  p.loadIndices,
		Key:   func(ix search.IndexInfo) string { return ix.Index },
		Row: func(ix search.IndexInfo) components.Row {
			if ix.Closed() {
				// Its health is the shards', but it answers nothing: no count to show.
				return components.Row{Cells: []string{p.ctx.Styles.Muted.Render("○"), ix.Index, "closed", ""}}
			}
			return components.Row{Cells: []string{healthGlyph(p.ctx, ix.Health), ix.Index, strconv.FormatInt(ix.DocsCount, 10), ix.Size}}
		},
		Loaded: p.indicesLoaded,
		Actions: []base.Action[search.IndexInfo]{
			{Key: k.Open, Help: "search it", Run: func(ix search.IndexInfo) tea.Cmd { return p.searchIndex(ix.Index) }},
			{Key: k.SearchUser, Help: "connect as another user", NoSelection: true, Run: func(search.IndexInfo) tea.Cmd { return p.loadUsers() }},
			{Key: k.BulkLoad, NoSelection: true, Run: func(ix search.IndexInfo) tea.Cmd { return p.openBulkForm("", ix.Index) }},
		},
		// The list changes when the user writes; ctrl+r reloads it.
		Interval: func() time.Duration { return -1 },
	})
	l.Req = p.req
	return l
}

// loadIndices lists the connected service's indices, logging the error's detail.
func (p *Pane) loadIndices() (base.Fetcher[search.IndexInfo], string) {
	if p.conn == nil {
		return nil, "Not connected."
	}
	c, log := p.conn.client, p.ctx.Log
	return func(ctx context.Context) ([]search.IndexInfo, error) {
		ix, err := c.CatIndices(ctx)
		return ix, describe(log, "listing the indices", err)
	}, ""
}

// indicesLoaded fetches what the editor and the hits table use besides the names:
// cluster health and the indices' mappings (field names and types).
func (p *Pane) indicesLoaded(ixs []search.IndexInfo) tea.Cmd {
	if p.conn == nil {
		return nil
	}
	names := make([]string, len(ixs))
	for i, ix := range ixs {
		names[i] = ix.Index
	}
	c := p.conn.client
	return common.Fetch(p.req, kindOverview, func(ctx context.Context) (overview, error) {
		return loadOverview(ctx, c, names)
	})
}

func healthGlyph(ctx *common.Context, h string) string {
	st := ctx.Styles
	switch h {
	case "green":
		return st.OK.Render("●")
	case "yellow":
		return st.Warn.Render("●")
	case "red":
		return st.Danger.Render("●")
	}
	return st.Muted.Render("?")
}

// selectedIndex is the index templates and SQL start from: the one selected in the
// list ("" when there is none).
func (p *Pane) selectedIndex() string {
	if ix, ok := p.indices.Selected(); ok && !strings.HasPrefix(ix.Index, ".") {
		return ix.Index
	}
	return ""
}

// timeFieldOf is the time field of an index pattern: the one picked for it (T), else
// from the mapping; an index whose mapping has not arrived yet is taken to use
// @timestamp, the usual name.
func (p *Pane) timeFieldOf(pattern string) string {
	if pattern == "" {
		return ""
	}
	if p.conn != nil {
		if f := p.conn.timeFields[pattern]; f != "" {
			return f
		}
	}
	if len(search.FieldsFor(p.mapping, pattern)) == 0 {
		return "@timestamp"
	}
	return search.TimeField(p.mapping, pattern)
}

// indexSearch is the search enter inserts for an index: its newest documents first
// when it has a time field.
func (p *Pane) indexSearch(index string) string {
	sort := ""
	if tf := p.timeFieldOf(index); tf != "" {
		q, _ := jsonString(tf)
		sort = "  \"sort\": [ { " + q + ": \"desc\" } ],\n"
	}
	return "GET /" + search.PathName(index) + "/_search\n{\n  \"size\": 20,\n" + sort + "  \"query\": {\"match_all\": {}}\n}\n"
}

// searchIndex runs the index's search (newest first, over the time range) and shows
// its hits; the request is put in the editor once — pressed again, the cursor goes
// back to the same request instead of another copy.
func (p *Pane) searchIndex(index string) tea.Cmd {
	var mode tea.Cmd
	if p.sqlMode {
		mode = p.toggleSQL()
	}
	p.placeRequest(p.indexSearch(index))
	cmd := p.run()
	p.setFocus(focusResults)
	return tea.Batch(mode, cmd)
}

// indexNames are the names shown, for suggestions.
func (p *Pane) indexNames() []string {
	items := p.indices.Items()
	out := make([]string, len(items))
	for i, ix := range items {
		out[i] = safe.Text(ix.Index)
	}
	return out
}
