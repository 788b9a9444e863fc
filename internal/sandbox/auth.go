package sandbox

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/svcui/svcui/internal/models"
)

// newToken returns a personal token shaped like the platform's: long, base64, random.
func newToken() string {
	b := make([]byte, 120)
	if _, err := rand.Read(b); err != nil {
		panic("sandbox: no randomness for tokens: " + err.Error())
	}
	return base64.StdEncoding.EncodeToString(b)
}

// authenticate returns who the request's token belongs to, or a 401.
func (s *Sandbox) authenticate(r *http.Request) (principal, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", errorf(http.StatusUnauthorized, "Authentication required: send the header Authorization: svcv1 <token>")
	}
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || scheme != "svcv1" || strings.TrimSpace(tok) == "" {
		return "", errorf(http.StatusUnauthorized, "Invalid Authorization header: the form is 'svcv1 <token>'")
	}
	tok = strings.TrimSpace(tok)
	// Compare against both tokens without an early exit, so timing says nothing.
	admin := subtle.ConstantTimeCompare([]byte(tok), []byte(s.tokens.Admin)) == 1
	dev := subtle.ConstantTimeCompare([]byte(tok), []byte(s.tokens.Developer)) == 1
	switch {
	case admin:
		return principalAdmin, nil
	case dev:
		return principalDeveloper, nil
	}
	return "", errorf(http.StatusUnauthorized, "Invalid token: it is unknown, expired or revoked")
}

// access is what an operation needs from the caller's role in a project.
type access int

const (
	// accessRead: any member may read.
	accessRead access = iota
	// accessManage: creating or resetting service users, topics, databases and ACLs.
	accessManage
	// accessAdmin: everything else.
	accessAdmin
)

func roleAllows(role models.Role, need access) bool {
	switch need {
	case accessRead:
		return role != ""
	case accessManage:
		return role.CanManageAccess()
	}
	return role.CanAdminister()
}

// project finds a project the caller may act on: 404 when it does not exist, 403 when the
// caller is not a member or the role does not allow what (e.g. "delete services").
func (c *call) project(name string, need access, what string) (*project, error) {
	p := c.s.st.Projects[name]
	if p == nil {
		return nil, notFound("Project %s does not exist", name)
	}
	role := p.Members[c.who]
	if role == "" {
		return nil, forbidden("You are not a member of project %s", name)
	}
	if !roleAllows(role, need) {
		return nil, forbidden("Your role in project %s is %s, which may not %s; ask a project admin", name, role, what)
	}
	return p, nil
}

// service finds a service of a project the caller may act on.
func (c *call) service(need access, what string) (*project, *service, error) {
	p, err := c.project(c.param("project"), need, what)
	if err != nil {
		return nil, nil, err
	}
	sv := p.Services[c.param("service")]
	if sv == nil {
		return nil, nil, notFound("Service %s does not exist in project %s", c.param("service"), p.Name)
	}
	return p, sv, nil
}

// accountRole is the caller's role at the account level (billing): the admin token is the
// account owner, the developer token may only read.
func (c *call) accountRole() models.Role {
	if c.who == principalAdmin {
		return models.RoleAdmin
	}
	return models.RoleDeveloper
}

// account checks an account id of a path and the caller's right to act on it.
func (c *call) account(id string, need access, what string) error {
	if id != c.s.st.AccountID {
		return notFound("Account %s does not exist", id)
	}
	if !roleAllows(c.accountRole(), need) {
		return forbidden("Your role in account %s is developer, which may not %s; ask an account admin", id, what)
	}
	return nil
}
