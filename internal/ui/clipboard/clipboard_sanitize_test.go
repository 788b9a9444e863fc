package clipboard

import (
	"strings"
	"testing"
)

// A hostile name copied with y put ESC, CR and BS into the tmux buffer: what is copied
// carries no control character, and the result says that some were removed.
func TestCopyRemovesControlsAndSaysSo(t *testing.T) {
	var got string
	c := New(Native, func(string) string { return "" })
	c.SetNative(func(s string) error { got = s; return nil }, func() bool { return true })
	r := c.Copy("name", "evil\x1b]0;pwned\x07\x1b[2J\r-svc\b")
	if got != "evil-svc" {
		t.Fatalf("copied %q", got)
	}
	if !strings.Contains(r.Text, "control characters removed") {
		t.Fatalf("result does not say so: %q", r.Text)
	}
	r = c.Copy("name", "pg-main")
	if got != "pg-main" || strings.Contains(r.Text, "removed") {
		t.Fatalf("clean copy: %q, %q", got, r.Text)
	}
}
