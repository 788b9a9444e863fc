package api

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// Fan-out concurrency (issue 18): the requests of ListServicesAcrossProjects run in a
// window of their own instead of the client's fixed limiter. Over a far link (answers
// slower than farLatency) the window grows, while requests wait, by one per answer for
// each farLatency of its latency (at most four: 200 ms answers open it fivefold per
// round trip), up to fanMax; over a near link it shrinks back to the
// client's MaxConcurrent, so a fast platform sees no more requests at once than before.
// A 429 halves it. And whatever the window, while the platform's X-RateLimit budget is
// known the fan-out keeps at most half of what remains of it in flight (after the
// requests the client already has in flight), so it never spends more than the budget
// and leaves the person's own actions the other half; with nothing left it waits for
// the reset.
const (
	farLatency = 50 * time.Millisecond
	fanMax     = 64
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
	waiting  int
	// wake is closed (and replaced) whenever a waiter may now be admitted.
	wake chan struct{}
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
	return &fanWindow{size: float64(min), min: min, max: max(min, fanMax), wake: make(chan struct{}),
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

// acquire waits until the window and the budget admit one more request.
func (w *fanWindow) acquire(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		w.mu.Lock()
		b := w.budget()
		now := w.now()
		rem, known, stale := b.remaining, b.known, b.known && !now.Before(b.until)
		if stale {
			// The platform's window has reset since: the whole limit is there again, as
			// far as anyone knows until the next answer says.
			rem, known = b.limit, b.limit > 0
		}
		n := admissible(int(w.size), rem, w.others(), known)
		if stale && w.inflight == 0 {
			n = max(n, 1) // no answer to wait for: one request finds out
		}
		if w.inflight < n {
			w.inflight++
			w.mu.Unlock()
			return nil
		}
		w.waiting++
		wake := w.wake
		w.mu.Unlock()
		var timer *time.Timer
		var fire <-chan time.Time
		if known && !stale {
			timer = time.NewTimer(b.until.Sub(now))
			fire = timer.C
		}
		select {
		case <-wake:
		case <-fire:
		case <-ctx.Done():
		}
		if timer != nil {
			timer.Stop()
		}
		w.mu.Lock()
		w.waiting--
		w.mu.Unlock()
	}
}

// release ends one request: status and latency (to the answer's headers; 0 status for
// a transport failure) move the window.
func (w *fanWindow) release(status int, latency time.Duration) {
	w.mu.Lock()
	w.inflight--
	switch {
	case status == http.StatusTooManyRequests:
		w.size = max(float64(w.min), w.size/2)
	case status == 0:
	case latency >= farLatency && w.waiting > 0:
		// One more per farLatency of the answer's latency (at most 4): the farther the
		// platform, the faster the window opens.
		w.size = min(float64(w.max), w.size+float64(min(4, latency/farLatency)))
	case latency < farLatency/2:
		w.size = max(float64(w.min), w.size-1)
	}
	close(w.wake)
	w.wake = make(chan struct{})
	w.mu.Unlock()
}

// Size is the current window, for tests and benchmarks.
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

// admit waits for a slot for one attempt: the fan-out window for a fan-out's requests,
// the client's limiter for the others. done ends it with the answer's status (0 when
// there was none) and latency.
func (c *Client) admit(ctx context.Context) (done func(status int, latency time.Duration), err error) {
	if ctx.Value(fanoutKey{}) != nil {
		if err := c.fan.acquire(ctx); err != nil {
			return nil, err
		}
		return c.fan.release, nil
	}
	if err := c.limiter.acquire(ctx); err != nil {
		return nil, err
	}
	return func(int, time.Duration) { c.limiter.release() }, nil
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
