package changes

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
)

var t0 = time.Date(2026, 11, 27, 14, 2, 0, 0, time.UTC)

func testCtx(j *journal.Journal) *common.Context {
	ctx := common.NewContext()
	ctx.Journal = j
	ctx.Now = func() time.Time { return t0.Add(time.Hour) }
	ctx.Width, ctx.Height, ctx.ScreenWidth, ctx.ScreenHeight = 140, 30, 140, 34
	return ctx
}

func load(t *testing.T, v *View) {
	t.Helper()
	update := func(m tea.Msg) tea.Cmd { _, cmd := v.Update(m); return cmd }
	uitest.Pump(v.Init(), update, func(m tea.Msg) bool { _, ok := m.(common.Addressed); return ok })
}

func sample() *journal.Journal {
	j := journal.New()
	svcs := func(plan string, extra ...models.Service) []journal.Item {
		out := []journal.Item{journal.FromService(models.Service{ServiceName: "pg-main", ServiceType: "pg", Plan: plan, State: models.StateRunning})}
		for _, s := range extra {
			out = append(out, journal.FromService(s))
		}
		return out
	}
	users := func(names ...string) []journal.Item {
		var out []journal.Item
		for _, n := range names {
			out = append(out, journal.FromUser(models.ServiceUser{Username: n}))
		}
		return out
	}
	j.Observe(journal.ServicesOf("acme"), svcs("startup-4"), t0)
	j.Observe(journal.UsersOf("acme", "pg-main"), users("avnadmin", "bob"), t0)
	j.Observe(journal.ServicesOf("acme"), svcs("business-4", models.Service{ServiceName: "kafka-new", ServiceType: "kafka"}), t0.Add(time.Minute))
	j.Observe(journal.UsersOf("acme", "pg-main"), users("avnadmin"), t0.Add(2*time.Minute))
	return j
}

func TestChangesListNewestFirstAndFilterByKind(t *testing.T) {
	v := NewView(testCtx(sample()))
	v.SetSize(140, 20)
	load(t, v)
	out := v.View()
	user, plan := strings.Index(out, "bob"), strings.Index(out, "startup-4 → business-4")
	if user < 0 || plan < 0 || user > plan {
		t.Fatalf("not newest first:\n%s", out)
	}
	if !strings.Contains(out, "deleted") || !strings.Contains(out, "elsewhere") {
		t.Errorf("the entries do not say what happened and by whom:\n%s", out)
	}
	v.Table.SetFilter("user")
	out = v.View()
	if !strings.Contains(out, "bob") || strings.Contains(out, "kafka-new") {
		t.Errorf("filtered by kind, the view shows:\n%s", out)
	}
}

func TestEnterGoesToTheEntrysResource(t *testing.T) {
	ctx := testCtx(sample())
	ctx.ServiceTypes["acme"] = map[string]string{"pg-main": "pg"}
	v := NewView(ctx)
	v.SetSize(140, 20)
	load(t, v)
	for _, c := range []struct {
		filter string
		want   tea.Msg
	}{
		{"bob", common.OpenAccess{Project: "acme", Service: "pg-main", ServiceType: "pg", View: common.AccessUsers}},
		{"kafka-new", common.OpenService{Project: "acme", Service: "kafka-new"}},
	} {
		v.Table.SetFilter(c.filter)
		_, cmd := v.Update(tea.KeyMsg{Type: tea.KeyEnter})
		found := false
		for _, m := range uitest.Run(cmd) {
			if m == c.want {
				found = true
			}
		}
		if !found {
			t.Errorf("enter on %s: %v, want %+v", c.filter, uitest.Run(cmd), c.want)
		}
	}
}
