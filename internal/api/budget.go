package api

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"
)

// The request budget (issue 26): the platform allows a number of requests per window
// (X-RateLimit-*). One owner per client decides who may spend it, by the class of each
// request, so that a key press always finds budget left:
//
//   - Foreground (a key press waits on it) is never held back for budget.
//   - Background (live refresh, fan-out refreshes, watches) sends only while more than
//     half of the window's limit remains (after the requests already in flight).
//   - Bulk (plans applied over many resources) sends only while more than a quarter
//     remains: a person asked for it, yet keys still find a quarter.
//   - While a 429 asked to wait (Retry-After, else the window's reset), background and
//     bulk wait too.
//
// Background and bulk requests wait inside the client; when their context's deadline
// comes before the budget would let them go, they end at once with a *Error for which
// RateLimited reports when to try again, instead of timing out.

// Class is who a request is for; WithClass puts it on a context.
type Class uint8

const (
	// Foreground requests answer a key press: never held back for budget.
	Foreground Class = iota
	// Background requests are work nobody waits on: live refresh, fan-out refreshes,
	// watches. They leave half of the window's limit to key presses.
	Background
	// Bulk requests apply a plan over many resources. They leave a quarter.
	Bulk
)

func (c Class) String() string {
	switch c {
	case Background:
		return "background"
	case Bulk:
		return "bulk"
	}
	return "foreground"
}

type classKey struct{}

// WithClass marks ctx's requests as class's.
func WithClass(ctx context.Context, c Class) context.Context {
	return context.WithValue(ctx, classKey{}, c)
}

// ClassOf is the class WithClass put on ctx; Foreground when none.
func ClassOf(ctx context.Context) Class {
	c, _ := ctx.Value(classKey{}).(Class)
	return c
}

// Reserve is how much of a window's limit class must leave unspent.
func Reserve(class Class, limit int) int {
	switch class {
	case Background:
		return limit / 2
	case Bulk:
		return limit / 4
	}
	return 0
}

// BudgetState is the budget as the header and pacing callers see it.
type BudgetState struct {
	// Limit and Remaining are the platform's own figures from its latest answer.
	Limit, Remaining int
	// Reset is when the platform's window resets (zero when it did not say).
	Reset time.Time
	// Known is false until an answer carried the figures.
	Known bool
	// InFlight counts requests sent and not yet answered.
	InFlight int
	// LimitedUntil is when the platform's last 429 allows sending again; zero, or in
	// the past, when no wait is asked.
	LimitedUntil time.Time
}

// Budget is the client's one owner of the platform's rate budget (Client.Budget).
// It is safe for concurrent use.
type Budget struct {
	mu       sync.Mutex
	rate     *rateLimitState
	inflight int
	limited  time.Time
	// changed is closed (and replaced) when something a waiter waits on changes.
	changed chan struct{}
	now     func() time.Time
}

func newBudget(rate *rateLimitState) *Budget {
	return &Budget{rate: rate, changed: make(chan struct{}), now: time.Now}
}

// Budget is the client's request budget.
func (c *Client) Budget() *Budget { return c.budget }

// State is the budget now.
func (b *Budget) State() BudgetState {
	rl := b.rate.get()
	b.mu.Lock()
	defer b.mu.Unlock()
	return BudgetState{Limit: rl.Limit, Remaining: rl.Remaining, Reset: rl.Reset, Known: rl.Known,
		InFlight: b.inflight, LimitedUntil: b.limited}
}

// Allowance is how many more requests class may send now; a large number while the
// platform has not said its limit.
func (b *Budget) Allowance(class Class) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, _ := b.allowance(class)
	return n
}

// unlimited is the allowance while nothing is known.
const unlimited = 1 << 30

