package api

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

const testToken = "tok_Z9xq3Lw7Pk2Vn8Rb5Ty1"

// sleepRecorder replaces Options.Sleep: it records the waits and returns at once.
type sleepRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleepRecorder) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleepRecorder) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// newTestClient starts h on loopback and returns a client for it with recorded sleeps.
func newTestClient(t testing.TB, h http.Handler, mod ...func(*Options)) (*Client, *sleepRecorder, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	rec := &sleepRecorder{}
	opts := Options{BaseURL: srv.URL, Token: testToken, Sleep: rec.sleep, Timeout: 5 * time.Second}
	for _, m := range mod {
		m(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c, rec, srv
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

func writeErr(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, `{"errors":[{"message":"`+msg+`","status":`+strconv.Itoa(status)+`}],"message":"`+msg+`"}`)
}

// resetConn drops the client's connection with a TCP reset, after the handler has read
// whatever it wanted.
func resetConn(t testing.TB, w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		t.Error("response writer cannot hijack")
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	if tc, ok := conn.(interface{ SetLinger(int) error }); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

func newDebugLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func errorsIs(err, target error) bool { return errors.Is(err, target) }

func errorsAs(err error, target any) bool { return errors.As(err, target) }

// Status checks only the tests use; the console asks by Message and IsOutcomeUnknown.

// IsRateLimited reports a 429 answer.
func IsRateLimited(err error) bool { return statusIs(err, http.StatusTooManyRequests) }

// IsBadRequest reports a 400 answer (the platform refused the request's content).
func IsBadRequest(err error) bool { return statusIs(err, http.StatusBadRequest) }

// IsConnection reports that the platform could not be reached at all (a write whose
// answer was lost after it was sent is of unknown outcome instead).
func IsConnection(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == 0 && e.Host != "" && !e.OutcomeUnknown
}
