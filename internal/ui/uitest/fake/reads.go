package fake

import (
	"context"
	"errors"
	"io"
	"slices"
	"sort"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/models"
)

// read answers a read: its value unless a rule fails it.
func read[T any](o outcome, v func() T) (T, error) {
	if o.fail != nil {
		var zero T
		return zero, o.fail
	}
	return v(), nil
}

func (f *API) locked(do func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	do()
}

func (f *API) ListClouds(context.Context) ([]models.Cloud, error) {
	return read(f.enter(ListClouds), func() []models.Cloud { return nil })
}

func (f *API) ListServiceTypes(context.Context) ([]models.ServiceType, error) {
	return read(f.enter(ListServiceTypes), func() []models.ServiceType { return nil })
}

func (f *API) ListPlans(_ context.Context, project, serviceType, cloud string) ([]models.Plan, error) {
	o := f.enter(ListPlans, project, serviceType, cloud)
	return read(o, func() (out []models.Plan) { f.locked(func() { out = slices.Clone(f.plans) }); return })
}

func (f *API) ListProjects(context.Context) (models.ProjectList, error) {
	o := f.enter(ListProjects)
	return read(o, func() (out models.ProjectList) {
		f.locked(func() { out.Projects = slices.Clone(f.projects) })
		return
	})
}

func (f *API) ListProjectSummaries(context.Context, []*models.ProjectSummary) (models.ProjectSummaries, error) {
	o := f.enter(ListProjectSummaries)
	return read(o, func() (out models.ProjectSummaries) {
		f.locked(func() {
			for _, p := range f.projects {
				out.Projects = append(out.Projects, &models.ProjectSummary{ProjectName: p.ProjectName, AccountID: p.AccountID,
					BillingGroupID: p.BillingGroupID, BillingGroupName: p.BillingGroupName})
			}
		})
		return
	})
}

