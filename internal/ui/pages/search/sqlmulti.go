package search

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// SQL mode runs every statement of its text, in order (the plugin takes one a
// request): statements end at `;` or a blank line. One answer shows them all, each
// statement's rows or error under its text.

// sqlPart is one statement's answer in a run of several.
type sqlPart struct {
	stmt string
	ans  *answer
}

// sqlRequest is the request that runs stmt.
func sqlRequest(stmt string) search.ParsedRequest {
	body, _ := jsonString(stmt)
	return search.ParsedRequest{Method: "POST", Path: sqlPath, Body: `{"query": ` + body + `}`, StartLine: 1, EndLine: 1}
}

// runSQL sends the statements one after the other in one command; each is kept in the
// history.
func (rd *reader) runSQL(stmts []string) tea.Cmd {
	reqs := make([]search.ParsedRequest, len(stmts))
	for i, s := range stmts {
		reqs[i] = sqlRequest(s)
		if _, err := reqs[i].HTTPRequest(); err != nil {
			msg := "The statements were not sent: statement " + strconv.Itoa(i+1) + ": " + err.Error()
			rd.res.set(&answer{req: reqs[i], errText: msg})
			return rd.foot.fail(msg)
		}
	}
	rd.running = true
	retract := rd.foot.retract()
	c, hist, log, now := rd.link.conn.client, rd.link.conn.history, rd.ctx.Log, rd.ctx.Now
	return tea.Batch(retract, common.Fetch(rd.req, kindRun, func(ctx context.Context) (runOutcome, error) {
		out := runOutcome{ans: &answer{req: reqs[0], typed: reqs[0], sql: true, sent: true, status: 200}}
		bodies := make([][]byte, 0, len(reqs))
		for i, r := range reqs {
			httpReq, _ := r.HTTPRequest()
			resp, err := c.Do(ctx, httpReq)
			a := shapeAnswer(log, r, true, resp, err)
			a.typed = r
			out.ans.parts = append(out.ans.parts, sqlPart{stmt: stmts[i], ans: a})
			if a.errText != "" && out.ans.status < 300 {
				out.ans.status = a.status
			}
			bodies = append(bodies, a.body)
			if hist != nil && a.sent {
				if herr := hist.Add(search.NewHistoryEntry(r, resp, now())); herr != nil {
					out.historyErr = herr
				}
			}
		}
		out.ans.body = joinBodies(bodies)
		return out, nil
	}))
}

// joinBodies is the answers as one JSON array (copied with y), or one after the other
// when one is not JSON.
func joinBodies(bodies [][]byte) []byte {
	for _, b := range bodies {
		if !json.Valid(b) {
			return bytes.Join(bodies, []byte("\n"))
		}
	}
	return append(append([]byte("["), bytes.Join(bodies, []byte(","))...), ']')
}

// sqlPartsLines draws each statement with its rows, or its error, one after the other.
func sqlPartsLines(ctx *common.Context, parts []sqlPart) []string {
	st := ctx.Styles
	var out []string
	for i, part := range parts {
		head := strconv.Itoa(i+1) + "/" + strconv.Itoa(len(parts)) + "  " + strings.Join(strings.Fields(safe.Text(part.stmt)), " ")
		a := part.ans
		switch {
		case a.errText != "":
			out = append(out, st.Title.Render(head), st.Danger.Render(safe.Text(a.errText)))
		case a.sqlTable != nil && a.sqlTable.Text != "":
			out = append(out, st.Title.Render(head))
			out = append(out, strings.Split(strings.TrimRight(safe.Block(a.sqlTable.Text), "\n"), "\n")...)
		case a.sqlTable != nil:
			out = append(out, st.Title.Render(head)+st.Muted.Render(" · "+strconv.Itoa(len(a.sqlTable.Rows))+" rows"))
			out = append(out, gridLines(ctx, safeCells(a.sqlTable.Columns), safeRows(a.sqlTable.Rows))...)
		default:
			out = append(out, st.Title.Render(head))
			out = append(out, rawLines(ctx, a.body, nil)...)
		}
		out = append(out, "")
	}
	return out
}

func safeRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = safeCells(r)
	}
	return out
}
