package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/svcui/svcui/internal/models"
)

// The Find helpers read a resource back after a write of unknown outcome
// (IsOutcomeUnknown): found reports whether the platform has it now. A 404 (of the
// resource or of what holds it) is "not found", not an error; any other failure is
// returned, and then nothing is known yet. They only read, so they are retried like
// every read.

// FindProject reads a project back by name.
func (c *Client) FindProject(ctx context.Context, name string) (models.Project, bool, error) {
	return found(c.GetProject(ctx, name))
}

// FindService reads a service back by name.
func (c *Client) FindService(ctx context.Context, project, name string) (models.Service, bool, error) {
	return found(c.GetService(ctx, project, name))
}

// FindUser looks a service user up by username. A user found this way carries no
// usable password (the platform shows it only in the create and reset answers):
// offer ResetCredentials to get one.
func (c *Client) FindUser(ctx context.Context, project, service, username string) (models.ServiceUser, bool, error) {
	return findIn(ctx, username, "username", servicePath(project, service)+"/user", func(ctx context.Context) ([]models.ServiceUser, error) {
		return c.ListUsers(ctx, project, service)
	}, func(u models.ServiceUser) bool { return u.Username == username })
}

// FindBillingGroup looks a billing group of an account up by name (names are unique
// within an account).
func (c *Client) FindBillingGroup(ctx context.Context, accountID, name string) (models.BillingGroup, bool, error) {
	return findIn(ctx, name, "billing group name", accountPath(accountID)+"/billing-group", func(ctx context.Context) ([]models.BillingGroup, error) {
		return c.ListBillingGroups(ctx, accountID)
	}, func(g models.BillingGroup) bool { return g.BillingGroupName == name })
}

// FindTopic looks a topic of a streaming service up by name.
func (c *Client) FindTopic(ctx context.Context, project, service, topic string) (models.Topic, bool, error) {
	return findIn(ctx, topic, "topic name", servicePath(project, service)+"/topic", func(ctx context.Context) ([]models.Topic, error) {
		return c.ListTopics(ctx, project, service)
	}, func(t models.Topic) bool { return t.TopicName == topic })
}

// FindDatabase looks a database of a relational service up by name.
func (c *Client) FindDatabase(ctx context.Context, project, service, database string) (models.Database, bool, error) {
	return findIn(ctx, database, "database name", servicePath(project, service)+"/database", func(ctx context.Context) ([]models.Database, error) {
		return c.ListDatabases(ctx, project, service)
	}, func(d models.Database) bool { return d.DatabaseName == database })
}

// FindACL looks up the ACL entry granting username the permission on topic.
func (c *Client) FindACL(ctx context.Context, project, service, username, topic string, permission models.ACLPermission) (models.ACL, bool, error) {
	path := servicePath(project, service) + "/acl"
	if strings.TrimSpace(topic) == "" {
		return models.ACL{}, false, blankName("topic", path)
	}
	return findIn(ctx, username, "username", path, func(ctx context.Context) ([]models.ACL, error) {
		return c.ListACLs(ctx, project, service)
	}, func(a models.ACL) bool {
		return a.Username == username && a.Topic == topic && a.Permission == permission
	})
}

func found[T any](v T, err error) (T, bool, error) {
	var zero T
	switch {
	case IsNotFound(err):
		return zero, false, nil
	case err != nil:
		return zero, false, err
	}
	return v, true, nil
}

// findIn lists (at path) and picks the entry that matches; name is what is looked
// for, refused when blank (a list entry never has a blank name).
func findIn[T any](ctx context.Context, name, what, path string, list func(context.Context) ([]T, error), match func(T) bool) (T, bool, error) {
	var zero T
	if strings.TrimSpace(name) == "" {
		return zero, false, blankName(what, path)
	}
	items, err := list(ctx)
	if err != nil {
		return found(zero, err)
	}
	for _, it := range items {
		if match(it) {
			return it, true, nil
		}
	}
	return zero, false, nil
}

func blankName(what, path string) error {
	if reason, shown, refused := pathRefusal(path); refused {
		return &Error{Method: http.MethodGet, Path: shown, reason: reason}
	}
	return &Error{Method: http.MethodGet, Path: path, reason: "the " + what + " is empty; nothing was sent"}
}
