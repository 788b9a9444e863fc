package index

import (
	"sync"
	"sync/atomic"
	"time"
)

// Pin is what a point in time keeps of one index: the sequence number it was taken at, so
// later writes stay unseen, and the versions of documents deleted or replaced since, which it
// still sees (the engine keeps the Lucene segments of the point in time; the emulation keeps
// those documents, searched through a side index built when needed).
type Pin struct {
	Index   *Index
	Seq     int64
	Closed  atomic.Bool  // the point in time was deleted or expired
	Expires atomic.Int64 // unix nanoseconds; past it the pin keeps nothing more
	now     func() time.Time

	mu     sync.Mutex
	ghosts []*Document
	side   *Index
	sideN  int // how many ghosts side holds
}

// pinSet is an index's open points in time.
type pinSet struct {
	mu   sync.Mutex
	Pins map[*Pin]struct{}
}

// Pin opens a point in time on the index until expires (extended with the keep-alive).
func (ix *Index) Pin(now func() time.Time, expires time.Time) *Pin {
	p := &Pin{Index: ix, Seq: ix.SeqNo, now: now}
	p.Expires.Store(expires.UnixNano())
	ix.Pins.mu.Lock()
	if ix.Pins.Pins == nil {
		ix.Pins.Pins = map[*Pin]struct{}{}
	}
	ix.Pins.Pins[p] = struct{}{}
	ix.Pins.mu.Unlock()
	return p
}

// retire hands a document that leaves the index (deleted, or replaced by a new version) to the
// points in time that saw it; the caller holds the cluster's write lock.
func (ix *Index) retire(d *Document) {
	ix.Pins.mu.Lock()
	defer ix.Pins.mu.Unlock()
	for p := range ix.Pins.Pins {
		if p.Closed.Load() || p.now().UnixNano() > p.Expires.Load() {
			delete(ix.Pins.Pins, p)
			continue
		}
		if d.SeqNo < p.Seq {
			p.mu.Lock()
			p.ghosts = append(p.ghosts, d)
			p.mu.Unlock()
		}
	}
}

// SideIndex is the retired documents the point in time still sees, as an index of the same
// mapping (no shards of its own), or nil when there are none.
func (p *Pin) SideIndex() *Index {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.ghosts) == 0 {
		return nil
	}
	if p.side != nil && p.sideN == len(p.ghosts) {
		return p.side
	}
	sub := NewIndex(p.Index.Name, p.Index.UUID, p.Index.Created)
	sub.Shards = 0
	sub.Mapping = p.Index.Mapping.Clone()
	sub.Fields = sub.Mapping.Flatten()
	for _, d := range p.ghosts {
		leaves, err := sub.Parse(d.ID, d.Src, true)
		if err != nil {
			continue
		}
		sub.Add(d, leaves)
	}
	p.side, p.sideN = sub, len(p.ghosts)
	return sub
}
