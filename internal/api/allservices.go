package api

import (
	"context"
	"sort"
	"strconv"
	"sync"

	"github.com/svcui/svcui/internal/apilog"

	"github.com/svcui/svcui/internal/models"
)

// ProjectService is one service of ListServicesAcrossProjects.
type ProjectService struct {
	Project string
	Service models.Service
}

// ProjectError is a project whose services could not be listed.
type ProjectError struct {
	Project string
	Err     error
}

// ListServicesAcrossProjects lists the services of many projects concurrently (see
// StreamServicesAcrossProjects). It returns every service it could read, ordered by
// project then service name, and one ProjectError per project that failed.
func (c *Client) ListServicesAcrossProjects(ctx context.Context, projects []string) ([]ProjectService, []ProjectError) {
	var services []ProjectService
	var failures []ProjectError
	c.StreamServicesAcrossProjects(ctx, projects, func(project string, svcs []models.Service, err error) {
		if err != nil {
			failures = append(failures, ProjectError{Project: project, Err: err})
			return
		}
		for _, s := range svcs {
			services = append(services, ProjectService{Project: project, Service: s})
		}
	})
	sort.SliceStable(services, func(i, j int) bool {
		if services[i].Project != services[j].Project {
			return services[i].Project < services[j].Project
		}
		return services[i].Service.ServiceName < services[j].Service.ServiceName
	})
	sort.Slice(failures, func(i, j int) bool { return failures[i].Project < failures[j].Project })
	return services, failures
}

// StreamServicesAcrossProjects lists the services of each distinct project and hands
// every project's answer (its services ordered by name, or why they could not be
// listed) to each as soon as it arrives (never two calls at once),
// asking in the order given. How many requests are in flight adapts to the link and
// to the rate-limit budget (fanout.go). It returns when every project has answered;
// when ctx ends first, the projects not yet answered are handed over with its error.
func (c *Client) StreamServicesAcrossProjects(ctx context.Context, projects []string, each func(project string, services []models.Service, err error)) {
	unique := make([]string, 0, len(projects))
	seen := make(map[string]bool, len(projects))
	for _, p := range projects {
		if !seen[p] {
			seen[p] = true
			unique = append(unique, p)
		}
	}
	ctx = withFanout(ctx)
	// The session's :log shows the fan-out as one entry that opens to its requests.
	ctx = apilog.WithGroup(ctx, "/v1/project/*/service ("+strconv.Itoa(len(unique))+" projects)")
	c.fan.begin()
	jobs := make(chan string)
	var mu sync.Mutex
	var wg sync.WaitGroup
	c.fan.demand(len(unique))
	worker := func() {
		for p := range jobs {
			svcs, err := c.ListServices(ctx, p)
			c.fan.demand(-1)
			if err == nil {
				sort.SliceStable(svcs, func(i, j int) bool { return svcs[i].ServiceName < svcs[j].ServiceName })
			}
			mu.Lock()
			each(p, svcs, err)
			mu.Unlock()
		}
	}
	// As many workers as the window lets run (it grows as answers come), so a near
	// platform's fan-out has no more goroutines than requests in flight.
	workers := 0
	for _, p := range unique {
		for workers < min(len(unique), max(1, c.fan.Size())) {
			workers++
			wg.Go(worker)
		}
		jobs <- p
	}
	close(jobs)
	wg.Wait()
}
