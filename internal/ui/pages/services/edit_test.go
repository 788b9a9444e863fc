package services

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

// nopTarget ignores action results (edit tests look at requests and modals).
type nopTarget struct{}

func (nopTarget) upsert(string, models.Service) {}
func (nopTarget) created(string, string)        {}
func (nopTarget) remove(string, string)         {}

func editPrepFor(s models.Service) editPrep {
	return editPrep{Project: "acme-prod", Service: s,
		Plans: []models.Plan{
			{PlanName: "startup-4", PriceUSD: models.MustAmount("0.1343"), DiskSpaceMB: 81920},
			{PlanName: "business-4", PriceUSD: models.MustAmount("0.2740"), DiskSpaceMB: 163840},
		},
		Clouds: []models.Cloud{{CloudName: "aws-eu-west-1"}, {CloudName: "google-europe-north1"}}}
}

func newActions(api *fake.API) *actions {
	ctx := testCtx(api)
	return &actions{ctx: ctx, req: common.NewRequests(), target: nopTarget{}}
}

// submit fills the edit flow's form with v as if typed and completes it.
func submit(a *actions, fl *components.Flow, p editPrep, v editValues) {
	a.submitEdit(fl, p, currentEditValues(p.Service), v)
	fl.Update(struct{}{}) // the form's update after which its submit ran
}

// feed runs a command and hands its results to the actions, returning the rest.
func feed(a *actions, cmd tea.Cmd) []tea.Msg {
	var out []tea.Msg
	for _, m := range run(cmd) {
		if _, ok := m.(common.Addressed); ok {
			c, _ := a.handle(m)
			out = append(out, feed(a, c)...)
			continue
		}
		out = append(out, m)
	}
	return out
}

func TestEditSendsOnlyChanges(t *testing.T) {
	s := svc("pg-main", "RUNNING")
	s.Maintenance = &models.Maintenance{DOW: "sunday", Time: "03:00:00"}
	orig := currentEditValues(s)
	if orig.Time != "03:00" || orig.DiskGB != "80" || orig.Power != powerOn {
		t.Fatalf("current values %+v", orig)
	}
	v := orig
	v.Plan, v.DiskGB = "business-4", "100"
	req, off, any := updateRequest(orig, v)
	if !any || off || req.Plan == nil || *req.Plan != "business-4" || req.DiskSpaceMB == nil || *req.DiskSpaceMB != 102400 ||
		req.Cloud != nil || req.Powered != nil || req.Maintenance != nil || req.UserConfig != nil || req.TerminationProtection != nil {
		t.Errorf("request %+v", req)
	}
	if _, _, any := updateRequest(orig, orig); any {
		t.Error("no change should send nothing")
	}
	v = orig
	v.Time = "04:30"
	req, _, _ = updateRequest(orig, v)
	if req.Maintenance == nil || req.Maintenance.Time != "04:30:00" || req.Maintenance.DOW != "sunday" {
		t.Errorf("maintenance %+v", req.Maintenance)
	}
}

