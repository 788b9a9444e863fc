package api

import (
	"context"
	"net/http"

	"github.com/svcui/svcui/internal/models"
)

// ListACLs returns the Kafka ACL entries of a streaming service.
func (c *Client) ListACLs(ctx context.Context, project, service string) ([]models.ACL, error) {
	return getList[models.ACL](c, ctx, servicePath(project, service)+"/acl", nil, "acl")
}

// CreateACL adds an ACL entry and returns the whole list as the platform answers it.
// The spec does not show the answer; one without an "acl" list gives a nil list.
func (c *Client) CreateACL(ctx context.Context, project, service string, req models.CreateACLRequest) ([]models.ACL, error) {
	path := servicePath(project, service) + "/acl"
	resp, err := c.call(ctx, http.MethodPost, path, nil, req)
	if err != nil {
		return nil, err
	}
	acl, err := decodeKey[[]models.ACL](resp.body, "acl", true)
	if err != nil {
		if isMissingKey(err) {
			return nil, nil
		}
		return nil, c.unreadable(http.MethodPost, path, resp.status, err)
	}
	return acl, nil
}

// ListTopics returns the topics of a streaming service.
func (c *Client) ListTopics(ctx context.Context, project, service string) ([]models.Topic, error) {
	return getList[models.Topic](c, ctx, servicePath(project, service)+"/topic", nil, "topics")
}

// CreateTopic creates a topic; it is CONFIGURING for a moment, then ACTIVE.
func (c *Client) CreateTopic(ctx context.Context, project, service string, req models.CreateTopicRequest) error {
	return doNoContent(c, ctx, http.MethodPost, servicePath(project, service)+"/topic", req)
}
