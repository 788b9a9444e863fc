// Package search is the Search tab (issue 5): an OpenSearch console for the current
// project's opensearch service — index list, request editor, results (table,
// aggregations, raw JSON), SQL mode, templates, history and bulk loading.
package search

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// RunTimeout bounds one request run from the editor.
const RunTimeout = 30 * time.Second

type focus int

const (
	focusIndices focus = iota
	focusEditor
	focusResults
)

// Pane is the Search tab's root view.
type Pane struct {
	ctx     *common.Context
	req     *common.Requests
	project string
	wanted  string // service named with ":search NAME"

	loading bool
	reason  string   // why there is nothing to search
	choices []string // opensearch services to pick from
	pick    int
	loadErr string

	conn     *connection
	over     overview
	indices  *components.Table
	editor   textarea.Model
	res      *results
	focus    focus
	sqlMode  bool
	sqlText  string // the other mode's buffer, kept while switching
	consText string

	running   bool
	runGen    uint64
	runCancel context.CancelFunc

	suggest    []string
	suggestSel int

	picker *picker
	bulk   *bulkJob

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
	ta.Placeholder = "GET /logs-app/_search   (ctrl+t templates)"
	ta.SetValue("GET /_cluster/health\n")
	idx := components.NewTable(ctx, []components.Column{
		{Title: "", Width: 1, Max: 1, Styled: true},
		{Title: "Index", Flex: true, Max: 30},
		{Title: "Docs", Right: true, Numeric: true, Max: 9},
		{Title: "Size", Right: true, Max: 8, Optional: true},
	})
	idx.Empty = "No indices."
	p := &Pane{ctx: ctx, req: common.NewRequests(), project: ctx.Project, wanted: service,
		indices: idx, editor: ta, res: newResults(ctx), focus: focusEditor}
	p.editor.Focus()
	return p
}

// Messages of the pane, addressed so they reach it wherever it is.
type (
	runResult struct {
		id  int64
		gen uint64
		ans *answer
	}
	startBulk struct {
		id          int64
		path, index string
	}
)

func (m runResult) Target() int64 { return m.id }
func (m startBulk) Target() int64 { return m.id }

func (p *Pane) Init() tea.Cmd { return p.resolve("", "") }

// resolve (re)connects: to the wanted service, or by looking the project's services up.
func (p *Pane) resolve(user, password string) tea.Cmd {
	p.loading, p.loadErr = true, ""
	d := dialer{api: p.ctx.API, insecure: p.ctx.SearchInsecure}
	project, wanted := p.project, p.wanted
	return common.Fetch(p.req, "target", func(ctx context.Context) (targetResult, error) {
		if wanted != "" && user != "" {
			return d.connectTo(ctx, project, wanted, user, password)
		}
		return d.resolveTarget(ctx, project, wanted)
	})
}

func (p *Pane) loadOverview() tea.Cmd {
	c := p.conn.client
	return common.Fetch(p.req, "overview", func(ctx context.Context) (overview, error) {
		return loadOverview(ctx, c)
	})
}

func (p *Pane) Title() string {
	if p.conn != nil {
		return "Search " + p.conn.service
	}
	return "Search"
}

func (p *Pane) Leave() {
	p.req.CancelAll()
	if p.runCancel != nil {
		p.runCancel()
	}
	if p.bulk != nil {
		p.bulk.cancel()
	}
}

// Capturing: the editor and the pickers take every key (the root then steals none).
func (p *Pane) ID() int64 { return p.req.ID }

func (p *Pane) Capturing() bool {
	return p.picker != nil || (p.conn != nil && p.focus == focusEditor) || p.indices.Filtering() ||
		(p.focus == focusResults && p.res.table.Filtering())
}

// ClaimsKey takes esc while a bulk load runs (esc cancels it), and the run keys over
// the results; over the index list ctrl+r stays the root's refresh (reloads the list).
func (p *Pane) ClaimsKey(msg tea.KeyMsg) bool {
	if p.conn == nil {
		return false
	}
	if p.bulk != nil && p.bulk.running && msg.Type == tea.KeyEsc {
		return true
	}
	if p.focus == focusIndices {
		return false
	}
	return key.Matches(msg, p.ctx.Keys.Run) || msg.String() == "alt+enter"
}

var (
	kFocus    = key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "next pane"))
	kView     = key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "view"))
	kNext     = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next page"))
	kCurl     = key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "copy as curl"))
	kUser     = key.NewBinding(key.WithKeys("U"), key.WithHelp("U", "user"))
	kTpl      = key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "templates"))
	kHist     = key.NewBinding(key.WithKeys("ctrl+h", "ctrl+p"), key.WithHelp("ctrl+p", "history"))
	kSQL      = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "SQL mode"))
	kBulk     = key.NewBinding(key.WithKeys("ctrl+b"), key.WithHelp("ctrl+b", "bulk load"))
	kExtern   = key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "$EDITOR"))
	kAltEnter = key.NewBinding(key.WithKeys("alt+enter"), key.WithHelp("alt+enter", "run"))
)

