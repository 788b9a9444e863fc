package billing

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/open"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

// newFake is the billing tests' platform: two groups, a project in one and a project
// in none.
func newFake(t *testing.T) (*common.Context, *fake.API) {
	t.Helper()
	f := fake.New()
	f.AddBillingGroups(
		models.BillingGroup{BillingGroupID: "g-am", BillingGroupName: "Acme Americas", AccountID: "acc", BillingCurrency: "USD"},
		models.BillingGroup{BillingGroupID: "g-eu", BillingGroupName: "Acme Europe", AccountID: "acc", BillingCurrency: "EUR"})
	f.AddProjects(
		models.Project{ProjectName: "prod", AccountID: "acc", BillingGroupID: "g-eu", BillingGroupName: "Acme Europe"},
		models.Project{ProjectName: "lab", AccountID: "acc"})
	ctx := uitest.NewContext()
	fake.Connect(ctx, f)
	ctx.ProfileAccount = "acc"
	return ctx, f
}

// feed delivers msg to v and then every message its commands produce, in order, and
// returns the messages that were not for v (what the root would handle).
func feed(v common.View, msg tea.Msg) []tea.Msg {
	mine := func(m tea.Msg) bool { a, ok := m.(common.Addressed); return ok && a.Target() == v.ID() }
	if _, addressed := msg.(common.Addressed); addressed && !mine(msg) {
		return nil
	}
	update := func(m tea.Msg) tea.Cmd { _, cmd := v.Update(m); return cmd }
	var out []tea.Msg
	for _, m := range uitest.Pump(update(msg), update, mine) {
		if _, addressed := m.(common.Addressed); !addressed { // another view's answer is dropped
			out = append(out, m)
		}
	}
	return out
}

func loadedGroups(t *testing.T, ctx *common.Context) *Groups {
	t.Helper()
	g := New(ctx).(*Groups)
	g.SetSize(120, 20)
	for _, m := range uitest.Run(g.Init()) {
		feed(g, m)
	}
	if len(g.Items()) == 0 {
		t.Fatal("groups did not load")
	}
	return g
}

func texts(msgs []tea.Msg) string {
	var s []string
	for _, m := range msgs {
		if n, ok := m.(common.Notify); ok {
			s = append(s, n.Text)
		}
	}
	return strings.Join(s, " | ")
}

func TestOpeningAGroupMakesItCurrent(t *testing.T) {
	ctx, _ := newFake(t)
	g := loadedGroups(t, ctx)
	msgs := feed(g, tea.KeyMsg{Type: tea.KeyEnter}) // Acme Americas, the first row
	var sel *common.SelectBillingGroup
	pushed := false
	for _, m := range msgs {
		switch m := m.(type) {
		case common.SelectBillingGroup:
			sel = &m
		case common.PushView:
			_, pushed = m.View.(*GroupDetail)
		}
	}
	if sel == nil || sel.ID != "g-am" || sel.Name != "Acme Americas" || !pushed {
		t.Fatalf("select %+v, pushed %v (msgs %#v)", sel, pushed, msgs)
	}
}

// create sends a create of name through the view's actions, as the form's submit does.
func create(g *Groups, name string) []tea.Msg {
	var out []tea.Msg
	for _, m := range uitest.Run(g.acts.sendCreate(nil, "acc", name, models.BillingGroupRequest{BillingGroupName: &name})) {
		for _, r := range feed(g, m) {
			if _, ok := r.(common.RefreshNow); ok {
				// The root hands the focused view its refresh.
				out = append(out, feed(g, r)...)
				continue
			}
			out = append(out, r)
		}
	}
	return out
}

func TestCreatedGroupGetsTheCursor(t *testing.T) {
	ctx, _ := newFake(t)
	g := loadedGroups(t, ctx)
	msgs := create(g, "Acme Nordics")
	if !strings.Contains(texts(msgs), "Created billing group Acme Nordics") {
		t.Fatalf("messages: %s", texts(msgs))
	}
	if b, ok := g.Selected(); !ok || b.BillingGroupID != fake.GroupID("Acme Nordics") {
		t.Fatalf("cursor on %+v", b)
	}
}

