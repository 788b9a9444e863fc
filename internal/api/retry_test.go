package api

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// failThenOK answers the first `failures` requests with fail and then with ok.
func failThenOK(failures int, fail func(http.ResponseWriter, *http.Request), ok string) (http.Handler, *atomic.Int64) {
	var n atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		if int(n.Add(1)) <= failures {
			fail(w, r)
			return
		}
		writeJSON(w, 200, ok)
	}), &n
}

func status(code int) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) { writeErr(w, code, "injected "+http.StatusText(code)) }
}

const projectOK = `{"project":{"project_name":"acme-prod"}}`

// projectCall makes one call on project acme-prod with the method.
func projectCall(ctx context.Context, c *Client, method string) error {
	var err error
	switch method {
	case http.MethodGet:
		_, err = c.GetProject(ctx, "acme-prod")
	case http.MethodPost:
		_, err = c.CreateProject(ctx, models.CreateProjectRequest{Project: "acme-prod"})
	case http.MethodPut:
		_, err = c.UpdateProject(ctx, "acme-prod", models.UpdateProjectRequest{Cloud: models.Ptr("aws-eu-west-1")})
	case http.MethodDelete:
		err = c.DeleteProject(ctx, "acme-prod")
	}
	return err
}

func TestRetryMatrix(t *testing.T) {
	var tt *testing.T
	reset := func(w http.ResponseWriter, _ *http.Request) { resetConn(tt, w) }
	cases := []struct {
		name      string
		method    string
		fail      func(http.ResponseWriter, *http.Request)
		wantCalls int64
		wantOK    bool
	}{
		{"GET 500 retried", http.MethodGet, status(500), 2, true},
		{"GET 502 retried", http.MethodGet, status(502), 2, true},
		{"GET 503 retried", http.MethodGet, status(503), 2, true},
		{"GET 504 retried", http.MethodGet, status(504), 2, true},
		{"GET 429 retried", http.MethodGet, status(429), 2, true},
		{"GET connection reset retried", http.MethodGet, reset, 2, true},
		{"GET 404 not retried", http.MethodGet, status(404), 1, false},
		{"GET 400 not retried", http.MethodGet, status(400), 1, false},
		{"GET 501 not retried", http.MethodGet, status(501), 1, false},
		{"POST 500 not retried", http.MethodPost, status(500), 1, false},
		{"POST 503 not retried", http.MethodPost, status(503), 1, false},
		{"POST 429 retried", http.MethodPost, status(429), 2, true},
		{"PUT 429 retried", http.MethodPut, status(429), 2, true},
		{"PUT 502 not retried", http.MethodPut, status(502), 1, false},
		{"DELETE 429 retried", http.MethodDelete, status(429), 2, true},
		{"DELETE 500 not retried", http.MethodDelete, status(500), 1, false},
		{"POST reset after the request was written not retried", http.MethodPost, reset, 1, false},
		{"DELETE reset after the request was written not retried", http.MethodDelete, reset, 1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tt = t
			h, calls := failThenOK(1, tc.fail, projectOK)
			c, rec, _ := newTestClient(t, h)
			ctx := ctxT(t)
			err := projectCall(ctx, c, tc.method)
			if got := calls.Load(); got != tc.wantCalls {
				t.Errorf("server saw %d requests, want %d", got, tc.wantCalls)
			}
			if (err == nil) != tc.wantOK {
				t.Fatalf("err = %v, want success %v", err, tc.wantOK)
			}
			if got := int64(len(rec.all())); got != tc.wantCalls-1 {
				t.Errorf("slept %d times, want %d", got, tc.wantCalls-1)
			}
			if st := c.Stats(); st.Retries != tc.wantCalls-1 || st.Requests != tc.wantCalls {
				t.Errorf("stats = %+v", st)
			}
		})
	}
}