// allowance is class's allowance and, when it is 0, when it may grow (the window's
// reset or the end of a 429's wait; zero when unknown). The caller holds mu.
func (b *Budget) allowance(class Class) (int, time.Time) {
	if class == Foreground {
		return unlimited, time.Time{}
	}
	now := b.now()
	if now.Before(b.limited) {
		return 0, b.limited
	}
	rl := b.rate.get()
	if !rl.Known {
		return unlimited, time.Time{}
	}
	until := rl.Reset
	if until.IsZero() {
		until = rl.At.Add(budgetWindow)
	}
	remaining := rl.Remaining
	if !now.Before(until) {
		// The window has reset since: the whole limit is there again, as far as
		// anyone knows until the next answer says.
		remaining = rl.Limit
	}
	n := remaining - b.inflight - Reserve(class, rl.Limit)
	if n <= 0 {
		return 0, until
	}
	return n, time.Time{}
}

// Ready reports whether class may send a request now, and if not, when it may
// (zero when only an answer in flight can tell).
func (b *Budget) Ready(class Class) (bool, time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, at := b.allowance(class)
	return n > 0, at
}

// Wait blocks until class may send one more request (it does not take it: the
// client counts each request as it is sent). It returns ctx's error when ctx ends
// first, and at once a *Error for which RateLimited reports the time, when ctx's
// deadline comes before the budget would allow it. Foreground never waits.
func (b *Budget) Wait(ctx context.Context, class Class) error {
	_, err := b.wait(ctx, class, false)
	return err
}

// take waits like Wait and counts one request in flight; done ends it.
func (b *Budget) take(ctx context.Context, class Class) (done func(), err error) {
	return b.wait(ctx, class, true)
}

func (b *Budget) wait(ctx context.Context, class Class, take bool) (func(), error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b.mu.Lock()
		n, at := b.allowance(class)
		if n > 0 {
			if take {
				b.inflight++
			}
			b.mu.Unlock()
			if !take {
				return nil, nil
			}
			var once sync.Once
			return func() { once.Do(b.release) }, nil
		}
		changed := b.changed
		b.mu.Unlock()
		if dl, ok := deadlineOf(ctx); ok && !at.IsZero() && dl.Before(at) {
			return nil, heldError(at)
		}
		var timer *time.Timer
		var fired <-chan time.Time
		if !at.IsZero() {
			timer = time.NewTimer(time.Until(at))
			fired = timer.C
		}
		select {
		case <-ctx.Done():
		case <-changed:
		case <-fired:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

func (b *Budget) release() {
	b.mu.Lock()
	b.inflight--
	b.wakeLocked()
	b.mu.Unlock()
}

// wakeLocked wakes every waiter to look again. The caller holds mu.
func (b *Budget) wakeLocked() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// observed notes an answer: its figures are in rate already; a 429 makes background
// and bulk wait as long as it asked.
func (b *Budget) observed(status int, retryAt time.Time) {
	b.mu.Lock()
	if status == http.StatusTooManyRequests && retryAt.After(b.limited) {
		b.limited = retryAt
	}
	b.wakeLocked()
	b.mu.Unlock()
}

// ErrBudgetHeld is the cause of a background or bulk request that was not sent: the
// budget left for it was spent, and its deadline came before the window's reset.
var ErrBudgetHeld = errors.New("held back to leave the rate budget to key presses")

func heldError(at time.Time) *Error {
	return &Error{Method: "", Path: "", Err: ErrBudgetHeld, RetryAt: at, reason: ErrBudgetHeld.Error()}
}

// RateLimited reports an error of the rate limit: the platform's 429, or a request
// the budget held back. at is when to try again (zero when nobody said); platform
// tells the 429 from the hold.
func RateLimited(err error) (at time.Time, platform, ok bool) {
	var e *Error
	if !errors.As(err, &e) {
		return time.Time{}, false, false
	}
	switch {
	case e.Status == http.StatusTooManyRequests:
		return e.RetryAt, true, true
	case errors.Is(e.Err, ErrBudgetHeld):
		return e.RetryAt, false, true
	}
	return time.Time{}, false, false
}
