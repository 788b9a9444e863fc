package journal

import "time"

// Began is when the journal first read this account (zero when it never has): it
// knows nothing of what was before.
func (j *Journal) Began() time.Time {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.began
}

// ValueAt is a field of an item as it was at t, worked back from the last read through
// the entries since; ok is false when the journal had not read the account yet at t.
// An item that did not exist then has "" .
func (j *Journal) ValueAt(scope Scope, name, field string, t time.Time) (string, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.began.IsZero() || t.Before(j.began) {
		return "", false
	}
	set := j.snap[scope]
	v := ""
	if set != nil {
		if it, ok := set.Get(name); ok {
			v = it.Value(scope.Kind, field)
		}
	}
	for i := len(j.entries) - 1; i >= 0 && j.entries[i].At.After(t); i-- {
		e := j.entries[i]
		if e.Scope() != scope || e.Name != name {
			continue
		}
		switch {
		case e.Change == Created:
			v = ""
		case e.Change == Deleted:
			v = "?" // what it was is in the deletion's summary, not field by field
			if len(scope.Kind.Fields()) == 1 {
				v = e.Before
			}
		case e.Field == field:
			v = e.Before
		}
	}
	return v, true
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
