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

// watchStart watches the service of a change that moves it (reason "" does not).
func watchStart(project string, s models.Service, reason string) tea.Cmd {
	if reason == "" {
		return nil
	}
	return common.Send(watch.Start{Project: project, Service: s.ServiceName, Reason: reason, State: s.State})
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
