package search

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// answer is one completed request, shaped for every view once.
type answer struct {
	req      search.ParsedRequest
	sql      bool
	status   int
	took     *int64
	rt       time.Duration
	body     []byte
	errText  string // Describe's sentence for an engine or transport error; "" on success
	sent     bool   // false when nothing reached the service
	hits     *search.HitsTable
	aggs     []search.AggTable
	sqlTable *search.Table
	page     int
	// reauth says what happened when the service refused the password (WithReauth).
	reauth *search.ReauthEvent
	// highlight is set when the request asked for highlighting; pre and post are its tags.
	highlight bool
	pre, post string
	// typed is the request as written in the editor (req is what was sent: the time
	// range and histogram added); log says which window it read, hist is its histogram.
	typed search.ParsedRequest
	log   logMeta
	hist  []search.Bucket
	// first is the position of the page's first hit among all (0 on page 1); back are
	// the pages before it, so p can go back through search_after pages.
	first int
	back  []pageRef
	// A live tail's view: keys are the rows' documents ("index/id"), live while it
	// runs, dropped the oldest let go, unseen those below the cursor, late those
	// inserted among older ones; tailNote says why it stopped.
	keys   []string
	anchor string // the row marked ◆ (surrounding documents)
	// parts are the statements of an SQL run of several, each with its answer.
	parts    []sqlPart
	live     bool
	dropped  int
	unseen   int
	late     int
	tailNote string
}

// pageRef is an earlier page: the request that fetched it and its first hit's position.
type pageRef struct {
	req   search.ParsedRequest
	first int
}

// sending is what a run knows besides the request it sends.
type sending struct {
	typed search.ParsedRequest
	log   logMeta
	first int
	back  []pageRef
	// paging says the request is another page of the shown search (n, p): the history
	// keeps the search, not each page.
	paging bool
}

// runOutcome is a run's answer and whether it could be kept in the history.
type runOutcome struct {
	ans        *answer
	historyErr error
}

// run validates the request under the cursor and sends it; a mistake is shown with
// its line and column and nothing is sent.
func (rd *reader) run() tea.Cmd {
	r, ok := rd.editor.currentRequest()
	if !ok {
		if rd.editor.sqlMode {
			return rd.foot.warn("Type an SQL statement first, e.g. SELECT level, COUNT(*) FROM logs-app GROUP BY level")
		}
		return rd.foot.warn("No request under the cursor: a request starts with a line like GET /logs-app/_search")
	}
	rd.tail.stop("", rd.res) // a new run replaces what the tail followed
	if rd.editor.sqlMode {
		if stmts := search.SplitSQL(rd.editor.ta.Value()); len(stmts) > 1 {
			return tea.Batch(rd.editor.save(), rd.runSQL(stmts))
		}
	}
	if !rd.ctx.ReadOnly && !search.ReadOnlyRequest(r) {
		return tea.Batch(rd.editor.save(), rd.reviewWrite(r))
	}
	return tea.Batch(rd.editor.save(), rd.sendLog(r))
}

// searchIndex runs the index's search (newest first, over the time range) and shows
// its hits; the request is put in the editor once — pressed again, the cursor goes
// back to the same request instead of another copy.
func (rd *reader) searchIndex(index string) tea.Cmd {
	var mode tea.Cmd
	if rd.editor.sqlMode {
		mode = rd.editor.switchMode()
	}
	rd.editor.placeRequest(rd.indices.indexSearch(index))
	cmd := rd.run()
	rd.focus(focusResults)
	return tea.Batch(mode, cmd)
}

// send validates and runs r as it is; page numbers the result page (1 unless paging).
func (rd *reader) send(r search.ParsedRequest, page int) tea.Cmd {
	return rd.sendAs(r, page, sending{typed: r})
}

// sendAs is send for a request derived from what was typed (time range, next page).
func (rd *reader) sendAs(r search.ParsedRequest, page int, s sending) tea.Cmd {
	if rd.ctx.ReadOnly && !search.ReadOnlyRequest(r) {
		msg := "Read-only mode: " + r.Method + " " + r.Base() + " would change the service and is disabled"
		rd.res.set(&answer{req: r, errText: msg})
		return rd.foot.warn(msg)
	}
	httpReq, err := r.HTTPRequest()
	if err != nil {
		msg := "The request was not sent: " + err.Error()
		var ve *search.ValidationError
		if errors.As(err, &ve) && !rd.editor.sqlMode {
			msg = "The request was not sent: line " + itoa(ve.Line) + ", column " + itoa(ve.Col) + ": " + ve.Msg
		}
		rd.res.set(&answer{req: r, errText: msg})
		return rd.foot.fail(msg)
	}
	rd.bulk.hide()
	rd.running = true
	// What the footer said of the last attempt (refused, no page, no tail) is not so now.
	retract := rd.foot.retract()
	c, sql, hist, log, now := rd.link.conn.client, rd.editor.sqlMode, rd.link.conn.history, rd.ctx.Log, rd.ctx.Now
	if s.paging {
		hist = nil
	}
	return tea.Batch(retract, common.Fetch(rd.req, kindRun, func(ctx context.Context) (runOutcome, error) {
		resp, err := c.Do(ctx, httpReq)
		a := shapeAnswer(log, r, sql, resp, err)
		a.page, a.typed, a.log, a.first, a.back = page, s.typed, s.log, s.first, s.back
		if s.log.histogram && a.errText == "" {
			a.hist = search.ShapeHistogram(a.body)
		}
		var herr error
		if hist != nil && a.sent {
			// What was typed: run again from the history, it takes the range of then.
			herr = hist.Add(search.NewHistoryEntry(s.typed, resp, now()))
		}
		return runOutcome{ans: a, historyErr: herr}, nil
	}))
}

