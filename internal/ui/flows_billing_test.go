package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
)

// waitLine waits for one screen line (since the mark) that holds every part.
func (s *screen) waitLine(parts ...string) {
	s.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.drain()
		for _, line := range strings.Split(ansi.Strip(s.buf.String()[s.from:]), "\n") {
			ok := true
			for _, p := range parts {
				ok = ok && strings.Contains(line, p)
			}
			if ok {
				return
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for a line with %q:\n%s", parts, ansi.Strip(s.buf.String()[s.from:]))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *screen) backspaces(n int) {
	for range n {
		s.tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	}
}

func (s *screen) clearField() { s.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU}) }

// palette runs a palette command.
func (s *screen) palette(command string) {
	s.t.Helper()
	s.mark()
	s.keys(":")
	s.waitFor("Command")
	s.typeText(command)
	s.keys("enter")
}

// openBillingTab starts the UI as admin and shows the Billing tab's groups.
func openBillingTab(t *testing.T, w, h int) (*screen, env) {
	e := startSandbox(t)
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), w, h)
	s.waitFor("acme-prod")
	s.mark()
	s.keys("4")
	s.waitFor("Billing groups", "Acme Americas", "Acme Europe")
	return s, e
}

func groupNamed(t *testing.T, e env, name string) (models.BillingGroup, bool) {
	t.Helper()
	groups, err := client(t, e.url, e.admin).ListBillingGroups(context.Background(), e.sb.AccountID())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		if g.BillingGroupName == name {
			return g, true
		}
	}
	return models.BillingGroup{}, false
}

func TestFlowBillingGroupsInvoicesCopyLink(t *testing.T) {
	t.Parallel()
	s, _ := openBillingTab(t, 120, 40)
	s.waitLine("Acme Americas", "USD", "paypal", "US")
	s.mark()
	s.keys("enter") // Acme Americas, first by name
	s.waitFor("Address line 1", "500 Market Street", "ap@acme.example", "Projects (1)", "acme-analytics", "Invoices (13)")
	s.mark()
	s.keys("i")
	s.waitFor("Invoices of Acme", "Total incl. VAT", "▲ unpaid", "✓ paid", "⊘ void", "✗ uncollectible")
	s.waitLine("AUS-", "USD")
	s.mark()
	s.keys("y")
	s.waitFor("download link of invoice AUS-")
	s.mark()
	s.keys("f")
	s.waitFor("Showing unpaid invoices")
	s.mark()
	s.keys("m")
	s.waitFor("Invoiced totals incl. VAT per month", "█", "void invoices left out")
	s.waitLine("█", " USD")
}

// fillGroup types a new group's fields, from the name to the VAT id (not submitted).
func fillGroup(s *screen, name, company string) {
	s.typeText(name)
	s.advance("Currency", "enter") // USD, the first
	s.advance("Company", "enter")
	s.typeText(company)
	s.advance("Billing e-mails", "enter")
	s.typeText("nope")
	s.waitFor("is not an e-mail address") // validated as typed
	s.backspaces(4)
	s.typeText("ap@nordics.example")
	s.advance("Address lines", "enter")
	s.typeText("Kungsgatan 1")
	s.advance("City", "enter")
	s.typeText("Stockholm")
	s.advance("State or province", "enter")
	s.advance("ZIP code", "enter")
	s.typeText("11143")
	s.advance("Country code", "enter")
	s.typeText("S1")
	s.waitFor("country code must be two letters")
	s.backspaces(1)
	s.typeText("E")
	s.advance("VAT id", "enter")
}

