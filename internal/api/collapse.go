package api

import (
	"context"
	"sync"
	"sync/atomic"
)

// collapser merges identical in-flight GETs into one HTTP request. The shared request
// runs detached from every caller's context, so one caller giving up does not fail the
// others; it is cancelled only when every caller has given up.
type collapser struct {
	mu      sync.Mutex
	flights map[string]*flight
}

type flight struct {
	done    chan struct{}
	resp    *rawResponse
	err     error
	waiters int
	cancel  context.CancelFunc
}

// do runs fn once per key among concurrent callers and hands each the same result;
// shared reports that the result is not the caller's alone (it joined another
// caller's request, or others joined its own). joined counts the callers that joined.
func (g *collapser) do(ctx context.Context, key string, joined *atomic.Int64, fn func(context.Context) (*rawResponse, error)) (_ *rawResponse, shared bool, _ error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	g.mu.Lock()
	if g.flights == nil {
		g.flights = map[string]*flight{}
	}
	f, ok := g.flights[key]
	if ok {
		f.waiters++
		joined.Add(1)
	} else {
		// Values (loggers, traces) carry over; cancellation and deadline do not.
		shared, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &flight{done: make(chan struct{}), waiters: 1, cancel: cancel}
		g.flights[key] = f
		go func() {
			resp, err := fn(shared)
			g.mu.Lock()
			if g.flights[key] == f {
				delete(g.flights, key)
			}
			f.resp, f.err = resp, err
			g.mu.Unlock()
			close(f.done)
			cancel()
		}()
	}
	g.mu.Unlock()

	select {
	case <-f.done:
		// Once done, nobody joins any more: when anyone did, every caller (the one that
		// started it too) gets its own copy, so none sorts a list another is copying.
		g.mu.Lock()
		n := f.waiters
		g.mu.Unlock()
		return f.resp, ok || n > 1, f.err
	case <-ctx.Done():
		g.mu.Lock()
		f.waiters--
		if f.waiters == 0 {
			// Nobody wants the answer any more: stop the request, and make sure a
			// later caller starts afresh rather than joining a cancelled one.
			f.cancel()
			if g.flights[key] == f {
				delete(g.flights, key)
			}
		}
		g.mu.Unlock()
		return nil, ok, ctx.Err()
	}
}
