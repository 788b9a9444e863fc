package api

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Backoff parameters: exponential from backoffBase, capped at backoffCap, with jitter.
const (
	backoffBase = 250 * time.Millisecond
	backoffCap  = 10 * time.Second

	// maxHonouredWait is the longest wait the client sits through on its own; a
	// platform asking for more gets its 429 returned, so the console can say
	// "try again in 28s" instead of freezing.
	maxHonouredWait = 30 * time.Second
)

// backoff returns the wait before retry number attempt+1: half of the capped exponential
// step plus a random share of the other half ("equal jitter"), so concurrent clients
// spread out yet every wait stays within [step/2, step].
func (c *Client) backoff(attempt int) time.Duration {
	return backoffDelay(attempt, rand.Int64N)
}

func backoffDelay(attempt int, randN func(int64) int64) time.Duration {
	step := backoffCap
	if attempt < 16 {
		if s := backoffBase << attempt; s < backoffCap {
			step = s
		}
	}
	half := step / 2
	return half + time.Duration(randN(int64(step-half)+1))
}

// retryDelay chooses the wait after a retryable answer: Retry-After first, then (for
// 429) X-RateLimit-Reset, then exponential backoff.
func (c *Client) retryDelay(resp *rawResponse, attempt int) time.Duration {
	now := time.Now()
	if d, ok := parseRetryAfter(resp.header.Get("Retry-After"), now); ok {
		return d
	}
	if resp.status == http.StatusTooManyRequests {
		if d, ok := parseReset(resp.header.Get("X-RateLimit-Reset"), now); ok && d > 0 {
			return d
		}
	}
	return c.backoff(attempt)
}

// parseRetryAfter reads Retry-After as delta-seconds or as an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 || secs > 1e6 {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

// parseReset reads X-RateLimit-Reset: seconds until the window resets, or (for values
// that can only be one) a Unix timestamp.
func parseReset(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	secs, err := strconv.ParseFloat(v, 64)
	if err != nil || secs < 0 {
		return 0, false
	}
	if secs > 1e9 { // an epoch timestamp, not a delta
		d := time.Unix(int64(secs), 0).Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return time.Duration(secs * float64(time.Second)), true
}