func TestCreateOfUnknownOutcomeReadsBackAndNeverResends(t *testing.T) {
	ctx, f := newFake(t)
	g := loadedGroups(t, ctx)
	f.On(fake.CreateBillingGroup).Fail(fake.ErrLost)

	// Not there: nothing was created, and nothing is sent again.
	msgs := create(g, "Acme Nordics")
	got := texts(msgs)
	if !strings.Contains(got, "The connection dropped after the request was sent; checking whether billing group Acme Nordics was created") ||
		!strings.Contains(got, "Billing group Acme Nordics does not exist: nothing was created") || strings.Contains(got, "refused") {
		t.Fatalf("messages: %s", got)
	}
	// There (the platform made it, the answer was lost): it was created, and the cursor goes to it.
	f.On(fake.CreateBillingGroup).Lose(fake.ErrLost)
	msgs = create(g, "Acme Baltics")
	if got := texts(msgs); !strings.Contains(got, "Billing group Acme Baltics exists: it was created") {
		t.Fatalf("messages: %s", got)
	}
	if b, ok := g.Selected(); !ok || b.BillingGroupID != fake.GroupID("Acme Baltics") {
		t.Fatalf("cursor on %+v", b)
	}
	if n := f.Count(fake.CreateBillingGroup); n != 2 {
		t.Fatalf("%d creates sent for two submits: a lost one was sent again", n)
	}
}

// refuse sends a create the fake refuses with msg, through the write protocol.
func refuse(a *actions, f *fake.API, form *components.Form, msg string) []tea.Msg {
	f.On(fake.CreateBillingGroup).Fail(errors.New(msg))
	var out []tea.Msg
	for _, m := range uitest.Run(a.sendCreate(form, "acc", "Acme Nordics", models.BillingGroupRequest{BillingGroupName: models.Ptr("Acme Nordics")})) {
		cmd, _, _ := a.handle(m)
		out = append(out, uitest.Run(cmd)...)
	}
	return out
}

func TestRefusedCreateComesBackWithTheMessageAtItsField(t *testing.T) {
	ctx, f := newFake(t)
	a := &actions{ctx: ctx, req: common.NewRequests()}
	v := &groupValues{Name: "Acme Nordics", Company: "Nordics AB"}
	created := groupForm(ctx, "Create billing group", v, func() tea.Cmd { return nil })
	msgs := refuse(a, f, created, "Invalid billing_group_name: too long")
	var form *components.Form
	for _, m := range msgs {
		if o, ok := m.(common.OpenModal); ok {
			form, _ = o.Modal.(*components.Form)
		}
	}
	if form != a.create {
		t.Fatalf("the same form did not come back: %#v", msgs)
	}
	show(form)
	view := ansi.Strip(form.View())
	if !strings.Contains(view, "see Name") || !strings.Contains(view, "Invalid billing_group_name: too long") || !strings.Contains(view, "Acme Nordics") {
		t.Fatalf("form:\n%s", view)
	}
	// A 409 names no field but is about the name.
	refuse(a, f, created, "Billing group Acme Nordics already exists")
	show(form)
	if view := ansi.Strip(form.View()); !strings.Contains(view, "see Name") {
		t.Fatalf("conflict:\n%s", view)
	}
}

// show sizes a modal and gives it one message (huh lays its fields out in Update).
func show(m common.Modal) {
	m.SetSize(100, 40)
	m.Update(struct{}{})
}

