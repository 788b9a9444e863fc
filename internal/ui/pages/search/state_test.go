package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
)

// The editor text is saved per service in a command when leaving the editor (and once
// the typing pauses, not per key: see TestEditorTextIsSavedAsItIsTyped), and a new
// session's connection brings it back.
func TestEditorTextKeptPerServiceAcrossSessions(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	p.ctx.After = uitest.NewClock(time.Unix(0, 0)).After // the pause never comes
	var cmds []tea.Cmd
	for _, r := range "GET /logs-app/_count" {
		_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		deliver(t, p, c)
	}
	if _, ok, _ := search.LoadEditorText(p.ctx.StateDir, stateKey("p", "os")); ok {
		t.Fatal("the text was saved while typing")
	}
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if _, ok, _ := search.LoadEditorText(p.ctx.StateDir, stateKey("p", "os")); ok {
		t.Fatal("the text was saved in Update")
	}
	deliver(t, p, cmd)
	text, ok, err := search.LoadEditorText(p.ctx.StateDir, stateKey("p", "os"))
	if err != nil || !ok || !strings.Contains(text, "GET /logs-app/_count") {
		t.Fatalf("saved text %q %v %v", text, ok, err)
	}
	// Leaving again without a change writes nothing.
	p.Update(tea.KeyMsg{Type: tea.KeyShiftTab})
	if _, cmd := p.Update(tea.KeyMsg{Type: tea.KeyEsc}); cmd != nil {
		t.Fatal("an unchanged text was saved again")
	}

	// A later session of the same service starts with it; another service does not.
	p.ctx.API = platform([]models.Service{
		{ServiceName: "os", ServiceType: models.TypeOpenSearch, ServiceURI: "https://avnadmin:pw@127.0.0.1:1"},
		{ServiceName: "os-2", ServiceType: models.TypeOpenSearch, ServiceURI: "https://avnadmin:pw@127.0.0.1:2"},
	})
	np := newPane(p.ctx, "os")
	np.SetSize(100, 30)
	deliver(t, np, np.Init())
	if np.link.conn == nil || !strings.Contains(np.editor.ta.Value(), "GET /logs-app/_count") {
		t.Fatalf("restored buffer: %q", np.editor.ta.Value())
	}
	other := newPane(p.ctx, "os-2")
	other.SetSize(100, 30)
	deliver(t, other, other.Init())
	if other.link.conn == nil || other.editor.ta.Value() != defaultBuffer {
		t.Fatalf("another service's buffer: %q", other.editor.ta.Value())
	}
}

// The column choice is remembered per index pattern, read and written in commands.
func TestColumnChoiceRememberedPerIndexPattern(t *testing.T) {
	t.Parallel()
	p := connectedPane(t)
	body := hitsBody(5)
	h, _ := search.ShapeHits(body)
	a := &answer{req: search.ParsedRequest{Method: "GET", Path: "/logs/_search"}, sent: true, status: 200, body: body, hits: h}
	deliver(t, p, p.reader.res.set(a))
	p.focus = focusResults
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")})
	c := p.reader.columns
	if c == nil || !p.Capturing() {
		t.Fatal("f did not open the column picker")
	}
	c.chosen = nil // start from none: choose message, then level
	for _, name := range []string{"message", "level"} {
		for c.cursor = 0; c.fields[c.cursor] != name; c.cursor++ {
		}
		p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	}
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if p.reader.columns != nil {
		t.Fatal("esc did not close the picker")
	}
	if got := p.reader.res.plan.Columns; len(got) != 2 || got[0].Name != "message" || got[1].Name != "level" {
		t.Fatalf("plan after choosing: %+v", got)
	}
	if cols, _ := search.LoadColumns(p.ctx.StateDir, "logs"); cols != nil {
		t.Fatal("saved in Update")
	}
	deliver(t, p, cmd)
	if cols, err := search.LoadColumns(p.ctx.StateDir, "logs"); err != nil || strings.Join(cols, ",") != "message,level" {
		t.Fatalf("remembered %v %v", cols, err)
	}
	// A new pane reads the choice when the pattern's hits first arrive.
	np := newPane(p.ctx, "")
	np.link.conn = p.link.conn
	np.SetSize(100, 30)
	deliver(t, np, np.reader.res.set(a))
	if got := np.reader.res.plan.Columns; len(got) != 2 || got[0].Name != "message" {
		t.Fatalf("plan in a new session: %+v", got)
	}
}

