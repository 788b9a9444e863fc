package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"sort"
	"strconv"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// Live tail (t): the shown search is followed as documents arrive. Log shippers
// deliver seconds late, so each poll reads a lookback window — which documents are at or
// after the newest time seen minus tailLookback, sorted by [time, _doc], paging with
// search_after, as ids and times only — and keeps documents by id: one already shown is
// skipped, the others are fetched whole by id, and a new one older than the newest
// shown is a late document, inserted where its time belongs and counted ("N late"). A
// document later than the lookback is not seen (said in docs/search.md). Polls come
// from the root's live refresh (RefreshInterval), so they stop when the results are not
// on screen: a document opened pauses the tail and esc resumes it; leaving the tab
// stops it. The buffer keeps the newest tailLimit.

const (
	tailEvery    = time.Second      // at most one poll a second
	tailLookback = 15 * time.Second // how late a document may arrive and still be shown
	tailLimit    = 10000            // documents kept; the oldest go first
	tailPage     = 500              // documents per request
	tailScanPage = 2000             // ids per request reading the window (no sources)
	tailPages    = 10               // window requests per poll, at most (20,000 documents)
	tailInitial  = 100              // documents shown when the tail starts
	// tailAway is the gap between polls that means the results left the screen.
	tailAway = 4 * tailEvery
)

// tailer is the pane's live tail: it starts and stops following the results' search,
// polls on the root's live refresh and takes each poll's answer into the results. The
// results and the connection are the pane's (both change on a reconnect), handed in.
type tailer struct {
	ctx  *common.Context
	req  *common.Requests
	foot *footer
	run  *tail // nil: no tail
}

// update takes the tail's messages (its polls' answers); ok is false for others.
func (tl *tailer) update(msg tea.Msg, res *results) (tea.Cmd, bool) {
	m, ok := msg.(common.Result[tailBatch])
	if !ok {
		return nil, false
	}
	if !tl.req.Current(m.Addr) {
		return nil, true
	}
	return tl.tailed(m.Value, m.Err, res), true
}

// pause holds the tail while a document is opened (the next refresh resumes it).
func (tl *tailer) pause() {
	if tl.run != nil {
		tl.run.paused = true
	}
}

// paused says the tail waits for the document view to close.
func (tl *tailer) paused() bool { return tl.run != nil && tl.run.paused }

// reached says the cursor came to the newest documents: none is unseen any more.
func (tl *tailer) reached(res *results) {
	if a := res.ans; a != nil && a.live && a.unseen > 0 && res.atNewest() && tl.run != nil {
		a.unseen, tl.run.unseen = 0, 0
	}
}

// tail is a running live tail.
type tail struct {
	typed search.ParsedRequest
	// sent is the request whose answer the tail started from (time range and all):
	// what copy as curl gives once the tail stops.
	sent    search.ParsedRequest
	pattern string
	field   string
	query   json.RawMessage // the search's own query (nil: everything)
	buf     []json.RawMessage
	keys    []string // "index/id" of each buf entry
	times   []int64  // the time of each buf entry, epoch ms, ascending
	table   *search.HitsTable
	last    int64            // newest time seen, epoch ms
	seen    map[string]int64 // the documents seen in the lookback window, with their times
	resume  []any            // search_after to go on from when the last poll hit tailPages
	limit   int              // documents kept (tailLimit)
	started bool             // the first batch arrived
	dropped int
	late    int // late documents inserted
	unseen  int // arrived while the cursor was away from the newest edge
	paused  bool
	polled  time.Time
}

// tailBatch is one poll's answer: the whole new buffer, shaped in the command.
type tailBatch struct {
	buf     []json.RawMessage
	keys    []string
	times   []int64
	table   *search.HitsTable
	last    int64
	seen    map[string]int64
	resume  []any
	added   int
	late    int
	dropped int
}