func TestFlowBillingCreateGroupSelectsIt(t *testing.T) {
	t.Parallel()
	s, e := openBillingTab(t, 120, 40)
	s.mark()
	s.keys("c")
	s.waitFor("Create billing group", "┃ Name")
	s.typeText(" ")
	s.waitFor("✗ billing group name is required") // validated as typed
	s.backspaces(1)
	fillGroup(s, "Acme Nordics", "Acme Nordics AB")
	s.mark()
	s.keys("enter") // VAT id: submit
	s.waitFor("Created billing group Acme Nordics")
	s.waitLine("Acme Nordics", "USD", "SE")
	g, ok := groupNamed(t, e, "Acme Nordics")
	if !ok || g.CountryCode != "SE" || g.City != "Stockholm" || len(g.BillingEmail) != 1 || g.BillingEmail[0] != "ap@nordics.example" ||
		len(g.AddressLines) != 1 || g.AddressLines[0] != "Kungsgatan 1" || g.Company != "Acme Nordics AB" {
		t.Fatalf("created group: %+v (found %v)", g, ok)
	}
	// The cursor is on the new group: enter opens it, not the first row.
	s.mark()
	s.keys("enter")
	s.waitFor("Kungsgatan 1", "Stockholm", "Projects (0)")
}

// A refused create comes back with everything typed and the platform's message at the
// field it is about; enter sends again.
func TestFlowBillingRefusedCreateKeepsTheForm(t *testing.T) {
	t.Parallel()
	s, e := openBillingTab(t, 120, 40)
	s.mark()
	s.keys("c")
	s.waitFor("Create billing group", "┃ Name")
	fillGroup(s, "Acme Europe", "Nordics Dup AB") // the name is taken
	s.mark()
	s.keys("enter")
	// The form comes back with the focus on the field the message names.
	s.waitFor("The platform refused this; see Name", "already exists", "Acme Europe", "Nordics Dup AB", "┃ Name")
	s.clearField()
	s.typeText("Acme Baltics")
	// The second page keeps its focus too (on the VAT id, where enter was pressed).
	for _, f := range []string{"Currency", "Company", "Billing e-mails", "VAT id"} {
		s.advance(f, "enter")
	}
	s.mark()
	s.keys("enter")
	s.waitFor("Created billing group Acme Baltics")
	if g, ok := groupNamed(t, e, "Acme Baltics"); !ok || g.Company != "Nordics Dup AB" || g.City != "Stockholm" {
		t.Fatalf("sent again: %+v (found %v)", g, ok)
	}
}

func TestFlowBillingAssignProjectAsksFirst(t *testing.T) {
	t.Parallel()
	s, e := openBillingTab(t, 140, 40)
	s.keys("/")
	s.typeText("Europe")
	s.keys("enter")
	s.mark()
	s.keys("enter")
	s.waitFor("Projects (2)", "acme-prod", "acme-staging")
	s.mark()
	s.keys("p")
	s.waitFor("Assign a project to Acme Europe", "acme-analytics", "(now in Acme Americas)", "(already in this group)")
	s.mark()
	s.keys("enter") // acme-analytics: the caller is only a developer there
	s.waitFor("Move acme-analytics to Acme Europe", "Billing group of acme-analytics", "Acme Americas → Acme Europe",
		"Invoices of Acme Europe include acme-", "Americas stops billing it", "Nothing is sent until you press enter")
	s.mark()
	s.keys("enter")
	s.waitFor("see Project", "is developer, which may not", "Assign a project to Acme Europe") // the form is back
	s.mark()
	s.keys("esc")
	s.waitFor("Discard changes?")
	s.keys("y")
	s.waitFor("cancelled")

	// Back to the list (esc clears the filter first), then Acme Americas.
	s.mark()
	s.keys("esc")
	s.waitFor("Billing groups")
	s.mark()
	s.keys("esc")
	s.waitFor("Acme Americas")
	s.keys("g")
	s.mark()
	s.keys("enter")
	s.waitFor("Projects (1)", "acme-analytics")
	s.mark()
	s.keys("p")
	s.waitFor("Assign a project to Acme Americas", "(now in Acme Europe)")
	s.keys("down")
	s.mark()
	s.keys("enter") // acme-prod
	s.waitFor("Move acme-prod to Acme Americas", "Acme Europe → Acme Americas")
	p, err := client(t, e.url, e.admin).GetProject(context.Background(), "acme-prod")
	if err != nil || p.BillingGroupName != "Acme Europe" {
		t.Fatalf("moved before it was confirmed: %+v %v", p.BillingGroupName, err)
	}
	s.mark()
	s.keys("enter")
	s.waitFor("Assigned acme-prod to billing group Acme Americas", "Projects (2)")
	s.waitLine("acme-prod", "estimated balance")
	s.mark()
	s.keys("1")
	s.waitLine("acme-prod", "Acme Americas")
}

