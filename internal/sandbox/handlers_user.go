package sandbox

import (
	"strings"

	"github.com/svcui/svcui/internal/models"
)

func (s *Sandbox) listUsers(c *call) (any, error) {
	p, sv, err := c.service(accessRead, "list service users")
	if err != nil {
		return nil, err
	}
	out := make([]models.ServiceUser, 0, len(sv.Users))
	for _, u := range sv.Users {
		out = append(out, models.ServiceUser{Username: s.userName(p, sv, u), Type: u.Type})
	}
	return map[string]any{"users": out}, nil
}

func (s *Sandbox) createUser(c *call) (any, error) {
	var req models.CreateUserRequest
	if err := c.decode(&req, "username"); err != nil {
		return nil, err
	}
	p, sv, err := c.service(accessManage, "create service users")
	if err != nil {
		return nil, err
	}
	if err := models.ValidateUsername(req.Username); err != nil {
		return nil, fieldError("username", err)
	}
	if req.Authentication != "" {
		allowed := models.AuthenticationMethods(sv.Type)
		if allowed == nil {
			return nil, badRequest("Invalid authentication: it can only be chosen for pg (scram-sha-256) and mysql (caching_sha2_password) services, not for %s", sv.Type)
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == req.Authentication
		}
		if !ok {
			return nil, badRequest("Invalid authentication: %s services accept %s, not %q", sv.Type, strings.Join(allowed, " or "), req.Authentication)
		}
	}
	if s.findUser(p, sv, req.Username) != nil || sv.user(req.Username) != nil {
		return nil, conflict("Service user %s already exists in service %s", req.Username, sv.Name)
	}
	u := &serviceUser{Username: req.Username, Type: models.UserRegular, Password: s.newPassword(), Authentication: req.Authentication}
	if err := s.issueAccessCert(sv, u, c); err != nil {
		return nil, err
	}
	sv.Users = append(sv.Users, u)
	return map[string]any{"user": userSecret(u)}, nil
}

// issueAccessCert gives Kafka users a client certificate signed by the sandbox CA.
func (s *Sandbox) issueAccessCert(sv *service, u *serviceUser, c *call) error {
	if sv.Type != models.TypeKafka {
		return nil
	}
	cert, key, err := s.ca.clientCert(c.now, u.Username)
	if err != nil {
		return err
	}
	u.AccessCert, u.AccessKey = cert, key
	return nil
}

// userSecret is the one answer that carries a user's credentials.
func userSecret(u *serviceUser) models.ServiceUser {
	return models.ServiceUser{
		Username: u.Username, Type: u.Type, Password: u.Password,
		AccessCert: u.AccessCert, AccessKey: u.AccessKey, Authentication: u.Authentication,
	}
}

func (s *Sandbox) resetUser(c *call) (any, error) {
	var req models.UserOperationRequest
	if err := c.decode(&req, "operation"); err != nil {
		return nil, err
	}
	p, sv, err := c.service(accessManage, "reset service user credentials")
	if err != nil {
		return nil, err
	}
	if req.Operation != models.ResetCredentialsOperation {
		return nil, badRequest("Invalid operation: %q is not supported; the only operation is %s", req.Operation, models.ResetCredentialsOperation)
	}
	u := s.findUser(p, sv, c.param("username"))
	if u == nil {
		return nil, notFound("Service user %s does not exist in service %s", c.param("username"), sv.Name)
	}
	if s.attachmentOf(p, sv) != nil && u == sv.primary() {
		return nil, badRequest("Service %s is attached to a real server (svcui sandbox --attach); the password of %s is that server's and cannot be reset here", sv.Name, c.param("username"))
	}
	u.Password = s.newPassword()
	if err := s.issueAccessCert(sv, u, c); err != nil {
		return nil, err
	}
	return map[string]any{"user": userSecret(u)}, nil
}

func (s *Sandbox) deleteUser(c *call) (any, error) {
	p, sv, err := c.service(accessAdmin, "delete service users")
	if err != nil {
		return nil, err
	}
	name := c.param("username")
	u := s.findUser(p, sv, name)
	if u == nil {
		return nil, notFound("Service user %s does not exist in service %s", name, sv.Name)
	}
	if u.Type == models.UserPrimary {
		return nil, badRequest("The primary user of a service cannot be deleted")
	}
	kept := sv.Users[:0:0]
	for _, x := range sv.Users {
		if x != u {
			kept = append(kept, x)
		}
	}
	sv.Users = kept
	return emptyBody{}, nil
}

func (s *Sandbox) connectionInfo(c *call) (any, error) {
	p, sv, err := c.service(accessRead, "read connection information")
	if err != nil {
		return nil, err
	}
	cd := s.connection(p, sv)
	return models.ConnectionInfo{
		Host:     cd.host,
		Port:     models.FlexInt(cd.port),
		User:     cd.user,
		Password: cd.password,
		Database: cd.dbname,
		URI:      cd.uri,
		CACert:   cd.caPEM,
	}, nil
}
