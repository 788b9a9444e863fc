package access

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/fleet"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/plans"
)

// resetMarked plans resetting the credentials of every marked user; the new passwords
// are shown together, once, in the plan when it is done.
func (u *Users) resetMarked(m base.Marked[models.ServiceUser]) tea.Cmd {
	if cmd := u.svc.refuse("reset credentials", false); cmd != nil {
		return cmd
	}
	return plans.Open(u.Ctx, planResets(u.svc.t.Project, u.svc.t.Service, m.Items, u.Ctx.Now()), m.Hidden, false)
}

func planResets(project, service string, users []models.ServiceUser, now time.Time) fleet.Plan {
	p := fleet.Plan{ID: fleet.NewID(now), Created: now, Noun: "user", Title: fmt.Sprintf("Reset the credentials of %d users of %s", len(users), service)}
	for _, su := range users {
		r := fleet.Row{Op: fleet.OpUserReset, Project: project, Service: service, User: su.Username, State: fleet.StatePending,
			Change: "new password", Cost: "$0.00/month", Notes: []string{"connections with the old password lose access"}}
		if su.Type == models.UserPrimary {
			r.Notes = []string{"the primary user: everything that connects with it loses access at once"}
		}
		if su.Username == "" {
			r.Skip, r.State = "the platform gave this user no name", fleet.StateSkipped
		}
		p.Rows = append(p.Rows, r)
	}
	return p
}
