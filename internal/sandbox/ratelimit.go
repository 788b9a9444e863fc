package sandbox

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// rateLimiter counts requests per token in fixed one-minute windows that start with the
// first request after the previous window ended.
type rateLimiter struct {
	limit   int
	mu      sync.Mutex
	windows map[principal]*rateWindow
}

type rateWindow struct {
	start time.Time
	count int
}

func newRateLimiter(limit int) *rateLimiter {
	return &rateLimiter{limit: limit, windows: map[principal]*rateWindow{}}
}

// allow counts one request and sets the X-RateLimit headers; on refusal it returns the
// seconds to wait.
func (rl *rateLimiter) allow(w http.ResponseWriter, who principal, now time.Time) (bool, int) {
	rl.mu.Lock()
	win := rl.windows[who]
	if win == nil || !now.Before(win.start.Add(time.Minute)) {
		win = &rateWindow{start: now}
		rl.windows[who] = win
	}
	win.count++
	count := win.count
	reset := int(math.Ceil(win.start.Add(time.Minute).Sub(now).Seconds()))
	rl.mu.Unlock()
	if reset < 1 {
		reset = 1
	}
	remaining := rl.limit - count
	if remaining < 0 {
		remaining = 0
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(rl.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.Itoa(reset))
	if count > rl.limit {
		h.Set("Retry-After", strconv.Itoa(reset))
		return false, reset
	}
	return true, 0
}
