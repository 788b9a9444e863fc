package components

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

func TestFrameOnShortScreenCutsTheBodyNotTheWayOut(t *testing.T) {
	body := strings.TrimSuffix(strings.Repeat("field\n", 40), "\n")
	out := ansi.Strip(Frame(testCtx(), "Create billing group", body, "esc: cancel", 80, 24))
	if !strings.Contains(out, "Create billing group") || !strings.Contains(out, "esc: cancel") {
		t.Fatalf("title or help cut:\n%s", out)
	}
	if n := len(strings.Split(out, "\n")); n > 24 {
		t.Fatalf("%d lines on a 24-line screen", n)
	}
}

func TestTypedConfirmNeverMatchesAnEmptyName(t *testing.T) {
	ran := false
	c := NewTypedConfirm(testCtx(), "Delete project", "irreversible", "", func() tea.Cmd { ran = true; return nil })
	c.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if c.Matches() || ran {
		t.Fatal("an empty name matched an empty confirmation")
	}
}
