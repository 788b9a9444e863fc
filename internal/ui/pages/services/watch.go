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

const reasonPowerOff = "power off"

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
		return reasonPowerOff
	}
	return ""
}

// watchStart watches the service of a change that moves it (reason "" does not).
func watchStart(project string, s models.Service, reason string) tea.Cmd {
	if reason == "" {
		return nil
	}
	target := models.StateRunning
	if reason == reasonPowerOff {
		target = models.StatePowerOff
	}
	return common.Send(watch.Start{Project: project, Service: s.ServiceName, Reason: reason, State: s.State, Target: target})
}

// watchFailed tells a refused change that would have been watched (the write protocol
// calls it on refusals only: a lost answer is read back instead, it may have happened).
func watchFailed(ctx *common.Context, project, name, reason string) func(error) tea.Cmd {
	if reason == "" {
		return nil
	}
	return func(err error) tea.Cmd {
		return common.Send(watch.Failed{Project: project, Service: name, Reason: reason, Text: ctx.ErrorText(err)})
	}
}
