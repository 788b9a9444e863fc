package components

import (
	"strings"
	"testing"
)

func TestPlaceholderErrorOrLoading(t *testing.T) {
	ctx := testCtx()
	if got := Placeholder(ctx, "", "Loading acme…"); !strings.Contains(got, "Loading acme…") || strings.Contains(got, "✗") {
		t.Fatalf("loading placeholder: %q", got)
	}
	got := Placeholder(ctx, "boom", "Loading acme…")
	if !strings.Contains(got, "✗ boom") || !strings.Contains(got, "Press ctrl+r to retry, esc to go back.") || strings.Contains(got, "Loading") {
		t.Fatalf("error placeholder: %q", got)
	}
}

func TestDetailViewWithErrorKeepsHeight(t *testing.T) {
	d := NewDetail(testCtx())
	d.SetSize(80, 3)
	d.SetSections([]Section{{Fields: []Field{{Label: "A", Value: "1"}, {Label: "B", Value: "2"}, {Label: "C", Value: "3"}, {Label: "D", Value: "4"}}}})
	if d.ViewWithError("") != d.View() {
		t.Fatal("no error: the plain view")
	}
	lines := strings.Split(d.ViewWithError("refresh failed"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines for height 3: %q", len(lines), lines)
	}
	if !strings.Contains(lines[2], "✗ refresh failed") || !strings.Contains(lines[1], "B") {
		t.Fatalf("error should replace the last line: %q", lines)
	}
	d.SetSize(80, 1)
	if strings.Contains(d.ViewWithError("refresh failed"), "refresh failed") {
		t.Fatal("a one-line pane keeps its data line")
	}
}
