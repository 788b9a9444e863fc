// Package search is the Search tab: an OpenSearch console for an opensearch service of
// the current project, built for reading logs — index list, request editor (text kept
// per service), hits table laid out for logs with a column picker, a document view,
// aggregations, raw JSON, SQL mode, templates, history and bulk loading.
//
// Every effect runs in a command (network, files, $EDITOR); results come back as
// messages addressed to the pane and are taken only when they are the latest of their
// kind (view id and generation).
package search

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
)

type focus int

const (
	focusIndices focus = iota
	focusEditor
	focusResults
)

// defaultBuffer is the editor's text for a service with none kept.
const defaultBuffer = "GET /_cluster/health\n"

// Pane is the Search tab's root view: a focus router over its parts. It keeps what
// they share (the focus, full screen, the size, the picker drawn in the editor's
// place, the footer's last warning) and the order in which a message is offered to
// them.
type Pane struct {
	ctx  *common.Context
	foot *footer
	req  *common.Requests
	// link finds the service and holds the connection (link.conn; nil until connected).
	link    *connector
	indices *indexPanel
	editor  *editor
	tail    *tailer
	bulk    *bulkLoader
	// reader runs the requests and shows their results.
	reader *reader

	focus focus
	// zoom shows the results alone (index list and editor hidden).
	zoom   bool
	picker *picker

	w, h int
}

// New builds the Search tab for the current project.
func New(ctx *common.Context) common.View { return newPane(ctx, "") }

func newPane(ctx *common.Context, service string) *Pane {
	p := &Pane{ctx: ctx, req: common.NewRequests(), foot: &footer{}, focus: focusEditor}
	p.link = &connector{ctx: ctx, req: p.req, project: ctx.Project(), wanted: service, connected: p.connected, openPicker: p.openPicker}
	k := ctx.Keys
	p.indices = newIndexPanel(ctx, p.req, p.link, []base.Action[search.IndexInfo]{
		{Key: k.Open, Help: "search it", Run: func(ix search.IndexInfo) tea.Cmd { return p.reader.searchIndex(ix.Index) }},
		{Key: k.SearchUser, Help: "connect as another user", NoSelection: true, Run: func(search.IndexInfo) tea.Cmd { return p.link.loadUsers() }},
		{Key: k.BulkLoad, NoSelection: true, Run: func(ix search.IndexInfo) tea.Cmd { return p.bulk.open(p.link.conn, "", ix.Index) }},
	})
	p.indices.replanned = func() { p.reader.res.replan() }
	p.bulk = newBulkLoader(ctx, p.req, p.indices.list)
	p.tail = &tailer{ctx: ctx, req: p.req, foot: p.foot}
	p.editor = newEditor(ctx, p.req, p.link, p.indices)
	p.editor.focus = func() { p.setFocus(focusEditor) }
	p.editor.openPicker = p.openPicker
	p.reader = &reader{ctx: ctx, req: p.req, foot: p.foot, link: p.link, indices: p.indices, editor: p.editor, tail: p.tail, bulk: p.bulk,
		focus: p.setFocus, zoom: func() { p.setZoom(!p.zoom) }, openPicker: p.openPicker}
	p.reader.reset()
	return p
}

func (p *Pane) Init() tea.Cmd {
	if p.link.wanted == "" && p.ctx.ServiceType() == models.TypeOpenSearch {
		p.link.wanted = p.ctx.Service()
	}
	return p.link.resolve("", "")
}

func (p *Pane) Title() string {
	if p.link.conn != nil {
		return "Search " + p.link.conn.service
	}
	return "Search"
}

// ID addresses results to the pane (the index list shares its requests).
func (p *Pane) ID() int64 { return p.req.ID }

func (p *Pane) Leave() {
	p.tail.run = nil
	p.req.CancelAll()
	p.bulk.leave()
}

// Capturing: the editor and the pickers take every key (the root then steals none).
func (p *Pane) Capturing() bool {
	if p.picker != nil || p.reader.columns != nil {
		return true
	}
	if p.link.conn == nil {
		return false
	}
	return (p.focus == focusEditor && !p.zoom) || p.indices.list.Capturing() || (p.focus == focusResults && p.reader.res.table.Filtering())
}

// ClaimsKey takes esc while a bulk load runs (it cancels it), the results are full
// screen (it leaves that) or a histogram bar is chosen (it lets it go), and the run keys outside the index list (there ctrl+r stays
// the root's refresh, which reloads the list).
func (p *Pane) ClaimsKey(msg tea.KeyMsg) bool {
	if p.link.conn == nil {
		return false
	}
	k := p.ctx.Keys
	if keysOf(p.bulk.actions()).Find(msg) >= 0 || key.Matches(msg, k.Back) && (p.zoom || p.reader.res.bar >= 0) {
		return true
	}
	return p.focus != focusIndices && key.Matches(msg, k.Run)
}

func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.layout()
}

// layout: a banner line; below it the index list on the left, the editor over the
// results on the right; or the results alone when zoomed.
func (p *Pane) layout() {
	bodyH := max(4, p.h-1)
	if p.zoom {
		p.reader.res.setSize(p.w, bodyH)
		return
	}
	leftW := p.leftWidth()
	rightW := p.rightWidth()
	edH := max(3, bodyH*2/5)
	p.indices.list.SetSize(leftW, bodyH-1)
	p.editor.ta.SetWidth(rightW)
	p.editor.ta.SetHeight(edH - 1)
	p.reader.res.setSize(rightW, max(2, bodyH-edH))
}

func (p *Pane) leftWidth() int  { return min(34, max(22, p.w/4)) }
func (p *Pane) rightWidth() int { return max(10, p.w-p.leftWidth()-1) }

func (p *Pane) View() string {
	if p.w == 0 || p.h == 0 {
		return ""
	}
	if p.link.conn == nil {
		return clip(p.link.view(p.w), p.w, p.h)
	}
	return clip(p.mainView(), p.w, p.h)
}

// RefreshInterval makes the root poll the tail while it runs (and nothing otherwise:
// the index list reloads on ctrl+r and after writes).
func (p *Pane) RefreshInterval() time.Duration { return p.tail.interval() }

// Refresh is the root's live refresh and ctrl+r: a tail poll while tailing, else the
// index list (or the connection) again.
func (p *Pane) Refresh() tea.Cmd {
	if cmd, ok := p.tail.refresh(p.link.conn, p.reader.res); ok {
		return cmd
	}
	if p.link.conn != nil {
		return p.indices.list.Load()
	}
	return p.link.resolve("", "")
}

// clip keeps a block within w×h.
func clip(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}
