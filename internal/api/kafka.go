package api

import (
	"context"
	"net/http"

	"github.com/svcui/svcui/internal/models"
)

// ListACLs returns the Kafka ACL entries of a streaming service.
func (c *Client) ListACLs(ctx context.Context, project, service string) ([]models.ACL, error) {
	return getList[models.ACL](c, ctx, servicePath(project, service)+"/acl", nil, "acl", aclName)
}

// CreateACL adds an ACL entry and returns the whole list as the platform answers it.
// The spec does not show the answer; one without an "acl" list gives a nil list.
func (c *Client) CreateACL(ctx context.Context, project, service string, req models.CreateACLRequest) ([]models.ACL, error) {
	path := servicePath(project, service) + "/acl"
	resp, _, err := c.call(ctx, http.MethodPost, path, nil, req, listDecoder("acl", aclName, true))
	if err != nil {
		return nil, err
	}
	return c.listValue(ctx, http.MethodPost, path, resp, false).([]models.ACL), nil
}

// ListTopics returns the topics of a streaming service.
func (c *Client) ListTopics(ctx context.Context, project, service string) ([]models.Topic, error) {
	return getList[models.Topic](c, ctx, servicePath(project, service)+"/topic", nil, "topics", topicName)
}

// CreateTopic creates a topic; it is CONFIGURING for a moment, then ACTIVE.
func (c *Client) CreateTopic(ctx context.Context, project, service string, req models.CreateTopicRequest) error {
	return doNoContent(c, ctx, http.MethodPost, servicePath(project, service)+"/topic", req)
}
