package api

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// budgetServer answers every request with the given remaining of a limit of 100, the
// window resetting in reset seconds; it counts what reaches it.
func budgetServer(t *testing.T, remaining *atomic.Int64, reset int) (*Client, *atomic.Int64) {
	var served atomic.Int64
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		n := remaining.Add(-1)
		w.Header().Set("X-RateLimit-Limit", "100")
		w.Header().Set("X-RateLimit-Remaining", strconv.FormatInt(max(0, n), 10))
		w.Header().Set("X-RateLimit-Reset", strconv.Itoa(reset))
		writeJSON(w, 200, `{"services":[]}`)
	}))
	return c, &served
}

// Background work leaves half of the limit to key presses: once the platform says
// half or less remains, a background read is not sent (and says when it may be, at
// once, since its deadline comes before the reset), while a key press's read goes.
func TestBudgetKeepsHalfForKeyPresses(t *testing.T) {
	var remaining atomic.Int64
	remaining.Store(52)
	c, served := budgetServer(t, &remaining, 40)

	bg := WithClass(ctxT(t), Background)
	if _, err := c.ListServices(bg, "p"); err != nil {
		t.Fatalf("background read with 52 of 100 left: %v", err)
	}
	// 51 left: one more background request would leave fewer than 50.
	if _, err := c.ListServices(bg, "p"); err != nil {
		t.Fatalf("background read with 51 of 100 left: %v", err)
	}
	before := served.Load()
	short, cancel := context.WithTimeout(bg, 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := c.ListServices(short, "p")
	at, platform, ok := RateLimited(err)
	if !ok || platform {
		t.Fatalf("background read at half the limit: %v, want a hold of the budget", err)
	}
	if time.Since(start) > time.Second {
		t.Errorf("the hold took %s: it should end at once when the deadline is before the reset", time.Since(start))
	}
	if d := time.Until(at); d < 30*time.Second || d > 41*time.Second {
		t.Errorf("retry in %s, want the window's reset (about 40s)", d)
	}
	if served.Load() != before {
		t.Errorf("a held request reached the platform")
	}
	if _, err := c.ListServices(ctxT(t), "p"); err != nil {
		t.Fatalf("a key press's read was refused: %v", err)
	}
	if got := c.Budget().State(); got.Remaining != 49 || got.Limit != 100 || !got.Known {
		t.Errorf("state %+v, want the platform's 49/100", got)
	}
	if n := c.Budget().Allowance(Bulk); n != 24 {
		t.Errorf("bulk allowance %d, want 49-25", n)
	}
}

// A background request held by the budget goes once the window resets.
func TestBudgetWaitsForTheReset(t *testing.T) {
	var remaining atomic.Int64
	remaining.Store(10)
	c, _ := budgetServer(t, &remaining, 1)
	if _, err := c.ListServices(ctxT(t), "p"); err != nil {
		t.Fatal(err)
	}
	remaining.Store(100)
	if ok, at := c.Budget().Ready(Background); ok || at.IsZero() {
		t.Fatalf("ready %v at %v with 9 of 100 left", ok, at)
	}
	start := time.Now()
	if err := c.Budget().Wait(WithClass(ctxT(t), Background), Background); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 500*time.Millisecond {
		t.Errorf("waited %s, want until the reset (about 1s)", d)
	}
	if _, err := c.ListServices(WithClass(ctxT(t), Background), "p"); err != nil {
		t.Fatalf("background read after the reset: %v", err)
	}
}

// A 429 is the rate limit: RateLimited names it the platform's and says when to try
// again, and background work waits that long too.
func TestRateLimitedNamesThePlatformsWait(t *testing.T) {
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "20")
		writeErr(w, 429, "Too many requests")
	}), func(o *Options) { o.MaxRetries = -1 })
	_, err := c.ListServices(ctxT(t), "p")
	at, platform, ok := RateLimited(err)
	if !ok || !platform {
		t.Fatalf("429: RateLimited(%v) = %v, %v", err, platform, ok)
	}
	if d := time.Until(at); d < 18*time.Second || d > 21*time.Second {
		t.Errorf("retry in %s, want Retry-After's 20s", d)
	}
	if ok, until := c.Budget().Ready(Background); ok || until.Sub(at).Abs() > time.Second {
		t.Errorf("background ready %v until %v after a 429 asking until %v", ok, until, at)
	}
	if ok, _ := c.Budget().Ready(Foreground); !ok {
		t.Errorf("a key press is held back by a 429's wait")
	}
}
