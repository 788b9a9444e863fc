package journal

import (
	"slices"
	"sort"
	"strings"
	"time"
)

// Scope is what one read covers: the services of a project, the users of a service,
// the billing groups of an account. A read of a scope is the whole truth about it, so
// an item of the last read that is missing from this one was deleted.
type Scope struct {
	Kind             Kind
	Project, Service string
	// Owner is the account (billing groups, credits) or billing group (invoices).
	Owner string
}

// The scopes the console reads.
func Projects() Scope                 { return Scope{Kind: KindProject} }
func ServicesOf(project string) Scope { return Scope{Kind: KindService, Project: project} }
func UsersOf(project, service string) Scope {
	return Scope{Kind: KindUser, Project: project, Service: service}
}
func ACLsOf(project, service string) Scope {
	return Scope{Kind: KindACL, Project: project, Service: service}
}
func TopicsOf(project, service string) Scope {
	return Scope{Kind: KindTopic, Project: project, Service: service}
}
func DatabasesOf(project, service string) Scope {
	return Scope{Kind: KindDatabase, Project: project, Service: service}
}
func BillingGroupsOf(account string) Scope { return Scope{Kind: KindBillingGroup, Owner: account} }
func InvoicesOf(group string) Scope        { return Scope{Kind: KindInvoice, Owner: group} }
func CreditsOf(account string) Scope       { return Scope{Kind: KindCredits, Owner: account} }
func EstimateOf(project string) Scope      { return Scope{Kind: KindEstimate, Project: project} }

// within reports whether s lies inside the project (and service, when given): what
// goes when that project or service is deleted.
func (s Scope) within(project, service string) bool {
	return s.Project == project && (service == "" || s.Service == service)
}

// Set is one read of a scope: its items sorted by name (a slice, not a map: a
// 10,000-service account has ten thousand small sets) and when it was read.
type Set struct {
	At    time.Time
	items []Item
}

// NewSet is a read of a scope made at at (items in any order; a repeated name keeps
// the last).
func NewSet(at time.Time, items []Item) *Set {
	sorted := slices.Clone(items)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	out := sorted[:0]
	for i, it := range sorted {
		if i+1 < len(sorted) && sorted[i+1].name == it.name {
			continue
		}
		out = append(out, it)
	}
	return &Set{At: at, items: slices.Clip(out)}
}

// Len is how many items the read had.
func (s *Set) Len() int { return len(s.items) }

// Items are the read's items sorted by name; shared, not to be changed.
func (s *Set) Items() []Item { return s.items }

// Names are the items' names, sorted.
func (s *Set) Names() []string {
	out := make([]string, len(s.items))
	for i, it := range s.items {
		out[i] = it.name
	}
	return out
}

// Get is the item called name.
func (s *Set) Get(name string) (Item, bool) {
	i, ok := slices.BinarySearchFunc(s.items, name, func(it Item, n string) int { return strings.Compare(it.name, n) })
	if !ok {
		return Item{}, false
	}
	return s.items[i], true
}

// Snapshot is the last read of every scope the console has read for a profile.
type Snapshot map[Scope]*Set

// Get is the last read of scope (nil when never read).
func (s Snapshot) Get(scope Scope) *Set { return s[scope] }
