package api

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Fan-out concurrency (issue 18): the requests of ListServicesAcrossProjects run in a
// window of their own instead of the client's fixed limiter.
//
//   - Over a far link the window grows while the fan-out has more to ask than it lets
//     run: by one per answer for each farLatency of the link's delay, at most four
//     (200 ms opens it fivefold per round trip), up to fanMax. When the requests before a
//     fan-out (the project list) showed the link far, it starts where one round trip
//     would have opened it.
//   - The link's delay is the least latency of the last 16 answers, so a busy platform
//     (or a busy client), slower the more it is asked at once, does not open it. Over a
//     near link the window shrinks back to the client's MaxConcurrent: a fast platform
//     sees no more requests at once than before. A 429 halves it.
//   - Whatever the window, while the platform's X-RateLimit budget is known the fan-out
//     keeps at most half of what remains in flight (after the requests the client
//     already has in flight): it never spends more than the budget and leaves the
//     person's own actions the other half. With nothing left it waits for the reset.
const (
	farLatency = 50 * time.Millisecond
	fanMax     = 128
	// budgetWindow is how long a rate-limit observation without X-RateLimit-Reset is
	// taken to hold.
	budgetWindow = time.Minute
)

// fanWindow admits the requests of fan-outs; one per client, so what it learned about
// the link carries over to the next fan-out.
type fanWindow struct {
	mu       sync.Mutex
	size     float64
	min, max int
	inflight int
	// queue holds the waiting requests in order; each is let in by closing its channel,
	// so an answer wakes only the requests it lets in.
	queue []chan struct{}
	// backlog is the fan-outs' requests not yet done (demand), so the window opens
	// while there is more to ask than it lets run.
	backlog int
	// timer looks again when the budget resets, while requests wait on it.
	timer *time.Timer
	// recent holds the latencies of the last answers (a ring; nrecent counts them).
	recent  [16]time.Duration
	nrecent int
	// budget reports the platform's rate budget.
	budget func() budget
	// others is the number of the client's requests in flight outside the window.
	others func() int
	now    func() time.Time
}

// budget is the platform's rate budget as last seen: the limit, what remains until
// when, and whether any answer has said.
type budget struct {
	limit, remaining int
	until            time.Time
	known            bool
}

func newFanWindow(min int, budget func() budget, others func() int) *fanWindow {
	return &fanWindow{size: float64(min), min: min, max: max(min, fanMax),
		budget: budget, others: others, now: time.Now}
}

// admissible is how many fan-out requests may be in flight: the window, and while the
// rate budget is known, at most half of what remains after the others in flight.
func admissible(window, remaining, others int, known bool) int {
	if !known {
		return window
	}
	return max(0, min(window, (remaining-others)/2))
}

// allowed is how many requests may be in flight now, and, when the budget is what
// holds them back, when it resets (timed). The caller holds mu.
func (w *fanWindow) allowed() (n int, reset time.Time, timed bool) {
	b := w.budget()
	now := w.now()
	rem, known, stale := b.remaining, b.known, b.known && !now.Before(b.until)
	if stale {
		// The platform's window has reset since: the whole limit is there again, as
		// far as anyone knows until the next answer says.
		rem, known = b.limit, b.limit > 0
	}
	n = admissible(int(w.size), rem, w.others(), known)
	if stale && w.inflight == 0 {
		n = max(n, 1) // no answer to wait for: one request finds out
	}
	return n, b.until, known && !stale
}

// dispatch lets in as many waiting requests as may now be in flight; when the budget
// holds the others back, it looks again at the budget's reset. The caller holds mu.
func (w *fanWindow) dispatch() {
	n, reset, timed := w.allowed()
	for len(w.queue) > 0 && w.inflight < n {
		close(w.queue[0])
		w.queue = w.queue[1:]
		w.inflight++
	}
	if len(w.queue) > 0 && timed && w.timer == nil {
		w.timer = time.AfterFunc(time.Until(reset), func() {
			w.mu.Lock()
			w.timer = nil
			w.dispatch()
			w.mu.Unlock()
		})
	}
}