func TestEditReviewListsOnlyWhatChanges(t *testing.T) {
	orig := valuesOf(models.BillingGroup{BillingGroupName: "G", BillingCurrency: "USD", City: "San Francisco",
		AddressLines: []string{"500 Market Street", "Suite 400"}, CountryCode: "US"})
	v := orig
	v.City, v.Currency, v.Country = "Oakland", "EUR", "us"
	changes := groupChanges(orig, v)
	if len(changes) != 2 || changes[0].Field != "Currency" || !changes[0].Warn || changes[1].Field != "City" ||
		changes[1].Old != "San Francisco" || changes[1].New != "Oakland" {
		t.Fatalf("changes: %+v", changes)
	}
	req, changed := request(v, &orig)
	if !changed || req.City == nil || *req.City != "Oakland" || req.BillingCurrency == nil || req.CountryCode != nil || req.AddressLines != nil {
		t.Fatalf("request: %+v", req)
	}
	if _, changed := request(orig, &orig); changed {
		t.Fatal("nothing changed, yet something would be sent")
	}
}

func TestPaletteUsesTheCurrentGroupElseTheProjectsGroup(t *testing.T) {
	ctx, f := newFake(t)
	invoices := func() []tea.Msg {
		for _, c := range Commands() {
			if c.Name == "invoices" {
				return uitest.Run(c.Run(ctx, ""))
			}
		}
		t.Fatal("no invoices command")
		return nil
	}
	shown := func(msgs []tea.Msg) string {
		for _, m := range msgs {
			if p, ok := m.(common.PushView); ok {
				return p.View.Title()
			}
		}
		return "(nothing) " + texts(msgs)
	}

	uitest.Session(ctx).SetProject("prod") // in Acme Europe
	msgs := invoices()
	if got := shown(msgs); got != "Invoices of Acme Europe" {
		t.Fatalf("project's group: %s", got)
	}
	found := false
	for _, m := range msgs {
		if s, ok := m.(common.SelectBillingGroup); ok {
			found = s.ID == "g-eu"
		}
	}
	if !found {
		t.Fatal("the project's group was not made current")
	}

	uitest.Session(ctx).SetBillingGroup("g-am", "Acme Americas")
	gets := f.Count(fake.GetProject)
	if got := shown(invoices()); got != "Invoices of Acme Americas" || f.Count(fake.GetProject) != gets {
		t.Fatalf("current group: %s (project read %d times)", got, f.Count(fake.GetProject)-gets)
	}

	uitest.Session(ctx).SetBillingGroup("", "")
	uitest.Session(ctx).SetProject("lab") // no group
	if got := shown(invoices()); !strings.Contains(got, "lab has no billing group: pick a group and press i") {
		t.Fatalf("no group: %s", got)
	}
}

func TestFolderIsCheckedInACommandNotInTheValidator(t *testing.T) {
	ctx, _ := newFake(t)
	v := NewInvoices(ctx, models.BillingGroup{BillingGroupID: "g", BillingGroupName: "G"})
	v.SetSize(120, 20)
	dir := t.TempDir()
	missing := dir + "/missing"
	m := v.folderModal(invoice{Invoice: models.Invoice{InvoiceNumber: "A-1", DownloadURL: "http://x/a.pdf"}}, missing)
	a := m.ask
	if err := a.validate(missing); err != nil {
		t.Fatalf("the validator looked at the filesystem: %v", err)
	}
	if a.validate(" ") == nil {
		t.Fatal("an empty folder passed")
	}
	check := func(folder string) tea.Msg {
		return common.Fetch(m.req, kindCheck, func(context.Context) (folderChecked, error) {
			p, err := checkFolder(folder)
			return folderChecked{p}, err
		})()
	}
	// Refused: the form stays open with the reason at the field.
	_, cmd := m.Update(check(missing))
	uitest.Run(cmd)
	if m.Closed() {
		t.Fatal("the form closed on a refused folder")
	}
	if err := a.validate(missing); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("the check's answer is not at the field: %v", err)
	}
	if err := a.validate(dir); err != nil {
		t.Fatalf("another folder is still refused: %v", err)
	}
	// Passed: the form closes and its view starts the download there.
	_, cmd = m.Update(check(dir))
	var start *startDownload
	closed := m.Closed()
	for _, msg := range uitest.Run(cmd) {
		if msg, ok := msg.(startDownload); ok {
			start = &msg
		}
	}
	if !closed || start == nil || start.Target() != v.ID() || start.folder != dir || start.inv.InvoiceNumber != "A-1" {
		t.Fatalf("closed %v, start %+v", closed, start)
	}
}

