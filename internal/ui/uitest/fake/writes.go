package fake

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/svcui/svcui/internal/models"
)

// Each write logs its call, obeys the rules (a failed one changes nothing; a lost one
// changes the platform and answers the error) and otherwise does what the platform
// would, refusing what is not there (404) or already is (409).

func (f *API) CreateService(_ context.Context, project string, req models.CreateServiceRequest) (models.Service, error) {
	o := f.enter(CreateService, project, req.ServiceName, req.ServiceType, req.Plan)
	if o.fail != nil {
		return models.Service{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.service(project, req.ServiceName) >= 0 {
		return models.Service{}, conflict("Service %s already exists", req.ServiceName)
	}
	s := models.Service{ServiceName: req.ServiceName, ServiceType: req.ServiceType, Plan: req.Plan, CloudName: req.Cloud,
		DiskSpaceMB: req.DiskSpaceMB, TerminationProtection: req.TerminationProtection, UserConfig: req.UserConfig,
		State: models.StateRebuilding}
	f.addProject(project)
	f.services[project] = append(f.services[project], s)
	return answer(s, o)
}

// UpdateService changes what the request sets; a power off leaves the service
// POWEROFF, a power on RUNNING.
func (f *API) UpdateService(_ context.Context, project, service string, req models.UpdateServiceRequest) (models.Service, error) {
	o := f.enter(UpdateService, project, service)
	if o.fail != nil {
		return models.Service{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	i := f.service(project, service)
	if i < 0 {
		return models.Service{}, notFound("Service %s does not exist", service)
	}
	s := f.services[project][i]
	if req.Plan != nil {
		s.Plan = *req.Plan
	}
	if req.Cloud != nil {
		s.CloudName = *req.Cloud
	}
	if req.DiskSpaceMB != nil {
		s.DiskSpaceMB = *req.DiskSpaceMB
	}
	if req.TerminationProtection != nil {
		s.TerminationProtection = *req.TerminationProtection
	}
	if req.Maintenance != nil {
		m := *req.Maintenance
		s.Maintenance = &m
	}
	if req.UserConfig != nil {
		uc := maps.Clone(s.UserConfig)
		if uc == nil {
			uc = models.UserConfig{}
		}
		maps.Copy(uc, req.UserConfig)
		s.UserConfig = uc
	}
	if req.Powered != nil {
		s.State = map[bool]models.ServiceState{true: models.StateRunning, false: models.StatePowerOff}[*req.Powered]
	}
	f.services[project][i] = s
	return answer(s, o)
}

func (f *API) DeleteService(_ context.Context, project, service string) error {
	o := f.enter(DeleteService, project, service)
	if o.fail != nil {
		return o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	i := f.service(project, service)
	if i < 0 {
		return notFound("Service %s does not exist", service)
	}
	f.services[project] = slices.Delete(f.services[project], i, i+1)
	return o.lose
}

func (f *API) CreateProject(_ context.Context, req models.CreateProjectRequest) (models.Project, error) {
	o := f.enter(CreateProject, req.Project)
	if o.fail != nil {
		return models.Project{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.project(req.Project) >= 0 {
		return models.Project{}, conflict("Project %s already exists", req.Project)
	}
	p := models.Project{ProjectName: req.Project, AccountID: req.AccountID, BillingGroupID: req.BillingGroupID, DefaultCloud: req.Cloud}
	if g := f.group(req.BillingGroupID); g >= 0 {
		p.BillingGroupName = f.groups[g].BillingGroupName
	}
	f.projects = append(f.projects, p)
	return answer(p, o)
}

func (f *API) UpdateProject(_ context.Context, name string, req models.UpdateProjectRequest) (models.Project, error) {
	o := f.enter(UpdateProject, name)
	if o.fail != nil {
		return models.Project{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	i := f.project(name)
	if i < 0 {
		return models.Project{}, notFound("Project %s does not exist", name)
	}
	p := &f.projects[i]
	if req.AccountID != nil {
		p.AccountID = *req.AccountID
	}
	if req.Cloud != nil {
		p.DefaultCloud = *req.Cloud
	}
	if req.BillingGroupID != nil {
		if err := f.assign(p, *req.BillingGroupID); err != nil {
			return models.Project{}, err
		}
	}
	return answer(*p, o)
}

func (f *API) DeleteProject(_ context.Context, name string) error {
	o := f.enter(DeleteProject, name)
	if o.fail != nil {
		return o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	i := f.project(name)
	if i < 0 {
		return notFound("Project %s does not exist", name)
	}
	f.projects = slices.Delete(f.projects, i, i+1)
	delete(f.services, name)
	return o.lose
}

// assign moves p to the group id; f.mu is held.
func (f *API) assign(p *models.Project, id string) error {
	g := f.group(id)
	if g < 0 {
		return notFound("Billing group %s does not exist", id)
	}
	p.BillingGroupID, p.BillingGroupName = id, f.groups[g].BillingGroupName
	p.BillingCurrency = f.groups[g].BillingCurrency
	return nil
}

// CreateBillingGroup makes a group whose ID is "g-" and its name in lower case with
// dashes ("Acme Nordics" is g-acme-nordics).
func (f *API) CreateBillingGroup(_ context.Context, accountID string, req models.BillingGroupRequest) (models.BillingGroup, error) {
	name := deref(req.BillingGroupName)
	o := f.enter(CreateBillingGroup, accountID, name)
	if o.fail != nil {
		return models.BillingGroup{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	g := models.BillingGroup{BillingGroupID: GroupID(name), AccountID: accountID}
	if f.group(g.BillingGroupID) >= 0 {
		return models.BillingGroup{}, conflict("Billing group %s already exists", name)
	}
	applyGroup(&g, req)
	f.groups = append(f.groups, g)
	return answer(g, o)
}

// GroupID is the ID CreateBillingGroup gives a group of that name.
func GroupID(name string) string {
	return "g-" + strings.Join(strings.Fields(strings.ToLower(name)), "-")
}

func (f *API) UpdateBillingGroup(_ context.Context, id string, req models.BillingGroupRequest) (models.BillingGroup, error) {
	o := f.enter(UpdateBillingGroup, id)
	if o.fail != nil {
		return models.BillingGroup{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	i := f.group(id)
	if i < 0 {
		return models.BillingGroup{}, notFound("Billing group %s does not exist", id)
	}
	applyGroup(&f.groups[i], req)
	return answer(f.groups[i], o)
}

func applyGroup(g *models.BillingGroup, r models.BillingGroupRequest) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&g.BillingGroupName, r.BillingGroupName)
	set(&g.BillingCurrency, r.BillingCurrency)
	set(&g.Company, r.Company)
	set(&g.City, r.City)
	set(&g.State, r.State)
	set(&g.CountryCode, r.CountryCode)
	set(&g.ZipCode, r.ZipCode)
	set(&g.VATID, r.VATID)
	if r.AddressLines != nil {
		g.AddressLines = slices.Clone(*r.AddressLines)
	}
}

func (f *API) AssignBillingGroup(_ context.Context, project, billingGroupID string) (models.Project, error) {
	o := f.enter(AssignBillingGroup, project, billingGroupID)
	if o.fail != nil {
		return models.Project{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	i := f.project(project)
	if i < 0 {
		return models.Project{}, notFound("Project %s does not exist", project)
	}
	if err := f.assign(&f.projects[i], billingGroupID); err != nil {
		return models.Project{}, err
	}
	return answer(f.projects[i], o)
}

// CreateUser answers the new user with CreatedPassword.
func (f *API) CreateUser(_ context.Context, project, service string, req models.CreateUserRequest) (models.ServiceUser, error) {
	o := f.enter(CreateUser, project, service, req.Username, req.Authentication)
	if o.fail != nil {
		return models.ServiceUser{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	k := key(project, service)
	if f.user(k, req.Username) >= 0 {
		return models.ServiceUser{}, conflict("User %s already exists", req.Username)
	}
	u := models.ServiceUser{Username: req.Username, Type: "regular", Authentication: req.Authentication}
	f.users[k] = append(f.users[k], u)
	u.Password = CreatedPassword(req.Username)
	return answer(u, o)
}

// user is the index of a service's user (-1: none); f.mu is held.
func (f *API) user(k, name string) int {
	return slices.IndexFunc(f.users[k], func(u models.ServiceUser) bool { return u.Username == name })
}

// ResetCredentials answers the user with ResetPassword.
func (f *API) ResetCredentials(_ context.Context, project, service, username string) (models.ServiceUser, error) {
	o := f.enter(ResetCredentials, project, service, username)
	if o.fail != nil {
		return models.ServiceUser{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	i := f.user(key(project, service), username)
	if i < 0 {
		return models.ServiceUser{}, notFound("User %s does not exist", username)
	}
	u := f.users[key(project, service)][i]
	u.Password = ResetPassword(username)
	return answer(u, o)
}

func (f *API) DeleteUser(_ context.Context, project, service, username string) error {
	o := f.enter(DeleteUser, project, service, username)
	if o.fail != nil {
		return o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	k := key(project, service)
	i := f.user(k, username)
	if i < 0 {
		return notFound("User %s does not exist", username)
	}
	f.users[k] = slices.Delete(f.users[k], i, i+1)
	return o.lose
}

// CreateACL answers the service's ACL entries after adding one whose ID is ACLID's.
func (f *API) CreateACL(_ context.Context, project, service string, req models.CreateACLRequest) ([]models.ACL, error) {
	o := f.enter(CreateACL, project, service, req.Username, req.Topic, string(req.Permission))
	if o.fail != nil {
		return nil, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	k := key(project, service)
	f.acls[k] = append(f.acls[k], models.ACL{ID: ACLID(req), Username: req.Username, Topic: req.Topic, Permission: req.Permission})
	return answer(slices.Clone(f.acls[k]), o)
}

// ACLID is the ID CreateACL gives the entry req makes.
func ACLID(req models.CreateACLRequest) string {
	return fmt.Sprintf("acl-%s-%s-%s", req.Username, req.Topic, req.Permission)
}

// CreateTopic adds a CONFIGURING topic.
func (f *API) CreateTopic(_ context.Context, project, service string, req models.CreateTopicRequest) error {
	o := f.enter(CreateTopic, project, service, req.TopicName)
	if o.fail != nil {
		return o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	k := key(project, service)
	if slices.ContainsFunc(f.topics[k], func(t models.Topic) bool { return t.TopicName == req.TopicName }) {
		return conflict("Topic %s already exists", req.TopicName)
	}
	f.topics[k] = append(f.topics[k], models.Topic{TopicName: req.TopicName, Partitions: models.FlexInt(req.Partitions),
		Replication: models.FlexInt(req.Replication), State: "CONFIGURING"})
	return o.lose
}

func (f *API) CreateDatabase(_ context.Context, project, service, database string) error {
	o := f.enter(CreateDatabase, project, service, database)
	if o.fail != nil {
		return o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	k := key(project, service)
	if slices.ContainsFunc(f.dbs[k], func(d models.Database) bool { return d.DatabaseName == database }) {
		return conflict("Database %s already exists", database)
	}
	f.dbs[k] = append(f.dbs[k], models.Database{DatabaseName: database})
	return o.lose
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
