package journal

import "time"

// Began is when the journal first read this account (zero when it never has): it
// knows nothing of what was before.
func (j *Journal) Began() time.Time {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.began
}

// Between lists the entries seen in [from, to), oldest first, that keep reports true.
func (j *Journal) Between(from, to time.Time, keep func(Entry) bool) []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []Entry
	for _, e := range j.entries {
		if !e.At.Before(from) && e.At.Before(to) && keep(e) {
			out = append(out, e)
		}
	}
	return out
}
