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
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

type focus int

const (
	focusIndices focus = iota
	focusEditor
	focusResults
)

// defaultBuffer is the editor's text for a service with none kept.
const defaultBuffer = "GET /_cluster/health\n"

// Pane is the Search tab's root view.
type Pane struct {
	ctx     *common.Context
	said    string // the footer message of the last request's trouble (warn, fail)
	req     *common.Requests
	project string
	wanted  string // service named with ":search NAME" or current in the context

	loading bool
	reason  string   // why there is nothing to search
	choices []string // opensearch services to pick from
	pick    int
	loadErr string

	conn    *connection
	health  *search.ClusterHealth
	mapping search.Mapping
	indices *base.List[search.IndexInfo]
	editor  textarea.Model
	res     *results
	focus   focus
	// zoom shows the results alone (index list and editor hidden).
	zoom bool

	sqlMode  bool
	sqlText  string // the other mode's buffer, kept while switching
	consText string
	// savedText is the console text last saved for this service: a save is sent only
	// when the text changed since. store writes it, in order; editGen numbers the
	// changes, so only the last of a burst of keys saves.
	savedText string
	store     *editorStore
	saveSeq   uint64
	editGen   int

	running bool
	// tail is the running live tail (nil: none).
	tail *tail
	// trange is the time window searches read (all time when zero).
	trange search.TimeRange
	// mark is the screen lines of the request ctrl+r runs (the editor's gutter).
	mark runMark

	suggest search.Suggestions
	sugSel  int

	picker  *picker
	columns *columnPicker
	bulk    *bulkJob
	// bulkForm is the last bulk form, brought back when the file cannot be read.
	bulkForm interface{ Invalid(string) tea.Cmd }

	w, h int
}

// New builds the Search tab for the current project.
func New(ctx *common.Context) common.View { return newPane(ctx, "") }

func newPane(ctx *common.Context, service string) *Pane {
	ta := textarea.New()
	ta.ShowLineNumbers = true
	ta.Prompt = ""
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.Placeholder = "GET /logs-app/_search   (" + ctx.Keys.Templates.Help().Key + " templates)"
	ta.SetValue(defaultBuffer)
	p := &Pane{ctx: ctx, req: common.NewRequests(), project: ctx.Project(), wanted: service, editor: ta, focus: focusEditor}
	p.editor.SetPromptFunc(gutterWidth, p.gutter)
	p.indices = newIndexList(p)
	p.res = newResults(ctx, p)
	p.editor.Focus()
	return p
}

func (p *Pane) Init() tea.Cmd {
	if p.wanted == "" && p.ctx.ServiceType() == models.TypeOpenSearch {
		p.wanted = p.ctx.Service()
	}
	return p.resolve("", "")
}

// resolve (re)connects: to the wanted service, or by looking the project's services up.
func (p *Pane) resolve(user, password string) tea.Cmd {
	p.loading, p.loadErr = true, ""
	d := newDialer(p.ctx)
	project, wanted := p.project, p.wanted
	return common.Fetch(p.req, kindTarget, func(ctx context.Context) (targetResult, error) {
		if wanted != "" && user != "" {
			return d.connectTo(ctx, project, wanted, user, password)
		}
		return d.resolveTarget(ctx, project, wanted)
	})
}

func (p *Pane) Title() string {
	if p.conn != nil {
		return "Search " + p.conn.service
	}
	return "Search"
}

// ID addresses results to the pane (the index list shares its requests).
func (p *Pane) ID() int64 { return p.req.ID }

func (p *Pane) Leave() {
	p.tail = nil
	p.req.CancelAll()
	if p.bulk != nil {
		p.bulk.cancel()
	}
}

// Capturing: the editor and the pickers take every key (the root then steals none).
func (p *Pane) Capturing() bool {
	if p.picker != nil || p.columns != nil {
		return true
	}
	if p.conn == nil {
		return false
	}
	return (p.focus == focusEditor && !p.zoom) || p.indices.Capturing() || (p.focus == focusResults && p.res.table.Filtering())
}

// ClaimsKey takes esc while a bulk load runs (it cancels it), the results are full
// screen (it leaves that) or a histogram bar is chosen (it lets it go), and the run keys outside the index list (there ctrl+r stays
// the root's refresh, which reloads the list).
func (p *Pane) ClaimsKey(msg tea.KeyMsg) bool {
	if p.conn == nil {
		return false
	}
	k := p.ctx.Keys
	if key.Matches(msg, k.Back) && (p.bulk != nil && p.bulk.running || p.zoom || p.res.bar >= 0) {
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
		p.res.setSize(p.w, bodyH)
		return
	}
	leftW := p.leftWidth()
	rightW := p.rightWidth()
	edH := max(3, bodyH*2/5)
	p.indices.SetSize(leftW, bodyH-1)
	p.editor.SetWidth(rightW)
	p.editor.SetHeight(edH - 1)
	p.res.setSize(rightW, max(2, bodyH-edH))
}

func (p *Pane) leftWidth() int  { return min(34, max(22, p.w/4)) }
func (p *Pane) rightWidth() int { return max(10, p.w-p.leftWidth()-1) }

// notReady says why the pane has no connection yet.
func (p *Pane) notReady() string {
	switch {
	case p.reason != "":
		return p.reason
	case p.loadErr != "":
		return p.loadErr
	case len(p.choices) > 0:
		return "pick one first"
	}
	return "still connecting"
}

func (p *Pane) View() string {
	st := p.ctx.Styles
	if p.w == 0 || p.h == 0 {
		return ""
	}
	var out string
	switch {
	case p.conn == nil && p.loading:
		out = st.Muted.Render("Looking for the project's opensearch service…")
	case p.conn == nil && p.loadErr != "":
		// Wrapped: these sentences are the whole screen, a cut one says half of why.
		out = st.Danger.Render(ansi.Wordwrap("Could not reach the platform: "+safe.Text(p.loadErr), p.w, "")) + "\n" +
			st.Muted.Render(p.ctx.Keys.Refresh.Help().Key+" retries.")
	case p.conn == nil && p.reason != "":
		out = ansi.Wordwrap(safe.Text(p.reason), p.w, "")
	case p.conn == nil && len(p.choices) > 0:
		lines := []string{"Project " + safe.Text(p.project) + " has several opensearch services; pick one (" + p.ctx.Keys.Open.Help().Key + "):", ""}
		for i, c := range p.choices {
			prefix := "  "
			if i == p.pick {
				prefix = st.Accent.Render("▸ ")
			}
			lines = append(lines, prefix+safe.Text(c))
		}
		out = strings.Join(lines, "\n")
	case p.conn == nil:
		out = ""
	default:
		out = p.mainView()
	}
	return clip(out, p.w, p.h)
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
