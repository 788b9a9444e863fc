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

// indexPanel is the pane's index list with what the connected service says of its
// indices besides their names: cluster health and the mappings (field names and types)
// the editor, the hits table and the pickers read. It owns the list's and the
// overview's messages; what the list's keys do is the pane's (actions).
type indexPanel struct {
	ctx     *common.Context
	req     *common.Requests
	link    *connector
	list    *base.List[search.IndexInfo]
	health  *search.ClusterHealth
	mapping search.Mapping
	// replanned lays the pane's results out again for a new mapping.
	replanned func()
}

// newIndexPanel builds the index list on the list base. It shares the pane's requests,
// so its results are addressed to the pane (the view on the stack).
func newIndexPanel(ctx *common.Context, req *common.Requests, link *connector, actions []base.Action[search.IndexInfo]) *indexPanel {
	x := &indexPanel{ctx: ctx, req: req, link: link}
	l := base.NewList(ctx, base.ListSpec[search.IndexInfo]{
		Title: "Indices",
		Noun:  "index",
		Columns: []components.Column{
			{Title: "", Width: 1, Max: 1, Styled: true},
			{Title: "Index", Flex: true, Max: 30},
			{Title: "Docs", Right: true, Numeric: true, Max: 9},
			{Title: "Size", Right: true, Max: 8, Optional: true},
		},
		Empty: "No indices.",
		Load:  x.load,
		Key:   func(ix search.IndexInfo) string { return ix.Index },
		Row: func(ix search.IndexInfo) components.Row {
			if ix.Closed() {
				// Its health is the shards', but it answers nothing: no count to show.
				return components.Row{Cells: []string{ctx.Styles.Muted.Render("○"), ix.Index, "closed", ""}}
			}
			return components.Row{Cells: []string{healthGlyph(ctx, ix.Health), ix.Index, strconv.FormatInt(ix.DocsCount, 10), ix.Size}}
		},
		Loaded:  x.loaded,
		Actions: actions,
		// The list changes when the user writes; ctrl+r reloads it.
		Interval: func() time.Duration { return -1 },
	})
	l.Req = req
	x.list = l
	return x
}

// update takes the list's and the overview's messages; ok is false for others.
func (x *indexPanel) update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case common.Result[overview]:
		if x.req.Current(msg.Addr) && msg.Err == nil {
			x.health, x.mapping = msg.Value.health, msg.Value.mapping
			x.replanned()
		}
		return nil, true
	case common.Result[[]search.IndexInfo]:
		return x.list.Handle(msg), true
	}
	return nil, false
}

// reset forgets what the previous connection said, and lists the new one's indices.
func (x *indexPanel) reset() tea.Cmd {
	x.health, x.mapping = nil, search.Mapping{}
	return x.list.Reset()
}

// load lists the connected service's indices, logging the error's detail.
func (x *indexPanel) load() (base.Fetcher[search.IndexInfo], string) {
	if x.link.conn == nil {
		return nil, "Not connected."
	}
	c, log := x.link.conn.client, x.ctx.Log
	return func(ctx context.Context) ([]search.IndexInfo, error) {
		ix, err := c.CatIndices(ctx)
		return ix, describe(log, "listing the indices", err)
	}, ""
}

// loaded fetches what the editor and the hits table use besides the names: cluster
// health and the indices' mappings (field names and types).
func (x *indexPanel) loaded(ixs []search.IndexInfo) tea.Cmd {
	if x.link.conn == nil {
		return nil
	}
	names := make([]string, len(ixs))
	for i, ix := range ixs {
		names[i] = ix.Index
	}
	c := x.link.conn.client
	return common.Fetch(x.req, kindOverview, func(ctx context.Context) (overview, error) {
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
func (x *indexPanel) selectedIndex() string {
	if ix, ok := x.list.Selected(); ok && !strings.HasPrefix(ix.Index, ".") {
		return ix.Index
	}
	return ""
}

// timeFieldOf is the time field of an index pattern: the one picked for it (T), else
// from the mapping; an index whose mapping has not arrived yet is taken to use
// @timestamp, the usual name.
func (x *indexPanel) timeFieldOf(pattern string) string {
	if pattern == "" {
		return ""
	}
	if x.link.conn != nil {
		if f := x.link.conn.timeFields[pattern]; f != "" {
			return f
		}
	}
	if len(search.FieldsFor(x.mapping, pattern)) == 0 {
		return "@timestamp"
	}
	return search.TimeField(x.mapping, pattern)
}

// indexSearch is the search enter inserts for an index: its newest documents first
// when it has a time field.
func (x *indexPanel) indexSearch(index string) string {
	sort := ""
	if tf := x.timeFieldOf(index); tf != "" {
		q, _ := jsonString(tf)
		sort = "  \"sort\": [ { " + q + ": \"desc\" } ],\n"
	}
	return "GET /" + search.PathName(index) + "/_search\n{\n  \"size\": 20,\n" + sort + "  \"query\": {\"match_all\": {}}\n}\n"
}

// indexNames are the names shown, for suggestions.
func (x *indexPanel) indexNames() []string {
	items := x.list.Items()
	out := make([]string, len(items))
	for i, ix := range items {
		out[i] = safe.Text(ix.Index)
	}
	return out
}