// acquire waits until the window and the budget let one more request in.
func (w *fanWindow) acquire(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w.mu.Lock()
	if n, _, _ := w.allowed(); len(w.queue) == 0 && w.inflight < n {
		w.inflight++
		w.mu.Unlock()
		return nil
	}
	if n, reset, timed := w.allowed(); n == 0 && timed && w.inflight == 0 {
		// Only the budget's reset can let it in: when that is after the caller's
		// deadline, say so now rather than time out waiting.
		if dl, ok := deadlineOf(ctx); ok && dl.Before(reset) {
			w.mu.Unlock()
			return heldError(reset)
		}
	}
	in := make(chan struct{})
	w.queue = append(w.queue, in)
	w.dispatch()
	w.mu.Unlock()
	select {
	case <-in:
		return nil
	case <-ctx.Done():
		w.mu.Lock()
		if i := slices.Index(w.queue, in); i >= 0 {
			w.queue = slices.Delete(w.queue, i, i+1)
		} else {
			// Let in meanwhile: give the place to the next.
			w.inflight--
			w.dispatch()
		}
		w.mu.Unlock()
		return ctx.Err()
	}
}

// release ends one request: status and latency (to the answer's headers; 0 status for
// a transport failure) move the window.
func (w *fanWindow) release(status int, latency time.Duration) {
	w.mu.Lock()
	w.inflight--
	link := w.link(status, latency)
	switch {
	case status == http.StatusTooManyRequests:
		w.size = max(float64(w.min), w.size/2)
	case status == 0:
	case link >= farLatency && (len(w.queue) > 0 || w.backlog > w.inflight):
		// One more per farLatency of the link's delay (at most 4): the farther the
		// platform, the faster the window opens.
		w.size = min(float64(w.max), w.size+float64(min(4, link/farLatency)))
	case link < farLatency/2:
		w.size = max(float64(w.min), w.size-1)
	}
	w.dispatch()
	w.mu.Unlock()
}

// link is the delay of the link itself: the least latency of the last answers. A busy
// platform (or client) makes answers slower the more requests run at once, and more
// requests would not help there; the least of them still says how far the platform is.
func (w *fanWindow) link(status int, latency time.Duration) time.Duration {
	if status != 0 {
		w.recent[w.nrecent%len(w.recent)] = latency
		w.nrecent++
	}
	n := min(w.nrecent, len(w.recent))
	if n == 0 {
		return 0
	}
	least := w.recent[0]
	for _, d := range w.recent[1:n] {
		least = min(least, d)
	}
	return least
}

// observe notes the latency of a request outside the window (the project list before
// a fan-out): the link is known before the fan-out's first answer.
func (w *fanWindow) observe(status int, latency time.Duration) {
	w.mu.Lock()
	w.link(status, latency)
	w.mu.Unlock()
}

// begin starts a fan-out: over a link already known to be far, the window opens at
// once as far as its first answers would open it (one round trip's growth), so the
// first round trip is not spent at the client's MaxConcurrent.
func (w *fanWindow) begin() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if link := w.link(0, 0); link >= farLatency {
		w.size = max(w.size, min(float64(w.max), float64(w.min)*float64(1+min(4, link/farLatency))))
	}
}

// demand adds n to the backlog (negative when requests are done).
func (w *fanWindow) demand(n int) {
	w.mu.Lock()
	w.backlog += n
	w.mu.Unlock()
}

// Size is the current window.
func (w *fanWindow) Size() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return int(w.size)
}

type fanoutKey struct{}

// withFanout marks ctx's requests as a fan-out's.
func withFanout(ctx context.Context) context.Context {
	return context.WithValue(ctx, fanoutKey{}, true)
}

// admit waits for the budget to let the request's class spend one more (budget.go),
// then for a slot: the fan-out window for a fan-out's requests, the client's limiter
// for the others. done ends it with the answer's status (0 when there was none) and
// latency.
func (c *Client) admit(ctx context.Context) (done func(status int, latency time.Duration), err error) {
	spent, err := c.budget.take(ctx, ClassOf(ctx))
	if err != nil {
		return nil, err
	}
	if ctx.Value(fanoutKey{}) != nil {
		if err := c.fan.acquire(ctx); err != nil {
			spent()
			return nil, err
		}
		return func(status int, latency time.Duration) {
			c.fan.release(status, latency)
			spent()
		}, nil
	}
	if err := c.limiter.acquire(ctx); err != nil {
		spent()
		return nil, err
	}
	return func(status int, latency time.Duration) {
		c.limiter.release()
		c.fan.observe(status, latency)
		spent()
	}, nil
}

// rateBudget is the fan-out window's view of the rate-limit state.
func (c *Client) rateBudget() budget {
	rl := c.RateLimit()
	if !rl.Known {
		return budget{}
	}
	until := rl.Reset
	if until.IsZero() {
		until = rl.At.Add(budgetWindow)
	}
	return budget{limit: rl.Limit, remaining: rl.Remaining, until: until, known: true}
}
