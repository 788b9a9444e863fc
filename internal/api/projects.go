package api

import (
	"context"
	"net/http"

	"github.com/svcui/svcui/internal/models"
)

func projectPath(project string) string { return "/v1/project/" + seg("project name", project) }

// ListProjects returns the caller's projects with the caller's role in each.
func (c *Client) ListProjects(ctx context.Context) (models.ProjectList, error) {
	const path = "/v1/project"
	resp, shared, err := c.call(ctx, http.MethodGet, path, nil, nil, projectListDecoder)
	if err != nil {
		return models.ProjectList{}, err
	}
	return c.listValue(ctx, http.MethodGet, path, resp, shared).(models.ProjectList), nil
}

// ListProjectSummaries is ListProjects with only what a table of projects shows of
// each (the Projects tab on a large account). Summaries of previous (the last list
// read) that the answer repeats are given again, not copied; summaries are never
// changed once read.
func (c *Client) ListProjectSummaries(ctx context.Context, previous []*models.ProjectSummary) (models.ProjectSummaries, error) {
	const path = "/v1/project"
	resp, shared, err := c.call(ctx, http.MethodGet, path, nil, nil, projectSummariesDecoder(previous))
	if err != nil {
		return models.ProjectSummaries{}, err
	}
	return c.listValue(ctx, http.MethodGet, path, resp, shared).(models.ProjectSummaries), nil
}

// GetProject reads one project.
func (c *Client) GetProject(ctx context.Context, project string) (models.Project, error) {
	return doObject[models.Project](c, ctx, http.MethodGet, projectPath(project), nil, "project")
}

// CreateProject creates a project.
func (c *Client) CreateProject(ctx context.Context, req models.CreateProjectRequest) (models.Project, error) {
	return doObject[models.Project](c, ctx, http.MethodPost, "/v1/project", req, "project")
}

// UpdateProject changes a project's settings; nil fields of req are left alone.
func (c *Client) UpdateProject(ctx context.Context, project string, req models.UpdateProjectRequest) (models.Project, error) {
	return doObject[models.Project](c, ctx, http.MethodPut, projectPath(project), req, "project")
}

// AssignBillingGroup moves a project to a billing group.
func (c *Client) AssignBillingGroup(ctx context.Context, project, billingGroupID string) (models.Project, error) {
	return c.UpdateProject(ctx, project, models.UpdateProjectRequest{BillingGroupID: &billingGroupID})
}

// DeleteProject deletes a project; the platform refuses while it still has services.
func (c *Client) DeleteProject(ctx context.Context, project string) error {
	return doNoContent(c, ctx, http.MethodDelete, projectPath(project), nil)
}
