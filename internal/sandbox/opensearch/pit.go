package opensearch

import (
	"sync"
	"sync/atomic"
	"time"
)

// pitPin is what a point in time keeps of one index: the sequence number it was taken at, so
// later writes stay unseen, and the versions of documents deleted or replaced since, which it
// still sees (the engine keeps the Lucene segments of the point in time; the emulation keeps
// those documents, searched through a side index built when needed).
type pitPin struct {
	ix      *index
	seq     int64
	closed  atomic.Bool  // the point in time was deleted or expired
	expires atomic.Int64 // unix nanoseconds; past it the pin keeps nothing more
	now     func() time.Time

	mu     sync.Mutex
	ghosts []*document
	side   *index
	sideN  int // how many ghosts side holds
}

// pinSet is an index's open points in time.
type pinSet struct {
	mu   sync.Mutex
	pins map[*pitPin]struct{}
}

// pin opens a point in time on the index until expires (extended with the keep-alive).
func (ix *index) pin(now func() time.Time, expires time.Time) *pitPin {
	p := &pitPin{ix: ix, seq: ix.seqNo, now: now}
	p.expires.Store(expires.UnixNano())
	ix.pins.mu.Lock()
	if ix.pins.pins == nil {
		ix.pins.pins = map[*pitPin]struct{}{}
	}
	ix.pins.pins[p] = struct{}{}
	ix.pins.mu.Unlock()
	return p
}

// retire hands a document that leaves the index (deleted, or replaced by a new version) to the
// points in time that saw it; the caller holds the cluster's write lock.
func (ix *index) retire(d *document) {
	ix.pins.mu.Lock()
	defer ix.pins.mu.Unlock()
	for p := range ix.pins.pins {
		if p.closed.Load() || p.now().UnixNano() > p.expires.Load() {
			delete(ix.pins.pins, p)
			continue
		}
		if d.seqNo < p.seq {
			p.mu.Lock()
			p.ghosts = append(p.ghosts, d)
			p.mu.Unlock()
		}
	}
}

// sideIndex is the retired documents the point in time still sees, as an index of the same
// mapping (no shards of its own), or nil when there are none.
func (p *pitPin) sideIndex() *index {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.ghosts) == 0 {
		return nil
	}
	if p.side != nil && p.sideN == len(p.ghosts) {
		return p.side
	}
	sub := newIndex(p.ix.name, p.ix.uuid, p.ix.created)
	sub.shards = 0
	sub.mapping = p.ix.mapping.clone()
	sub.fields = sub.mapping.flatten()
	for _, d := range p.ghosts {
		leaves, err := sub.parse(d.id, d.src, true)
		if err != nil {
			continue
		}
		sub.add(d, leaves)
	}
	p.side, p.sideN = sub, len(p.ghosts)
	return sub
}
