package services

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/watch"
)

// Watches (issue 18): w watches a service or stops; a create, plan, cloud or power
// change watches it by itself, and its failure is told like a transition.

func watchToggle(project string, s models.Service) tea.Cmd {
	return common.Send(watch.Toggle{Project: project, Service: s.ServiceName, State: s.State})
}

// watchReason names an update that moves the service, or is "" for one that does not.
func watchReason(req models.UpdateServiceRequest) string {
	switch {
	case req.Cloud != nil:
		return "cloud migration"
	case req.Plan != nil:
		return "plan change"
	case req.Powered != nil && *req.Powered:
		return "power on"
	case req.Powered != nil:
		return "power off"
	}
	return ""
}

// watchStart watches the service of a change that moves it.
func watchStart(c changed) tea.Cmd {
	if c.Watch == "" {
		return nil
	}
	return common.Send(watch.Start{Project: c.Project, Service: c.Service.ServiceName, Reason: c.Watch, State: c.Service.State})
}

// watchFailed tells a refused change that would have been watched; a lost answer is
// read back instead (it may have happened).
func watchFailed(ctx *common.Context, c changed, err error) tea.Cmd {
	if c.Watch == "" || ctx.OutcomeUnknown(err) {
		return nil
	}
	return common.Send(watch.Failed{Project: c.Project, Service: c.Service.ServiceName, Reason: c.Watch, Text: ctx.ErrorText(err)})
}