func TestOpenFailureSaysWhyAndOffersCopy(t *testing.T) {
	msgs := uitest.Run(opened{number: "A-1", err: errors.New("xdg-open not found")}.notify())
	n, ok := msgs[0].(common.Notify)
	if !ok || n.Level != theme.LevelWarn || n.Text != "Not opened: xdg-open not found; y copies the link of A-1" {
		t.Fatalf("got %#v", msgs)
	}
}

// The Projects column counts what the group's own read lists, as its detail does: a
// developer's project list carries no billing group, which made every count 0.
func TestGroupsCountProjectsAsTheDetailDoes(t *testing.T) {
	ctx, f := newFake(t)
	f.SetProjects(models.Project{ProjectName: "prod", AccountID: "acc"}) // as a developer sees it
	f.AddGroupMembers("g-eu", models.Project{ProjectName: "prod", BillingGroupID: "g-eu"}, models.Project{ProjectName: "other", BillingGroupID: "g-eu"})
	g := loadedGroups(t, ctx)
	for _, b := range g.Items() {
		want := map[string]int{"g-eu": 2, "g-am": 0}[b.BillingGroupID]
		if !b.Counted || b.Count != want {
			t.Errorf("%s: count %d (counted %v), want %d", b.BillingGroupName, b.Count, b.Counted, want)
		}
	}
}

// `o` on an invoice whose link is not a web address runs nothing and says why; it once
// ran xdg-open with file:///etc/passwd, ./--help or a .desktop file and said "✓ Opened".
func TestOpenRefusesALinkThatIsNotAWebAddress(t *testing.T) {
	t.Setenv("DISPLAY", ":0") // a desktop, so only the refusal can stop it
	t.Setenv("PATH", t.TempDir())
	for _, link := range []string{"file:///etc/passwd", "./--help", "/usr/share/applications/x.desktop"} {
		inv := invoice{Invoice: models.Invoice{InvoiceNumber: "A-1", DownloadURL: link}}
		msg := (*Invoices)(nil).open(inv)()
		o, ok := msg.(opened)
		if !ok || !errors.Is(o.err, open.ErrRefused) {
			t.Fatalf("%s: got %#v", link, msg)
		}
		n, _ := uitest.Run(o.notify())[0].(common.Notify)
		if n.Level != theme.LevelWarn || !strings.HasPrefix(n.Text, "Not opened: ") || strings.Contains(n.Text, "Opened") || strings.Contains(n.Text, link) {
			t.Errorf("%s: %q", link, n.Text)
		}
	}
}

// The counts come from one read per group, kept for a minute: the live refresh does not
// read every group every few seconds; a billing write made here reads them again.
func TestGroupCountsAreReadOncePerMinuteAndAfterAWrite(t *testing.T) {
	ctx, f := newFake(t)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	ctx.Now = func() time.Time { return now }
	g := loadedGroups(t, ctx)
	reads := func() int { return f.Count(fake.GetBillingGroup) }
	first := reads()
	if first != len(f.BillingGroups()) {
		t.Fatalf("%d group reads for %d groups", first, len(f.BillingGroups()))
	}
	for _, m := range uitest.Run(g.Load()) {
		feed(g, m)
	}
	if reads() != first {
		t.Fatalf("a refresh within the minute read the groups again (%d reads)", reads())
	}
	ctx.BillingWrites++
	for _, m := range uitest.Run(g.Load()) {
		feed(g, m)
	}
	if reads() != 2*first {
		t.Fatalf("after a billing write: %d reads, want %d", reads(), 2*first)
	}
	now = now.Add(2 * time.Minute)
	for _, m := range uitest.Run(g.Load()) {
		feed(g, m)
	}
	if reads() != 3*first {
		t.Fatalf("after a minute: %d reads, want %d", reads(), 3*first)
	}
}
