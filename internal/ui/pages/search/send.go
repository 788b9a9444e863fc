package search

import (
	"context"
	"errors"
	"net/http"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
)

// A confirmed write from the editor is sent through the console's write pipeline
// (base.Write), not as a run: it has a kind of its own, so the next run (ctrl+r on a
// GET) neither cancels it nor makes its answer stale; its outcome is always said; a
// lost answer is read back (does the index exist? the document, at which version?)
// and never sent again.

// refusedAnswer is the engine's refusal of a write (a 4xx or 5xx): the answer is shown
// in the results, its sentence in the footer.
type refusedAnswer struct{ a *answer }

func (e refusedAnswer) Error() string { return e.a.errText }

// sendWrite sends a reviewed write once.
func (rd *reader) sendWrite(r search.ParsedRequest) tea.Cmd {
	httpReq, err := r.HTTPRequest()
	if err != nil {
		return rd.send(r, 1) // the mistake is shown with its position, nothing is sent
	}
	c, hist, log, now := rd.link.conn.client, rd.link.conn.history, rd.ctx.Log, rd.ctx.Now
	verb, find := readBackOf(c, r)
	name := r.Method + " " + r.Base()
	w := &base.Write[*answer]{Verb: verb, Noun: "request", Name: name,
		Send: func(ctx context.Context, _ common.Writer) (*answer, error) {
			resp, err := c.Do(ctx, httpReq)
			if err != nil {
				return nil, describe(log, name, err)
			}
			if hist != nil {
				_ = hist.Add(search.NewHistoryEntry(r, resp, now())) // a history that cannot be kept costs the entry only
			}
			a := shapeAnswer(log, r, false, resp, nil)
			if a.errText != "" {
				return a, refusedAnswer{a}
			}
			return a, nil
		},
		// Any failure of the exchange may have happened after the engine took the
		// request: read back what is there rather than say it failed.
		Lost: func(err error) bool {
			var re *search.RequestError
			return errors.As(err, &re) && !errors.Is(err, context.Canceled)
		},
		Find:   find,
		Reload: rd.indices.list.Load,
		Show:   func(a *answer) { rd.res.set(a) },
		Done: func(a *answer) tea.Cmd {
			if a == nil || a.status == 0 { // a delete found done by the read-back
				return nil
			}
			return tea.Batch(rd.res.set(a), common.Success(name+": "+itoa(a.status)+" "+http.StatusText(a.status)))
		},
		Refused: func(err error) tea.Cmd {
			var ra refusedAnswer
			if errors.As(err, &ra) {
				return rd.res.set(ra.a)
			}
			return rd.res.set(&answer{req: r, sent: true, errText: err.Error()})
		},
	}
	return base.SendWrite(rd.ctx, rd.req, w)
}

// readBackOf is what a write does and how to tell afterwards whether it happened: an
// index created or deleted is looked up, a document written or deleted is fetched (its
// _version shows which write is there). Other writes (a _bulk, a settings change, a
// delete by query) cannot be told apart afterwards: find is nil and a lost answer is
// said to be unknown.
func readBackOf(c *search.Client, r search.ParsedRequest) (base.Verb, func(context.Context) (*answer, bool, error)) {
	parts := strings.Split(strings.Trim(r.Base(), "/"), "/")
	method := strings.ToUpper(r.Method)
	verb := base.Update
	if method == "DELETE" {
		verb = base.Delete
	}
	var look string
	switch {
	case len(parts) == 1 && parts[0] != "" && !strings.HasPrefix(parts[0], "_") && (method == "PUT" || method == "DELETE"):
		if method == "PUT" {
			verb = base.Create
		}
		look = "/" + parts[0]
	case len(parts) == 3 && (parts[1] == "_doc" || parts[1] == "_create") && (method == "PUT" || method == "POST" || method == "DELETE"):
		if parts[1] == "_create" {
			verb = base.Create
		}
		look = "/" + parts[0] + "/_doc/" + parts[2]
	default:
		return verb, nil
	}
	return verb, func(ctx context.Context) (*answer, bool, error) {
		// Built from the segments as the user typed them: a path the editor takes as written.
		get := search.ParsedRequest{Method: "GET", Path: look}
		req, err := get.HTTPRequest()
		if err != nil {
			return nil, false, err
		}
		resp, err := c.Do(ctx, req)
		if err != nil {
			return nil, false, err
		}
		switch {
		case resp.Status == http.StatusNotFound:
			return nil, false, nil
		case resp.Status/100 != 2:
			return nil, false, resp.Err()
		}
		a := &answer{req: get, sent: true, status: resp.Status, body: resp.Body, rt: resp.RoundTrip}
		return a, true, nil
	}
}