// toggle starts following the search res shows, or stops.
func (tl *tailer) toggle(conn *connection, res *results) tea.Cmd {
	if tl.run != nil {
		tl.stop("", res)
		return common.Info("Live tail stopped")
	}
	a := res.ans
	if a == nil || a.hits == nil || a.errText != "" {
		return tl.foot.warn("Live tail follows a search: run a _search first")
	}
	if a.log.timeField == "" {
		return tl.foot.warn("Live tail needs a time field: " + search.IndexPattern(a.typed.Path) + " has no date field (T picks one when there are several)")
	}
	t := newTail(a.typed, a.req, a.log.timeField)
	tl.run = t
	return tea.Batch(tl.poll(conn), common.Info("Live tail of "+t.pattern+": new documents appear at the bottom ("+tl.ctx.Keys.Tail.Help().Key+" stops)"))
}

// newTail follows typed (sent is what ran, with the time range) on its time field.
func newTail(typed, sent search.ParsedRequest, field string) *tail {
	t := &tail{typed: typed, sent: sent, pattern: search.IndexPattern(typed.Path), field: field, seen: map[string]int64{}, limit: tailLimit}
	if body := bytes.TrimSpace([]byte(typed.Body)); len(body) > 0 {
		var b map[string]json.RawMessage
		if err := json.Unmarshal(body, &b); err == nil {
			t.query = b["query"]
		}
	}
	return t
}

// stop ends the tail; why is said in the results when not empty.
func (tl *tailer) stop(why string, res *results) {
	tl.run = nil
	if why != "" && res.ans != nil {
		res.ans.tailNote = why
	}
	if res.ans != nil {
		res.ans.live = false
	}
}

// interval is how often the root polls: every tailEvery while the tail runs.
func (tl *tailer) interval() time.Duration {
	if tl.run != nil && !tl.run.paused {
		return tailEvery
	}
	return 0
}

// refresh is the root's live refresh while tailing: a poll, or the end of a tail whose
// results left the screen. ok is false when there is no tail.
func (tl *tailer) refresh(conn *connection, res *results) (tea.Cmd, bool) {
	t := tl.run
	if t == nil {
		return nil, false
	}
	switch {
	case t.paused:
		t.paused = false // back from the document
	case t.started && tl.ctx.Now().Sub(t.polled) > tailAway:
		tl.stop("Live tail stopped: the results were not on screen ("+tl.ctx.Keys.Tail.Help().Key+" starts it again)", res)
		res.fillTable()
		return tea.Batch(common.Info("Live tail stopped while the results were not on screen"), common.Send(common.RefreshDone{})), true
	}
	return tl.poll(conn), true
}

// tailQuery is the search's own query on or after from (epoch ms; 0: no bound),
// with extra filters.
func (t *tail) tailQuery(from int64, extra ...any) map[string]any {
	filter := extra
	if from > 0 {
		filter = append(filter, map[string]any{"range": map[string]any{t.field: map[string]any{"gte": from, "format": "epoch_millis"}}})
	}
	boolQ := map[string]any{"filter": filter}
	if len(t.query) > 0 {
		boolQ["must"] = []json.RawMessage{t.query}
	}
	return map[string]any{"bool": boolQ}
}

// ascending is the order every poll reads in: time, then a tie-breaker.
func (t *tail) ascending() []any {
	return []any{map[string]any{t.field: "asc"}, map[string]any{"_doc": "asc"}}
}

// firstBody asks for the newest documents, to start with.
func (t *tail) firstBody() ([]byte, error) {
	return json.Marshal(map[string]any{"query": t.tailQuery(0), "track_total_hits": false, "size": tailInitial,
		"sort": []any{map[string]any{t.field: "desc"}}})
}

// scanBody asks which documents the lookback window holds: ids and times, no sources.
func (t *tail) scanBody(after []any) ([]byte, error) {
	body := map[string]any{"query": t.tailQuery(t.last - tailLookback.Milliseconds()), "track_total_hits": false,
		"size": tailScanPage, "_source": false, "sort": t.ascending()}
	if after != nil {
		body["search_after"] = after
	}
	return json.Marshal(body)
}

