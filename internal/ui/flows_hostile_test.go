package ui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/svcui/svcui/internal/sandbox"
)

// TestHostilePlatformTextNeverReachesTheTerminalRaw walks every view over the hostile
// data set (control sequences in every text the platform answers) and reads the bytes
// the program wrote, not a terminal's picture of them: none of the hostile texts may be
// among them, no OSC, DCS, BEL or C1 control at all (the console itself writes none),
// and the texts show as visible escapes instead.
func TestHostilePlatformTextNeverReachesTheTerminalRaw(t *testing.T) {
	t.Parallel()
	e := startSandboxData(t, "hostile")
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 120, 40)
	s.waitFor("acme-prod", "hostile-lab", `evil\x1b]0;pwned\x07`)
	steps := []struct {
		keys []string
		text string // typed after keys, then enter
		want []string
	}{
		{text: "project hostile-lab", want: []string{"Current project: hostile-lab"}}, // the last step of its sequence: a key sent earlier could land between its steps
		{keys: []string{"2"}, want: []string{"pg-hostile", "kafka-hostile"}},
		{text: "service pg-hostile", want: []string{`db\x1b[2J.evil.example`}},
		{keys: []string{"u"}, want: []string{`evil\x1b[2Juser`}},
		{keys: []string{"esc"}},
		{keys: []string{"b"}, want: []string{`db\x1b]0;db\x07`}},
		{keys: []string{"esc"}},
		{text: "service kafka-hostile", want: []string{"9093"}},
		{keys: []string{"t"}, want: []string{`orders\x1b]0;t\x07`}},
		{keys: []string{"esc"}},
		{keys: []string{"A"}, want: []string{`read\x1b[5m`}},
		{keys: []string{"esc"}},
		{keys: []string{"4"}, want: []string{`Evil\x1b]0;pwned\x07`}},
		{text: "credits", want: []string{"Credits"}},
		{text: "clouds", want: []string{"evil-cloud-1"}},
		{text: "types", want: []string{"quantum"}},
	}
	for _, st := range steps {
		s.mark()
		s.keys(st.keys...)
		if st.text != "" {
			s.keys(":")
			s.typeText(st.text)
			s.keys("enter")
		}
		if len(st.want) > 0 {
			s.waitFor(st.want...)
		}
	}
	s.drain()
	assertNothingRaw(t, s.buf.String())
}

// assertNothingRaw fails when the bytes the program wrote hold any hostile text, or any
// OSC, DCS, BEL, ST or C1 control, blink or conceal at all (the console itself writes none).
func assertNothingRaw(t *testing.T, out string) {
	t.Helper()
	for _, h := range sandbox.HostileTexts {
		if strings.Contains(out, h.Text) {
			t.Errorf("the %s reached the terminal raw: %q", h.Where, h.Text)
		}
	}
	for _, bad := range []string{"\x1b]", "\x1bP", "\x07", "\x1b\\", "\x1b[2J", "\x1b[?1049h\nforged", "\x1b[5m", "\x1b[8m"} {
		if i := strings.Index(out, bad); i >= 0 {
			t.Errorf("the program wrote %q: …%q…", bad, out[max(0, i-40):min(len(out), i+40)])
		}
	}
	for i, r := range out {
		if r >= 0x80 && r <= 0x9f {
			t.Errorf("the program wrote C1 control %U: …%q…", r, out[max(0, i-40):min(len(out), i+40)])
			break
		}
	}
	if !utf8.ValidString(out) {
		t.Error("the program wrote invalid UTF-8")
	}
}

// TestHostileWalkAt80Columns covers what the wide walk does not reach: the breadcrumb
// shortened to fit 80 columns (it was rebuilt from the raw crumbs and retitled the
// window), the loading placeholders, and the options of the forms, which come from the
// platform (types and clouds from /v1/clouds, which needs no authentication).
func TestHostileWalkAt80Columns(t *testing.T) {
	t.Parallel()
	e := startSandboxData(t, "hostile")
	s := start(t, settings(e, e.admin), client(t, e.url, e.admin), 80, 24)
	s.waitFor("acme-prod", "hostile-lab")
	// Open the hostile project itself: its name is the breadcrumb's first crumb.
	s.mark()
	s.keys("/")
	s.typeText("evil")
	s.keys("enter", "enter")
	s.waitFor("Your role")
	s.mark()
	s.keys("2")
	s.waitFor("grafana-evil")
	s.mark()
	s.keys(":")
	s.typeText("project hostile-lab")
	s.keys("enter")
	s.waitFor("Current project: hostile-lab")
	s.mark()
	s.keys("2")
	s.waitFor("pg-hostile")
	// The create form: every type, then every cloud, scrolled through.
	s.mark()
	s.keys("c")
	s.waitFor("Service type")
	for i := 0; i < 12; i++ {
		s.keys("down")
	}
	s.waitFor("quantum")
	s.advance("Cloud", "enter")
	s.keys("/")
	s.typeText("evil")
	s.waitFor("evil-cloud-1")
	s.drain()
	assertNothingRaw(t, s.buf.String())
}
