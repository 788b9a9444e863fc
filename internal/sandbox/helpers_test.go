package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/sandbox/sandboxtest"
)

// testEpoch is a fixed start time for tests that use a ManualClock.
var testEpoch = time.Date(2026, 3, 17, 10, 30, 0, 0, time.UTC)

type env struct {
	t     *testing.T
	sb    *Sandbox
	clock *sandboxtest.ManualClock
	srv   *httptest.Server
}

func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	clock := sandboxtest.NewManualClock(testEpoch)
	if opts.Clock == nil {
		opts.Clock = clock
	}
	if opts.Seed == 0 {
		opts.Seed = 42
	}
	sb, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() {
		srv.Close()
		if err := sb.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return &env{t: t, sb: sb, clock: clock, srv: srv}
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.body)
	}
	return m
}

// message is the first error message of an error body, checking its shape.
func (r resp) message(t *testing.T) string {
	t.Helper()
	var eb struct {
		Errors []struct {
			Message string `json:"message"`
			Status  int    `json:"status"`
		} `json:"errors"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(r.body, &eb); err != nil || len(eb.Errors) != 1 {
		t.Fatalf("not an error body: %s", r.body)
	}
	if eb.Errors[0].Status != r.status || eb.Message != eb.Errors[0].Message {
		t.Fatalf("error body %s does not repeat status %d and message", r.body, r.status)
	}
	return eb.Errors[0].Message
}

// do sends a request with the token (if any); a non-nil body is JSON-encoded unless it
// is a string, which is sent as is.
func (e *env) do(method, path, token string, body any) resp {
	e.t.Helper()
	return e.doCT(method, path, token, body, "application/json")
}

func (e *env) doCT(method, path, token string, body any, contentType string) resp {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case string:
			rd = strings.NewReader(b)
		default:
			buf, err := json.Marshal(b)
			if err != nil {
				e.t.Fatal(err)
			}
			rd = bytes.NewReader(buf)
		}
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "svcv1 "+token)
	}
	if body != nil && contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, header: res.Header, body: b}
}

func (e *env) admin(method, path string, body any) resp {
	e.t.Helper()
	return e.do(method, path, e.sb.AdminToken(), body)
}

func (e *env) dev(method, path string, body any) resp {
	e.t.Helper()
	return e.do(method, path, e.sb.DeveloperToken(), body)
}

func expectStatus(t *testing.T, r resp, want int) {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d; body: %s", r.status, want, r.body)
	}
}

// expectError checks status, error body shape and that the message contains each part.
func expectError(t *testing.T, r resp, status int, parts ...string) {
	t.Helper()
	expectStatus(t, r, status)
	msg := r.message(t)
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Fatalf("message %q does not contain %q", msg, p)
		}
	}
}

func get(t *testing.T, m map[string]any, path ...string) any {
	t.Helper()
	var cur any = m
	for _, k := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			t.Fatalf("at %q: %v is not an object", k, cur)
		}
		cur, ok = mm[k]
		if !ok {
			t.Fatalf("key %q missing in %v", k, mm)
		}
	}
	return cur
}

// doHeader sends a GET with a raw Authorization header.
func (e *env) doHeader(method, path, authorization string) resp {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", authorization)
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, header: res.Header, body: b}
}

func fmtSscan(s string, n *int) (int, error) { return fmt.Sscan(s, n) }
