package components

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
)

func planRows(n, hidden int) []PlanRow {
	rows := make([]PlanRow, n)
	for i := range rows {
		rows[i] = PlanRow{Resource: fmt.Sprintf("prod/pg-%04d", i), Change: "protection off → on · maintenance saturday 03:00 UTC → sunday 03:00 UTC",
			Cost: "+$0.00/month", Hidden: i < hidden}
	}
	return rows
}

// A plan is applied only after the number of resources it sends to is typed; skipped
// rows are not counted and never sent; esc before that sends nothing.
func TestPlanIsConfirmedByTypingTheNumber(t *testing.T) {
	ctx := common.NewContext()
	rows := planRows(5, 2)
	rows[4].Skip = "termination protection is on: remove it before a delete"
	var applied []int
	p := NewPlan(ctx, PlanSpec{ID: 1, Title: "Delete 5 services", Noun: "service", Rows: rows, Total: "-$40.00/month",
		Apply: func(r []int, _ bool) tea.Cmd { applied = r; return nil }})
	p.SetSize(160, 50)
	v := ansi.Strip(p.View())
	for _, want := range []string{"Services: 5 (2 not shown)", "-$40.00/month", "1 skipped", "skipped: termination protection is on"} {
		if !strings.Contains(v, want) {
			t.Fatalf("no %q in\n%s", want, v)
		}
	}
	typed := func(s string) []tea.Msg {
		var out []tea.Msg
		for _, k := range []tea.KeyMsg{{Type: tea.KeyEnter}, {Type: tea.KeyRunes, Runes: []rune(s)}, {Type: tea.KeyEnter}} {
			_, cmd := p.Update(k)
			out = append(out, uitest.Run(cmd)...)
		}
		return out
	}
	if msgs := typed("5"); applied != nil || len(msgs) != 1 || !strings.Contains(msgs[0].(common.Notify).Text, "Type 4") {
		t.Fatalf("5 applied %v, said %v", applied, msgs)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyEsc}) // back to the review
	typed("4")
	if fmt.Sprint(applied) != "[0 1 2 3]" {
		t.Fatalf("applied %v", applied)
	}
	p.Update(PlanProgress{ID: 1, Index: 1, State: RowRefused, Text: "Quota exceeded"})
	p.Update(PlanProgress{ID: 2, Index: 2, State: RowDone}) // another plan's
	p.Update(PlanFinished{ID: 1})
	if c := p.Counts(); c[RowRefused] != 1 || c[RowDone] != 0 || !strings.Contains(ansi.Strip(p.View()), "Quota exceeded") {
		t.Fatalf("counts %v", c)
	}
	// r retries what is not done, checking each first.
	applied = nil
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	if fmt.Sprint(applied) != "[0 1 2 3]" {
		t.Fatalf("retried %v", applied)
	}
}

// New passwords of a bulk reset are masked until x, and copied together with y.
func TestPlanShowsNewPasswordsOnceTogether(t *testing.T) {
	ctx := common.NewContext()
	p := NewPlan(ctx, PlanSpec{ID: 3, Title: "Reset 2 users", Noun: "user", Rows: planRows(2, 0), Apply: func([]int, bool) tea.Cmd { return nil }})
	p.SetSize(160, 50)
	p.Update(PlanProgress{ID: 3, Index: 0, State: RowDone, Secret: "s3cr3t-one"})
	p.Update(PlanProgress{ID: 3, Index: 1, State: RowDone, Secret: "s3cr3t-two"})
	p.Update(PlanFinished{ID: 3})
	if strings.Contains(p.View(), "s3cr3t") {
		t.Fatal("a password is shown before x")
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	if v := p.View(); !strings.Contains(v, "s3cr3t-one") || !strings.Contains(v, "s3cr3t-two") {
		t.Fatal("x does not reveal")
	}
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	msgs := uitest.Run(cmd)
	if c, ok := msgs[0].(common.CopyRequest); !ok || c.Value != "prod/pg-0000 s3cr3t-one\nprod/pg-0001 s3cr3t-two\n" {
		t.Fatalf("copied %#v", msgs)
	}
	if _, cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil || p.Closed() {
		t.Fatal("enter closes the passwords")
	}
}

// The figure: the plan's View at 160×50 ≤ 1 ms (1,000 rows, half done).
func BenchmarkPlanView(b *testing.B) {
	ctx := common.NewContext()
	p := NewPlan(ctx, PlanSpec{ID: 1, Title: "Edit 1000 services", Noun: "service", Rows: planRows(1000, 200), Total: "+$0.00/month"})
	p.SetSize(160, 50)
	for i := 0; i < 500; i++ {
		p.Update(PlanProgress{ID: 1, Index: i, State: RowDone})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.View()
	}
}

// What the changes imply is said whole in the plan's head, each once with its count,
// even at 80×24 where a row's own room for its notes is cut to nothing; the frame
// still fits the screen.
func TestPlanSaysWhatItImpliesOnANarrowScreen(t *testing.T) {
	rows := planRows(12, 0)
	for i := range rows {
		rows[i].Change = "delete (kafka, business-4, 3 nodes)"
		rows[i].Notes = []string{"deletion is irreversible: the service and its data are gone"}
		if i%3 == 0 {
			rows[i].Notes = append(rows[i].Notes, "power off loses Kafka topic data")
		}
	}
	p := NewPlan(common.NewContext(), PlanSpec{ID: 1, Title: "Delete 12 services", Noun: "service", Rows: rows})
	p.SetSize(80, 24)
	v := ansi.Strip(p.View())
	for _, want := range []string{"deletion is irreversible: the service and its data are gone (12)", "power off loses Kafka topic data (4)"} {
		if !strings.Contains(v, want) {
			t.Fatalf("no %q at 80×24:\n%s", want, v)
		}
	}
	if n := strings.Count(v, "\n") + 1; n > 24 {
		t.Fatalf("the plan is %d lines on a 24-line screen:\n%s", n, v)
	}
}
