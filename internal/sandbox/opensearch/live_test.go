package opensearch

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestLiveDemoAddsDocumentsAtNow(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	c := New(Options{Clock: func() time.Time { return now }})
	if err := c.LoadDemo(1); err != nil {
		t.Fatal(err)
	}
	count := func(name string) int {
		c.mu.RLock()
		defer c.mu.RUnlock()
		return c.indices[name].LiveCount()
	}
	app, web := count("logs-app"), count("logs-web")
	rng := rand.New(rand.NewPCG(1, 2))
	n := 0
	for range 5 {
		n = c.liveOnce(rng, n)
	}
	if got := count("logs-web") - web; got != 5 {
		t.Fatalf("logs-web grew by %d", got)
	}
	if got := count("logs-app") - app; got < 5 || got > 10 {
		t.Fatalf("logs-app grew by %d", got)
	}
	// A cluster without the demo is left alone, and StartLive stops with its channel.
	empty := New(Options{})
	if empty.liveOnce(rng, 0) != 0 {
		t.Fatal("documents added to a cluster without the demo")
	}
	if c.liveOnce(rng, liveCap) != liveCap {
		t.Fatal("documents added past the cap")
	}
	stop := make(chan struct{})
	c.StartLive(1, stop)
	close(stop)
}
