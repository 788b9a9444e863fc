package changes

import (
	"testing"
	"time"

	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/ui/common"
)

// The reader's reads are background work: half the interval's share of the platform's
// limit at most, spread over what is left of the window, none from the half the
// budget owner keeps for key presses.
func TestTheReaderSpendsNoMoreThanTheBudgetLeavesIt(t *testing.T) {
	ctx := testCtx(journal.New())
	ctx.Refresh = 2 * time.Second
	now := t0
	ctx.Now = func() time.Time { return now }
	r := NewReader(ctx, journal.NewHere(time.Now))
	for _, c := range []struct {
		name            string
		remaining       int
		reset           time.Duration
		want            int
		limit, interval int
	}{
		{"a fresh window: half the interval's share (1200/min × 2 s / 2)", 1200, time.Minute, 20, 1200, 2},
		{"a large limit: no more than maxPerRound", 100000, time.Minute, maxPerRound, 100000, 2},
		{"the last half is the person's", 600, 30 * time.Second, 0, 1200, 2},
		{"what is left above the half, spread to the reset", 700, 40 * time.Second, 5, 1200, 2},
	} {
		ctx.Refresh = time.Duration(c.interval) * time.Second
		ctx.Platform.RateLimit = func() common.RateLimit {
			return common.RateLimit{Limit: c.limit, Remaining: c.remaining, Reset: now.Add(c.reset), Known: true}
		}
		if got := r.allowance(); got != c.want {
			t.Errorf("%s: %d reads, want %d", c.name, got, c.want)
		}
	}
}