// A write whose connection could not even be dialled reached nobody: it is retried.
func TestWriteRetriedAfterDialError(t *testing.T) {
	h, calls := failThenOK(0, nil, projectOK)
	var dials atomic.Int64
	dialer := &net.Dialer{}
	transport := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if dials.Add(1) == 1 {
			return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
		}
		return dialer.DialContext(ctx, network, addr)
	}}
	c, rec, _ := newTestClient(t, h, func(o *Options) { o.HTTPClient = &http.Client{Transport: transport} })
	p, err := c.CreateProject(ctxT(t), models.CreateProjectRequest{Project: "acme-prod"})
	if err != nil {
		t.Fatalf("CreateProject: %v", err)
	}
	if p.ProjectName != "acme-prod" || calls.Load() != 1 || dials.Load() != 2 || len(rec.all()) != 1 {
		t.Errorf("project %q, server calls %d, dials %d, sleeps %v", p.ProjectName, calls.Load(), dials.Load(), rec.all())
	}
}

func TestGetRetriesExhausted(t *testing.T) {
	var calls atomic.Int64
	c, rec, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		writeErr(w, 503, "Service Unavailable right now")
	}), func(o *Options) { o.MaxRetries = 3 })
	_, err := c.ListServiceTypes(ctxT(t))
	if calls.Load() != 4 || len(rec.all()) != 3 {
		t.Fatalf("calls %d, sleeps %d; want 4 and 3", calls.Load(), len(rec.all()))
	}
	var e *Error
	if !errors.As(err, &e) || e.Status != 503 || Message(err) != "Service Unavailable right now" {
		t.Fatalf("err = %#v", err)
	}
}

func TestNegativeMaxRetriesDisablesRetries(t *testing.T) {
	h, calls := failThenOK(1, status(500), `{"service_types":[]}`)
	c, _, _ := newTestClient(t, h, func(o *Options) { o.MaxRetries = -1 })
	if _, err := c.ListServiceTypes(ctxT(t)); err == nil || calls.Load() != 1 {
		t.Fatalf("err %v after %d calls; want a failure after 1", err, calls.Load())
	}
}

func TestRetryAfterSecondsHonoured(t *testing.T) {
	h, _ := failThenOK(2, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3")
		w.Header().Set("X-RateLimit-Reset", "9")
		writeErr(w, 429, "Rate limit 120 exceeded - try again in 3s")
	}, `{"service_types":[]}`)
	c, rec, _ := newTestClient(t, h)
	if _, err := c.ListServiceTypes(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if w := rec.all(); len(w) != 2 || w[0] != 3*time.Second || w[1] != 3*time.Second {
		t.Fatalf("waits = %v, want [3s 3s]", w)
	}
}

func TestRetryAfterHTTPDateHonoured(t *testing.T) {
	h, _ := failThenOK(1, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", time.Now().Add(5*time.Second).UTC().Format(http.TimeFormat))
		writeErr(w, 429, "slow down")
	}, projectOK)
	c, rec, _ := newTestClient(t, h)
	if _, err := c.CreateProject(ctxT(t), models.CreateProjectRequest{Project: "acme-prod"}); err != nil {
		t.Fatal(err)
	}
	// HTTP dates have one-second precision.
	if w := rec.all(); len(w) != 1 || w[0] < 3*time.Second || w[0] > 5*time.Second {
		t.Fatalf("waits = %v, want one of about 4-5s", w)
	}
}

func TestRateLimitResetFallback(t *testing.T) {
	h, _ := failThenOK(1, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Limit", "120")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", "7")
		writeErr(w, 429, "Rate limit 120 exceeded")
	}, projectOK)
	c, rec, _ := newTestClient(t, h)
	if _, err := c.GetProject(ctxT(t), "acme-prod"); err != nil {
		t.Fatal(err)
	}
	if w := rec.all(); len(w) != 1 || w[0] != 7*time.Second {
		t.Fatalf("waits = %v, want [7s]", w)
	}
}

// A 5xx carries no Retry-After: the wait is the jittered exponential backoff.
func TestBackoffOnServerErrors(t *testing.T) {
	c, rec, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Reset", "9") // only for 429s
		writeErr(w, 500, "boom")
	}), func(o *Options) { o.MaxRetries = 8 })
	_, _ = c.ListServiceTypes(ctxT(t))
	w := rec.all()
	if len(w) != 8 {
		t.Fatalf("waits = %v", w)
	}
	for i, d := range w {
		step := min(backoffBase<<i, backoffCap)
		if d < step/2 || d > step {
			t.Errorf("wait %d = %v, want within [%v, %v]", i, d, step/2, step)
		}
	}
}

