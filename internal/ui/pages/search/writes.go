package search

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
)

// A request that changes data goes the console's one path: the indices it touches are
// read (document count and size), a review says what will happen, an index delete or a
// delete by query asks for the index name typed, and only then is it sent. A wildcard
// delete is refused before anything is asked.

// touched is one index expression a write names and what it resolves to now.
type touched struct {
	expr    string
	indices []search.IndexInfo
	err     string // the lookup failed: shown, the review still opens
}

// writeReview is a write's plan with its targets looked up.
type writeReview struct {
	req     search.ParsedRequest
	plan    search.WritePlan
	targets []touched
	// matches is how many documents a delete by query matches now (-1: unknown).
	matches int64
}

// confirmedWrite sends a reviewed (and, where needed, named) write; it is addressed to
// the pane so the send starts in the pane's own Update.
type confirmedWrite struct {
	id  int64
	req search.ParsedRequest
}

func (m confirmedWrite) Target() int64 { return m.id }

// reviewWrite refuses a wildcard delete, or looks the write's indices up (in a command)
// and then opens its review.
func (rd *reader) reviewWrite(r search.ParsedRequest) tea.Cmd {
	if _, err := r.HTTPRequest(); err != nil {
		return rd.send(r, 1) // the mistake is shown with its position, nothing is sent
	}
	plan := search.PlanWrite(r)
	if plan.Refuse != "" {
		rd.res.set(&answer{req: r, errText: plan.Refuse})
		return rd.foot.warn(plan.Refuse)
	}
	c, log := rd.link.conn.client, rd.ctx.Log
	return common.Fetch(rd.req, kindReview, func(ctx context.Context) (writeReview, error) {
		w := writeReview{req: r, plan: plan, matches: -1}
		if plan.DeletesDocs {
			w.matches = countMatches(ctx, c, plan.Confirm, r.Body)
		}
		for _, expr := range plan.Targets {
			t := touched{expr: expr}
			ix, err := c.CatIndicesOf(ctx, expr)
			if err != nil {
				t.err = describe(log, "looking "+expr+" up", err).Error()
			}
			t.indices = ix
			w.targets = append(w.targets, t)
		}
		return w, nil
	})
}

// openReview shows what the write will do; enter sends it, or asks for the name first.
func (rd *reader) openReview(w writeReview) tea.Cmd {
	r := w.req
	effect := "written"
	switch {
	case w.plan.Closes:
		effect = "closed: offline until _open"
	case strings.HasSuffix(r.Base(), "/_open") && r.Method == "POST":
		effect = "opened"
	case w.plan.DeletesIndex:
		effect = "deleted"
	case w.plan.DeletesDocs:
		effect = "matches deleted"
	case r.Method == "DELETE":
		effect = "deleted from"
	case r.Method == "PUT" && len(strings.Split(strings.Trim(r.Base(), "/"), "/")) == 1:
		effect = "created or changed"
	}
	changes := []components.Change{{Field: "request", Old: "not sent", New: r.Method + " " + r.Path,
		Note: "from line " + itoa(r.StartLine) + " of the editor"}}
	var docs int64
	var names, closed []string
	for _, t := range w.targets {
		switch {
		case t.err != "":
			changes = append(changes, components.Change{Field: t.expr, Old: "not looked up", New: effect, Note: t.err, Warn: true})
		case len(t.indices) == 0:
			changes = append(changes, components.Change{Field: t.expr, Old: "does not exist", New: effect})
		default:
			for _, ix := range t.indices {
				field := ix.Index
				if ix.Index != t.expr {
					field = ix.Index + " (via " + t.expr + ")"
				}
				docs += ix.DocsCount
				names = append(names, ix.Index)
				was := thousands(ix.DocsCount) + " docs · " + ix.Size
				if ix.Closed() {
					was = "closed"
					closed = append(closed, ix.Index)
				}
				changes = append(changes, components.Change{Field: field, Old: was,
					New: effect, Warn: w.plan.DeletesIndex || w.plan.DeletesDocs || w.plan.Closes})
			}
		}
	}
	if w.matches >= 0 {
		changes = append(changes, components.Change{Field: "matching now", Old: thousands(w.matches) + " docs", New: "deleted", Warn: true})
	}
	if len(w.targets) == 0 {
		changes = append(changes, components.Change{Field: "indices", Old: "", New: "none named: changes the cluster's settings or objects"})
	}
	id := rd.req.ID
	send := func() tea.Cmd { return common.Send(confirmedWrite{id: id, req: r}) }
	title := safe.Text(r.Method + " " + r.Base())
	next := send
	if w.plan.Confirm != "" && len(names) > 0 {
		what := "Delete index"
		counted := docsPhrase(docs, closed)
		text := "Deleting " + strings.Join(names, ", ") + " removes " + counted + " and the index itself. This cannot be undone."
		switch {
		case w.plan.Closes && len(closed) == len(names):
			what = "Close index"
			text = strings.Join(names, ", ") + " is closed already: closing it again changes nothing."
		case w.plan.Closes:
			what = "Close index"
			text = "Closing " + strings.Join(names, ", ") + " takes its " + thousands(docs) + " documents offline: searches, gets and writes answer index_closed_exception until POST /" + w.plan.Confirm + "/_open. Nothing is deleted."
		case strings.HasPrefix(strings.Trim(r.Base(), "/"), "_data_stream/"):
			what = "Delete data stream"
			text = "Deleting data stream " + w.plan.Confirm + " removes its backing indices (" + strings.Join(names, ", ") + ") and " + counted + ". This cannot be undone."
		}
		if w.plan.DeletesDocs {
			what = "Delete documents"
			text = "Every document of " + strings.Join(names, ", ") + " that matches the query is deleted (up to " + thousands(docs) + "). This cannot be undone."
			if w.matches >= 0 {
				text = "The " + thousands(w.matches) + " documents of " + strings.Join(names, ", ") + " that match the query now (of " + thousands(docs) + ") are deleted. This cannot be undone."
			}
		}
		confirm := w.plan.Confirm
		next = func() tea.Cmd {
			return rd.ctx.Open(components.NewTypedConfirm(rd.ctx, what, text, confirm, send))
		}
	}
	return rd.ctx.Open(components.NewReview(rd.ctx, title, changes, next, nil))
}

// docsPhrase is how many documents a write removes: a closed index gives no count, so its
// documents are named, not counted as none.
func docsPhrase(docs int64, closed []string) string {
	if len(closed) == 0 {
		return thousands(docs) + " documents"
	}
	counted := "every document of closed " + strings.Join(closed, ", ") + " (a closed index gives no count)"
	if docs > 0 {
		counted = thousands(docs) + " documents, and " + counted
	}
	return counted
}

// countMatches counts the documents of expr a delete by query's body matches (-1 when
// that cannot be known: the review still opens).
func countMatches(ctx context.Context, c *search.Client, expr, body string) int64 {
	var b map[string]json.RawMessage
	count := []byte("{}")
	if strings.TrimSpace(body) != "" {
		if json.Unmarshal([]byte(body), &b) != nil {
			return -1
		}
		if q, ok := b["query"]; ok {
			count = []byte(`{"query":` + string(q) + `}`)
		}
	}
	resp, err := c.Read(ctx, search.CountIn(expr, count))
	if err != nil || resp.Err() != nil {
		return -1
	}
	var a struct {
		Count *int64 `json:"count"`
	}
	if json.Unmarshal(resp.Body, &a) != nil || a.Count == nil {
		return -1
	}
	return *a.Count
}

// thousands writes n with thousands separators: 12,345.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