func (f *API) GetProject(_ context.Context, name string) (models.Project, error) {
	if o := f.enter(GetProject, name); o.fail != nil {
		return models.Project{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if i := f.project(name); i >= 0 {
		return f.projects[i], nil
	}
	return models.Project{}, notFound("Project %s does not exist", name)
}

// project is the index of name in the project list (-1: none); f.mu is held.
func (f *API) project(name string) int {
	return slices.IndexFunc(f.projects, func(p models.Project) bool { return p.ProjectName == name })
}

func (f *API) ListBillingGroups(_ context.Context, accountID string) ([]models.BillingGroup, error) {
	o := f.enter(ListBillingGroups, accountID)
	return read(o, func() (out []models.BillingGroup) { f.locked(func() { out = slices.Clone(f.groups) }); return })
}

func (f *API) GetCredits(_ context.Context, accountID string) (models.Credits, error) {
	return read(f.enter(GetCredits, accountID), func() models.Credits { return models.Credits{} })
}

// GetBillingGroup answers the group with its projects: those of the project list in it
// and those added with AddGroupMembers.
func (f *API) GetBillingGroup(_ context.Context, id string) (models.BillingGroup, error) {
	if o := f.enter(GetBillingGroup, id); o.fail != nil {
		return models.BillingGroup{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	i := f.group(id)
	if i < 0 {
		return models.BillingGroup{}, notFound("Billing group %s does not exist", id)
	}
	g := f.groups[i]
	g.Projects = nil
	for _, p := range f.projects {
		if p.BillingGroupID == id {
			g.Projects = append(g.Projects, p)
		}
	}
	g.Projects = append(g.Projects, f.members[id]...)
	return g, nil
}

// group is the index of the group id (-1: none); f.mu is held.
func (f *API) group(id string) int {
	return slices.IndexFunc(f.groups, func(g models.BillingGroup) bool { return g.BillingGroupID == id })
}

func (f *API) ListInvoices(_ context.Context, billingGroupID string) ([]models.Invoice, error) {
	return read(f.enter(ListInvoices, billingGroupID), func() []models.Invoice { return nil })
}

func (f *API) GetEstimate(_ context.Context, project string) (models.Estimate, error) {
	return read(f.enter(GetEstimate, project), func() models.Estimate { return models.Estimate{} })
}

func (f *API) Download(_ context.Context, url string, _ io.Writer, _ func(done, total int64)) (int64, error) {
	if o := f.enter(Download, url); o.fail != nil {
		return 0, o.fail
	}
	return 0, errors.New("the fake platform has nothing to download")
}

// ListServices answers the project's services (none for a project it does not know).
func (f *API) ListServices(_ context.Context, project string) ([]models.Service, error) {
	o := f.enter(ListServices, project)
	if o.fail == nil {
		f.locked(func() { f.look(project) })
	}
	return read(o, func() []models.Service { return f.Services(project) })
}

func (f *API) GetService(_ context.Context, project, service string) (models.Service, error) {
	if o := f.enter(GetService, project, service); o.fail != nil {
		return models.Service{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if i := f.service(project, service); i >= 0 {
		return f.services[project][i], nil
	}
	return models.Service{}, notFound("Service %s does not exist", service)
}

// service is the index of a project's service (-1: none); f.mu is held.
func (f *API) service(project, name string) int {
	return slices.IndexFunc(f.services[project], func(s models.Service) bool { return s.ServiceName == name })
}

func (f *API) GetConnectionInfo(_ context.Context, project, service string) (models.ConnectionInfo, error) {
	if o := f.enter(GetConnectionInfo, project, service); o.fail != nil {
		return models.ConnectionInfo{}, o.fail
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.conns[key(project, service)]
	if !ok {
		return c, notFound("No connection information for service %s", service)
	}
	return c, nil
}

func (f *API) ListUsers(_ context.Context, project, service string) ([]models.ServiceUser, error) {
	o := f.enter(ListUsers, project, service)
	return read(o, func() (out []models.ServiceUser) {
		f.locked(func() { out = slices.Clone(f.users[key(project, service)]) })
		return
	})
}

func (f *API) ListACLs(_ context.Context, project, service string) ([]models.ACL, error) {
	o := f.enter(ListACLs, project, service)
	return read(o, func() (out []models.ACL) {
		f.locked(func() { out = slices.Clone(f.acls[key(project, service)]) })
		return
	})
}

func (f *API) ListTopics(_ context.Context, project, service string) ([]models.Topic, error) {
	o := f.enter(ListTopics, project, service)
	return read(o, func() (out []models.Topic) {
		f.locked(func() { out = slices.Clone(f.topics[key(project, service)]) })
		return
	})
}

func (f *API) ListDatabases(_ context.Context, project, service string) ([]models.Database, error) {
	o := f.enter(ListDatabases, project, service)
	return read(o, func() (out []models.Database) {
		f.locked(func() { out = slices.Clone(f.dbs[key(project, service)]) })
		return
	})
}

// ListServicesAcrossProjects answers like the client's fan-out: services ordered by
// project then name, one failure per project whose ListServices a rule fails.
func (f *API) ListServicesAcrossProjects(_ context.Context, projects []string) ([]api.ProjectService, []api.ProjectError) {
	o := f.enter(ListServicesAcrossProjects, projects...)
	var out []api.ProjectService
	var fails []api.ProjectError
	for _, p := range slices.Sorted(slices.Values(projects)) {
		svcs, err := f.answerOf(p)
		if err == nil {
			err = o.fail
		}
		if err != nil {
			fails = append(fails, api.ProjectError{Project: p, Err: err})
			continue
		}
		sort.Slice(svcs, func(i, j int) bool { return svcs[i].ServiceName < svcs[j].ServiceName })
		for _, s := range svcs {
			out = append(out, api.ProjectService{Project: p, Service: s})
		}
	}
	return out, fails
}

// answerOf is one project's part of a fan-out: its services, or what a rule on its
// ListServices fails it with (the rule's hold is not waited: the stream has its own).
func (f *API) answerOf(project string) ([]models.Service, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.rules) - 1; i >= 0; i-- {
		if r := f.rules[i]; r.matches(ListServices, []string{project}) {
			if r.fail != nil {
				return nil, r.fail
			}
			break
		}
	}
	return slices.Clone(f.services[project]), nil
}
