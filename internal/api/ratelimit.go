package api

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RateLimit is the latest X-RateLimit-* information the platform sent.
type RateLimit struct {
	Limit     int
	Remaining int
	Reset     time.Time // when the window resets
	Known     bool      // false until an answer carried the headers
	At        time.Time // when the headers were seen
}

// RateLimit returns the latest rate-limit headers seen, for the console's status line.
func (c *Client) RateLimit() RateLimit { return c.rate.get() }

type rateLimitState struct {
	mu   sync.Mutex
	last RateLimit
}

func (s *rateLimitState) get() RateLimit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// observe records the headers of one answer; answers without them change nothing.
func (s *rateLimitState) observe(h http.Header, now time.Time) {
	limit, okLimit := headerInt(h, "X-RateLimit-Limit")
	remaining, okRemaining := headerInt(h, "X-RateLimit-Remaining")
	if !okLimit && !okRemaining {
		return
	}
	rl := RateLimit{Limit: limit, Remaining: remaining, Known: true, At: now}
	if d, ok := parseReset(h.Get("X-RateLimit-Reset"), now); ok {
		rl.Reset = now.Add(d)
	}
	s.mu.Lock()
	// Answers can arrive out of order; keep the newest observation. Within the window
	// the last one described, what remains only goes down: a higher count is an older
	// answer overtaken on the way, and the lower one stands (the fan-out's budget
	// depends on it never being overstated).
	last := s.last
	if !last.At.After(now) {
		if last.Known && now.Before(last.Reset) && rl.Limit == last.Limit && rl.Remaining > last.Remaining {
			rl.Remaining, rl.Reset = last.Remaining, last.Reset
		}
		s.last = rl
	}
	s.mu.Unlock()
}

func headerInt(h http.Header, name string) (int, bool) {
	v := strings.TrimSpace(h.Get(name))
	if v == "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		f, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil {
			return 0, false
		}
		n = int(f)
	}
	return n, true
}
