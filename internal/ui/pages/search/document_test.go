package search

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// docPane is a connected pane showing body's hits in the table, results focused.
func docPane(t testing.TB, body []byte, highlight bool) *Pane {
	h, err := search.ShapeHits(body)
	if err != nil {
		t.Fatal(err)
	}
	p := newPane(common.NewContext(), "")
	c, err := search.NewClient(search.Target{Host: "127.0.0.1", Port: 1, Username: "u", Password: "pw", ServiceName: "os"})
	if err != nil {
		t.Fatal(err)
	}
	p.link.conn = &connection{project: "p", service: "os", user: "u", client: c}
	p.SetSize(120, 30)
	p.reader.res.set(&answer{req: search.ParsedRequest{Path: "/logs/_search"}, sent: true, status: 200, body: body, hits: h, highlight: highlight})
	p.focus = focusResults
	return p
}

func pushed(t testing.TB, cmd tea.Cmd) *docView {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command")
	}
	pv, ok := cmd().(common.PushView)
	if !ok {
		t.Fatalf("not a pushed view: %#v", cmd())
	}
	d, ok := pv.View.(*docView)
	if !ok {
		t.Fatalf("pushed %T", pv.View)
	}
	return d
}

func TestEnterOpensTheHitAndNavigates(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 60) + "END"
	body := []byte(`{"hits":{"total":{"value":3,"relation":"eq"},"hits":[` +
		`{"_index":"logs","_id":"a","_score":1.5,"_source":{"http":{"request":{"method":"GET"}},"tags":["x","y"],"message":"` + long + `"}},` +
		`{"_index":"logs","_id":"b","_score":1,"_source":{"message":"second"}},` +
		`{"_index":"logs","_id":"c","_score":1,"_source":{"message":"third"}}]}}`)
	p := docPane(t, body, false)
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	d := pushed(t, cmd)
	d.SetSize(80, 40)
	out := ansi.Strip(d.View())
	for _, want := range []string{"_index", "logs", "_id", "_score", "1.5", "http.request.method", "GET", "tags", "x, y", "END"} {
		if !strings.Contains(out, want) {
			t.Fatalf("document view lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "…") {
		t.Fatalf("a value was cut:\n%s", out)
	}
	for _, l := range strings.Split(d.View(), "\n") {
		if lipgloss.Width(l) > 80 {
			t.Fatalf("line of %d columns", lipgloss.Width(l))
		}
	}
	// y copies the field under the cursor, Y the document.
	d.Update(tea.KeyMsg{Type: tea.KeyDown})
	_, cmd = d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	if c, ok := cmd().(common.CopyRequest); !ok || c.Value != "a" {
		t.Fatalf("y: %#v", cmd())
	}
	_, cmd = d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Y")})
	if c, ok := cmd().(common.CopyRequest); !ok || !strings.Contains(c.Value, `"_id": "a"`) || !strings.Contains(c.Value, "END") {
		t.Fatalf("Y: %#v", cmd())
	}
	// v shows the raw JSON.
	d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("v")})
	if out := d.View(); !strings.Contains(out, `"_source": {`) {
		t.Fatalf("raw view:\n%s", out)
	}
	d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("v")})
	// n next, shift+tab previous, tab next; the table's cursor follows.
	d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")})
	d.Update(tea.KeyMsg{Type: tea.KeyTab})
	if out := ansi.Strip(d.View()); !strings.Contains(out, "Hit 3 of 3") || !strings.Contains(out, "third") {
		t.Fatalf("after next, next:\n%s", out)
	}
	_, cmd = d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")})
	if n, ok := cmd().(common.Notify); !ok || !strings.Contains(n.Text, "last hit") {
		t.Fatalf("past the last: %#v", cmd())
	}
	d.Update(tea.KeyMsg{Type: tea.KeyShiftTab})
	if out := ansi.Strip(d.View()); !strings.Contains(out, "Hit 2 of 3") || !strings.Contains(out, "second") {
		t.Fatalf("after previous:\n%s", out)
	}
	if p.reader.res.table.SelectedKey() != "1" {
		t.Fatalf("the results cursor is on %q, not the hit shown last", p.reader.res.table.SelectedKey())
	}
}

func TestDocumentViewMarksHighlights(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	body := []byte(`{"hits":{"total":{"value":1,"relation":"eq"},"hits":[{"_index":"logs","_id":"a","_score":2,` +
		`"_source":{"message":"Payment timeout on checkout"},"highlight":{"message":["<em>Payment</em> <em>timeout</em> on checkout"],"message.keyword":["<em>Payment timeout on checkout</em>"]}}]}}`)
	p := docPane(t, body, true)
	d := newDocView(p.ctx, p.reader.res, 0, "", "")
	d.SetSize(100, 20)
	out := d.View()
	mark := matchStyle(p.ctx)
	if !strings.Contains(out, mark.Render("Payment")) || !strings.Contains(out, mark.Render("timeout")) {
		t.Fatalf("matches not marked:\n%q", out)
	}
	if strings.Contains(out, "<em>") || !strings.Contains(ansi.Strip(out), "message.keyword") {
		t.Fatalf("fragments of a field the source lacks:\n%s", ansi.Strip(out))
	}
}

// manyFields is a hit with n _source fields, some long.
func manyFields(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"hits":{"total":{"value":1,"relation":"eq"},"hits":[{"_index":"logs","_id":"a","_score":1,"_source":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"group%d.field_%d":"value %d %s"`, i%10, i, i, strings.Repeat("x", i%150))
	}
	b.WriteString(`}}]}}`)
	return []byte(b.String())
}

func BenchmarkDocumentView200(b *testing.B) {
	p := docPane(b, manyFields(200), false)
	d := newDocView(p.ctx, p.reader.res, 0, "", "")
	d.SetSize(160, 50)
	for range 40 {
		d.Update(tea.KeyMsg{Type: tea.KeyDown})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = d.View()
	}
}