func TestBackoffBoundedAndJittered(t *testing.T) {
	for attempt := range 40 {
		step := backoffCap
		if attempt < 16 {
			step = min(backoffBase<<attempt, backoffCap)
		}
		lo := backoffDelay(attempt, func(int64) int64 { return 0 })
		hi := backoffDelay(attempt, func(n int64) int64 { return n - 1 })
		if lo != step/2 || hi != step {
			t.Errorf("attempt %d: bounds [%v, %v], want [%v, %v]", attempt, lo, hi, step/2, step)
		}
		if hi > backoffCap {
			t.Errorf("attempt %d: %v exceeds the cap", attempt, hi)
		}
	}
	c := &Client{}
	seen := map[time.Duration]bool{}
	for range 50 {
		seen[c.backoff(3)] = true
	}
	if len(seen) < 10 {
		t.Errorf("50 backoffs gave only %d distinct waits: no jitter", len(seen))
	}
}

// A platform that asks for a long wait gets its answer returned instead of a frozen console.
func TestLongRetryAfterReturnedToCaller(t *testing.T) {
	h, calls := failThenOK(1, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		writeErr(w, 429, "Rate limit 120 exceeded - try again in 120s")
	}, projectOK)
	c, rec, _ := newTestClient(t, h)
	_, err := c.GetProject(ctxT(t), "acme-prod")
	var e *Error
	if !IsRateLimited(err) || !errors.As(err, &e) || e.RetryAfter != 120*time.Second {
		t.Fatalf("err = %v", err)
	}
	if calls.Load() != 1 || len(rec.all()) != 0 {
		t.Fatalf("calls %d, sleeps %v", calls.Load(), rec.all())
	}
}

func TestRetryAfterBeyondDeadlineReturnsAtOnce(t *testing.T) {
	h, calls := failThenOK(1, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "20")
		writeErr(w, 429, "slow down")
	}, projectOK)
	c, rec, _ := newTestClient(t, h)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := c.GetProject(ctx, "acme-prod"); !IsRateLimited(err) {
		t.Fatalf("err = %v", err)
	}
	if calls.Load() != 1 || len(rec.all()) != 0 {
		t.Fatalf("calls %d, sleeps %v", calls.Load(), rec.all())
	}
}

// Cancelling during a backoff sleep ends the call with the caller's error.
func TestCancelDuringBackoff(t *testing.T) {
	var calls atomic.Int64
	srv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		writeErr(w, 503, "busy")
	})
	ctx, cancel := context.WithCancel(context.Background())
	c, _, _ := newTestClient(t, srv, func(o *Options) {
		o.Sleep = func(sctx context.Context, d time.Duration) error {
			cancel()
			<-sctx.Done()
			return sctx.Err()
		}
	})
	_, err := c.ListServiceTypes(ctx)
	if !errors.Is(err, context.Canceled) || calls.Load() != 1 {
		t.Fatalf("err = %v after %d calls", err, calls.Load())
	}
	if Message(err) != "cancelled" {
		t.Errorf("Message = %q", Message(err))
	}
}

func TestRealSleepHonoursContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := sleepContext(ctx, time.Hour); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("sleep ignored the context")
	}
	if err := sleepContext(context.Background(), time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

func TestParseRetryAfterAndReset(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"3", 3 * time.Second, true},
		{" 0 ", 0, true},
		{"1.5", 1500 * time.Millisecond, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{"", 0, false},
		{now.Add(10 * time.Second).Format(http.TimeFormat), 10 * time.Second, true},
		{now.Add(-10 * time.Second).Format(http.TimeFormat), 0, true},
	}
	for _, tc := range cases {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if d, ok := parseReset(strings.TrimSpace("28"), now); !ok || d != 28*time.Second {
		t.Errorf("parseReset(28) = %v %v", d, ok)
	}
	if d, ok := parseReset("1772366430", now); !ok || d != 30*time.Second { // epoch form
		t.Errorf("parseReset(epoch) = %v %v", d, ok)
	}
	if _, ok := parseReset("x", now); ok {
		t.Error("parseReset(x) accepted")
	}
}
