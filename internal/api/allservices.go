package api

import (
	"context"
	"sort"
	"sync"

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

// ListServicesAcrossProjects lists the services of many projects concurrently, no more
// at once than the client's limiter allows. It returns every service it could read,
// ordered by project then service name, and one ProjectError per project that failed.
func (c *Client) ListServicesAcrossProjects(ctx context.Context, projects []string) ([]ProjectService, []ProjectError) {
	type result struct {
		project  string
		services []models.Service
		err      error
	}
	unique := make([]string, 0, len(projects))
	seen := make(map[string]bool, len(projects))
	for _, p := range projects {
		if !seen[p] {
			seen[p] = true
			unique = append(unique, p)
		}
	}
	jobs := make(chan string)
	results := make([]result, 0, len(unique))
	var mu sync.Mutex
	var wg sync.WaitGroup
	workers := min(c.limiter.size(), len(unique))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				svcs, err := c.ListServices(ctx, p)
				mu.Lock()
				results = append(results, result{p, svcs, err})
				mu.Unlock()
			}
		}()
	}
	for _, p := range unique {
		jobs <- p
	}
	close(jobs)
	wg.Wait()

	var services []ProjectService
	var failures []ProjectError
	for _, r := range results {
		if r.err != nil {
			failures = append(failures, ProjectError{Project: r.project, Err: r.err})
			continue
		}
		for _, s := range r.services {
			services = append(services, ProjectService{Project: r.project, Service: s})
		}
	}
	sort.SliceStable(services, func(i, j int) bool {
		if services[i].Project != services[j].Project {
			return services[i].Project < services[j].Project
		}
		return services[i].Service.ServiceName < services[j].Service.ServiceName
	})
	sort.Slice(failures, func(i, j int) bool { return failures[i].Project < failures[j].Project })
	return services, failures
}
