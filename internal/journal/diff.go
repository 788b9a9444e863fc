package journal

import "time"

// Change is what happened to a resource.
type Change uint8

const (
	Created Change = iota + 1
	Deleted
	Changed
)

func (c Change) String() string {
	switch c {
	case Created:
		return "created"
	case Deleted:
		return "deleted"
	case Changed:
		return "changed"
	}
	return "?"
}

// Entry is one difference the journal saw.
type Entry struct {
	// At is when the console first saw it (the platform tells no time of its own).
	At     time.Time `json:"at"`
	Kind   Kind      `json:"kind"`
	Change Change    `json:"change"`
	// Project, Service and Owner locate the resource (as its Scope does); Name is its
	// name within them.
	Project string `json:"project,omitempty"`
	Service string `json:"service,omitempty"`
	Owner   string `json:"owner,omitempty"`
	Name    string `json:"name"`
	// Field is the attribute that changed (Changed only); Before and After its values.
	Field  string `json:"field,omitempty"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	// Here says this console made the change (its write went out just before).
	Here bool `json:"here,omitempty"`
	// Away says it happened while the console was closed: seen at the first read of a
	// run, against the snapshot the last run kept.
	Away bool `json:"away,omitempty"`
}

// Drifted reports the change of a value that moves on its own (an estimate that grew
// with the hours, available credits being used): successive ones fold into one entry
// a month, and no one did them, so they are not announced as changes made while the
// console was closed. Credits granted change their total, which does not drift.
func (e Entry) Drifted() bool {
	return e.Change == Changed && (e.Kind == KindEstimate || e.Kind == KindCredits && e.Field == "available")
}

// Scope is the scope the entry's resource lies in.
func (e Entry) Scope() Scope {
	return Scope{Kind: e.Kind, Project: e.Project, Service: e.Service, Owner: e.Owner}
}

// Diff compares a new read of scope with the last one and returns the differences,
// ordered by name then field. A nil old read is the first look: nothing to compare.
func Diff(scope Scope, old, now *Set, at time.Time) []Entry {
	if old == nil || now == nil {
		return nil
	}
	var out []Entry
	names := scope.Kind.Fields()
	base := Entry{At: at, Kind: scope.Kind, Project: scope.Project, Service: scope.Service, Owner: scope.Owner}
	// Both reads are sorted by name: one merge walk, in name order.
	a, b := old.items, now.items
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].name < b[0].name:
			e := base
			e.Change, e.Name, e.Before = Deleted, a[0].name, a[0].summary(scope.Kind)
			out = append(out, e)
			a = a[1:]
		case len(a) == 0 || b[0].name < a[0].name:
			e := base
			e.Change, e.Name, e.After = Created, b[0].name, b[0].summary(scope.Kind)
			out = append(out, e)
			b = b[1:]
		default:
			was, it := a[0], b[0]
			for i := range it.vals {
				before := ""
				if i < len(was.vals) {
					before = was.vals[i]
				}
				if it.vals[i] == before {
					continue
				}
				e := base
				e.Change, e.Name, e.Before, e.After = Changed, it.name, before, it.vals[i]
				if i < len(names) {
					e.Field = names[i]
				}
				out = append(out, e)
			}
			a, b = a[1:], b[1:]
		}
	}
	return out
}

// summary is an item in a few words, for a creation's "after" and a deletion's
// "before": the values that say what it is (a service's type, plan and cloud).
func (it Item) summary(k Kind) string {
	pick := func(fields ...string) string {
		s := ""
		for _, f := range fields {
			if v := it.Value(k, f); v != "" {
				if s != "" {
					s += " · "
				}
				s += v
			}
		}
		return s
	}
	switch k {
	case KindService:
		return pick("type", "plan", "cloud", "state")
	case KindUser:
		return pick("type")
	case KindTopic:
		return pick("partitions", "replication")
	case KindBillingGroup:
		return pick("name", "currency")
	case KindInvoice:
		return pick("state", "total")
	case KindCredits:
		return pick("available")
	case KindEstimate:
		return pick("cost")
	case KindProject:
		return pick("billing group")
	}
	return ""
}