func (p *Pane) ShortHelp() []key.Binding {
	k := p.ctx.Keys
	switch p.focus {
	case focusEditor:
		return []key.Binding{k.Run, kTpl, kHist, kSQL, kFocus}
	case focusResults:
		return []key.Binding{kView, kNext, k.Copy, kCurl, kFocus}
	}
	return []key.Binding{k.Open, kUser, kBulk, kFocus}
}

func (p *Pane) FullHelp() [][]key.Binding {
	k := p.ctx.Keys
	return [][]key.Binding{
		{k.Run, kAltEnter, kTpl, kHist, kSQL, kBulk, kExtern, kFocus},
		{kView, kNext, k.Copy, kCurl, kUser, k.Open},
	}
}

func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.layout()
}

// layout: index list on the left, editor over results on the right, one banner line.
func (p *Pane) layout() {
	leftW := p.leftWidth()
	rightW := max(10, p.w-leftW-1)
	bodyH := max(4, p.h-1)
	edH := max(3, bodyH*2/5)
	p.indices.SetSize(leftW, bodyH)
	p.editor.SetWidth(rightW)
	p.editor.SetHeight(edH - 1)
	p.res.setSize(rightW, max(2, bodyH-edH-1))
}

func (p *Pane) leftWidth() int { return min(34, max(22, p.w/4)) }

func (p *Pane) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[targetResult]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		p.loading = false
		if msg.Err != nil {
			p.loadErr = p.ctx.ErrorText(msg.Err)
			return p, common.Send(common.RefreshDone{Err: msg.Err})
		}
		r := msg.Value
		p.reason, p.choices = r.reason, r.choices
		if r.conn != nil {
			// A new connection (another user) starts from a clean slate: nothing shown may
			// come from the previous user's rights.
			p.conn = r.conn
			p.wanted = r.conn.service
			p.over = overview{}
			p.indices.SetRows(nil)
			p.indices.Loading = true
			p.res = newResults(p.ctx)
			p.layout()
			return p, tea.Batch(p.loadOverview(), common.Send(common.RefreshDone{}))
		}
		return p, common.Send(common.RefreshDone{})
	case common.Result[overview]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		if msg.Err != nil {
			text := errorSentence(msg.Err)
			p.indices.SetError(text)
			return p, common.Error("Could not list the indices as " + p.conn.user + ": " + text)
		}
		p.setOverview(msg.Value)
		return p, nil
	case common.Result[[]string]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		return p, p.openUserPicker(msg.Value, msg.Err)
	case runResult:
		if msg.gen != p.runGen {
			return p, nil // a newer run replaced it
		}
		p.running = false
		p.res.set(msg.ans)
		return p, p.recordHistory(msg.ans)
	case bulkMsg:
		return p, p.handleBulk(msg)
	case startBulk:
		return p, p.startBulk(msg.path, msg.index)
	case externalDone:
		return p, p.readExternal(msg)
	case reconnectAs:
		if p.conn != nil {
			p.wanted = p.conn.service
		}
		return p, p.resolve(msg.user, msg.password)
	case selectService:
		p.Leave()
		np := newPane(p.ctx, msg.name)
		np.SetSize(p.w, p.h)
		return np, np.Init()
	case bulkRequest:
		if p.conn == nil {
			return p, common.Warn("Bulk load needs an opensearch service: " + p.notReady())
		}
		return p, p.openBulkForm(msg.path, msg.index)
	case common.ProjectSelected:
		if msg.Name == p.project {
			return p, nil
		}
		p.Leave()
		np := newPane(p.ctx, "")
		np.SetSize(p.w, p.h)
		return np, np.Init()
	case common.RefreshNow:
		if p.conn != nil {
			return p, p.loadOverview()
		}
		return p, p.resolve("", "")
	case tea.KeyMsg:
		return p, p.handleKey(msg)
	}
	if p.focus == focusEditor && p.conn != nil {
		var cmd tea.Cmd
		p.editor, cmd = p.editor.Update(msg)
		return p, cmd
	}
	return p, nil
}

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

func (p *Pane) setOverview(o overview) {
	p.over = o
	rows := make([]components.Row, 0, len(o.indices))
	for _, ix := range o.indices {
		rows = append(rows, components.Row{Key: ix.Index, Cells: []string{
			p.healthGlyph(ix.Health), ix.Index, strconv.FormatInt(ix.DocsCount, 10), ix.Size}})
	}
	p.indices.SetRows(rows)
}