// Issue 8 §2: the edit ends with a review of old → new with the monthly price; nothing
// is sent before enter, and esc goes back to the form as it was typed.
func TestEditIsReviewedBeforeAnythingIsSent(t *testing.T) {
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}})
	a := newActions(api)
	p := editPrepFor(svc("pg-main", "RUNNING"))
	fl := a.editFlow(p)
	fl.SetSize(120, 40)
	v := currentEditValues(p.Service)
	v.Plan, v.DiskGB, v.IPFilter = "business-4", "100", "10.0.0.0/8"
	submit(a, fl, p, v)
	review, ok := fl.Current().(*components.Review)
	if !ok {
		t.Fatalf("after the form: %T, want the review", fl.Current())
	}
	out := review.View()
	for _, want := range []string{"startup-4", "business-4", "$98.04/month → $200.02/month (+$101.98/month)",
		"80 GB", "100 GB", "10.0.0.0/8", "Nothing is sent until you press enter"} {
		if !strings.Contains(out, want) {
			t.Errorf("review lacks %q:\n%s", want, out)
		}
	}
	if len(review.Changes()) != 3 {
		t.Errorf("changes: %+v", review.Changes())
	}
	if n := api.Count(fake.UpdateService); n != 0 {
		t.Fatalf("%d updates sent before the review was confirmed", n)
	}
	// esc: back to the form, still in the same modal, nothing sent.
	if _, cmd := fl.Update(tea.KeyMsg{Type: tea.KeyEsc}); fl.Current() != common.Modal(fl.Form()) || api.Count(fake.UpdateService) != 0 {
		t.Fatalf("esc from the review: %T, cmd %v", fl.Current(), run(cmd))
	}
	submit(a, fl, p, v)
	_, cmd := fl.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if n := notices(feed(a, cmd)); !strings.Contains(n, "Saved pg-main") || api.Count(fake.UpdateService) != 1 {
		t.Errorf("after enter: %q, calls %v", n, calls(api))
	}
}

// Power off and a cloud migration also need the service's name typed, after a sentence
// saying what happens (power off loses Kafka topic data).
func TestPowerOffAndMigrationNeedTheNameTyped(t *testing.T) {
	k := svc("kafka-events", "RUNNING")
	k.ServiceType = models.TypeKafka
	api := withServices(map[string][]models.Service{"acme-prod": {k}})
	a := newActions(api)
	p := editPrepFor(k)
	for _, tc := range []struct {
		name  string
		edit  func(*editValues)
		title string
		says  string
	}{
		{"power off", func(v *editValues) { v.Power = powerOff }, "Power off kafka-events", "Kafka topic data is always lost"},
		{"migration", func(v *editValues) { v.Cloud = "google-europe-north1" }, "Migrate kafka-events", "REBALANCING while its data moves"},
	} {
		api.ForgetCalls()
		fl := a.editFlow(p)
		fl.SetSize(120, 40)
		v := currentEditValues(k)
		tc.edit(&v)
		submit(a, fl, p, v)
		fl.Update(tea.KeyMsg{Type: tea.KeyEnter}) // confirm the review
		tc0, ok := fl.Current().(*components.TypedConfirm)
		if !ok {
			t.Fatalf("%s: after the review %T, want a typed confirmation", tc.name, fl.Current())
		}
		if out := tc0.View(); !strings.Contains(out, tc.title) || !strings.Contains(flat(out), tc.says) {
			t.Errorf("%s: confirmation does not say what happens:\n%s", tc.name, out)
		}
		for _, r := range "kafka-event" {
			fl.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		}
		if _, cmd := fl.Update(tea.KeyMsg{Type: tea.KeyEnter}); len(feed(a, cmd)) != 0 || api.Count(fake.UpdateService) != 0 {
			t.Fatalf("%s: sent with the name mistyped: %v", tc.name, calls(api))
		}
		fl.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'s'}})
		_, cmd := fl.Update(tea.KeyMsg{Type: tea.KeyEnter})
		feed(a, cmd)
		if api.Count(fake.UpdateService) != 1 {
			t.Errorf("%s: after the name: %v", tc.name, calls(api))
		}
	}
	// Under termination protection power off is refused in the form, before any request.
	orig := currentEditValues(k)
	orig.Protect = true
	v := orig
	v.Power = powerOff
	if err := protectedPowerOff(orig, &v); err == nil || !strings.Contains(err.Error(), "needs termination protection off") {
		t.Errorf("protected power off: %v", err)
	}
	v.Protect = false
	if err := protectedPowerOff(orig, &v); err != nil {
		t.Errorf("protection removed in the same edit: %v", err)
	}
}

