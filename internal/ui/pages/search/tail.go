package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// Live tail (t): the shown search is followed as documents arrive. Each poll asks for
// the documents at or after the newest time seen, sorted by [time, _doc], and pages on
// with search_after when a page is full; the documents already shown at that newest
// millisecond are skipped by id, so nothing is shown twice and none sharing a
// timestamp is skipped. Polls come from the root's live refresh (RefreshInterval), so
// they stop when the results are not on screen: a document opened pauses the tail and
// esc resumes it; leaving the tab stops it. The buffer keeps the newest tailLimit.

const (
	tailEvery   = time.Second // at most one poll a second
	tailLimit   = 10000       // documents kept; the oldest go first
	tailPage    = 500         // documents per request
	tailPages   = 20          // requests per poll, at most (a burst of 10,000)
	tailInitial = 100         // documents shown when the tail starts
	// tailAway is the gap between polls that means the results left the screen.
	tailAway = 4 * tailEvery
)

// tail is a running live tail.
type tail struct {
	typed   search.ParsedRequest
	pattern string
	field   string
	query   json.RawMessage // the search's own query (nil: everything)
	buf     []json.RawMessage
	keys    []string // "index/id" of each buf entry
	table   *search.HitsTable
	last    int64           // newest time seen, epoch ms
	edge    map[string]bool // keys of the documents shown at last
	started bool            // the first batch arrived
	dropped int
	unseen  int // arrived while the cursor was away from the newest edge
	paused  bool
	polled  time.Time
}

// tailBatch is one poll's answer: the whole new buffer, shaped in the command.
type tailBatch struct {
	buf     []json.RawMessage
	keys    []string
	table   *search.HitsTable
	last    int64
	edge    map[string]bool
	added   int
	dropped int
}

// toggleTail starts following the shown search, or stops.
func (p *Pane) toggleTail() tea.Cmd {
	if p.tail != nil {
		p.stopTail("")
		return common.Info("Live tail stopped")
	}
	a := p.res.ans
	if a == nil || a.hits == nil || a.errText != "" {
		return p.warn("Live tail follows a search: run a _search first")
	}
	if a.log.timeField == "" {
		return p.warn("Live tail needs a time field: " + search.IndexPattern(a.typed.Path) + " has no date field (T picks one when there are several)")
	}
	t := &tail{typed: a.typed, pattern: search.IndexPattern(a.typed.Path), field: a.log.timeField, edge: map[string]bool{}}
	if body := bytes.TrimSpace([]byte(a.typed.Body)); len(body) > 0 {
		var b map[string]json.RawMessage
		if err := json.Unmarshal(body, &b); err == nil {
			t.query = b["query"]
		}
	}
	p.tail = t
	return tea.Batch(p.pollTail(), common.Info("Live tail of "+t.pattern+": new documents appear at the bottom ("+p.ctx.Keys.Tail.Help().Key+" stops)"))
}

// stopTail ends the tail; why is said in the results when not empty.
func (p *Pane) stopTail(why string) {
	p.tail = nil
	if why != "" && p.res.ans != nil {
		p.res.ans.tailNote = why
	}
	if p.res.ans != nil {
		p.res.ans.live = false
	}
}

// RefreshInterval makes the root poll the tail while it runs (and nothing otherwise:
// the index list reloads on ctrl+r and after writes).
func (p *Pane) RefreshInterval() time.Duration {
	if p.tail != nil && !p.tail.paused {
		return tailEvery
	}
	return 0
}

// Refresh is the root's live refresh and ctrl+r: a tail poll while tailing, else the
// index list (or the connection) again.
func (p *Pane) Refresh() tea.Cmd {
	if t := p.tail; t != nil {
		now := p.ctx.Now()
		switch {
		case t.paused:
			t.paused = false // back from the document
		case t.started && now.Sub(t.polled) > tailAway:
			p.stopTail("Live tail stopped: the results were not on screen (" + p.ctx.Keys.Tail.Help().Key + " starts it again)")
			p.res.fillTable()
			return tea.Batch(common.Info("Live tail stopped while the results were not on screen"), common.Send(common.RefreshDone{}))
		}
		return p.pollTail()
	}
	if p.conn != nil {
		return p.indices.Load()
	}
	return p.resolve("", "")
}

// tailBody is one poll's search: the query, on or after the newest time seen.
func (t *tail) tailBody(first bool, after []any) ([]byte, error) {
	var filter []any
	if !first {
		filter = append(filter, map[string]any{"range": map[string]any{t.field: map[string]any{"gte": t.last, "format": "epoch_millis"}}})
	}
	boolQ := map[string]any{"filter": filter}
	if len(t.query) > 0 {
		boolQ["must"] = []json.RawMessage{t.query}
	}
	body := map[string]any{"query": map[string]any{"bool": boolQ}, "track_total_hits": false}
	if first {
		body["size"] = tailInitial
		body["sort"] = []any{map[string]any{t.field: "desc"}}
	} else {
		body["size"] = tailPage
		body["sort"] = []any{map[string]any{t.field: "asc"}, map[string]any{"_doc": "asc"}}
	}
	if after != nil {
		body["search_after"] = after
	}
	return json.Marshal(body)
}

