package search

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// sqlPath is where SQL mode sends its statement.
const sqlPath = "/_plugins/_sql"

// editorKey handles a key while the editor has focus: completion, focus moves, esc,
// and everything else typed into the buffer.
func (p *Pane) editorKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.String() {
	case "tab":
		if len(p.suggest) > 0 {
			p.acceptSuggestion()
			return nil
		}
		p.moveFocus(true)
		return nil
	case "shift+tab":
		p.moveFocus(false)
		return nil
	case "esc":
		if len(p.suggest) > 0 {
			p.suggest = nil
			return nil
		}
		p.setFocus(focusResults)
		return nil
	case "down", "up":
		if len(p.suggest) > 0 {
			if msg.String() == "down" {
				p.suggestSel = (p.suggestSel + 1) % len(p.suggest)
			} else {
				p.suggestSel = (p.suggestSel + len(p.suggest) - 1) % len(p.suggest)
			}
			return nil
		}
	}
	var cmd tea.Cmd
	p.editor, cmd = p.editor.Update(msg)
	p.updateSuggestions()
	return cmd
}

// cursorLine is the logical line under the cursor and the cursor's byte offset in it.
func (p *Pane) cursorLine() (string, int) {
	lines := strings.Split(p.editor.Value(), "\n")
	row := p.editor.Line()
	if row >= len(lines) {
		return "", 0
	}
	li := p.editor.LineInfo()
	runes := []rune(lines[row])
	col := min(len(runes), li.StartColumn+li.ColumnOffset)
	return lines[row], len(string(runes[:col]))
}

// updateSuggestions offers mapping field names while a string is typed inside a body.
func (p *Pane) updateSuggestions() {
	p.suggest, p.suggestSel = nil, 0
	if p.sqlMode || len(p.over.fields) == 0 {
		return
	}
	line, col := p.cursorLine()
	if strings.HasPrefix(strings.TrimSpace(line), "GET ") || strings.HasPrefix(strings.TrimSpace(line), "POST ") {
		return
	}
	prefix, _, ok := search.CompletionPrefix(line, col)
	if !ok || prefix == "" {
		return
	}
	c := search.Complete(p.over.fields, prefix)
	if len(c) == 1 && c[0] == prefix {
		return
	}
	p.suggest = c[:min(len(c), 5)]
}

