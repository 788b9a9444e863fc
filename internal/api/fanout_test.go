package api

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// Whatever the window, the remaining budget and the requests in flight elsewhere, the
// fan-out never has more in flight than half of what remains, and less remaining never
// admits more.
func TestAdmissibleNeverExceedsTheRemainingBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 1))
	for range 100000 {
		window, rem, others := rng.IntN(fanMax)+1, rng.IntN(2000)-10, rng.IntN(20)
		got := admissible(window, rem, others, true)
		if got < 0 || got > window || got+others > max(rem, others) || (rem-others > 0 && 2*got > rem-others) {
			t.Fatalf("admissible(%d, %d, %d) = %d", window, rem, others, got)
		}
		if less := admissible(window, rem-1-rng.IntN(50), others, true); less > got {
			t.Fatalf("less budget admitted more: %d > %d", less, got)
		}
		if admissible(window, rem, others, false) != window {
			t.Fatal("an unknown budget should leave the window alone")
		}
	}
}

// fanServer answers every project's list after delay, counting the requests in flight
// and (when limit > 0) charging them to a rate-limit window of length per, refusing
// past the limit as the platform does.
type fanServer struct {
	delay          time.Duration
	limit          int
	per            time.Duration
	mu             sync.Mutex
	start          time.Time
	count, refused int
	inFlight, peak atomic.Int64
}

func (f *fanServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for p := f.peak.Load(); n > p && !f.peak.CompareAndSwap(p, n); p = f.peak.Load() {
	}
	if f.limit > 0 {
		f.mu.Lock()
		now := time.Now()
		if f.start.IsZero() || now.Sub(f.start) >= f.per {
			f.start, f.count = now, 0
		}
		f.count++
		count := f.count
		over := count > f.limit
		if over {
			f.refused++
		}
		reset := f.per - now.Sub(f.start)
		f.mu.Unlock()
		w.Header().Set("X-RateLimit-Limit", strconv.Itoa(f.limit))
		w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(max(0, f.limit-count)))
		w.Header().Set("X-RateLimit-Reset", strconv.FormatFloat(reset.Seconds(), 'f', 3, 64))
		if over {
			w.Header().Set("Retry-After", strconv.FormatFloat(reset.Seconds(), 'f', 3, 64))
			writeErr(w, 429, "Rate limit exceeded")
			return
		}
	}
	time.Sleep(f.delay)
	writeJSON(w, 200, `{"services":[{"service_name":"a"},{"service_name":"b"}]}`)
}

func streamAll(t *testing.T, c *Client, n int) int {
	t.Helper()
	projects := make([]string, n)
	for i := range projects {
		projects[i] = fmt.Sprintf("project-%03d", i)
	}
	got := 0
	c.StreamServicesAcrossProjects(ctxT(t), projects, func(project string, svcs []models.Service, err error) {
		if err != nil {
			t.Errorf("%s: %v", project, err)
		}
		got++
	})
	return got
}

// Over a far link the fan-out has more requests in flight than the client's limiter
// allows; over a near one no more than before.
func TestFanOutOpensOverAFarLinkOnly(t *testing.T) {
	far := &fanServer{delay: 120 * time.Millisecond}
	c, _, _ := newTestClient(t, far, func(o *Options) { o.MaxConcurrent = 4; o.Sleep = sleepContext })
	if got := streamAll(t, c, 120); got != 120 {
		t.Fatalf("%d projects answered", got)
	}
	if p := far.peak.Load(); p <= 8 {
		t.Fatalf("peak in flight over a far link %d, want more than the limiter's 4 (well above)", p)
	}
	near := &fanServer{}
	c, _, _ = newTestClient(t, near, func(o *Options) { o.MaxConcurrent = 4; o.Sleep = sleepContext })
	if got := streamAll(t, c, 120); got != 120 {
		t.Fatalf("%d projects answered", got)
	}
	if p := near.peak.Load(); p > 4 {
		t.Fatalf("peak in flight over a near link %d, want at most MaxConcurrent 4", p)
	}
}