// tailHit is what a poll reads of each hit.
type tailHit struct {
	Index string            `json:"_index"`
	ID    string            `json:"_id"`
	Sort  []json.RawMessage `json:"sort"`
}

// pollTail fetches what arrived since the last poll and shapes the new buffer, all in
// the command.
func (p *Pane) pollTail() tea.Cmd {
	t := p.tail
	t.polled = p.ctx.Now()
	c, target := p.conn.client, t.pattern
	if plain, err := url.PathUnescape(target); err == nil {
		target = plain // as typed, perhaps escaped: SearchIn escapes it once
	}
	snap := *t // the command reads a copy; the buffer slices are never written in place
	return common.Fetch(p.req, "tail", func(ctx context.Context) (tailBatch, error) {
		return snap.poll(ctx, c, target)
	})
}

func (t tail) poll(ctx context.Context, c *search.Client, target string) (tailBatch, error) {
	b := tailBatch{last: t.last, edge: make(map[string]bool, len(t.edge))}
	for k := range t.edge {
		b.edge[k] = true
	}
	var fresh []json.RawMessage
	var keys []string
	var after []any
	first := !t.started
	for page := 0; page < tailPages; page++ {
		body, err := t.tailBody(first, after)
		if err != nil {
			return b, err
		}
		resp, err := c.Read(ctx, search.SearchIn(target, body))
		if err != nil {
			return b, err
		}
		if err := resp.Err(); err != nil {
			return b, err
		}
		var ans struct {
			Hits struct {
				Hits []json.RawMessage `json:"hits"`
			} `json:"hits"`
		}
		if err := json.Unmarshal(resp.Body, &ans); err != nil {
			return b, errors.New("the tail's answer is not a search answer")
		}
		hits := ans.Hits.Hits
		if first {
			// The newest documents, newest first: shown oldest first.
			for i, j := 0, len(hits)-1; i < j; i, j = i+1, j-1 {
				hits[i], hits[j] = hits[j], hits[i]
			}
		}
		for _, raw := range hits {
			var h tailHit
			if json.Unmarshal(raw, &h) != nil || len(h.Sort) == 0 {
				continue
			}
			ms, err := strconv.ParseFloat(string(h.Sort[0]), 64)
			if err != nil {
				continue
			}
			at, key := int64(ms), h.Index+"/"+h.ID
			switch {
			case at < b.last && !first:
				continue // older than what is shown: arrived late
			case at == b.last && b.edge[key]:
				continue // already shown
			case at > b.last:
				b.last, b.edge = at, map[string]bool{}
			}
			b.edge[key] = true
			fresh = append(fresh, raw)
			keys = append(keys, key)
		}
		if first || len(hits) < tailPage {
			break
		}
		var lastHit tailHit
		_ = json.Unmarshal(hits[len(hits)-1], &lastHit)
		after = make([]any, len(lastHit.Sort))
		for i, s := range lastHit.Sort {
			after[i] = s
		}
	}
	b.added = len(fresh)
	if b.added == 0 && t.table != nil {
		b.buf, b.keys, b.table = t.buf, t.keys, t.table
		return b, nil
	}
	// Only what arrived is shaped; it is merged after the buffer (the oldest dropped).
	add, err := search.ShapeHits(rawHitsAnswer(fresh))
	if err != nil {
		return b, err
	}
	b.table = search.MergeHits(t.table, add, tailLimit)
	b.buf = b.table.Hits
	all := len(t.keys) + len(keys)
	b.dropped = max(0, all-tailLimit)
	b.keys = append(append(make([]string, 0, all), t.keys...), keys...)[b.dropped:]
	return b, nil
}

// rawHitsAnswer is a search answer made of raw hits.
func rawHitsAnswer(hits []json.RawMessage) []byte {
	var w bytes.Buffer
	w.WriteString(`{"hits":{"total":{"value":`)
	w.WriteString(strconv.Itoa(len(hits)))
	w.WriteString(`,"relation":"eq"},"hits":[`)
	for i, h := range hits {
		if i > 0 {
			w.WriteByte(',')
		}
		w.Write(h)
	}
	w.WriteString("]}}")
	return w.Bytes()
}

// tailed takes a poll's answer: the buffer grows, the cursor keeps its document (and
// follows the newest edge when it was there).
func (p *Pane) tailed(b tailBatch, err error) tea.Cmd {
	t := p.tail
	if t == nil {
		return nil
	}
	if err != nil {
		msg := "Live tail stopped: " + p.ctx.ErrorText(describe(p.ctx.Log, "live tail", err))
		p.stopTail(msg)
		p.res.fillTable()
		return tea.Batch(p.fail(msg), common.Send(common.RefreshDone{}))
	}
	atEdge := !t.started || p.res.atNewest()
	t.buf, t.keys, t.table, t.last, t.edge, t.started = b.buf, b.keys, b.table, b.last, b.edge, true
	t.dropped += b.dropped
	if !atEdge {
		t.unseen += b.added
	}
	a := &answer{req: t.typed, typed: t.typed, sent: true, status: 200, hits: t.table, keys: t.keys, live: true,
		log: logMeta{timeField: t.field, rangeLabel: "live"}, dropped: t.dropped, unseen: t.unseen}
	if prev := p.res.ans; prev != nil {
		a.page = 1
	}
	p.res.setLive(a, atEdge)
	return common.Send(common.RefreshDone{})
}