func (p *Pane) acceptSuggestion() {
	line, col := p.cursorLine()
	prefix, _, ok := search.CompletionPrefix(line, col)
	if !ok || p.suggestSel >= len(p.suggest) {
		p.suggest = nil
		return
	}
	choice := p.suggest[p.suggestSel]
	for range []rune(prefix) {
		p.editor, _ = p.editor.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	p.editor.InsertString(choice)
	p.suggest = nil
}

// currentRequest is the request under the cursor (SQL mode: the whole buffer).
func (p *Pane) currentRequest() (search.ParsedRequest, bool) {
	if p.sqlMode {
		stmt := strings.TrimSpace(p.editor.Value())
		if stmt == "" {
			return search.ParsedRequest{}, false
		}
		body, _ := jsonString(stmt)
		return search.ParsedRequest{Method: "POST", Path: sqlPath, Body: `{"query": ` + body + `}`, StartLine: 1, EndLine: 1}, true
	}
	return search.RequestAt(p.editor.Value(), p.editor.Line()+1)
}

// run validates the request under the cursor and sends it; a mistake is shown with
// its line and column and nothing is sent.
func (p *Pane) run() tea.Cmd {
	r, ok := p.currentRequest()
	if !ok {
		if p.sqlMode {
			return common.Warn("Type an SQL statement first, e.g. SELECT level, COUNT(*) FROM logs-app GROUP BY level")
		}
		return common.Warn("No request under the cursor: a request starts with a line like GET /logs-app/_search")
	}
	return p.send(r, 1)
}

// send validates and runs r; page numbers the result page (1 unless paging with n).
func (p *Pane) send(r search.ParsedRequest, page int) tea.Cmd {
	if p.ctx.ReadOnly && mutatingRequest(r) {
		msg := "Read-only mode: " + r.Method + " " + r.Base() + " would change the service and is disabled"
		p.res.set(&answer{req: r, errText: msg})
		return common.Warn(msg)
	}
	httpReq, err := r.HTTPRequest()
	if err != nil {
		msg := "The request was not sent: " + err.Error()
		var ve *search.ValidationError
		if errors.As(err, &ve) && !p.sqlMode {
			msg = "The request was not sent: line " + itoa(ve.Line) + ", column " + itoa(ve.Col) + ": " + ve.Msg
		}
		p.res.set(&answer{req: r, errText: msg})
		return common.Error(msg)
	}
	if p.runCancel != nil {
		p.runCancel()
	}
	if p.bulk != nil && !p.bulk.running {
		p.bulk.visible = false
	}
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	p.runCancel = cancel
	p.runGen++
	p.running = true
	gen, id, c, sql := p.runGen, p.req.ID, p.conn.client, p.sqlMode
	return func() tea.Msg {
		defer cancel()
		resp, err := c.Do(ctx, httpReq)
		a := shapeAnswer(r, sql, resp, err)
		a.page = page
		return runResult{id: id, gen: gen, ans: a}
	}
}

// shapeAnswer turns a response into every view's data, once.
func shapeAnswer(r search.ParsedRequest, sql bool, resp *search.Response, err error) *answer {
	a := &answer{req: r, sql: sql}
	if err != nil {
		a.sent = true
		a.errText = errorSentence(err)
		return a
	}
	a.sent, a.status, a.took, a.rt, a.body = true, resp.Status, resp.Took, resp.RoundTrip, resp.Body
	if e := resp.Err(); e != nil {
		a.errText = errorSentence(e)
		return a
	}
	if sql {
		if t, err := search.ShapeSQL(resp.Body); err == nil {
			a.sqlTable = t
		}
		return a
	}
	if h, err := search.ShapeHits(resp.Body); err == nil {
		a.hits = h
		if a.took == nil {
			a.took = h.Took
		}
	}
	if aggs, err := search.ShapeAggs(resp.Body); err == nil {
		a.aggs = aggs
	}
	return a
}

func (p *Pane) recordHistory(a *answer) tea.Cmd {
	if p.conn == nil || p.conn.history == nil || !a.sent {
		return nil
	}
	var resp *search.Response
	if a.status != 0 {
		resp = &search.Response{Status: a.status, Took: a.took, RoundTrip: a.rt}
	}
	if err := p.conn.history.Add(search.NewHistoryEntry(a.req, resp, time.Now())); err != nil {
		return common.Warn("Could not save the request history: " + err.Error())
	}
	return nil
}

// nextPage runs the page after the shown one (search_after or from).
func (p *Pane) nextPage() tea.Cmd {
	a := p.res.ans
	if a == nil || a.hits == nil {
		return common.Warn("Next page needs a search result: run a _search first")
	}
	next, err := search.NextPage(a.req, a.hits)
	if errors.Is(err, search.ErrNoMorePages) {
		return common.Info("That was the last page")
	}
	if err != nil {
		return common.Error("No next page: " + err.Error())
	}
	return p.send(next, a.page+1)
}

func (p *Pane) copyCurl() tea.Cmd {
	r, ok := p.currentRequest()
	if a := p.res.ans; a != nil && a.sent {
		r, ok = a.req, true
	}
	if !ok {
		return common.Warn("No request to copy: put the cursor in a request")
	}
	return common.Send(common.CopyRequest{Label: "request as curl (no password)", Value: search.CurlCommand(p.conn.client.Target(), r)})
}

// toggleSQL switches between console requests and SQL, keeping each mode's buffer.
func (p *Pane) toggleSQL() {
	if p.sqlMode {
		p.sqlText = p.editor.Value()
		p.editor.SetValue(p.consText)
	} else {
		p.consText = p.editor.Value()
		if p.sqlText == "" {
			p.sqlText = "SELECT * FROM logs-app LIMIT 10"
		}
		p.editor.SetValue(p.sqlText)
	}
	p.sqlMode = !p.sqlMode
	p.suggest = nil
	p.setFocus(focusEditor)
}

// mainView draws the banner, index list, editor (with suggestions) and results.
func (p *Pane) mainView() string {
	st := p.ctx.Styles
	leftW := p.leftWidth()
	rightW := max(10, p.w-leftW-1)
	banner := p.banner()

	idxTitle := "Indices"
	if p.focus == focusIndices {
		idxTitle = st.Title.Render("▸ Indices")
	}
	left := idxTitle + "\n" + p.indices.View()

	edTitle := "Editor"
	if p.sqlMode {
		edTitle = "SQL (ctrl+s for requests)"
	}
	if p.running {
		edTitle += " · running…"
	}
	if p.focus == focusEditor {
		edTitle = st.Title.Render("▸ " + edTitle)
	}
	ed := p.editor.View()
	if len(p.suggest) > 0 {
		var s []string
		for i, f := range p.suggest {
			if i == p.suggestSel {
				f = st.Accent.Render("[" + f + "]")
			}
			s = append(s, f)
		}
		edTitle += st.Muted.Render("  tab: ") + strings.Join(s, " ")
	}
	resTitle := "Results"
	if p.focus == focusResults {
		resTitle = st.Title.Render("▸ Results")
	}
	var right string
	switch {
	case p.picker != nil:
		right = p.picker.view(rightW, p.h-1)
	case p.bulk != nil && p.bulk.visible:
		right = edTitle + "\n" + ed + "\n" + p.bulk.view(p.ctx, rightW)
	default:
		p.res.title = resTitle
		right = edTitle + "\n" + ed + "\n" + p.res.View()
	}
	body := lipgloss.JoinHorizontal(lipgloss.Top,
		lipgloss.NewStyle().Width(leftW).MaxWidth(leftW).Height(p.h-1).MaxHeight(p.h-1).Render(left),
		" ",
		lipgloss.NewStyle().Width(rightW).MaxWidth(rightW).MaxHeight(p.h-1).Render(right))
	return banner + "\n" + body
}

// banner names the service, user and cluster health, and warns when TLS is unverified.
func (p *Pane) banner() string {
	st := p.ctx.Styles
	parts := []string{st.Bold.Render(p.conn.service), "user " + p.conn.user}
	if h := p.over.health; h != nil {
		parts = append(parts, "cluster "+p.healthGlyph(h.Status)+" "+h.Status)
	}
	if p.conn.client.Insecure() {
		parts = append(parts, st.Danger.Render("TLS NOT VERIFIED (profile setting)"))
	}
	if p.conn.historyErr != "" {
		parts = append(parts, st.Warn.Render(p.conn.historyErr))
	}
	return strings.Join(parts, " · ")
}

// readOnlyPOST are the endpoints where POST only reads.
var readOnlyPOST = []string{"/_search", "/_msearch", "/_count", "/_mget", "/_explain", "/_field_caps",
	"/_validate/query", "/_search/scroll", "/_plugins/_sql", "/_plugins/_sql/_explain", "/_analyze"}

// mutatingRequest reports requests that change the service (refused in read-only mode).
func mutatingRequest(r search.ParsedRequest) bool {
	switch r.Method {
	case "GET", "HEAD":
		return false
	case "POST":
		base := strings.TrimRight(r.Base(), "/")
		for _, suffix := range readOnlyPOST {
			if strings.HasSuffix(base, suffix) || base == suffix {
				return false
			}
		}
		// "_explain/{id}" and friends end with an id: look at the path segments too.
		for _, seg := range strings.Split(base, "/") {
			if seg == "_explain" || seg == "_search" {
				return false
			}
		}
	}
	return true
}
