package journal

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// A mark is a write this console sent: the resource it named (empty fields match any,
// as a create names no item yet) and when.
type mark struct {
	at    time.Time
	scope Scope
	name  string
	verb  Change
}

// MarkHere records that this console sent a write to a resource at at: the changes of
// it the journal sees in the next HereWindow are marked "here".
func (j *Journal) MarkHere(scope Scope, name string, verb Change, at time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	keep := j.marks[:0]
	for _, m := range j.marks {
		if at.Sub(m.at) <= HereWindow {
			keep = append(keep, m)
		}
	}
	j.marks = append(keep, mark{at: at, scope: scope, name: name, verb: verb})
}

// madeHere reports whether e follows one of this console's writes; a create or delete
// that names no item is spent on the first entry it explains.
func (j *Journal) madeHere(e Entry) bool {
	for i, m := range j.marks {
		if !m.explains(e) {
			continue
		}
		if m.name == "" && m.verb != Changed {
			j.marks = append(j.marks[:i], j.marks[i+1:]...)
		}
		return true
	}
	return false
}

func (m mark) explains(e Entry) bool {
	if d := e.At.Sub(m.at); d < -time.Second || d > HereWindow {
		return false
	}
	s := e.Scope()
	if s.Kind != m.scope.Kind || (m.scope.Project != "" && s.Project != m.scope.Project) ||
		(m.scope.Service != "" && s.Service != m.scope.Service) || (m.scope.Owner != "" && s.Owner != m.scope.Owner) {
		return false
	}
	if m.name != "" && m.name != e.Name {
		return false
	}
	switch e.Change {
	case Changed:
		// An update's fields, and the states a create or an update goes through.
		return m.verb == Changed || m.verb == Created
	default:
		return e.Change == m.verb
	}
}

// Here is where this console's writes are marked: the journal in use for each API
// host. The API client's transport is built once per client, a journal is loaded later
// and changes with the profile, so the transport marks through this switch; keyed by
// host, two consoles of one process (tests) never mark each other's journal.
type Here struct {
	mu     sync.Mutex
	byHost map[string]*Journal
	now    func() time.Time
}

// NewHere marks writes at the times now tells.
func NewHere(now func() time.Time) *Here { return &Here{now: now, byHost: map[string]*Journal{}} }

// Use makes j the journal the writes to apiURL's host are marked in (nil: none).
func (h *Here) Use(apiURL string, j *Journal) {
	u, err := url.Parse(apiURL)
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if j == nil {
		delete(h.byHost, u.Host)
		return
	}
	h.byHost[u.Host] = j
}

// Journal is the journal in use for apiURL's host (nil when none).
func (h *Here) Journal(apiURL string) *Journal {
	u, err := url.Parse(apiURL)
	if err != nil {
		return nil
	}
	return h.journal(u.Host)
}

func (h *Here) journal(host string) *Journal {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.byHost[host]
}

// Transport marks every write this console sends through rt as "here": the write
// pipeline's requests all leave through the API client's transport, so what left it is
// what this console did. A write the platform refused (4xx, 5xx) changed nothing and
// is not marked; one whose answer was lost may have happened and is.
func (h *Here) Transport(rt http.RoundTripper) http.RoundTripper {
	return roundTrip(func(req *http.Request) (*http.Response, error) {
		res, err := rt.RoundTrip(req)
		if req.Method != http.MethodGet && req.Method != http.MethodHead && (err != nil || res.StatusCode < 300) {
			if j := h.journal(req.URL.Host); j != nil {
				if scope, name, verb, ok := writeTarget(req.Method, req.URL); ok {
					j.MarkHere(scope, name, verb, h.now())
				}
			}
		}
		return res, err
	})
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// writeTarget reads the resource a write names from its path (the management API's
// routes: /v1/project/P/service/S/user/U, /v1/billing-group/G, ...).
func writeTarget(method string, u *url.URL) (Scope, string, Change, bool) {
	raw := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	seg := make([]string, 0, len(raw))
	for _, r := range raw {
		s, err := url.PathUnescape(r)
		if err != nil {
			return Scope{}, "", 0, false
		}
		seg = append(seg, s)
	}
	// Everything after /v1 (a base URL may carry a prefix of its own).
	i := 0
	for i < len(seg) && seg[i] != "v1" {
		i++
	}
	if i == len(seg) {
		return Scope{}, "", 0, false
	}
	seg = seg[i+1:]
	verb := map[string]Change{http.MethodPost: Created, http.MethodPut: Changed, http.MethodPatch: Changed, http.MethodDelete: Deleted}[method]
	if verb == 0 {
		return Scope{}, "", 0, false
	}
	at := func(n int) string {
		if n < len(seg) {
			return seg[n]
		}
		return ""
	}
	switch {
	case at(0) == "project" && len(seg) <= 2:
		return Projects(), at(1), verb, true
	case at(0) == "project" && at(2) == "service" && len(seg) <= 4:
		return ServicesOf(at(1)), at(3), verb, true
	case at(0) == "project" && at(2) == "service" && len(seg) <= 6:
		p, s := at(1), at(3)
		kinds := map[string]Kind{"user": KindUser, "acl": KindACL, "topic": KindTopic, "database": KindDatabase}
		k, ok := kinds[at(4)]
		if !ok {
			return Scope{}, "", 0, false
		}
		name := at(5)
		if k == KindACL {
			name = "" // an ACL's path names its id, the journal names it by what it grants
		}
		return Scope{Kind: k, Project: p, Service: s}, name, verb, true
	case at(0) == "account" && at(2) == "billing-group":
		return BillingGroupsOf(at(1)), at(3), verb, true
	case at(0) == "billing-group" && len(seg) == 2:
		return Scope{Kind: KindBillingGroup}, at(1), verb, true
	}
	return Scope{}, "", 0, false
}
