package components

import (
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/ui/common"
)

func TestDetailMoveRevealCopy(t *testing.T) {
	d := NewDetail(testCtx())
	d.SetSize(80, 5)
	d.SetSections([]Section{
		{Title: "Connection", Fields: []Field{{Label: "Host", Value: "h.example"}, {Label: "Password", Value: "pw-123", Secret: true}}},
		{Title: "More", Fields: []Field{{Label: "A", Value: "1"}, {Label: "B", Value: "2"}, {Label: "C", Value: "3"}, {Label: "CA", Value: "line1\nline2", Multiline: true}}},
	})
	if strings.Contains(d.View(), "pw-123") {
		t.Fatal("secret shown before reveal")
	}
	d.Update(keyMsg("j"))
	if f, _ := d.Selected(); f.Label != "Password" {
		t.Fatalf("cursor on %q", f.Label)
	}
	_, cmd := d.Update(keyMsg("y"))
	if msgs := collect(cmd); len(msgs) != 1 || msgs[0] != (common.CopyRequest{Label: "password", Value: "pw-123"}) {
		t.Fatalf("copy: %v", msgs)
	}
	d.Update(keyMsg("x"))
	if !strings.Contains(d.View(), "pw-123") {
		t.Fatal("x should reveal")
	}
	d.Update(keyMsg("G"))
	out := d.View()
	if n := strings.Count(out, "\n") + 1; n > 5 {
		t.Fatalf("%d lines for height 5", n)
	}
	if !strings.Contains(out, "› CA") {
		t.Fatalf("scrolling should keep the cursor visible:\n%s", out)
	}
	// A refresh keeps the cursor on the same label.
	d.Update(keyMsg("k"))
	d.SetSections(d.sections)
	if f, _ := d.Selected(); f.Label != "C" {
		t.Fatalf("after refresh cursor on %q", f.Label)
	}
}
