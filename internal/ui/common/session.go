package common

import "github.com/svcui/svcui/internal/models"

// Session is where the person is: the current project, service and billing group.
// Views read it through the context's getters (ctx.Project(), ctx.Service(), …) and
// change it only by sending a message (SelectProject, SelectService,
// SelectBillingGroup, Gone); only the root holds its SessionWriter. The fields are
// unexported, so a view that writes the session does not compile.
type Session interface {
	Project() string
	Role() models.Role
	AccountID() string
	Service() string
	ServiceType() string
	BillingGroupID() string
	BillingGroupName() string
}

var _ Session = (*Context)(nil)

// place is the session's state, shared by the context and its writer.
type place struct {
	project, service, serviceType string
	groupID, groupName            string
}

// Project is the current project ("" before one is chosen).
func (c *Context) Project() string { return c.place.project }

// Role is the caller's role in the current project, as the project list said.
func (c *Context) Role() models.Role {
	r, _ := c.RoleOf(c.place.project)
	return r
}

// AccountID is the current project's account, else the profile's.
func (c *Context) AccountID() string {
	if a := c.AccountOf(c.place.project); a != "" {
		return a
	}
	return c.ProfileAccount
}

// Service and ServiceType are the current service of the current project.
func (c *Context) Service() string     { return c.place.service }
func (c *Context) ServiceType() string { return c.place.serviceType }

// BillingGroupID and BillingGroupName are the current billing group.
func (c *Context) BillingGroupID() string   { return c.place.groupID }
func (c *Context) BillingGroupName() string { return c.place.groupName }

// SessionWriter changes the session of the context it was made with; the root holds
// the only one (NewRootContext).
type SessionWriter struct{ p *place }

// SetProject makes name the current project.
func (w *SessionWriter) SetProject(name string) { w.p.project = name }

// SetService makes name (of type typ) the current service.
func (w *SessionWriter) SetService(name, typ string) { w.p.service, w.p.serviceType = name, typ }

// SetBillingGroup makes a billing group current ("" ids: none).
func (w *SessionWriter) SetBillingGroup(id, name string) { w.p.groupID, w.p.groupName = id, name }

// Clear forgets where the person was (another profile, the project gone).
func (w *SessionWriter) Clear() { *w.p = place{} }

// NewRootContext is NewContext with the writer of its session, for the root (and for
// tests, which stand in for it).
func NewRootContext() (*Context, *SessionWriter) {
	c := NewContext()
	return c, &SessionWriter{p: c.place}
}
