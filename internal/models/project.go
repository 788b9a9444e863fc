package models

// Project groups services and carries settings.
type Project struct {
	ProjectName      string    `json:"project_name"`
	AccountID        string    `json:"account_id"`
	AccountName      string    `json:"account_name"`
	DefaultCloud     string    `json:"default_cloud"`
	BillingCurrency  string    `json:"billing_currency"`
	BillingGroupID   string    `json:"billing_group_id"`
	BillingGroupName string    `json:"billing_group_name"`
	EstimatedBalance Amount    `json:"estimated_balance"`
	PaymentMethod    string    `json:"payment_method"`
	AvailableCredits Amount    `json:"available_credits"`
	CountryCode      string    `json:"country_code"`
	VATID            string    `json:"vat_id"`
	BillingAddress   string    `json:"billing_address,omitempty"`
	BillingEmails    EmailList `json:"billing_emails,omitempty"`
	TechEmails       EmailList `json:"tech_emails,omitempty"`
}

// ProjectList is the answer of GET /v1/project.
type ProjectList struct {
	Projects   []Project       `json:"projects"`
	Membership map[string]Role `json:"project_membership"`
}

// RoleOf returns the caller's role in a project ("" when the platform did not say).
func (l ProjectList) RoleOf(project string) Role { return l.Membership[project] }

// CreateProjectRequest is the body of POST /v1/project.
type CreateProjectRequest struct {
	Project         string `json:"project"`
	AccountID       string `json:"account_id,omitempty"`
	BillingGroupID  string `json:"billing_group_id,omitempty"`
	Cloud           string `json:"cloud,omitempty"`
	CopyFromProject string `json:"copy_from_project,omitempty"`
}

// UpdateProjectRequest is the body of PUT /v1/project/{project}; nil fields are not sent.
type UpdateProjectRequest struct {
	AccountID       *string   `json:"account_id,omitempty"`
	BillingGroupID  *string   `json:"billing_group_id,omitempty"`
	Cloud           *string   `json:"cloud,omitempty"`
	BillingAddress  *string   `json:"billing_address,omitempty"`
	BillingCurrency *string   `json:"billing_currency,omitempty"`
	BillingEmails   *[]string `json:"billing_emails,omitempty"`
	TechEmails      *[]string `json:"tech_emails,omitempty"`
	CountryCode     *string   `json:"country_code,omitempty"`
}

// Ptr returns a pointer to v; handy for optional request fields.
func Ptr[T any](v T) *T { return &v }

// ProjectSummary is what a table of projects shows of each. GET /v1/project decoded
// into it leaves the rest of every project unread: with 80,000 projects the full
// models were 22 MB, twice over while a refresh decoded beside the list on screen.
type ProjectSummary struct {
	ProjectName      string     `json:"project_name"`
	AccountID        string     `json:"account_id"`
	DefaultCloud     string     `json:"default_cloud"`
	BillingCurrency  string     `json:"billing_currency"`
	BillingGroupID   string     `json:"billing_group_id"`
	BillingGroupName string     `json:"billing_group_name"`
	EstimatedBalance AmountText `json:"estimated_balance"`
	AvailableCredits Amount     `json:"available_credits"`
	// Role is the caller's role in the project, from the answer's membership ("" when
	// the platform did not say).
	Role Role `json:"-"`
}

// ProjectSummaries is GET /v1/project read as summaries.
type ProjectSummaries struct {
	Projects []*ProjectSummary
}
