// Package access is the Users tab (issue 3 §4): a picker of the current project's
// services, and per service four views, each a base.List: its users (create, reset
// credentials, delete, connect as the user, one-time secrets), Kafka ACLs and topics,
// and relational databases.
package access

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
)

// target names the service a sub-view works on, captured when the view opens: its
// requests go there even after the current project changes.
type target struct{ Project, Service, Type string }

// service is what the four sub-views share: the service they work on and which of them
// (kind) they are, for the sentences below.
type service struct {
	ctx  *common.Context
	t    target
	kind string
}

// unsupported says why a service type has no rows of this kind ("" when it has, or when
// the type is not known yet: the platform decides).
func unsupported(kind, name, serviceType string) string {
	if serviceType == "" {
		return ""
	}
	switch kind {
	case common.AccessACL, common.AccessTopics:
		if serviceType != models.TypeKafka {
			what := "ACLs"
			if kind == common.AccessTopics {
				what = "Topics"
			}
			return fmt.Sprintf("%s exist only on Kafka services; %s is a %s service.", what, name, serviceType)
		}
	case common.AccessDatabases:
		if !models.HasDatabases(serviceType) {
			return fmt.Sprintf("Databases exist only on PostgreSQL and MySQL services; %s is a %s service.", name, serviceType)
		}
	}
	return ""
}

// why is the unsupported sentence for this view's service ("" when supported).
func (s *service) why() string { return unsupported(s.kind, s.t.Service, s.t.Type) }

// title is the breadcrumb segment: the kind, with the service's project and name when
// another project has become current since the view opened (the root's breadcrumb then
// names the other project and no service).
func (s *service) title() string {
	if s.t.Project != "" && s.t.Project != s.ctx.Project() {
		return s.t.Project + "/" + s.t.Service + " › " + s.kind
	}
	return s.kind
}

// refuse reports why an action may not start: read-only mode, a service type without
// this kind, or (for admin-only actions) the developer role.
func (s *service) refuse(action string, adminOnly bool) tea.Cmd {
	if s.ctx.ReadOnly {
		return common.Warn("Read-only mode: " + action + " is disabled")
	}
	if why := s.why(); why != "" {
		return common.Warn(why)
	}
	if r, ok := s.ctx.RoleOf(s.t.Project); adminOnly && ok && r == models.RoleDeveloper {
		return common.Error(fmt.Sprintf("You are a developer in %s; only an admin may %s", s.t.Project, action))
	}
	return nil
}

// nameless refuses an action on a row without a name (a malformed list entry): a
// request built from an empty name would address the collection instead of the item.
func nameless(what, name, action string) tea.Cmd {
	if strings.TrimSpace(name) != "" {
		return nil
	}
	return common.Error("This " + what + " has no name (the platform listed it without one), so svcui cannot " + action + " it; nothing was sent")
}

// wrongType is a load's answer when the opener did not know the service's type and the
// type turns out to have no rows of this kind.
type wrongType struct{ Type, Why string }

func (e *wrongType) Error() string { return e.Why }

// sub is what the four sub-views are built of: the list, the service it shows, and
// the creates (refusals, unknown outcomes).
type sub[T any] struct {
	*base.List[T]
	svc *service
	mk  *creator[T]
}

// newSub builds a sub-view's list of kind on t from list (sorted by name) and the rest
// of spec; a service type without this kind gets no actions, only the sentence.
func newSub[T any](ctx *common.Context, t target, kind string, list lister[T], name func(T) string, spec base.ListSpec[T]) sub[T] {
	s := sub[T]{svc: &service{ctx: ctx, t: t, kind: kind}}
	spec.Title = kind
	spec.Load = func() (base.Fetcher[T], string) { return typed(s.svc, list, name) }
	if s.svc.why() != "" {
		spec.Actions = nil
	}
	s.List = base.NewList(ctx, spec)
	s.mk = &creator[T]{ctx: ctx, l: s.List}
	return s
}

// Title is the breadcrumb segment.
func (s sub[T]) Title() string { return s.svc.title() }

// handle is the shared part of a sub-view's Update: a type learnt, creates, the list.
func (s sub[T]) handle(msg tea.Msg) tea.Cmd {
	if cmd, ok := learnType(s.svc, s.List, msg); ok {
		return cmd
	}
	if cmd, ok := s.mk.handle(msg); ok {
		return cmd
	}
	if r, ok := msg.(common.Result[[]T]); ok && r.Kind == base.KindList && s.Ctx.NotFound(r.Err) && s.Req.Current(r.Addr) {
		// The service was deleted (here or elsewhere): the session lets go of it.
		return tea.Batch(s.Handle(msg), common.Send(common.Gone{What: common.GoneService, Project: s.svc.t.Project, Name: s.svc.t.Service}))
	}
	return s.Handle(msg)
}

// lister is a client's list call for one kind.
type lister[T any] func(ctx context.Context, project, service string) ([]T, error)

// typed wraps a sub-view's list call: sorted by what people read (name), and when the
// service type is not known yet it reads the service first and answers *wrongType for a
// type without this kind.
func typed[T any](s *service, list lister[T], name func(T) string) (base.Fetcher[T], string) {
	if why := s.why(); why != "" {
		return nil, why
	}
	api, t, kind := s.ctx.API, s.t, s.kind
	return func(ctx context.Context) ([]T, error) {
		if t.Type == "" {
			sv, err := api.GetService(ctx, t.Project, t.Service)
			if err != nil {
				return nil, err
			}
			if why := unsupported(kind, t.Service, sv.ServiceType); why != "" {
				return nil, &wrongType{Type: sv.ServiceType, Why: why}
			}
		}
		items, err := list(ctx, t.Project, t.Service)
		// sort.SliceStable, not slices.SortStableFunc: one sort for every item type instead of
		// one compiled per type ("Generic code and the binary's size").
		sort.SliceStable(items, func(i, j int) bool { return name(items[i]) < name(items[j]) })
		return items, err
	}, ""
}

// learnType takes the type a load found out (see typed): the view then shows why it
// has no rows and offers no actions. handled is false for every other message.
func learnType[T any](s *service, l *base.List[T], msg tea.Msg) (tea.Cmd, bool) {
	r, ok := msg.(common.Result[[]T])
	var wt *wrongType
	if !ok || r.Kind != base.KindList || !errors.As(r.Err, &wt) || !l.Req.Current(r.Addr) {
		return nil, false
	}
	s.t.Type = wt.Type
	l.Spec.Actions = nil
	return l.Load(), true
}
