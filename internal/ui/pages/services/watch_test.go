package services

import (
	"errors"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
	"github.com/svcui/svcui/internal/ui/watch"
)

func watchMsgs(msgs []tea.Msg) (starts []watch.Start, fails []watch.Failed) {
	for _, m := range msgs {
		switch m := m.(type) {
		case watch.Start:
			starts = append(starts, m)
		case watch.Failed:
			fails = append(fails, m)
		}
	}
	return starts, fails
}

// A plan change watches the service; a change that moves nothing does not; a refused
// one is told as a failed watched change; w toggles from the list.
func TestChangesThatMoveAServiceWatchIt(t *testing.T) {
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}})
	a := newActions(api)
	plan := "business-8"
	starts, fails := watchMsgs(feed(a, a.update("acme-prod", "pg-main", models.UpdateServiceRequest{Plan: &plan})))
	if len(starts) != 1 || starts[0].Reason != "plan change" || starts[0].Service != "pg-main" || len(fails) != 0 {
		t.Fatalf("plan change: starts %+v, fails %+v", starts, fails)
	}
	disk := 204800
	if starts, _ := watchMsgs(feed(a, a.update("acme-prod", "pg-main", models.UpdateServiceRequest{DiskSpaceMB: &disk}))); len(starts) != 0 {
		t.Fatalf("a disk change watched: %+v", starts)
	}
	off := false
	api.On(fake.UpdateService).Fail(errors.New("Service pg-main has termination protection"))
	starts, fails = watchMsgs(feed(a, a.update("acme-prod", "pg-main", models.UpdateServiceRequest{Powered: &off})))
	if len(starts) != 0 || len(fails) != 1 || fails[0].Reason != "power off" {
		t.Fatalf("refused power off: starts %+v, fails %+v", starts, fails)
	}

	l, _, _ := newList(t, withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "REBUILDING")}}))
	_, cmd := l.Update(press("w"))
	if got := run(cmd); len(got) != 1 || got[0] != (watch.Toggle{Project: "acme-prod", Service: "pg-main", State: "REBUILDING"}) {
		t.Fatalf("w sent %#v", got)
	}
}
