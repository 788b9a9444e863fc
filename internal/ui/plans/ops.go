package plans

import (
	"context"

	"github.com/svcui/svcui/internal/fleet"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
)

// platform is what a plan's goroutines need of the context, captured when the plan
// opens: they never read the context while the UI runs.
type platform struct {
	api      common.API // reads; writes come through the batch's Send
	unknown  func(error) bool
	message  func(error) string
	notFound func(error) bool
}

func platformOf(ctx *common.Context) platform {
	p := ctx.Platform
	pl := platform{api: ctx.API, unknown: func(error) bool { return false }, message: func(err error) string { return err.Error() },
		notFound: func(error) bool { return false }}
	if p.IsOutcomeUnknown != nil {
		pl.unknown = p.IsOutcomeUnknown
	}
	if p.Message != nil {
		pl.message = p.Message
	}
	if p.IsNotFound != nil {
		pl.notFound = p.IsNotFound
	}
	return pl
}

// serviceStep is a kept row's service update as a write: sent once, read back by
// getting the service, landed when the service is as the update makes it.
func (pl platform) serviceStep(r fleet.Row) base.Step[models.Service] {
	api, project, name := pl.api, r.Project, r.Service
	req := models.UpdateServiceRequest{}
	if r.Update != nil {
		req = *r.Update
	}
	w := &base.Write[models.Service]{Verb: base.Update, Noun: "service", Name: r.Resource(),
		Send: func(ctx context.Context, wr common.Writer) (models.Service, error) {
			req := req
			// Removing protection and powering off: protection must go first, or the
			// platform refuses the power off.
			if req.Powered != nil && !*req.Powered && req.TerminationProtection != nil && !*req.TerminationProtection {
				first := models.UpdateServiceRequest{TerminationProtection: req.TerminationProtection}
				if _, err := wr.UpdateService(ctx, project, name, first); err != nil {
					return models.Service{}, err
				}
				req.TerminationProtection = nil
			}
			return wr.UpdateService(ctx, project, name, req)
		},
		Find: func(ctx context.Context) (models.Service, bool, error) {
			s, err := api.GetService(ctx, project, name)
			switch {
			case err == nil:
				return s, true, nil
			case pl.notFound(err):
				return s, false, nil
			}
			return s, false, err
		},
	}
	return base.Step[models.Service]{Write: w, Landed: func(s models.Service) bool { return fleet.ServiceHas(s, req) }}
}

// resetStep is a kept row's credentials reset: a reset cannot be read back (the new
// password is only in the answer), so a lost answer is reported, never resent.
func (pl platform) resetStep(r fleet.Row) base.Step[models.ServiceUser] {
	project, service, user := r.Project, r.Service, r.User
	w := &base.Write[models.ServiceUser]{Verb: base.Update, Noun: "user", Name: r.Resource(),
		Send: func(ctx context.Context, wr common.Writer) (models.ServiceUser, error) {
			return wr.ResetCredentials(ctx, project, service, user)
		},
	}
	return base.Step[models.ServiceUser]{Write: w}
}

// deleteStep is a kept row's service delete: a lost answer is read back (gone is done).
func (pl platform) deleteStep(r fleet.Row) base.Step[models.Service] {
	step := pl.serviceStep(r)
	project, name := r.Project, r.Service
	step.Write.Verb = base.Delete
	step.Write.Send = func(ctx context.Context, wr common.Writer) (models.Service, error) {
		return models.Service{ServiceName: name}, wr.DeleteService(ctx, project, name)
	}
	step.Landed = func(models.Service) bool { return false } // found is not deleted
	return step
}
