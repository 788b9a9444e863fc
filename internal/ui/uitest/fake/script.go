package fake

import (
	"slices"
	"strings"

	"github.com/svcui/svcui/internal/models"
)

// Script sets the states the next looks at project's services see (a look is a
// ListServices of the project that is not refused): the first look sees states[0],
// each look after it the next state, and the last state stays. A last state "" means
// the service is gone by then. It stands in for a service that changes under a watch.
func (f *API) Script(project, service string, states ...models.ServiceState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.addProject(project)
	if f.scripts == nil {
		f.scripts = map[string][]models.ServiceState{}
	}
	f.scripts[key(project, service)] = slices.Clone(states)
}

// look moves project's scripted services on to their next state; f.mu is held.
func (f *API) look(project string) {
	for k, states := range f.scripts {
		p, name, _ := strings.Cut(k, "/")
		if p != project || len(states) == 0 {
			continue
		}
		same := func(s models.Service) bool { return s.ServiceName == name }
		if states[0] == "" {
			f.services[project] = slices.DeleteFunc(f.services[project], same)
			delete(f.scripts, k)
			continue
		}
		s := models.Service{ServiceName: name}
		if i := slices.IndexFunc(f.services[project], same); i >= 0 {
			s = f.services[project][i]
		}
		s.State = states[0]
		f.services[project] = put(f.services[project], s, same)
		if len(states) > 1 {
			f.scripts[k] = states[1:]
		}
	}
}
