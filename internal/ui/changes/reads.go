package changes

import (
	"context"
	"errors"
	"iter"
	"maps"

	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/ui/common"
)

// The reads, each turning an answer into the journal's items.

// read reads a scope.
func read(ctx context.Context, api common.API, s journal.Scope) ([]journal.Item, error) {
	var r reading
	switch s.Kind {
	case journal.KindService:
		r = services(s.Project)
	case journal.KindUser:
		r = users(s.Project, s.Service)
	case journal.KindDatabase:
		r = databases(s.Project, s.Service)
	case journal.KindACL:
		r = acls(s.Project, s.Service)
	case journal.KindTopic:
		r = topics(s.Project, s.Service)
	case journal.KindBillingGroup:
		r = groups(s.Owner)
	case journal.KindInvoice:
		r = invoices(s.Owner)
	case journal.KindCredits:
		r = credits(s.Owner)
	case journal.KindEstimate:
		r = estimate(s.Project)
	default:
		return nil, errors.New("no read for " + s.Kind.String())
	}
	return r(ctx, api)
}

type reading = func(ctx context.Context, api common.API) ([]journal.Item, error)

func each[T any](list []T, err error, from func(T) journal.Item) ([]journal.Item, error) {
	if err != nil {
		return nil, err
	}
	out := make([]journal.Item, len(list))
	for i, v := range list {
		out[i] = from(v)
	}
	return out, nil
}

func services(p string) reading {
	return func(ctx context.Context, api common.API) ([]journal.Item, error) {
		l, err := api.ListServices(ctx, p)
		return each(l, err, journal.FromService)
	}
}

func users(p, s string) reading {
	return func(ctx context.Context, api common.API) ([]journal.Item, error) {
		l, err := api.ListUsers(ctx, p, s)
		return each(l, err, journal.FromUser)
	}
}

func databases(p, s string) reading {
	return func(ctx context.Context, api common.API) ([]journal.Item, error) {
		l, err := api.ListDatabases(ctx, p, s)
		return each(l, err, journal.FromDatabase)
	}
}

func acls(p, s string) reading {
	return func(ctx context.Context, api common.API) ([]journal.Item, error) {
		l, err := api.ListACLs(ctx, p, s)
		return each(l, err, journal.FromACL)
	}
}

func topics(p, s string) reading {
	return func(ctx context.Context, api common.API) ([]journal.Item, error) {
		l, err := api.ListTopics(ctx, p, s)
		return each(l, err, journal.FromTopic)
	}
}

func groups(account string) reading {
	return func(ctx context.Context, api common.API) ([]journal.Item, error) {
		l, err := api.ListBillingGroups(ctx, account)
		return each(l, err, journal.FromBillingGroup)
	}
}

func invoices(group string) reading {
	return func(ctx context.Context, api common.API) ([]journal.Item, error) {
		l, err := api.ListInvoices(ctx, group)
		return each(l, err, journal.FromInvoice)
	}
}

func credits(account string) reading {
	return func(ctx context.Context, api common.API) ([]journal.Item, error) {
		c, err := api.GetCredits(ctx, account)
		if err != nil {
			return nil, err
		}
		return []journal.Item{journal.FromCredits(account, c)}, nil
	}
}

func estimate(project string) reading {
	return func(ctx context.Context, api common.API) ([]journal.Item, error) {
		e, err := api.GetEstimate(ctx, project)
		if err != nil {
			return nil, err
		}
		return journal.FromEstimate(e), nil
	}
}

func mapsKeys[K comparable, V any](m map[K]V) iter.Seq[K] { return maps.Keys(m) }
