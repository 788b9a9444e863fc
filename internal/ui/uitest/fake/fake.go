// Package fake is the one stand-in for the platform's client in the panes' unit tests:
// an in-memory platform (projects, services, users, topics, databases, ACLs, billing
// groups, plans) behind every method of common.Client, a log of the calls it was
// given, and faults a test sets per method: answer an error, make the write and lose
// its answer, or hold the call until the test releases it. It is safe for concurrent
// use: the panes call it from their commands' goroutines.
//
// A test builds one with New, fills it (AddServices, AddUsers, ...), connects a context
// with Connect and reads what was sent with Calls, Count and Writes.
package fake

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
)

// API is the fake platform. The zero value is not ready: use New.
type API struct {
	mu       sync.Mutex
	projects []models.Project
	services map[string][]models.Service // by project
	users    map[string][]models.ServiceUser
	topics   map[string][]models.Topic
	dbs      map[string][]models.Database
	acls     map[string][]models.ACL // by project/service
	conns    map[string]models.ConnectionInfo
	groups   []models.BillingGroup
	members  map[string][]models.Project // projects a group's own read lists besides the caller's
	plans    []models.Plan
	scripts  map[string][]models.ServiceState // project/service → the states the next looks see
	calls    []Call
	rules    []*Rule
}

var _ common.Client = (*API)(nil)

// New is an empty platform.
func New() *API {
	return &API{services: map[string][]models.Service{}, users: map[string][]models.ServiceUser{},
		topics: map[string][]models.Topic{}, dbs: map[string][]models.Database{}, acls: map[string][]models.ACL{},
		conns: map[string]models.ConnectionInfo{}, members: map[string][]models.Project{}}
}

// ErrLost is a write whose connection dropped after it was sent: its outcome is
// unknown (Connect makes the context see it so). Lose answers it after the write.
var ErrLost = errors.New("connection dropped after the request was sent")

// Error is the platform's refusal of a call: what is not there (404) or already is (409).
type Error struct {
	Status int
	Text   string
}

func (e *Error) Error() string { return e.Text }

func notFound(format string, a ...any) error { return &Error{404, fmt.Sprintf(format, a...)} }
func conflict(format string, a ...any) error { return &Error{409, fmt.Sprintf(format, a...)} }

func status(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == code
}

// Connect gives ctx the client c (the fake, or the fake with a stream) and teaches its
// Platform the fake's errors: ErrLost is of unknown outcome, Error's 404 and 409 are
// not found and conflict.
func Connect(ctx *common.Context, c common.Client) {
	ctx.Connect(c)
	ctx.Platform.IsOutcomeUnknown = func(err error) bool { return errors.Is(err, ErrLost) }
	ctx.Platform.IsNotFound = func(err error) bool { return status(err, 404) }
	ctx.Platform.IsConflict = func(err error) bool { return status(err, 409) }
}

// CreatedPassword and ResetPassword are the passwords a create and a reset answer.
func CreatedPassword(user string) string { return "AVNS_created_" + user }

// ResetPassword is the password a reset of user answers.
func ResetPassword(user string) string { return "AVNS_reset_" + user }

func key(project, service string) string { return project + "/" + service }

// --- filling the platform ---

// AddProjects adds projects (the caller's project list).
func (f *API) AddProjects(ps ...models.Project) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.projects = append(f.projects, ps...)
}

// SetProjects replaces the caller's project list.
func (f *API) SetProjects(ps ...models.Project) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.projects = slices.Clone(ps)
}

// Projects is the project list.
func (f *API) Projects() []models.Project {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.projects)
}

// addProject adds the project p unless it is there; f.mu is held.
func (f *API) addProject(p string) {
	if !slices.ContainsFunc(f.projects, func(x models.Project) bool { return x.ProjectName == p }) {
		f.projects = append(f.projects, models.Project{ProjectName: p})
	}
}

