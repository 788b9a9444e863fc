package opensearch

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"
)

// liveEvery is how often the live demo adds documents: a few a second in all; liveCap
// bounds them (about nine hours of them), so a sandbox left running does not grow without end.
const (
	liveEvery = 500 * time.Millisecond
	liveCap   = 100_000
)

// StartLive keeps the demo's logs-app and logs-web growing while the sandbox runs, so a
// live tail has something to show: every liveEvery, one or two log lines and one web
// access, stamped with the clock's now, until stop is closed. Indices the demo did not
// make (no demo template), or that were deleted, are left alone.
func (c *Cluster) StartLive(seed int64, stop <-chan struct{}) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x11fe))
	go func() {
		t := time.NewTicker(liveEvery)
		defer t.Stop()
		n := 0
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			n = c.liveOnce(rng, n)
		}
	}()
}

// liveOnce adds one round of live documents; n numbers them (their ids).
func (c *Cluster) liveOnce(rng *rand.Rand, n int) int {
	now := c.now().UTC()
	stamp := now.Format("2006-01-02T15:04:05.000Z")
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.templates["logs-template"] == nil || n >= liveCap {
		return n
	}
	if c.indices["logs-app"] != nil {
		for range 1 + rng.IntN(2) {
			doc := demoLogs(rng, now, 1)[0]
			doc.Timestamp = stamp
			n++
			if raw, err := json.Marshal(doc); err == nil {
				_, _, _ = c.indexDoc("logs-app", fmt.Sprintf("live-%07d", n), raw, false)
			}
		}
	}
	if c.indices["logs-web"] != nil {
		e := webLogs(rng, now, 1)[0]
		e.Timestamp = stamp
		n++
		if raw, err := json.Marshal(e); err == nil {
			_, _, _ = c.indexDoc("logs-web", fmt.Sprintf("live-%07d", n), raw, false)
		}
	}
	return n
}
