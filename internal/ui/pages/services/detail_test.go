package services

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

// loadedDetail is a detail view that has loaded s (with conn) from a fake platform;
// the root's messages of the load are returned too.
func loadedDetail(t *testing.T, ctx *common.Context, s models.Service, conn models.ConnectionInfo) (*Detail, []tea.Msg) {
	t.Helper()
	f := withServices(map[string][]models.Service{"acme-prod": {s}})
	f.SetConnection("acme-prod", s.ServiceName, conn)
	fake.Connect(ctx, f)
	d := NewDetail(ctx, "acme-prod", s.ServiceName)
	d.SetSize(120, 40)
	var msgs []tea.Msg
	for _, m := range run(d.Init()) {
		msgs = append(msgs, drive(d, m)...)
	}
	if _, ok := d.Item(); !ok {
		t.Fatalf("the detail did not load: %v", msgs)
	}
	return d, msgs
}

// The detail's keys are the key map's (overridable), and only those of its type.
func TestDetailKeysComeFromTheKeyMapByType(t *testing.T) {
	ctx := testCtx(fake.New())
	ctx.Keys.ACL = key.NewBinding(key.WithKeys("Z"), key.WithHelp("Z", "ACL"))
	k := svc("kafka-events", "RUNNING")
	k.ServiceType = models.TypeKafka
	d, _ := loadedDetail(t, ctx, k, models.ConnectionInfo{Host: "h", Port: 9092, User: "avnadmin", Password: "AVNS_secret",
		URI: "kafka://avnadmin:AVNS_secret@h:9092"})
	if out := d.View(); strings.Contains(out, "AVNS_secret") || !strings.Contains(out, "••••") {
		t.Errorf("secret not masked:\n%s", out)
	}
	if msgs := drive(d, press("Z")); len(msgs) != 1 || msgs[0] != (common.OpenAccess{Project: "acme-prod", Service: "kafka-events", ServiceType: "kafka", View: common.AccessACL}) {
		t.Errorf("Z (the configured ACL key) sent %v", msgs)
	}
	if msgs := drive(d, press("A")); len(msgs) != 0 {
		t.Errorf("A after the ACL key moved sent %v", msgs)
	}
	// A key with no action here says so, and opens nothing.
	if msgs := drive(d, press("b")); len(msgs) != 1 || !strings.Contains(fmt.Sprint(msgs[0]), "does nothing in kafka-events") {
		t.Errorf("b (databases) on kafka sent %v", msgs)
	}
	help := ""
	for _, b := range d.ShortHelp() {
		help += b.Help().Key + " " + b.Help().Desc + "; "
	}
	for _, want := range []string{"Z ACL", "t topics", "o connect", "u users"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q: %s", want, help)
		}
	}
	if strings.Contains(help, "databases") {
		t.Errorf("kafka help offers databases: %s", help)
	}
}

// f and o on an opensearch service make it current and open the Search tab on it.
func TestDetailOpensTheSearchTabOnThatService(t *testing.T) {
	o := svc("os-logs", "RUNNING")
	o.ServiceType = models.TypeOpenSearch
	ctx := testCtx(nil)
	type searchOn string
	ctx.Commands.Register(common.Command{Name: "search", Arg: common.ServiceArg, OptionalArg: true,
		Run: func(_ *common.Context, name string) tea.Cmd { return common.Send(searchOn(name)) }})
	d, _ := loadedDetail(t, ctx, o, models.ConnectionInfo{})
	want := []tea.Msg{common.SelectService{Project: "acme-prod", Name: "os-logs", Type: models.TypeOpenSearch}, searchOn("os-logs")}
	for _, k := range []string{"f", "o"} {
		var got []tea.Msg
		for _, m := range drive(d, press(k)) {
			if _, ok := m.(common.Notify); !ok {
				got = append(got, m)
			}
		}
		if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("%s sent %v", k, got)
		}
	}
}

// No view shows a resource under another project's name and role: once another
// project is current, the detail says whose service it is instead of showing it.
func TestDetailStepsAsideWhenAnotherProjectIsCurrent(t *testing.T) {
	ctx := testCtx(fake.New())
	d, _ := loadedDetail(t, ctx, svc("pg-main", "RUNNING"), models.ConnectionInfo{Host: "pg.example"})
	drive(d, common.ProjectSelected{Name: "acme-staging"})
	out := d.View()
	if strings.Contains(out, "pg.example") || !strings.Contains(out, "pg-main is a service of acme-prod") {
		t.Errorf("after the project changed:\n%s", out)
	}
	if msgs := drive(d, press("e")); len(msgs) != 0 || d.Refresh() != nil {
		t.Errorf("keys or refresh still act on the other project's service: %v", msgs)
	}
	drive(d, common.ProjectSelected{Name: "acme-prod"})
	if !strings.Contains(d.View(), "pg.example") {
		t.Error("back in its project the service is not shown again")
	}
}

// A detail opened from the palette tells the root the service's type once it knows it.
func TestDetailCompletesTheCurrentService(t *testing.T) {
	ctx := testCtx(nil)
	uitest.Session(ctx).SetService("pg-main", "")
	_, msgs := loadedDetail(t, ctx, svc("pg-main", "RUNNING"), models.ConnectionInfo{})
	found := false
	for _, m := range msgs {
		found = found || m == common.SelectService{Project: "acme-prod", Name: "pg-main", Type: "pg"}
	}
	if !found {
		t.Errorf("no SelectService with the type: %v", msgs)
	}
}

// The detail says how long a service has been in its state only while that state is
// transitional: update_time moves on any edit, so a running service edited a moment
// ago must not read "RUNNING for 0s".
func TestDetailTimeInStateOnlyWhileTransitional(t *testing.T) {
	ctx := testCtx(nil)
	state := func(s models.Service) string {
		for _, f := range sections(ctx, "acme-prod", detailData{Service: s})[0].Fields {
			if f.Label == "State" {
				return f.Value
			}
		}
		t.Fatal("no State field")
		return ""
	}
	edited := models.Service{ServiceName: "pg-main", State: models.StateRunning, UpdateTime: epoch}
	if got := state(edited); strings.Contains(got, "for") || !strings.Contains(got, "RUNNING") {
		t.Errorf("running service edited now reads %q", got)
	}
	rebuilding := models.Service{ServiceName: "pg-main", State: models.StateRebuilding, UpdateTime: epoch.Add(-130 * time.Second)}
	if got := state(rebuilding); !strings.Contains(got, "REBUILDING for 2m 10s") {
		t.Errorf("rebuilding service reads %q", got)
	}
}