func TestFlowBillingEstimatesAndCredits(t *testing.T) {
	t.Parallel()
	s, _ := openBillingTab(t, 120, 40)
	s.mark()
	s.keys("E") // of the selected group, Acme Americas
	s.waitFor("Estimate of Acme Americas", "acme-analytics", "Total USD")
	s.mark()
	s.keys("esc")
	s.waitFor("Billing groups")
	// :estimate without a current group: the current project's own estimate, with its
	// services (the most specific place wins), not its group's list of projects.
	s.palette("estimate")
	s.waitFor("Estimate of acme-prod", "estimated balance", "EUR")
	s.waitLine("kafka-events", "kafka", "EUR", "█")
	s.mark()
	s.keys("a")
	s.waitFor("All projects", "Total EUR", "Total USD")
	s.palette("credits")
	s.waitFor("Account credits", "342.75 USD", "500.00 USD", "157.25 USD", "69% left")
}

func TestFlowBillingDownloadPDF(t *testing.T) {
	t.Parallel()
	s, _ := openBillingTab(t, 120, 40)
	s.keys("enter")
	s.waitFor("Invoices (13)")
	s.mark()
	s.keys("i")
	s.waitFor("AUS-202")
	s.mark()
	s.keys("D")
	s.waitFor("Download invoice AUS-", "┃ Folder")
	s.clearField()
	dir := t.TempDir()
	s.typeText(filepath.Join(dir, "missing"))
	s.mark()
	s.keys("enter") // checked in a command; the form comes back with the reason
	s.waitFor("does not exist", "Download invoice AUS-")
	s.clearField()
	s.typeText(dir)
	s.mark()
	s.keys("enter")
	s.waitFor("Saved invoice AUS-")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if len(files) != 1 {
		entries, _ := os.ReadDir(dir)
		t.Fatalf("pdf files: %v (dir: %v)", files, entries)
	}
	b, err := os.ReadFile(files[0])
	if err != nil || !bytes.HasPrefix(b, []byte("%PDF")) {
		t.Fatalf("file %s: %v %q", files[0], err, b[:min(len(b), 16)])
	}
}

// The sandbox lets a developer read billing but not change it: the refusal is the
// platform's own sentence, the form comes back with what was typed, nothing is created.
func TestFlowBillingDeveloperRefusedCreate(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	s := start(t, settings(e, e.dev), client(t, e.url, e.dev), 120, 40)
	s.waitFor("acme-prod")
	s.mark()
	s.keys("4")
	s.waitFor("Acme Americas")
	s.mark()
	s.keys("c")
	s.waitFor("Create billing group", "┃ Name")
	s.typeText("Dev Group")
	s.advance("Currency", "enter")
	s.advance("Company", "enter")
	s.advance("Billing e-mails", "enter")
	s.advance("Address lines", "enter")
	s.advance("City", "enter")
	s.advance("State or province", "enter")
	s.advance("ZIP code", "enter")
	s.advance("Country code", "enter")
	s.typeText("FI")
	s.advance("VAT id", "enter")
	s.mark()
	s.keys("enter")
	s.waitFor("✗", "may not create billing", "The platform refused this", "Dev Group")
	if _, ok := groupNamed(t, e, "Dev Group"); ok {
		t.Fatal("created although refused")
	}
}