// Issue 8 §3: a refusal brings the same form back with the message at its field, in the
// form's unit too; a lost answer is read back, never sent again.
func TestEditRefusalBringsTheFormBackAndALostAnswerIsReadBack(t *testing.T) {
	s := svc("pg-main", "RUNNING")
	api := withServices(map[string][]models.Service{"acme-prod": {s}})
	api.On(fake.UpdateService).Fail(errors.New("Invalid disk_space_mb: disk size can only increase: it is 81920 MB now, 40960 MB is smaller"))
	a := newActions(api)
	p := editPrepFor(s)
	a.edit = a.editFlow(p)
	a.edit.SetSize(120, 40)
	msgs := feed(a, a.update("acme-prod", "pg-main", models.UpdateServiceRequest{DiskSpaceMB: models.Ptr(40960)}))
	var reopened common.Modal
	for _, m := range msgs {
		if om, ok := m.(common.OpenModal); ok {
			reopened = om.Modal
		}
	}
	if reopened != common.Modal(a.edit) || a.edit.Current() != common.Modal(a.edit.Form()) {
		t.Fatalf("refusal did not bring the form back: %v", msgs)
	}
	reopened.Init()
	out := flat(reopened.View())
	for _, want := range []string{"see Disk size in GB", "81920 MB is 80 GB", "40960 MB is 40 GB"} {
		if !strings.Contains(out, want) {
			t.Errorf("refused form lacks %q:\n%s", want, reopened.View())
		}
	}

	api.ForgetCalls()
	api.On(fake.UpdateService).Fail(fake.ErrLost) // sent, its answer lost
	n := notices(feed(a, a.update("acme-prod", "pg-main", models.UpdateServiceRequest{DiskSpaceMB: models.Ptr(102400)})))
	if !strings.Contains(n, "checking whether service pg-main was saved") || !strings.Contains(n, "as the platform has it now") {
		t.Errorf("lost update: %q", n)
	}
	if api.Count(fake.UpdateService) != 1 {
		t.Errorf("a lost update was sent again: %v", calls(api))
	}
}

func TestFormChecks(t *testing.T) {
	a := &actions{ctx: testCtx(fake.New())}
	check := a.nameCheck([]string{"pg-main"})
	if check("pg-main") == nil || check("Bad") == nil || check("pg-new") != nil {
		t.Error("name check")
	}
	// The floor is the chosen plan's size from the plans endpoint, in the form's unit.
	floor := 81920
	disk := diskCheck(func() (int, string) { return floor, "the size of plan startup-4" })
	if err := disk("40"); err == nil || err.Error() != "disk must be at least 80 GB: the size of plan startup-4" {
		t.Errorf("below the plan: %v", err)
	}
	if disk("x") == nil || disk("100") != nil || disk("") != nil {
		t.Error("disk check")
	}
	floor = 163840 // another plan chosen
	if disk("100") == nil {
		t.Error("the check does not follow the chosen plan")
	}
	if got := explainMB("Invalid disk_space_mb: plan startup-4 takes 81920 to 819200 MB, not 1048576"); got !=
		"81920 MB is 80 GB, 819200 MB is 800 GB, 1048576 MB is 1024 GB" {
		t.Errorf("explain: %q", got)
	}
	if optionalCIDRs("10.0.0.1/8") == nil || optionalCIDRs("10.0.0.0/8, 192.168.0.0/16") != nil || optionalCIDRs("") != nil {
		t.Error("cidr check")
	}
	plan := models.Plan{PlanName: "startup-4", PriceUSD: models.MustAmount("0.1343")}
	facts := createFacts(models.CreateServiceRequest{ServiceName: "x", ServiceType: "pg", Plan: "startup-4", Cloud: "c"}, plan)
	if sum := fmt.Sprint(facts); !strings.Contains(sum, "$98.04/month") || !strings.Contains(sum, "{Cloud c}") || !strings.Contains(sum, "{Name x}") {
		t.Errorf("review facts: %s", sum)
	}
}

