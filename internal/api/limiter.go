package api

import "context"

// limiter bounds the HTTP requests in flight across every call of a client.
type limiter struct{ slots chan struct{} }

func newLimiter(n int) *limiter { return &limiter{slots: make(chan struct{}, n)} }

// acquire waits for a slot or for ctx to end.
func (l *limiter) acquire(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case l.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *limiter) release() { <-l.slots }
