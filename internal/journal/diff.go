package journal

import (
	"cmp"
	"slices"
	"time"
)

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
	for name, it := range now.Items {
		was, ok := old.Items[name]
		if !ok {
			e := base
			e.Change, e.Name, e.After = Created, name, it.summary(scope.Kind)
			out = append(out, e)
			continue
		}
		for i := range it.vals {
			before := ""
			if i < len(was.vals) {
				before = was.vals[i]
			}
			if it.vals[i] == before {
				continue
			}
			e := base
			e.Change, e.Name, e.Before, e.After = Changed, name, before, it.vals[i]
			if i < len(names) {
				e.Field = names[i]
			}
			out = append(out, e)
		}
	}
	for name, was := range old.Items {
		if _, ok := now.Items[name]; !ok {
			e := base
			e.Change, e.Name, e.Before = Deleted, name, was.summary(scope.Kind)
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Change, b.Change), cmp.Compare(fieldIndex(names, a.Field), fieldIndex(names, b.Field)))
	})
	return out
}

func fieldIndex(names []string, f string) int { return slices.Index(names, f) }

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
