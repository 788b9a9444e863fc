package api

import (
	"context"
	"net/http"

	"github.com/svcui/svcui/internal/models"
)

func servicePath(project, service string) string {
	return projectPath(project) + "/service/" + seg("service name", service)
}

// ListServices returns the services of a project.
func (c *Client) ListServices(ctx context.Context, project string) ([]models.Service, error) {
	return getList[models.Service](c, ctx, projectPath(project)+"/service", nil, "services", serviceName)
}

// GetService reads one service, including its connection_info.
func (c *Client) GetService(ctx context.Context, project, service string) (models.Service, error) {
	return doObject[models.Service](c, ctx, http.MethodGet, servicePath(project, service), nil, "service")
}

// CreateService creates a service; it answers with the service in state REBUILDING.
func (c *Client) CreateService(ctx context.Context, project string, req models.CreateServiceRequest) (models.Service, error) {
	return doObject[models.Service](c, ctx, http.MethodPost, projectPath(project)+"/service", req, "service")
}

// UpdateService changes a service (plan, cloud, disk, power, protection, maintenance,
// user_config); nil fields of req are left alone.
func (c *Client) UpdateService(ctx context.Context, project, service string, req models.UpdateServiceRequest) (models.Service, error) {
	return doObject[models.Service](c, ctx, http.MethodPut, servicePath(project, service), req, "service")
}

// DeleteService deletes a service; refused while termination protection is on.
func (c *Client) DeleteService(ctx context.Context, project, service string) error {
	return doNoContent(c, ctx, http.MethodDelete, servicePath(project, service), nil)
}
