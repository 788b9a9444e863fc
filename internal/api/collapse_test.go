package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitFor polls cond until it holds or the test times out.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestIdenticalGetsCollapse(t *testing.T) {
	const n = 20
	release := make(chan struct{})
	var calls atomic.Int64
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		<-release
		writeJSON(w, 200, `{"services":[{"service_name":"pg-main","service_type":"pg","state":"RUNNING"}]}`)
	}))
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			svcs, err := c.ListServices(ctxT(t), "acme-prod")
			if err == nil && (len(svcs) != 1 || svcs[0].ServiceName != "pg-main") {
				err = fmt.Errorf("services = %+v", svcs)
			}
			errs <- err
		})
	}
	waitFor(t, "all callers to join", func() bool { return c.Stats().Collapsed == n-1 })
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if calls.Load() != 1 || c.Stats().Requests != 1 {
		t.Fatalf("server saw %d requests for %d identical calls, want 1", calls.Load(), n)
	}

	// Once answered, the next call makes a new request (no caching).
	if _, err := c.ListServices(ctxT(t), "acme-prod"); err != nil || calls.Load() != 2 {
		t.Fatalf("after the flight: err %v, calls %d", err, calls.Load())
	}
}

func TestDifferentGetsDoNotCollapse(t *testing.T) {
	var calls atomic.Int64
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		writeJSON(w, 200, `{"plans":[]}`)
	}))
	ctx := ctxT(t)
	for _, cloud := range []string{"", "aws-eu-west-1", "google-europe-west1"} {
		if _, err := c.ListPlans(ctx, "acme-prod", "pg", cloud); err != nil {
			t.Fatal(err)
		}
	}
	if calls.Load() != 3 || c.Stats().Collapsed != 0 {
		t.Fatalf("calls %d, stats %+v", calls.Load(), c.Stats())
	}
}

// The caller that started a shared request gives up; the others still get the answer.
func TestCollapsedCallerCancellationDoesNotFailOthers(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int64
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		writeJSON(w, 200, `{"project":{"project_name":"acme-prod"}}`)
	}))
	leaderCtx, cancelLeader := context.WithCancel(context.Background())
	leaderErr := make(chan error, 1)
	go func() {
		_, err := c.GetProject(leaderCtx, "acme-prod")
		leaderErr <- err
	}()
	waitFor(t, "the request to reach the server", func() bool { return calls.Load() == 1 })
	const followers = 3
	var wg sync.WaitGroup
	results := make(chan error, followers)
	for range followers {
		wg.Go(func() {
			p, err := c.GetProject(ctxT(t), "acme-prod")
			if err == nil && p.ProjectName != "acme-prod" {
				err = errors.New("wrong project")
			}
			results <- err
		})
	}
	waitFor(t, "followers to join", func() bool { return c.Stats().Collapsed == followers })
	cancelLeader()
	if err := <-leaderErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("leader err = %v", err)
	}
	close(release)
	wg.Wait()
	close(results)
	for err := range results {
		if err != nil {
			t.Errorf("follower: %v", err)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("server saw %d requests", calls.Load())
	}
}

// When every caller has given up, the shared request is cancelled, and a new caller
// starts a fresh one rather than joining the dead one.
func TestCollapsedRequestCancelledWhenAllLeave(t *testing.T) {
	serverSawCancel := make(chan struct{}, 4)
	var calls atomic.Int64
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			<-r.Context().Done()
			serverSawCancel <- struct{}{}
			return
		}
		writeJSON(w, 200, `{"project":{"project_name":"acme-prod"}}`)
	}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	for range 2 {
		go func() { _, err := c.GetProject(ctx, "acme-prod"); done <- err }()
	}
	waitFor(t, "both callers in flight", func() bool { return calls.Load() == 1 && c.Stats().Collapsed == 1 })
	cancel()
	for range 2 {
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
	}
	select {
	case <-serverSawCancel:
	case <-time.After(5 * time.Second):
		t.Fatal("the shared request was not cancelled")
	}
	if _, err := c.GetProject(ctxT(t), "acme-prod"); err != nil {
		t.Fatalf("fresh call: %v", err)
	}
}

func TestLimiterBoundsInFlightRequests(t *testing.T) {
	const maxConc, calls = 3, 24
	var inFlight, peak atomic.Int64
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		inFlight.Add(-1)
		writeJSON(w, 200, `{"services":[]}`)
	}), func(o *Options) { o.MaxConcurrent = maxConc })
	var wg sync.WaitGroup
	for i := range calls {
		wg.Go(func() {
			// Distinct projects, so nothing collapses and every call is a request.
			if _, err := c.ListServices(ctxT(t), fmt.Sprintf("project-%02d", i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if p := peak.Load(); p > maxConc || p < 2 {
		t.Fatalf("peak in-flight = %d, want within [2, %d]", p, maxConc)
	}
	if c.Stats().Requests != calls {
		t.Fatalf("requests = %d", c.Stats().Requests)
	}
}

func TestLimiterAcquireHonoursContext(t *testing.T) {
	l := newLimiter(1)
	if err := l.acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := l.acquire(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second acquire = %v", err)
	}
	l.release()
	if err := l.acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Every caller of a collapsed request owns its list, the one that started it too: a view
// sorting its answer raced with another caller copying the same array (the race
// detector caught a databases view and a test listing at once).
func TestCollapsedCallersEachOwnTheirList(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int64
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		<-release
		writeJSON(w, 200, `{"services":[{"service_name":"b","service_type":"pg"},{"service_name":"a","service_type":"pg"}]}`)
	}))
	var wg sync.WaitGroup
	lists := make([][]string, 2)
	ptrs := make([]*string, 2)
	for i := range 2 {
		wg.Go(func() {
			svcs, err := c.ListServices(ctxT(t), "acme-prod")
			if err != nil || len(svcs) != 2 {
				t.Errorf("caller %d: %v %v", i, svcs, err)
				return
			}
			ptrs[i] = &svcs[0].ServiceName
			svcs[0], svcs[1] = svcs[1], svcs[0] // each sorts its own, at once
			lists[i] = []string{svcs[0].ServiceName, svcs[1].ServiceName}
		})
	}
	waitFor(t, "both callers in one request", func() bool { return calls.Load() == 1 && c.collapsed.Load() >= 1 })
	close(release)
	wg.Wait()
	if ptrs[0] == ptrs[1] {
		t.Fatal("two callers got the same array")
	}
	for i, l := range lists {
		if len(l) != 2 || l[0] != "a" || l[1] != "b" {
			t.Errorf("caller %d saw %v", i, l)
		}
	}
}