// footer is what the footer says of the last request's trouble (refused, no page, no
// tail): the next request sent takes it back. The pane and its parts share one.
type footer struct{ said string }

// warn and fail put a message about the request or its results in the footer.
func (f *footer) warn(text string) tea.Cmd {
	f.said = text
	return common.Warn(text)
}

func (f *footer) fail(text string) tea.Cmd {
	f.said = text
	return common.Error(text)
}

// retract takes back what the footer said (a request is sent).
func (f *footer) retract() tea.Cmd {
	cmd := common.RetractText(f.said)
	f.said = ""
	return cmd
}

// finishRun shows a run's answer and says what happened to the password or history.
func (rd *reader) finishRun(o runOutcome) tea.Cmd {
	rd.running = false
	a := o.ans
	cmds := []tea.Cmd{rd.res.set(a)}
	// A write may have created, filled or deleted indices: the list shows what is there now.
	if a.sent && !search.ReadOnlyRequest(a.req) {
		cmds = append(cmds, rd.indices.list.Load())
	}
	if o.historyErr != nil {
		cmds = append(cmds, rd.foot.warn("Could not save the request history: "+o.historyErr.Error()))
	}
	if ev := a.reauth; ev != nil {
		if ev.Unchanged {
			cmds = append(cmds, rd.foot.warn(ev.Sentence()))
		} else {
			rd.link.conn.user = ev.NewUser
			cmds = append(cmds, common.Info(ev.Sentence()))
		}
	}
	return tea.Batch(cmds...)
}

// shapeAnswer turns a response into every view's data, once (inside the command).
// Errors become Describe's sentence; their detail goes to the debug log.
func shapeAnswer(log *slog.Logger, r search.ParsedRequest, sql bool, resp *search.Response, err error) *answer {
	a := &answer{req: r, sql: sql, sent: true}
	if err != nil {
		a.errText = describe(log, r.Method+" "+r.Base(), err).Error()
		return a
	}
	a.status, a.took, a.rt, a.body, a.reauth = resp.Status, resp.Took, resp.RoundTrip, resp.Body, resp.Reauth
	if e := resp.Err(); e != nil {
		a.errText = describe(log, r.Method+" "+r.Base(), e).Error()
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
		for _, ag := range aggs {
			if ag.Name != search.HistogramAgg { // the histogram is drawn above the hits
				a.aggs = append(a.aggs, ag)
			}
		}
	}
	if strings.Contains(r.Body, `"highlight"`) {
		a.highlight = true
		a.pre, a.post = search.HighlightTags(r.Body)
	}
	return a
}

// nextPage runs the page after the shown one (search_after or from).
func (rd *reader) nextPage() tea.Cmd {
	a := rd.res.ans
	if a == nil || a.hits == nil {
		return rd.foot.warn("Next page needs a search result: run a _search first")
	}
	if a.live {
		return common.Info("The live tail keeps the newest " + thousands(tailLimit) + " documents on one page: move with ↑/↓, g and G")
	}
	next, err := search.NextPage(a.req, a.hits)
	if errors.Is(err, search.ErrNoMorePages) {
		return common.Info("That was the last page")
	}
	if err != nil {
		return rd.foot.fail("No next page: " + err.Error())
	}
	back := append(append([]pageRef(nil), a.back...), pageRef{req: a.req, first: a.first})
	return rd.sendAs(next, a.page+1, sending{typed: a.typed, log: a.log, first: a.first + len(a.hits.Rows), back: back, paging: true})
}

// prevPage runs the page before the shown one again (the request that fetched it).
func (rd *reader) prevPage() tea.Cmd {
	a := rd.res.ans
	if a == nil || a.hits == nil {
		return rd.foot.warn("Previous page needs a search result: run a _search first")
	}
	if a.live {
		return common.Info("The live tail keeps the newest " + thousands(tailLimit) + " documents on one page: move with ↑/↓, g and G")
	}
	if len(a.back) == 0 {
		return common.Info("That is the first page")
	}
	ref := a.back[len(a.back)-1]
	return rd.sendAs(ref.req, a.page-1, sending{typed: a.typed, log: a.log, first: ref.first, back: a.back[:len(a.back)-1], paging: true})
}

func (rd *reader) copyCurl() tea.Cmd {
	r, ok := rd.editor.currentRequest()
	if a := rd.res.ans; a != nil && a.sent {
		r, ok = a.req, true
	}
	if !ok {
		return rd.foot.warn("No request to copy: put the cursor in a request")
	}
	return common.Send(common.CopyRequest{Label: "request as curl (no password)", Value: search.CurlCommand(rd.link.conn.client.Target(), r)})
}
