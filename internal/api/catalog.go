package api

import (
	"context"
	"net/url"

	"github.com/svcui/svcui/internal/models"
)

const pathClouds = "/v1/clouds"

// ListClouds returns the cloud regions (GET /v1/clouds, sent without the token).
func (c *Client) ListClouds(ctx context.Context) ([]models.Cloud, error) {
	return getList[models.Cloud](c, ctx, pathClouds, nil, "clouds", cloudName)
}

// ListServiceTypes returns the service types of the catalogue.
func (c *Client) ListServiceTypes(ctx context.Context) ([]models.ServiceType, error) {
	return getList[models.ServiceType](c, ctx, "/v1/service_types", nil, "service_types", serviceTypeName)
}

// ListPlans returns the plans of a service type in a project; cloud "" means every region.
func (c *Client) ListPlans(ctx context.Context, project, serviceType, cloud string) ([]models.Plan, error) {
	var q url.Values
	if cloud != "" {
		q = url.Values{"cloud": {cloud}}
	}
	return getList[models.Plan](c, ctx, projectPath(project)+"/service_types/"+seg("service type", serviceType)+"/plans", q, "plans", planName)
}
