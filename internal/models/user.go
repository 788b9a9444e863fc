package models

// ServiceUser is a credential set for one service. Password, AccessCert and AccessKey
// are only present on the create and reset answers.
type ServiceUser struct {
	Username       string   `json:"username"`
	Type           UserType `json:"type"`
	Password       string   `json:"password,omitempty"`
	AccessCert     string   `json:"access_cert,omitempty"`
	AccessKey      string   `json:"access_key,omitempty"`
	Authentication string   `json:"authentication,omitempty"`
}

// CreateUserRequest is the body of POST .../user.
type CreateUserRequest struct {
	Username       string `json:"username"`
	Authentication string `json:"authentication,omitempty"`
}

// ResetCredentialsOperation is the only operation PUT .../user/{username} accepts.
const ResetCredentialsOperation = "reset-credentials"

// UserOperationRequest is the body of PUT .../user/{username}.
type UserOperationRequest struct {
	Operation string `json:"operation"`
}