// fetchBody asks for the documents with these ids in the window (a document of
// another index with the same id comes too, and is left out by its key).
func (t *tail) fetchBody(ids []string, after []any) ([]byte, error) {
	body := map[string]any{"query": t.tailQuery(t.last-tailLookback.Milliseconds(), map[string]any{"ids": map[string]any{"values": ids}}),
		"track_total_hits": false, "size": tailPage, "sort": t.ascending()}
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

// poll fetches what arrived since the last poll and shapes the new buffer, all in the
// command.
func (tl *tailer) poll(conn *connection) tea.Cmd {
	t := tl.run
	t.polled = tl.ctx.Now()
	c, target := conn.client, t.pattern
	if plain, err := url.PathUnescape(target); err == nil {
		target = plain // as typed, perhaps escaped: SearchIn escapes it once
	}
	snap := *t // the command reads a copy; the buffer slices are never written in place
	return common.Fetch(tl.req, kindTail, func(ctx context.Context) (tailBatch, error) {
		return snap.poll(ctx, c, target)
	})
}

// searchHits sends one tail search and returns its raw hits.
func searchHits(ctx context.Context, c *search.Client, target string, body []byte) ([]json.RawMessage, error) {
	resp, err := c.Read(ctx, search.SearchIn(target, body))
	if err != nil {
		return nil, err
	}
	if err := resp.Err(); err != nil {
		return nil, err
	}
	var ans struct {
		Hits struct {
			Hits []json.RawMessage `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(resp.Body, &ans); err != nil {
		return nil, errors.New("the tail's answer is not a search answer")
	}
	return ans.Hits.Hits, nil
}

// readHit reads a hit's key ("index/id"), id, time (its first sort value) and sort.
func readHit(raw json.RawMessage) (h tailHit, key string, at int64, ok bool) {
	if json.Unmarshal(raw, &h) != nil || len(h.Sort) == 0 {
		return h, "", 0, false
	}
	ms, err := strconv.ParseFloat(string(h.Sort[0]), 64)
	if err != nil {
		return h, "", 0, false
	}
	return h, h.Index + "/" + h.ID, int64(ms), true
}

// sortValues is a hit's sort as search_after takes it.
func sortValues(h tailHit) []any {
	out := make([]any, len(h.Sort))
	for i, s := range h.Sort {
		out[i] = s
	}
	return out
}

// poll reads what arrived: the first time the newest documents; then the window's ids
// and times (light: no sources), and the documents of those not seen yet.
func (t tail) poll(ctx context.Context, c *search.Client, target string) (tailBatch, error) {
	b := tailBatch{last: t.last, seen: make(map[string]int64, len(t.seen))}
	for k, at := range t.seen {
		b.seen[k] = at
	}
	var fresh []json.RawMessage
	var keys []string
	var times []int64
	take := func(raw json.RawMessage, key string, at int64) {
		b.seen[key] = at
		fresh, keys, times = append(fresh, raw), append(keys, key), append(times, at)
	}
	if !t.started {
		body, err := t.firstBody()
		if err != nil {
			return b, err
		}
		hits, err := searchHits(ctx, c, target, body)
		if err != nil {
			return b, err
		}
		for i := len(hits) - 1; i >= 0; i-- { // newest first: shown oldest first
			if _, key, at, ok := readHit(hits[i]); ok {
				take(hits[i], key, at)
			}
		}
	} else {
		// Which documents of the window are new.
		want := map[string]bool{}
		var ids []string
		after := t.resume
		full := false
		for page := 0; page < tailPages; page++ {
			body, err := t.scanBody(after)
			if err != nil {
				return b, err
			}
			hits, err := searchHits(ctx, c, target, body)
			if err != nil {
				return b, err
			}
			for _, raw := range hits {
				h, key, _, ok := readHit(raw)
				if !ok || want[key] {
					continue
				}
				if _, shown := b.seen[key]; !shown {
					want[key] = true
					ids = append(ids, h.ID)
				}
			}
			if len(hits) < tailScanPage {
				break
			}
			last, _, _, _ := readHit(hits[len(hits)-1])
			after = sortValues(last)
			full = page == tailPages-1
		}
		// A poll that could not read all the window goes on from there next time, so a
		// window fuller than tailPages pages is still read to its end.
		if full {
			b.resume = after
		}
		// Their documents, tailPage ids a request.
		for len(ids) > 0 {
			chunk := ids[:min(len(ids), tailPage)]
			ids = ids[len(chunk):]
			var after []any
			for {
				body, err := t.fetchBody(chunk, after)
				if err != nil {
					return b, err
				}
				hits, err := searchHits(ctx, c, target, body)
				if err != nil {
					return b, err
				}
				for _, raw := range hits {
					if _, key, at, ok := readHit(raw); ok && want[key] {
						delete(want, key)
						take(raw, key, at)
					}
				}
				if len(hits) < tailPage {
					break
				}
				last, _, _, _ := readHit(hits[len(hits)-1])
				after = sortValues(last)
			}
		}
	}
	b.added = len(fresh)
	if b.added == 0 && t.table != nil {
		b.buf, b.keys, b.times, b.table = t.buf, t.keys, t.times, t.table
		b.prune(t.last)
		return b, nil
	}
	// What arrived is sorted by time (a page is, pages may overlap) and merged into
	// the buffer by time; only what arrived is shaped.
	order := make([]int, len(fresh))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return times[order[i]] < times[order[j]] })
	sorted := make([]json.RawMessage, len(fresh))
	for i, o := range order {
		sorted[i] = fresh[o]
	}
	add, err := search.ShapeHits(rawHitsAnswer(sorted))
	if err != nil {
		return b, err
	}
	all := len(t.keys) + len(fresh)
	fromB := make([]bool, 0, all)
	b.keys = make([]string, 0, all)
	b.times = make([]int64, 0, all)
	ia, ib := 0, 0
	for ia < len(t.keys) || ib < len(order) {
		// A document goes after every shown one of its time or older.
		if ib < len(order) && (ia == len(t.keys) || times[order[ib]] < t.times[ia]) {
			o := order[ib]
			if started := t.started; started && times[o] < t.last {
				b.late++
			}
			fromB = append(fromB, true)
			b.keys, b.times = append(b.keys, keys[o]), append(b.times, times[o])
			b.last = max(b.last, times[o])
			ib++
			continue
		}
		fromB = append(fromB, false)
		b.keys, b.times = append(b.keys, t.keys[ia]), append(b.times, t.times[ia])
		ia++
	}
	limit := t.limit
	if limit <= 0 {
		limit = tailLimit
	}
	b.table = search.InterleaveHits(t.table, add, fromB, limit)
	b.buf = b.table.Hits
	b.dropped = max(0, all-limit)
	b.keys, b.times = b.keys[b.dropped:], b.times[b.dropped:]
	b.prune(b.last)
	return b, nil
}

// prune forgets the documents older than the lookback window: no poll reads them again.
func (b *tailBatch) prune(last int64) {
	from := last - tailLookback.Milliseconds()
	for k, at := range b.seen {
		if at < from {
			delete(b.seen, k)
		}
	}
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
func (tl *tailer) tailed(b tailBatch, err error, res *results) tea.Cmd {
	t := tl.run
	if t == nil {
		return nil
	}
	if err != nil {
		msg := "Live tail stopped: " + tl.ctx.ErrorText(describe(tl.ctx.Log, "live tail", err))
		tl.stop(msg, res)
		res.fillTable()
		return tea.Batch(tl.foot.fail(msg), common.Send(common.RefreshDone{}))
	}
	atEdge := !t.started || res.atNewest()
	t.buf, t.keys, t.times, t.table, t.last, t.seen, t.resume, t.started = b.buf, b.keys, b.times, b.table, b.last, b.seen, b.resume, true
	t.dropped += b.dropped
	t.late += b.late
	if !atEdge {
		t.unseen += b.added
	}
	a := &answer{req: t.sent, typed: t.typed, sent: true, status: 200, hits: t.table, keys: t.keys, live: true,
		log: logMeta{timeField: t.field, rangeLabel: "live"}, dropped: t.dropped, unseen: t.unseen, late: t.late}
	if prev := res.ans; prev != nil {
		a.page = 1
	}
	res.setLive(a, atEdge)
	return common.Send(common.RefreshDone{})
}