// $EDITOR: the temporary file is made and read back in commands; the editor runs
// through tea.ExecProcess.
func TestExternalEditorRunsOutsideUpdate(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "")
	p := connectedPane(t)
	_, msgs := deliver(t, p, p.editor.openExternal())
	if !strings.Contains(notes(msgs), "Set $EDITOR") {
		t.Fatalf("no sentence without $EDITOR: %v", msgs)
	}
	t.Setenv("EDITOR", "true")
	cmd := p.editor.openExternal()
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatal("the temporary file was made in Update")
	}
	res := cmd().(common.Result[externalFile])
	if res.Err != nil || !strings.HasPrefix(res.Value.file, tmp) {
		t.Fatalf("prepared: %+v", res)
	}
	_, exec := p.Update(res)
	if exec == nil {
		t.Fatal("no editor run")
	}
	if err := os.WriteFile(res.Value.file, []byte("GET /products/_search\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	deliver(t, p, func() tea.Msg { return externalDone{addr: res.Addr, file: res.Value.file} })
	if p.editor.ta.Value() != "GET /products/_search\n" {
		t.Fatalf("buffer: %q", p.editor.ta.Value())
	}
	if _, err := os.Stat(res.Value.file); !os.IsNotExist(err) {
		t.Fatal("the temporary file was left behind")
	}
	// A session of an editor started before another one is ignored.
	p.editor.openExternal()
	if _, cmd := p.Update(externalDone{addr: res.Addr, file: filepath.Join(tmp, "x")}); cmd != nil {
		t.Fatal("a stale editor session was read")
	}
}

// After a password change elsewhere, the client reads the connection details again.
func TestReauthReadsTheConnectionDetailsAgain(t *testing.T) {
	t.Parallel()
	ctx, _ := testContext(t)
	svc := models.Service{ServiceName: "os", ServiceType: models.TypeOpenSearch, ServiceURI: "https://avnadmin:new-pw@127.0.0.1:1"}
	ctx.API = platform([]models.Service{svc}, models.ServiceUser{Username: "reader", Password: "reader-new"})
	d := newDialer(ctx)
	user, pw, err := d.reauth("p", "os", "avnadmin", true)(context.Background())
	if err != nil || user != "avnadmin" || pw != "new-pw" {
		t.Fatalf("primary: %q %q %v", user, pw, err)
	}
	user, pw, err = d.reauth("p", "os", "reader", false)(context.Background())
	if err != nil || user != "reader" || pw != "reader-new" {
		t.Fatalf("other user: %q %q %v", user, pw, err)
	}
	if _, _, err := d.reauth("p", "os", "gone", false)(context.Background()); err == nil || !strings.Contains(err.Error(), "no longer a user") {
		t.Fatalf("missing user: %v", err)
	}
	// The pane says what happened, in the footer.
	p := connectedPane(t)
	msgs := deliverCmd(t, p, p.reader.finishRun(runOutcome{ans: &answer{sent: true, status: 200, reauth: &search.ReauthEvent{OldUser: "u", NewUser: "u"}}}))
	if !strings.Contains(notes(msgs), "The password of u changed elsewhere; reconnected with the new one.") {
		t.Fatalf("footer: %q", notes(msgs))
	}
}

func deliverCmd(t testing.TB, p *Pane, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	_, msgs := deliver(t, p, cmd)
	return msgs
}
