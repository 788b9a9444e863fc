package api

import (
	"context"
	"net/http"

	"github.com/svcui/svcui/internal/models"
)

func accountPath(accountID string) string { return "/v1/account/" + seg("account id", accountID) }

func billingGroupPath(id string) string { return "/v1/billing-group/" + seg("billing group id", id) }

// ListBillingGroups returns the billing groups of an account.
func (c *Client) ListBillingGroups(ctx context.Context, accountID string) ([]models.BillingGroup, error) {
	return getList[models.BillingGroup](c, ctx, accountPath(accountID)+"/billing-group", nil, "billing_groups", billingGroupID)
}

// CreateBillingGroup creates a billing group in an account.
func (c *Client) CreateBillingGroup(ctx context.Context, accountID string, req models.BillingGroupRequest) (models.BillingGroup, error) {
	return doObject[models.BillingGroup](c, ctx, http.MethodPost, accountPath(accountID)+"/billing-group", req, "billing_group")
}

// GetBillingGroup reads one billing group with its projects and card info.
func (c *Client) GetBillingGroup(ctx context.Context, id string) (models.BillingGroup, error) {
	return doObject[models.BillingGroup](c, ctx, http.MethodGet, billingGroupPath(id), nil, "billing_group")
}

// UpdateBillingGroup changes a billing group; nil fields of req are left alone.
func (c *Client) UpdateBillingGroup(ctx context.Context, id string, req models.BillingGroupRequest) (models.BillingGroup, error) {
	return doObject[models.BillingGroup](c, ctx, http.MethodPut, billingGroupPath(id), req, "billing_group")
}

// ListInvoices returns the invoices of a billing group.
func (c *Client) ListInvoices(ctx context.Context, billingGroupID string) ([]models.Invoice, error) {
	return getList[models.Invoice](c, ctx, billingGroupPath(billingGroupID)+"/invoice", nil, "invoices", invoiceNumber)
}

// GetEstimate returns a project's cost estimate.
func (c *Client) GetEstimate(ctx context.Context, project string) (models.Estimate, error) {
	return getFlat[models.Estimate](c, ctx, projectPath(project)+"/estimate")
}

// GetCredits returns an account's credits.
func (c *Client) GetCredits(ctx context.Context, accountID string) (models.Credits, error) {
	return getFlat[models.Credits](c, ctx, accountPath(accountID)+"/credits")
}
