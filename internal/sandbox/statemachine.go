package sandbox

import (
	"time"

	"github.com/svcui/svcui/internal/models"
)

// The state machine of docs/platform.md, computed from timestamps: an operation sets a
// phase and, for a transitional one, the time it ends; reads derive the state from the
// clock (service.state), so nothing runs in the background.

// startTransition puts a service into REBUILDING or REBALANCING for the provisioning delay.
func (s *Sandbox) startTransition(sv *service, phase models.ServiceState, now time.Time) {
	sv.Phase = phase
	sv.Until = now.Add(s.delay)
	sv.UpdateTime = now
}

// powerOff stops the service: its nodes go away, billing stops, the search interface
// refuses connections.
func (s *Sandbox) powerOff(p *project, sv *service, now time.Time) {
	sv.Phase = models.StatePowerOff
	sv.Until = time.Time{}
	sv.PoweredOff = now
	sv.UpdateTime = now
	s.search.stop(searchKey(p.Name, sv.Name))
}

// powerOn rebuilds the service from its backup; the search interface listens again and
// answers once the service is RUNNING.
func (s *Sandbox) powerOn(p *project, sv *service, now time.Time) {
	s.startTransition(sv, models.StateRebuilding, now)
	sv.PoweredOff = time.Time{}
	if sv.Type == models.TypeKafka {
		// Powering off loses Kafka topic data: the topics come back empty (the sandbox has
		// no messages, so only their re-creation time shows it).
		for _, t := range sv.Topics {
			t.Created = now
		}
	}
	s.startSearch(p, sv)
}

// startSearch starts the search listener of an opensearch service when search is on.
func (s *Sandbox) startSearch(p *project, sv *service) {
	if sv.Type != models.TypeOpenSearch || !sv.Search || !s.opts.Search {
		return
	}
	// A listener that cannot start leaves the service without a search interface; the
	// management API still works, and the failure is visible as a refused connection.
	_ = s.search.start(p, sv)
}