func TestFlowBillingPaletteEditAndJumpToService(t *testing.T) {
	t.Parallel()
	s, e := openBillingTab(t, 120, 40)
	s.palette("credits")
	s.waitFor("Account credits", "% left")
	s.mark()
	s.keys("esc")
	s.waitFor("Billing groups")
	// No current group: the current project's (acme-prod is in Acme Europe).
	s.palette("invoices")
	s.waitFor("Invoices of Acme Europe", "Total incl. VAT", "AEU-")
	s.mark()
	s.keys("esc")
	s.waitFor("Billing groups")

	// Edit: a review of what changes, then only the changed field is sent.
	s.mark()
	s.keys("e")
	s.waitFor("Edit billing group Acme Americas", "┃ Name")
	for _, f := range []string{"Currency", "Company", "Billing e-mails", "Address lines", "City"} {
		s.advance(f, "enter")
	}
	s.clearField()
	s.typeText("Oakland")
	for _, f := range []string{"State or province", "ZIP code", "Country code", "VAT id"} {
		s.advance(f, "enter")
	}
	s.mark()
	s.keys("enter")
	s.waitFor("Edit billing group Acme Americas: review", "City", "San Francisco → Oakland", "Nothing is sent until you press enter")
	if g, _ := groupNamed(t, e, "Acme Americas"); g.City != "San Francisco" {
		t.Fatalf("sent before the review was confirmed: %+v", g)
	}
	s.mark()
	s.keys("enter")
	s.waitFor("Saved billing group Acme Americas")
	g, ok := groupNamed(t, e, "Acme Americas")
	if !ok || g.City != "Oakland" || g.ZipCode != "94105" || len(g.AddressLines) != 2 {
		t.Fatalf("edited group: %+v (found %v)", g, ok)
	}

	// Opening a group makes it current: :invoices shows its invoices.
	s.mark()
	s.keys("enter")
	s.waitFor("500 Market Street")
	s.palette("invoices")
	s.waitFor("Invoices of Acme Americas", "AUS-")

	// :estimate of the current group; enter opens a project's, enter a service.
	s.palette("estimate")
	s.waitFor("Estimate of Acme Americas", "acme-analytics")
	s.mark()
	s.keys("enter")
	s.waitFor("Estimate of acme-analytics", "estimated balance")
	s.mark()
	s.keys("enter")
	s.waitFor("[2 Services]")
}

// Moving a project to a billing group of another currency from the Projects tab (e) is
// reviewed as the same move from Billing › group › p is: nothing is sent before enter.
func TestFlowProjectEditBillingGroupMoveIsReviewed(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	c := client(t, e.url, e.admin)
	s := start(t, settings(e, e.admin), c, 120, 40)
	s.waitFor("acme-prod")
	s.mark()
	s.keys("e")
	s.waitFor("Edit project acme-prod", "Technical e-mails")
	s.advance("Billing e-mails", "enter")
	s.advance("Technical e-mails", "enter")
	s.advance("Country code", "enter")
	s.advance("Billing group", "enter")
	s.mark()
	s.keys("down", "down")
	s.waitFor("Acme Americas")
	s.mark()
	s.keys("enter")
	s.waitFor("Move acme-prod to Acme Americas", "Acme Europe → Acme Americas", "Currency", "EUR → USD",
		"Nothing is sent until you press enter")
	if p, err := c.GetProject(context.Background(), "acme-prod"); err != nil || p.BillingGroupName != "Acme Europe" {
		t.Fatalf("moved before it was confirmed: %+v %v", p.BillingGroupName, err)
	}
	s.mark()
	s.keys("enter")
	s.waitFor("Saved project acme-prod")
	if p, err := c.GetProject(context.Background(), "acme-prod"); err != nil || p.BillingGroupName != "Acme Americas" {
		t.Fatalf("not moved: %+v %v", p.BillingGroupName, err)
	}
}