// AddServices adds services to project (and the project to the list if new).
func (f *API) AddServices(project string, ss ...models.Service) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.addProject(project)
	f.services[project] = append(f.services[project], ss...)
}

// SetServices replaces project's services, in the order the platform lists them.
func (f *API) SetServices(project string, ss ...models.Service) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.addProject(project)
	f.services[project] = slices.Clone(ss)
}

// PutService replaces project's service of s's name with s, or adds it.
func (f *API) PutService(project string, s models.Service) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.addProject(project)
	f.services[project] = put(f.services[project], s, func(x models.Service) bool { return x.ServiceName == s.ServiceName })
}

// Services is what project holds now.
func (f *API) Services(project string) []models.Service {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.services[project])
}

// AddUsers adds users to a service.
func (f *API) AddUsers(project, service string, us ...models.ServiceUser) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users[key(project, service)] = append(f.users[key(project, service)], us...)
}

// AddTopics adds topics to a service.
func (f *API) AddTopics(project, service string, ts ...models.Topic) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.topics[key(project, service)] = append(f.topics[key(project, service)], ts...)
}

// PutTopic replaces the service's topic of t's name with t, or adds it.
func (f *API) PutTopic(project, service string, t models.Topic) {
	f.mu.Lock()
	defer f.mu.Unlock()
	k := key(project, service)
	f.topics[k] = put(f.topics[k], t, func(x models.Topic) bool { return x.TopicName == t.TopicName })
}

// AddDatabases adds databases to a service.
func (f *API) AddDatabases(project, service string, ds ...models.Database) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dbs[key(project, service)] = append(f.dbs[key(project, service)], ds...)
}

// AddACLs adds ACL entries to a service.
func (f *API) AddACLs(project, service string, as ...models.ACL) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.acls[key(project, service)] = append(f.acls[key(project, service)], as...)
}

// SetConnection is what GetConnectionInfo answers for a service (else not found).
func (f *API) SetConnection(project, service string, c models.ConnectionInfo) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.conns[key(project, service)] = c
}

// AddBillingGroups adds billing groups.
func (f *API) AddBillingGroups(gs ...models.BillingGroup) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.groups = append(f.groups, gs...)
}

// BillingGroups is the billing groups now.
func (f *API) BillingGroups() []models.BillingGroup {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.groups)
}

// AddGroupMembers adds projects a group's own read lists besides those of the project
// list in it (a developer's list does not say its projects' group; other people's
// projects are not in it).
func (f *API) AddGroupMembers(groupID string, ps ...models.Project) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.members[groupID] = append(f.members[groupID], ps...)
}

// AddPlans adds plans (ListPlans answers those of the type asked, or without a type).
func (f *API) AddPlans(ps ...models.Plan) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.plans = append(f.plans, ps...)
}

func put[T any](list []T, v T, same func(T) bool) []T {
	if i := slices.IndexFunc(list, same); i >= 0 {
		list[i] = v
		return list
	}
	return append(list, v)
}

// --- the call log ---

// Call is one call the fake was given: the method and its arguments as text (project,
// service, then what the request names).
type Call struct {
	Method Method
	Args   []string
}

func (c Call) String() string {
	return strings.TrimSpace(string(c.Method) + " " + strings.Join(c.Args, " "))
}

// Calls is every call so far, in order.
func (f *API) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// Writes is the calls of the client's write methods (common.Writer), in order.
func (f *API) Writes() []Call {
	var out []Call
	for _, c := range f.Calls() {
		if c.Method.Writes() {
			out = append(out, c)
		}
	}
	return out
}

// Count is how many calls of m had arguments that begin with args.
func (f *API) Count(m Method, args ...string) int {
	n := 0
	for _, c := range f.Calls() {
		if c.Method == m && len(c.Args) >= len(args) && slices.Equal(c.Args[:len(args)], args) {
			n++
		}
	}
	return n
}

// ForgetCalls empties the log.
func (f *API) ForgetCalls() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = nil
}
