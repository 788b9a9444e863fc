package sandbox

import (
	"strconv"
	"testing"
	"time"
)

func TestRateLimit(t *testing.T) {
	e := newEnv(t, Options{RateLimit: 5})
	for i := 1; i <= 5; i++ {
		r := e.admin("GET", "/v1/project", nil)
		expectStatus(t, r, 200)
		if r.header.Get("X-RateLimit-Limit") != "5" || r.header.Get("X-RateLimit-Remaining") != strconv.Itoa(5-i) || r.header.Get("X-RateLimit-Reset") != "60" {
			t.Fatalf("request %d headers: %v", i, r.header)
		}
	}
	e.clock.Advance(32 * time.Second)
	r := e.admin("GET", "/v1/project", nil)
	expectError(t, r, 429, "Rate limit 5 exceeded - try again in 28s")
	if r.header.Get("Retry-After") != "28" || r.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("429 headers %v", r.header)
	}
	// Per token: the developer has its own budget.
	expectStatus(t, e.dev("GET", "/v1/project", nil), 200)
	// Public endpoints carry no rate-limit headers.
	if h := e.do("GET", "/v1/clouds", "", nil).header.Get("X-RateLimit-Limit"); h != "" {
		t.Fatalf("clouds carries X-RateLimit-Limit %s", h)
	}
	e.clock.Advance(28 * time.Second)
	r = e.admin("GET", "/v1/project", nil)
	expectStatus(t, r, 200)
	if r.header.Get("X-RateLimit-Remaining") != "4" {
		t.Fatalf("new window remaining %s", r.header.Get("X-RateLimit-Remaining"))
	}
}

func TestDefaultRateLimitHeader(t *testing.T) {
	e := newEnv(t, Options{})
	if h := e.admin("GET", "/v1/service_types", nil).header.Get("X-RateLimit-Limit"); h != "1200" {
		t.Fatalf("default limit header %q", h)
	}
}
