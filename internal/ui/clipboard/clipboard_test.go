package clipboard

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"strings"
	"testing"
)

type buf struct{ bytes.Buffer }

func (b *buf) Close() error { return nil }

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

func newTest(mode Mode, e map[string]string, nativeErr error, nativeOK bool) (*Clipboard, *buf, *[]string) {
	c := New(mode, env(e))
	w := &buf{}
	c.SetTerminal(func() (io.WriteCloser, error) { return w, nil })
	var got []string
	c.SetNative(func(s string) error {
		if nativeErr != nil {
			return nativeErr
		}
		got = append(got, s)
		return nil
	}, func() bool { return nativeOK })
	return c, w, &got
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Auto, "AUTO": Auto, "native": Native, " osc52 ": OSC52, "off": Off} {
		if m, err := ParseMode(in); err != nil || m != want {
			t.Errorf("ParseMode(%q) = %v, %v", in, m, err)
		}
	}
	if _, err := ParseMode("xclip"); err == nil {
		t.Error("unknown mode accepted")
	}
}

func TestOSC52PlainAndWrapped(t *testing.T) {
	enc := base64.StdEncoding.EncodeToString([]byte("s3cret"))
	c, w, _ := newTest(OSC52, nil, nil, true)
	r := c.Copy("password", "s3cret")
	if !r.OK || w.String() != "\x1b]52;c;"+enc+"\x07" {
		t.Fatalf("plain OSC 52: %q (%v)", w.String(), r)
	}
	if strings.Contains(r.Text, "s3cret") {
		t.Fatal("footer text contains the secret")
	}

	c, w, _ = newTest(OSC52, map[string]string{"TMUX": "/tmp/tmux-1000/default,1,0"}, nil, true)
	r = c.Copy("password", "s3cret")
	want := "\x1bPtmux;\x1b\x1b]52;c;" + enc + "\x07\x1b\\"
	if w.String() != want {
		t.Fatalf("tmux wrapping: got %q want %q", w.String(), want)
	}
	if !strings.Contains(r.Text, "tmux") {
		t.Errorf("footer should say tmux: %q", r.Text)
	}

	c, w, _ = newTest(OSC52, map[string]string{"TERM": "screen-256color"}, nil, true)
	c.Copy("uri", "x")
	if !strings.HasPrefix(w.String(), "\x1bP\x1b]52;") {
		t.Fatalf("screen wrapping: %q", w.String())
	}
}

func TestModeSelection(t *testing.T) {
	// auto on a desktop: native.
	c, w, got := newTest(Auto, nil, nil, true)
	if r := c.Copy("host", "h"); !r.OK || len(*got) != 1 || w.Len() != 0 {
		t.Fatalf("auto desktop should use native: %v %v %q", r, *got, w.String())
	}
	// auto over SSH: OSC 52 even when a native tool exists.
	c, w, got = newTest(Auto, map[string]string{"SSH_TTY": "/dev/pts/1"}, nil, true)
	if r := c.Copy("host", "h"); !r.OK || len(*got) != 0 || w.Len() == 0 {
		t.Fatalf("auto over ssh should use OSC 52: %v", r)
	}
	// auto with a broken native: falls back and says so.
	c, w, _ = newTest(Auto, nil, errors.New("exit status 1"), true)
	if r := c.Copy("host", "h"); !r.OK || w.Len() == 0 || !strings.Contains(r.Text, "OSC 52") {
		t.Fatalf("fallback: %v", r)
	}
	// native without a tool: fails with a reason.
	c, _, _ = newTest(Native, nil, nil, false)
	if r := c.Copy("host", "h"); r.OK || !strings.Contains(r.Text, "osc52") {
		t.Fatalf("native unavailable: %v", r)
	}
	// off: nothing happens.
	c, w, got = newTest(Off, nil, nil, true)
	if r := c.Copy("host", "h"); r.OK || w.Len() != 0 || len(*got) != 0 || !strings.Contains(r.Text, "off") {
		t.Fatalf("off: %v", r)
	}
}