// Issue 11 §2 and 8 §3 on create: a refusal brings the form back; a lost answer is read
// back and reported, never sent again, with the cursor on the new service.
func TestCreateRefusedOrLost(t *testing.T) {
	api := withServices(map[string][]models.Service{"acme-prod": {svc("pg-main", "RUNNING")}})
	api.On(fake.CreateService).Fail(errors.New("Invalid disk_space_mb: plan startup-4 takes 81920 to 819200 MB, not 1048576"))
	l, _, _ := newList(t, api)
	a := l.acts
	pp := planPrep{Prep: createPrep{Project: "acme-prod"}, Type: "pg", Cloud: "aws-eu-west-1", Plans: editPrepFor(svc("x", "")).Plans}
	a.create = a.createDetailsForm(pp)
	a.create.SetSize(120, 40)
	req := models.CreateServiceRequest{ServiceName: "pg-new", ServiceType: "pg", Plan: "startup-4", Cloud: "aws-eu-west-1", DiskSpaceMB: 1048576}
	var reopened common.Modal
	for _, m := range feed(a, a.createService("acme-prod", req)) {
		if om, ok := m.(common.OpenModal); ok {
			reopened = om.Modal
		}
	}
	if reopened != common.Modal(a.create) {
		t.Fatalf("refused create did not come back: %v", reopened)
	}
	reopened.Init()
	if out := flat(reopened.View()); !strings.Contains(out, "1048576 MB is 1024 GB") ||
		!strings.Contains(out, "see Disk size in GB (optional)") {
		t.Fatalf("refused create lacks the message at its field in GB:\n%s", reopened.View())
	}

	for _, lands := range []bool{true, false} {
		api.ForgetCalls()
		if lands {
			api.On(fake.CreateService).Lose(fake.ErrLost) // created, its answer lost
		} else {
			api.On(fake.CreateService).Fail(fake.ErrLost) // lost on its way
		}
		req.ServiceName = map[bool]string{true: "pg-new", false: "pg-other"}[lands]
		n := notices(feed(a, a.createService("acme-prod", req)))
		if !strings.Contains(n, "checking whether service "+req.ServiceName+" was created") {
			t.Errorf("lands=%v: %q", lands, n)
		}
		if api.Count(fake.CreateService) != 1 {
			t.Errorf("lands=%v: a lost create was sent again: %v", lands, calls(api))
		}
		if lands && (!strings.Contains(n, "pg-new exists: it was created") || l.Table.SelectedKey() != "pg-new") {
			t.Errorf("landed create: %q, cursor on %q", n, l.Table.SelectedKey())
		}
		if !lands && !strings.Contains(n, "pg-other does not exist: nothing was created") {
			t.Errorf("lost create: %q", n)
		}
	}
}

// flat is a modal's text without its borders and line breaks (messages wrap).
func flat(s string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("│", " ", "┃", " ").Replace(s)), " ")
}

// The maintenance time reads alike in the detail, the edit form and its review: the
// platform's HH:MM:SS as HH:MM, seconds kept only when there are some, and an HH:MM
// left whole (it lost its minutes once, "03:00" becoming "03").
func TestMaintenanceTimeReadsAlikeEverywhere(t *testing.T) {
	for in, want := range map[string]string{"07:30:00": "07:30", "03:00": "03:00", "07:30:15": "07:30:15", "": ""} {
		if got := models.ShortMaintenanceTime(in); got != want {
			t.Errorf("ShortMaintenanceTime(%q) = %q, want %q", in, got, want)
		}
	}
	s := models.Service{ServiceName: "pg-main", Maintenance: &models.Maintenance{DOW: "sunday", Time: "03:00"}}
	if v := currentEditValues(s); v.Time != "03:00" || maintText(v) != "sunday 03:00 UTC" {
		t.Fatalf("edit form time %q, review %q", v.Time, maintText(v))
	}
}