// With a small rate budget the fan-out spends it without ever being refused: it never
// has more in flight than remains, and waits for the reset when little does.
func TestFanOutStaysWithinTheRateBudget(t *testing.T) {
	srv := &fanServer{delay: 80 * time.Millisecond, limit: 24, per: 600 * time.Millisecond}
	c, _, _ := newTestClient(t, srv, func(o *Options) { o.Sleep = sleepContext })
	if got := streamAll(t, c, 60); got != 60 {
		t.Fatalf("%d projects answered", got)
	}
	if srv.refused > 0 {
		t.Fatalf("the platform refused %d requests: the fan-out exceeded the remaining budget", srv.refused)
	}
	if p := srv.peak.Load(); p > 12 {
		t.Fatalf("peak in flight %d, more than half of the budget of 24", p)
	}
}

// The window opens over a far link while requests wait, halves on a 429, closes over a
// near link and stays closed on a busy near platform, never leaving [min, max].
func TestFanWindowAdapts(t *testing.T) {
	w := newFanWindow(8, func() budget { return budget{} }, func() int { return 0 })
	w.inflight = 1
	answer := func(status int, latency time.Duration) {
		w.mu.Lock()
		w.queue = append(w.queue, make(chan struct{})) // always one more waiting
		w.mu.Unlock()
		w.release(status, latency)
		if w.inflight != 1 || len(w.queue) != 0 {
			t.Fatalf("the waiting request was not let in: %d in flight, %d waiting", w.inflight, len(w.queue))
		}
	}
	for range 100 {
		answer(200, 200*time.Millisecond)
	}
	if w.Size() != fanMax {
		t.Fatalf("far answers: window %d, want %d", w.Size(), fanMax)
	}
	answer(http.StatusTooManyRequests, 200*time.Millisecond)
	if w.Size() != fanMax/2 {
		t.Fatalf("after a 429: window %d, want %d", w.Size(), fanMax/2)
	}
	for range 100 {
		answer(200, time.Millisecond)
	}
	if w.Size() != 8 {
		t.Fatalf("near answers: window %d, want back to 8", w.Size())
	}
	// A busy platform: most answers slow, some fast; the link is near, the window stays.
	for i := range 100 {
		answer(200, time.Duration(1+i%5*100)*time.Millisecond)
	}
	if w.Size() != 8 {
		t.Fatalf("busy near platform: window %d, want 8", w.Size())
	}
}

// An answer overtaken on the way does not raise what remains within the window; once
// the window has reset, the next answer's count stands.
func TestRateLimitRemainingOnlyFallsWithinAWindow(t *testing.T) {
	var s rateLimitState
	h := func(rem string) http.Header {
		return http.Header{"X-Ratelimit-Limit": {"100"}, "X-Ratelimit-Remaining": {rem}, "X-Ratelimit-Reset": {"10"}}
	}
	t0 := time.Now()
	s.observe(h("40"), t0)
	s.observe(h("45"), t0.Add(time.Second))
	if s.last.Remaining != 40 {
		t.Fatalf("remaining %d after an older answer, want 40", s.last.Remaining)
	}
	s.observe(h("39"), t0.Add(2*time.Second))
	s.observe(h("99"), t0.Add(13*time.Second))
	if s.last.Remaining != 99 {
		t.Fatalf("remaining %d after the reset, want 99", s.last.Remaining)
	}
}

// A fan-out over a link the earlier requests showed far starts open; over a near one,
// at the client's MaxConcurrent.
func TestFanOutStartsOpenOverAKnownFarLink(t *testing.T) {
	w := newFanWindow(8, func() budget { return budget{} }, func() int { return 0 })
	w.observe(200, 5*time.Millisecond)
	w.begin()
	if w.Size() != 8 {
		t.Fatalf("near link: window %d at the start, want 8", w.Size())
	}
	w = newFanWindow(8, func() budget { return budget{} }, func() int { return 0 })
	w.observe(200, 200*time.Millisecond)
	w.begin()
	if w.Size() != 40 {
		t.Fatalf("far link: window %d at the start, want 40", w.Size())
	}
}
