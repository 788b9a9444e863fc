package api

import (
	"context"
	"net/http"

	"github.com/svcui/svcui/internal/models"
)

func userPath(project, service, username string) string {
	return servicePath(project, service) + "/user/" + seg("username", username)
}

// ListUsers returns the users of a service (username and type only).
func (c *Client) ListUsers(ctx context.Context, project, service string) ([]models.ServiceUser, error) {
	return getList[models.ServiceUser](c, ctx, servicePath(project, service)+"/user", nil, "users", userName)
}

// CreateUser creates a service user; the answer carries the generated password, the
// only time it is shown.
func (c *Client) CreateUser(ctx context.Context, project, service string, req models.CreateUserRequest) (models.ServiceUser, error) {
	return doObject[models.ServiceUser](c, ctx, http.MethodPost, servicePath(project, service)+"/user", req, "user")
}

// ResetCredentials generates a new password for a service user.
func (c *Client) ResetCredentials(ctx context.Context, project, service, username string) (models.ServiceUser, error) {
	req := models.UserOperationRequest{Operation: models.ResetCredentialsOperation}
	return doObject[models.ServiceUser](c, ctx, http.MethodPut, userPath(project, service, username), req, "user")
}

// DeleteUser deletes a service user; the primary user cannot be deleted.
func (c *Client) DeleteUser(ctx context.Context, project, service, username string) error {
	return doNoContent(c, ctx, http.MethodDelete, userPath(project, service, username), nil)
}

// GetConnectionInfo returns the service's connection details (flat object; secret
// fields included).
func (c *Client) GetConnectionInfo(ctx context.Context, project, service string) (models.ConnectionInfo, error) {
	return getFlat[models.ConnectionInfo](c, ctx, servicePath(project, service)+"/connection_info")
}
