package sandbox

import (
	"sync"
	"time"
)

// liveDemos are the sandboxes whose demo search data already grows (Start may be
// called for several listeners).
var liveDemos sync.Map

// startLiveDemo makes the demo's log indices of every search service grow while the
// sandbox serves (see opensearch.Cluster.StartLive); it stops when the sandbox closes.
// Only Start calls it: tests that serve Handler themselves keep fixed data.
func (s *Sandbox) startLiveDemo() {
	if _, started := liveDemos.LoadOrStore(s, true); started {
		return
	}
	stop := make(chan struct{})
	s.search.mu.Lock()
	for _, e := range s.search.engines {
		if l, ok := e.(interface {
			StartLive(seed int64, stop <-chan struct{})
		}); ok {
			l.StartLive(s.opts.Seed, stop)
		}
	}
	s.search.mu.Unlock()
	go func() {
		defer liveDemos.Delete(s)
		for {
			time.Sleep(time.Second)
			s.srvMu.Lock()
			closed := s.closed
			s.srvMu.Unlock()
			if closed {
				close(stop)
				return
			}
		}
	}()
}
