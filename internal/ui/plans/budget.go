package plans

import (
	"context"
	"sync"
	"time"

	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
)

// rateBudget paces a plan to the platform's rate limit as the API client last saw it
// (the X-RateLimit headers): requests are spaced over the minute the limit is counted
// in, and when what is left falls to the reserve a key press needs, it waits for the
// window to reset. It is the small interface (base.Budget) a shared budget owner can
// take the place of.
type rateBudget struct {
	limit func() common.RateLimit
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
	// bulk, when set, is the client's budget owner: after the spacing, a request waits
	// until bulk work may spend (a quarter of the limit stays for key presses).
	bulk func(ctx context.Context) error

	mu   sync.Mutex
	next time.Time
}

// reserveShare is the part of the limit a plan never spends: what the person's own
// key presses and the visible view's refresh need while it runs.
const reserveShare = 5

// defaultSpacing paces requests while no rate-limit header has been seen yet.
const defaultSpacing = 100 * time.Millisecond

func newRateBudget(ctx *common.Context) base.Budget {
	limit := ctx.Platform.RateLimit
	if limit == nil {
		limit = func() common.RateLimit { return common.RateLimit{} }
	}
	return &rateBudget{limit: limit, now: ctx.Now, sleep: sleepCtx, bulk: ctx.Platform.WaitBulk}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Take waits for this request's turn.
func (b *rateBudget) Take(ctx context.Context) error {
	rl := b.limit()
	spacing := defaultSpacing
	var wait time.Duration
	if rl.Known && rl.Limit > 0 {
		spacing = time.Minute / time.Duration(rl.Limit)
		if rl.Remaining <= max(1, rl.Limit/reserveShare) && rl.Reset.After(b.now()) {
			wait = min(rl.Reset.Sub(b.now()), time.Minute)
		}
	}
	b.mu.Lock()
	now := b.now()
	at := later(b.next, now.Add(wait))
	b.next = at.Add(spacing)
	b.mu.Unlock()
	if err := b.sleep(ctx, at.Sub(now)); err != nil || b.bulk == nil {
		return err
	}
	return b.bulk(ctx)
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
