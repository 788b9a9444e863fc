package components

import (
	"strings"
	"testing"

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
