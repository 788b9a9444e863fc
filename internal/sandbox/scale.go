package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// servicesPerScaleProject is the most services a scale project holds.
const servicesPerScaleProject = 50

// minScaleProjects is the fewest projects a scale account spreads over (fewer only when N
// is smaller): fleet work marks services across projects, so scale:200 has five of 40.
const minScaleProjects = 5

// maxScale bounds scale:N so a typo cannot exhaust memory.
const maxScale = 1_000_000

func parseScale(data string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(data, "scale:"))
	if err != nil || n < 1 || n > maxScale {
		return 0, fmt.Errorf("data set %q: scale:N needs N from 1 to %d", data, maxScale)
	}
	return n, nil
}

// buildScale makes N services over max(ceil(N/50), min(N, 5)) projects, each filled to an
// even share in turn, for performance and fleet work: every type, plan and region in
// rotation, a few in each transitional state, the demo billing groups.
// Scale opensearch services do not serve the search interface (one listener each would be
// thousands of sockets); their hosts are synthetic like the other types'.
func (s *Sandbox) buildScale(now time.Time, n int) {
	s.newAccount()
	eur, usd := s.demoBilling(now)
	types := models.KnownServiceTypes
	nProjects := max((n+servicesPerScaleProject-1)/servicesPerScaleProject, min(n, minScaleProjects))
	perProject := (n + nProjects - 1) / nProjects
	made := 0
	for pi := 0; pi < nProjects; pi++ {
		group := eur
		if pi%3 == 2 {
			group = usd
		}
		p := s.addProject(fmt.Sprintf("scale-%05d", pi+1), clouds[pi%len(clouds)].CloudName, group, models.RoleAdmin)
		for si := 0; si < perProject && made < n; si++ {
			t := types[(made+pi)%len(types)]
			var plan planDef
			for k := 0; k < len(planDefs); k++ {
				d := planDefs[(made+k)%len(planDefs)]
				cloud := clouds[(made/7)%len(clouds)].CloudName
				if planAvailable(t, d, cloud) {
					plan = d
					break
				}
			}
			if plan.Name == "" {
				plan = mustPlan(t, "startup-4")
			}
			cloud := clouds[(made/7)%len(clouds)].CloudName
			if !planAvailable(t, plan, cloud) {
				cloud = p.DefaultCloud
			}
			name := fmt.Sprintf("%s-%04d", t, si+1)
			created := now.Add(-time.Duration(1+made%400) * 24 * time.Hour)
			sv := s.newService(p, name, t, plan, cloud, created)
			sv.Search = false
			switch made % 97 {
			case 13:
				s.startTransition(sv, models.StateRebuilding, now)
			case 41:
				s.startTransition(sv, models.StateRebalancing, now)
			case 71:
				sv.Phase, sv.PoweredOff, sv.UpdateTime = models.StatePowerOff, now.Add(-48*time.Hour), now.Add(-48*time.Hour)
			}
			p.Services[name] = sv
			made++
		}
	}
}
