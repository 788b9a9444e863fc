package journal

import (
	"slices"
	"sync"
	"time"
)

// Bounds of what a journal keeps (README, "What changed"): at most MaxEntries changes
// (about 2 MB on disk), none older than MaxAge (a year of invoices can be explained).
const (
	MaxAge     = 400 * 24 * time.Hour
	MaxEntries = 10_000
	// HereWindow is how long after this console's write a change of that resource is
	// taken as its doing: a plan change, then the rebalancing it starts.
	HereWindow = 10 * time.Minute
)

// Journal is a profile's snapshot, its entries and this run's writes. It is safe for
// concurrent use: the background reader observes from a command's goroutine, the
// client's transport marks writes from its own, the view reads on the UI goroutine.
type Journal struct {
	mu      sync.Mutex
	snap    Snapshot
	entries []Entry // oldest first
	// fromDisk holds the scopes whose last read was kept by an earlier run and not yet
	// read again: their differences happened while the console was closed.
	fromDisk map[Scope]bool
	marks    []mark
	// version counts observations that added entries or scopes, so the saver notices.
	version int
	saved   int
	// began is when the account was first read (kept in the file); opened when this
	// run loaded it.
	began, opened time.Time
	// covered says every scope the reader knows of has been read in this run.
	covered bool
	// tooLarge is the project count of an account the reader does not follow.
	tooLarge int
	// ledger is each estimate line's cost by month (ledger.go).
	ledger map[ledgerKey][]monthCost
	// layout counts changes of what there is to read: projects, services or billing
	// groups read for the first time, created or deleted.
	layout int
	// drift is where each drifting value's latest entry is (add folds into it).
	drift map[driftKey]int
}

// SetCovered records that the reader has read the whole account in this run: from
// then on, a change anywhere in it shows.
func (j *Journal) SetCovered() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.covered = true
}

// SetTooLarge records that the reader does not follow this account: it has n projects
// (0: it follows it again).
func (j *Journal) SetTooLarge(n int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.tooLarge = n
}

// TooLarge is SetTooLarge's n.
func (j *Journal) TooLarge() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.tooLarge
}

// Covered reports SetCovered.
func (j *Journal) Covered() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.covered
}

// New is an empty journal.
func New() *Journal { return &Journal{snap: Snapshot{}, fromDisk: map[Scope]bool{}} }

// Observe takes a read of scope made at at, compares it with the last one and keeps
// it; it returns the new entries.
func (j *Journal) Observe(scope Scope, items []Item, at time.Time) []Entry {
	now := NewSet(at, items)
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.began.IsZero() {
		j.began = at
	}
	if scope.Kind == KindEstimate {
		// The services' lines go to the ledger; only the project's total is kept and
		// compared (the lines move every hour on every service).
		j.record(scope.Project, now.items, at)
		total, ok := now.Get(EstimateTotal)
		now = &Set{At: at}
		if ok {
			now.items = []Item{total}
		}
	}
	old := j.snap[scope]
	found := Diff(scope, old, now, at)
	if old == nil {
		j.version++ // a first read is new to the file even without differences
	}
	if k := scope.Kind; k == KindProject || k == KindService || k == KindBillingGroup {
		if old == nil || slices.ContainsFunc(found, func(e Entry) bool { return e.Change != Changed }) {
			j.layout++
		}
	}
	away := j.fromDisk[scope]
	delete(j.fromDisk, scope)
	j.snap[scope] = now
	for i := range found {
		found[i].Away = away
		found[i].Here = !away && j.madeHere(found[i])
		if found[i].Change == Deleted && (scope.Kind == KindService || scope.Kind == KindProject) {
			j.forgetWithin(found[i])
		}
	}
	if len(found) == 0 {
		return nil
	}
	for _, e := range found {
		j.add(e)
	}
	j.prune(at)
	j.version++
	return found
}

// add appends e, folding it into the entry of the same drifting value in the same UTC
// month (an estimate that grew again), so a project's costs make one entry a month.
// A folded entry moves to the end with its new time: entries stay oldest first, as
// :changes lists them (newest first) and prune cuts them (from the front).
func (j *Journal) add(e Entry) {
	if e.Drifted() {
		k := driftKey{e.Scope(), e.Name, e.Field}
		if i, ok := j.drift[k]; ok && i < len(j.entries) {
			if p := j.entries[i]; p.Away == e.Away && monthOf(p.At) == monthOf(e.At) {
				e.Before = p.Before
				j.entries = slices.Delete(j.entries, i, i+1)
				for d, at := range j.drift {
					if at > i {
						j.drift[d] = at - 1
					}
				}
			}
		}
		if j.drift == nil {
			j.drift = map[driftKey]int{}
		}
		j.drift[k] = len(j.entries)
	}
	j.entries = append(j.entries, e)
}

// driftKey names a drifting value: its latest entry is where the next change folds.
type driftKey struct {
	scope       Scope
	name, field string
}

// forgetWithin drops what was kept under a deleted service or project (its users,
// topics, estimate): the deletion says it, one entry per user would not.
func (j *Journal) forgetWithin(e Entry) {
	project, service := e.Name, ""
	if e.Kind == KindService {
		project, service = e.Project, e.Name
	}
	for s := range j.snap {
		if s.Kind != KindService && s.Kind != KindProject && s.within(project, service) {
			delete(j.snap, s)
			delete(j.fromDisk, s)
		}
	}
	if e.Kind == KindProject {
		delete(j.snap, ServicesOf(project))
		delete(j.fromDisk, ServicesOf(project))
	}
}

func (j *Journal) prune(now time.Time) {
	cut := 0
	for cut < len(j.entries) && now.Sub(j.entries[cut].At) > MaxAge {
		cut++
	}
	if over := len(j.entries) - cut - MaxEntries; over > 0 {
		cut += over
	}
	if cut > 0 {
		j.entries = append(j.entries[:0], j.entries[cut:]...)
		for k, i := range j.drift {
			if i < cut {
				delete(j.drift, k)
			} else {
				j.drift[k] = i - cut
			}
		}
	}
}

// Entries returns a copy of the entries, newest first.
func (j *Journal) Entries() []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Entry, len(j.entries))
	for i, e := range j.entries {
		out[len(out)-1-i] = e
	}
	return out
}

// Layout changes whenever what there is to read changes: a project, service or
// billing group first read, created or deleted. The reader rebuilds its list of reads
// only then.
func (j *Journal) Layout() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.layout
}

// Opened is when this run loaded the journal: the changes marked Away since then are
// what happened while the console was last closed.
func (j *Journal) Opened() time.Time {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.opened
}

// Len is how many entries the journal holds.
func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.entries)
}

// Version changes whenever entries are added.
func (j *Journal) Version() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.version
}

// Snapshot returns the last read of scope (nil when never read); the Set is shared
// and must not be changed.
func (j *Journal) Last(scope Scope) *Set {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.snap[scope]
}

// Scopes lists the scopes of a kind the journal has read.
func (j *Journal) Scopes(kind Kind) []Scope {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []Scope
	for s := range j.snap {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

// LastRead is when the journal last read anything (zero when empty).
func (j *Journal) LastRead() time.Time {
	j.mu.Lock()
	defer j.mu.Unlock()
	var t time.Time
	for _, s := range j.snap {
		if s.At.After(t) {
			t = s.At
		}
	}
	return t
}
