package api

import (
	"context"
	"net/http"

	"github.com/svcui/svcui/internal/models"
)

// ListDatabases returns the databases of a relational service.
func (c *Client) ListDatabases(ctx context.Context, project, service string) ([]models.Database, error) {
	return getList[models.Database](c, ctx, servicePath(project, service)+"/database", nil, "databases", databaseName)
}

// CreateDatabase creates a database in a relational service.
func (c *Client) CreateDatabase(ctx context.Context, project, service, database string) error {
	req := models.CreateDatabaseRequest{Database: database}
	return doNoContent(c, ctx, http.MethodPost, servicePath(project, service)+"/database", req)
}
