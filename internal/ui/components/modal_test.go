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

func TestSecretClosesOnlyOnEsc(t *testing.T) {
	s := NewSecret(testCtx(), "User created", [][2]string{{"password", "pw-123"}}, "password", "pw-123", "", "")
	s.SetSize(80, 24)
	if _, cmd := s.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil || s.Closed() {
		t.Fatal("enter closed the one-time secret")
	}
	out := ansi.Strip(s.View())
	if !strings.Contains(out, "esc: close") || strings.Contains(out, "enter") {
		t.Fatalf("the window must say only esc closes it:\n%s", out)
	}
	for _, b := range s.ShortHelp() {
		if strings.Contains(b.Help().Key, "enter") {
			t.Fatalf("help offers enter: %q", b.Help().Key)
		}
	}
	if s.Update(tea.KeyMsg{Type: tea.KeyEsc}); !s.Closed() {
		t.Fatal("esc did not close the secret")
	}
}
