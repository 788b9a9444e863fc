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
)

// waitLine waits for one screen line (since the mark) that holds every part.
func (s *screen) waitLine(parts ...string) {
	s.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.drain()
		for _, line := range strings.Split(stripANSI(s.buf.String()[s.from:]), "\n") {
			ok := true
			for _, p := range parts {
				ok = ok && strings.Contains(line, p)
			}
			if ok {
				return
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for a line with %q:\n%s", parts, stripANSI(s.buf.String()[s.from:]))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *screen) backspaces(n int) {
	for range n {
		s.tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	}
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

func TestFlowBillingGroupsInvoicesCopyLink(t *testing.T) {
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

func TestFlowBillingCreateGroup(t *testing.T) {
	s, e := openBillingTab(t, 120, 40)
	s.mark()
	s.keys("c")
	s.waitFor("Create billing group", "Name")
	s.typeText(" ")
	s.waitFor("✗ billing group name is required") // validated as typed
	s.backspaces(1)
	s.typeText("Acme Nordics")
	settle()
	s.keys("enter") // name
	settle()
	s.keys("enter") // currency: USD, the first
	settle()
	s.typeText("Acme Nordics AB")
	s.keys("enter")
	settle()
	s.typeText("nope")
	s.waitFor("is not an e-mail address")
	s.backspaces(4)
	s.typeText("ap@nordics.example")
	settle()
	s.keys("enter") // next group: address
	settle()
	s.typeText("Kungsgatan 1")
	s.keys("enter")
	settle()
	s.typeText("Stockholm")
	s.keys("enter")
	settle()
	s.keys("enter") // state
	settle()
	s.typeText("11143")
	s.keys("enter")
	settle()
	s.typeText("S1")
	s.waitFor("country code must be two letters")
	s.backspaces(1)
	s.typeText("E")
	settle()
	s.keys("enter")
	settle()
	s.mark()
	s.keys("enter") // VAT id: submit
	s.waitFor("Created billing group Acme Nordics")
	s.waitLine("Acme Nordics", "USD", "SE")
	groups, err := client(t, e.url, e.admin).ListBillingGroups(context.Background(), e.sb.AccountID())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		if g.BillingGroupName == "Acme Nordics" {
			if g.CountryCode != "SE" || g.City != "Stockholm" || len(g.BillingEmail) != 1 || g.BillingEmail[0] != "ap@nordics.example" ||
				len(g.AddressLines) != 1 || g.AddressLines[0] != "Kungsgatan 1" || g.Company != "Acme Nordics AB" {
				t.Fatalf("created group: %+v", g)
			}
			return
		}
	}
	t.Fatal("Acme Nordics was not created on the platform")
}

func TestFlowBillingAssignProject(t *testing.T) {
	s, _ := openBillingTab(t, 140, 40)
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
	s.waitFor("✗", "may not change project settings")

	// Back to the list (esc clears the filter first), then Acme Americas.
	s.keys("esc")
	settle()
	s.keys("esc")
	settle()
	s.keys("g")
	s.mark()
	s.keys("enter")
	s.waitFor("Projects (1)", "acme-analytics")
	s.mark()
	s.keys("p")
	s.waitFor("Assign a project to Acme Americas", "(now in Acme Europe)")
	s.keys("down")
	settle()
	s.mark()
	s.keys("enter") // acme-prod
	s.waitFor("Assigned acme-prod to billing group Acme Americas", "Projects (2)")
	s.waitLine("acme-prod", "estimated balance")
	s.mark()
	s.keys("1")
	s.waitLine("acme-prod", "Acme Americas")
}

func TestFlowBillingEstimatesAndCredits(t *testing.T) {
	s, _ := openBillingTab(t, 120, 40)
	s.mark()
	s.keys("E")
	s.waitFor("Estimate of acme-prod", "estimated balance", "EUR")
	s.waitLine("kafka-events", "kafka", "EUR", "█")
	s.mark()
	s.keys("a")
	s.waitFor("All projects", "Total EUR", "Total USD")
	s.keys("esc")
	s.keys("esc")
	s.mark()
	s.keys("C")
	s.waitFor("Account credits", "342.75 USD", "500.00 USD", "157.25 USD", "69% left")
}

func TestFlowBillingDownloadPDF(t *testing.T) {
	s, _ := openBillingTab(t, 120, 40)
	s.keys("enter")
	s.waitFor("Invoices (13)")
	s.mark()
	s.keys("i")
	s.waitFor("AUS-202")
	s.mark()
	s.keys("D")
	s.waitFor("Download invoice AUS-", "Folder")
	settle()
	s.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
	dir := t.TempDir()
	s.typeText(filepath.Join(dir, "missing"))
	s.waitFor("does not exist")
	s.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
	s.typeText(dir)
	settle()
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
// platform's own sentence in the footer, and nothing is created.
func TestFlowBillingDeveloperRefusedCreate(t *testing.T) {
	e := startSandbox(t)
	s := start(t, settings(e, e.dev), client(t, e.url, e.dev), 120, 40)
	s.waitFor("acme-prod")
	s.mark()
	s.keys("4")
	s.waitFor("Acme Americas")
	s.mark()
	s.keys("c")
	s.waitFor("Create billing group")
	s.typeText("Dev Group")
	for range 10 {
		settle()
		s.keys("enter")
	}
	s.waitFor("✗", "may not create billing groups")
}

func TestFlowBillingPaletteEditAndJumpToService(t *testing.T) {
	s, e := openBillingTab(t, 120, 40)
	s.mark()
	s.keys(":")
	s.typeText("credits")
	s.keys("enter")
	s.waitFor("Account credits", "% left")
	s.keys("esc")
	s.mark()
	s.keys(":")
	s.typeText("invoices")
	s.keys("enter")
	s.waitFor("Total incl. VAT", "AUS-")
	s.keys("esc")
	settle()

	// Edit: only the changed field is sent.
	s.mark()
	s.keys("e")
	s.waitFor("Edit billing group Acme Americas")
	for range 4 { // name, currency, company, e-mails
		settle()
		s.keys("enter")
	}
	settle()
	s.keys("enter") // address lines
	settle()
	s.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
	s.typeText("Oakland")
	for range 5 { // city, state, zip, country, VAT id: submit
		settle()
		s.keys("enter")
	}
	s.waitFor("Saved billing group Acme Americas")
	groups, err := client(t, e.url, e.admin).ListBillingGroups(context.Background(), e.sb.AccountID())
	if err != nil {
		t.Fatal(err)
	}
	edited := false
	for _, g := range groups {
		if g.BillingGroupName == "Acme Americas" {
			edited = true
			if g.City != "Oakland" || g.ZipCode != "94105" || len(g.AddressLines) != 2 {
				t.Fatalf("edited group: %+v", g)
			}
		}
	}
	if !edited {
		t.Fatal("Acme Americas is gone after the edit")
	}

	// Estimates: enter opens the service in the Services tab.
	s.mark()
	s.keys(":")
	s.typeText("estimate")
	s.keys("enter")
	s.waitLine("kafka-events", "█")
	s.mark()
	s.keys("enter")
	s.waitFor("[2 Services]", "kafka-events")
}
