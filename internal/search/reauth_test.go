package search

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// rotatingServer demands basic auth with a password that the test can change, and
// counts requests; /echo returns the body, /hop redirects to /echo on the same host.
type rotatingServer struct {
	mu       sync.Mutex
	password string
	requests atomic.Int64
}

func (s *rotatingServer) setPassword(p string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.password = p
}

func (s *rotatingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	s.mu.Lock()
	want := s.password
	s.mu.Unlock()
	if u, p, ok := r.BasicAuth(); !ok || u != testUser || p != want {
		w.WriteHeader(http.StatusUnauthorized) // empty body, as the engine may send
		return
	}
	if r.URL.Path == "/hop" {
		http.Redirect(w, r, "/echo", http.StatusFound)
		return
	}
	b, _ := io.ReadAll(r.Body)
	io.WriteString(w, `{"echo":`+string(b)+`}`)
}

func newRotating(t *testing.T) (*rotatingServer, Target) {
	s := &rotatingServer{password: testPass}
	srv := startTLS(t, s)
	tg := targetOf(t, srv.URL)
	tg.CACertPEM = serverCAPEM(srv)
	return s, tg
}

// source is a ReauthFunc giving (user, password) and counting calls.
type source struct {
	calls    atomic.Int64
	user     string
	password string
	err      error
}

func (s *source) get(ctx context.Context) (string, string, error) {
	s.calls.Add(1)
	return s.user, s.password, s.err
}

func TestReauthRetriesOnceWithNewPassword(t *testing.T) {
	srv, tg := newRotating(t)
	src := &source{user: testUser, password: "new-" + testPass}
	c := newTestClient(t, tg, WithReauth(src.get))
	srv.setPassword("new-" + testPass)

	resp, err := c.Do(ctxT(t), Request{Method: "POST", Path: typedPath("/echo"), Body: []byte(`{"a":1}`)})
	if err != nil || resp.Status != 200 || string(resp.Body) != `{"echo":{"a":1}}` {
		t.Fatalf("after a password change: %v %+v", err, resp)
	}
	if resp.Reauth == nil || resp.Reauth.Unchanged || src.calls.Load() != 1 || srv.requests.Load() != 2 {
		t.Fatalf("reauth %+v, %d calls, %d requests", resp.Reauth, src.calls.Load(), srv.requests.Load())
	}
	if got := resp.Reauth.Sentence(); got != "The password of avnadmin changed elsewhere; reconnected with the new one." {
		t.Fatalf("sentence %q", got)
	}
	// The new password is kept: the next request (and a redirect) needs no second round.
	resp, err = c.Do(ctxT(t), Request{Path: typedPath("/hop")})
	if err != nil || resp.Status != 200 || resp.Reauth != nil || src.calls.Load() != 1 || srv.requests.Load() != 4 {
		t.Fatalf("next request: %v %+v, %d calls, %d requests", err, resp, src.calls.Load(), srv.requests.Load())
	}
	if c.Target().Password != "" || c.Target().Username != testUser {
		t.Fatalf("target %+v", c.Target())
	}
}

func TestReauthSecond401IsTheAnswer(t *testing.T) {
	srv, tg := newRotating(t)
	src := &source{user: testUser, password: "also-wrong"}
	c := newTestClient(t, tg, WithReauth(src.get))
	srv.setPassword("changed")
	_, err := c.CatIndices(ctxT(t))
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Status != 401 || ee.Reauth == nil || src.calls.Load() != 1 || srv.requests.Load() != 2 {
		t.Fatalf("second 401: %v, %d calls, %d requests", err, src.calls.Load(), srv.requests.Load())
	}
	short, detail := Describe(err)
	wantIn(t, short, "refused avnadmin again (401 Unauthorized) after svcui read the connection details anew")
	wantIn(t, detail, "re-authentication: The password of avnadmin changed elsewhere")
	if strings.Contains(short+detail, "also-wrong") || strings.Contains(short+detail, testPass) {
		t.Fatal("password in the description")
	}
}

func TestReauthUnchangedPasswordIsNotResent(t *testing.T) {
	srv, tg := newRotating(t)
	src := &source{password: testPass} // no user: the current one is kept
	c := newTestClient(t, tg, WithReauth(src.get))
	srv.setPassword("changed")
	resp, err := c.Do(ctxT(t), Request{Path: typedPath("/echo")})
	if err != nil || resp.Status != 401 || resp.Reauth == nil || !resp.Reauth.Unchanged || srv.requests.Load() != 1 {
		t.Fatalf("unchanged: %v %+v, %d requests", err, resp, srv.requests.Load())
	}
	short, _ := Describe(resp.Err())
	wantIn(t, short, "the connection details still give that password")
	wantIn(t, resp.Reauth.Sentence(), "still give that same password")
}

func TestReauthSourceFailure(t *testing.T) {
	srv, tg := newRotating(t)
	src := &source{err: errors.New("the platform is unreachable")}
	c := newTestClient(t, tg, WithReauth(src.get))
	srv.setPassword("changed")
	_, err := c.Do(ctxT(t), Request{Path: typedPath("/echo")})
	var re *ReauthError
	if !errors.As(err, &re) || srv.requests.Load() != 1 {
		t.Fatalf("source failure: %v", err)
	}
	short, _ := Describe(err)
	wantIn(t, short, "refused the password of avnadmin, and reading the connection details again failed: the platform is unreachable")
}

func TestReauthNotConfiguredLeaves401(t *testing.T) {
	srv, tg := newRotating(t)
	c := newTestClient(t, tg)
	srv.setPassword("changed")
	resp, err := c.Do(ctxT(t), Request{Path: typedPath("/echo")})
	if err != nil || resp.Status != 401 || resp.Reauth != nil || srv.requests.Load() != 1 {
		t.Fatalf("%v %+v", err, resp)
	}
}

func TestReauthConcurrentRequestsAskOnce(t *testing.T) {
	srv, tg := newRotating(t)
	src := &source{user: testUser, password: "rotated"}
	c := newTestClient(t, tg, WithReauth(src.get))
	srv.setPassword("rotated")
	var wg sync.WaitGroup
	var failed atomic.Int64
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp, err := c.Do(ctxT(t), Request{Path: typedPath("/echo")}); err != nil || resp.Status != 200 {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	if failed.Load() != 0 || src.calls.Load() != 1 {
		t.Fatalf("%d failed, %d calls to the source", failed.Load(), src.calls.Load())
	}
}