func (p *Pane) healthGlyph(h string) string {
	st := p.ctx.Styles
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

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
	if p.picker != nil {
		return p.updatePicker(msg)
	}
	if p.conn == nil {
		return p.handleChooser(msg)
	}
	k := p.ctx.Keys
	s := msg.String()
	if p.bulk != nil && p.bulk.running && msg.Type == tea.KeyEsc {
		p.bulk.cancel()
		return common.Info("Cancelling the bulk load…")
	}
	// Chords that act whatever has focus.
	switch {
	case key.Matches(msg, k.Run) || s == "alt+enter":
		return p.run()
	case key.Matches(msg, kTpl):
		p.openTemplates()
		return nil
	case key.Matches(msg, kHist):
		return p.openHistory()
	case key.Matches(msg, kSQL):
		p.toggleSQL()
		return nil
	case key.Matches(msg, kBulk):
		return p.openBulkForm("", "")
	case key.Matches(msg, kExtern):
		return p.openExternal()
	}
	if p.focus == focusEditor {
		return p.editorKey(msg)
	}
	if s == "tab" || s == "shift+tab" {
		p.moveFocus(s == "tab")
		return nil
	}
	if p.focus == focusIndices {
		return p.indexKey(msg)
	}
	return p.resultsKey(msg)
}

func (p *Pane) moveFocus(forward bool) {
	d := 1
	if !forward {
		d = 2
	}
	p.setFocus(focus((int(p.focus) + d) % 3))
}

func (p *Pane) setFocus(f focus) {
	p.focus = f
	p.suggest = nil
	if f == focusEditor {
		p.editor.Focus()
	} else {
		p.editor.Blur()
	}
}

// handleChooser drives the service picker (several opensearch services).
func (p *Pane) handleChooser(msg tea.KeyMsg) tea.Cmd {
	if len(p.choices) == 0 {
		return nil
	}
	k := p.ctx.Keys
	switch {
	case key.Matches(msg, k.Down):
		p.pick = min(p.pick+1, len(p.choices)-1)
	case key.Matches(msg, k.Up):
		p.pick = max(p.pick-1, 0)
	case key.Matches(msg, k.Open):
		p.wanted = p.choices[p.pick]
		return p.resolve("", "")
	}
	return nil
}

func (p *Pane) indexKey(msg tea.KeyMsg) tea.Cmd {
	k := p.ctx.Keys
	switch {
	case key.Matches(msg, k.Open) && !p.indices.Filtering():
		ix := p.indices.SelectedKey()
		if ix == "" {
			return nil
		}
		p.insertRequest("GET /" + ix + "/_search\n{\n  \"query\": {\"match_all\": {}}\n}\n")
		p.setFocus(focusEditor)
		return nil
	case key.Matches(msg, kUser) && !p.indices.Filtering():
		return p.loadUsers()
	}
	_, cmd := p.indices.Update(msg)
	return cmd
}

func (p *Pane) resultsKey(msg tea.KeyMsg) tea.Cmd {
	k := p.ctx.Keys
	if p.res.table.Filtering() {
		return p.res.update(msg)
	}
	switch {
	case key.Matches(msg, kView):
		if p.res.ans == nil {
			return common.Warn("Nothing to view yet: run a request first")
		}
		if !p.res.cycle() {
			return common.Info("Only raw JSON for this answer: tables come with search hits or SQL rows")
		}
		return nil
	case key.Matches(msg, kNext):
		return p.nextPage()
	case key.Matches(msg, k.Copy):
		if p.res.ans == nil || len(p.res.ans.body) == 0 {
			return common.Warn("Nothing to copy yet: run a request first")
		}
		return common.Send(common.CopyRequest{Label: "result", Value: search.PrettyJSON(p.res.ans.body)})
	case key.Matches(msg, kCurl):
		return p.copyCurl()
	case key.Matches(msg, kUser):
		return p.loadUsers()
	}
	return p.res.update(msg)
}

// insertRequest appends a request at the end of the buffer and puts the cursor on it.
func (p *Pane) insertRequest(text string) {
	cur := strings.TrimRight(p.editor.Value(), "\n")
	if cur != "" {
		cur += "\n\n"
	}
	line := strings.Count(cur, "\n")
	p.editor.SetValue(cur + text)
	p.gotoLine(line)
}

// gotoLine moves the cursor to a 0-based line.
func (p *Pane) gotoLine(line int) {
	for p.editor.Line() > 0 {
		p.editor.CursorUp()
	}
	p.editor.CursorStart()
	for p.editor.Line() < line && p.editor.Line() < p.editor.LineCount()-1 {
		p.editor.CursorDown()
	}
	p.editor.CursorStart()
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
		out = st.Danger.Render(ansi.Wordwrap("Could not reach the platform: "+p.loadErr, p.w, "")) + "\n" + st.Muted.Render("ctrl+r retries.")
	case p.conn == nil && p.reason != "":
		out = ansi.Wordwrap(p.reason, p.w, "")
	case p.conn == nil && len(p.choices) > 0:
		lines := []string{"Project " + p.project + " has several opensearch services; pick one (enter):", ""}
		for i, c := range p.choices {
			prefix := "  "
			if i == p.pick {
				prefix = st.Accent.Render("▸ ")
			}
			lines = append(lines, prefix+c)
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
