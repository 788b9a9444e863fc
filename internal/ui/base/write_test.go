package base

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
)

var errLost = errors.New("connection dropped after the request was sent")

type refusable struct{ msgs []string }

func (r *refusable) Refused(msg string) tea.Cmd { r.msgs = append(r.msgs, msg); return nil }

// protocol runs a write to the end, feeding its answers back as the root would, and
// returns the footer texts and whether the item's Done ran.
func protocol(t *testing.T, w *Write[string]) (texts string, refreshed bool) {
	t.Helper()
	ctx := common.NewContext()
	ctx.Platform.IsOutcomeUnknown = func(err error) bool { return errors.Is(err, errLost) }
	req := common.NewRequests()
	// The root's messages come back; every other is the write's own and must be handled.
	forRoot := func(m tea.Msg) bool {
		switch m.(type) {
		case common.Notify, common.RefreshNow:
			return true
		}
		return false
	}
	handle := func(m tea.Msg) tea.Cmd {
		cmd, ok := HandleWrite[string](ctx, req, m)
		if !ok {
			t.Fatalf("unhandled %T", m)
		}
		return cmd
	}
	var out []string
	for _, m := range uitest.Pump(SendWrite(ctx, req, w), handle, func(m tea.Msg) bool { return !forRoot(m) }) {
		switch m := m.(type) {
		case common.Notify:
			out = append(out, m.Text)
		case common.RefreshNow:
			refreshed = true
		}
	}
	return strings.Join(out, " | "), refreshed
}

func TestALostCreateIsReadBackAndNeverResent(t *testing.T) {
	for _, found := range []bool{true, false} {
		sends, dones := 0, 0
		w := &Write[string]{Verb: Create, Noun: "project", Name: "x",
			Send: func(context.Context, common.Writer) (string, error) { sends++; return "", errLost },
			Find: func(context.Context) (string, bool, error) { return "x", found, nil },
			Done: func(string) tea.Cmd { dones++; return nil },
		}
		got, refreshed := protocol(t, w)
		if sends != 1 {
			t.Fatalf("sent %d times", sends)
		}
		if !strings.Contains(got, "checking whether project x was created") {
			t.Fatalf("no read-back said: %s", got)
		}
		if found && (!strings.Contains(got, "Project x exists: it was created") || dones != 1 || !refreshed) {
			t.Fatalf("found: %s, done %d, refreshed %v", got, dones, refreshed)
		}
		if !found && (!strings.Contains(got, "Project x does not exist: nothing was created") || dones != 0) {
			t.Fatalf("not found: %s, done %d", got, dones)
		}
	}
}

func TestARefusalGoesBackToTheFormAndASuccessRefreshes(t *testing.T) {
	form := &refusable{}
	w := &Write[string]{Verb: Update, Noun: "project", Name: "x", Form: form,
		Send: func(context.Context, common.Writer) (string, error) { return "", errors.New("Invalid cloud: nope") },
	}
	got, refreshed := protocol(t, w)
	if len(form.msgs) != 1 || form.msgs[0] != "Invalid cloud: nope" || refreshed {
		t.Fatalf("refusal: %v, %s, refreshed %v", form.msgs, got, refreshed)
	}
	w = &Write[string]{Verb: Delete, Noun: "project", Name: "x",
		Send: func(context.Context, common.Writer) (string, error) { return "x", nil },
	}
	if got, refreshed := protocol(t, w); !strings.Contains(got, "Deleted project x") || !refreshed {
		t.Fatalf("success: %s, refreshed %v", got, refreshed)
	}
}

// Two writes from one view in flight at once each get their answer: a second write must
// not cancel the first (a write cancelled in flight may or may not have happened).
func TestTwoWritesInFlightBothAnswer(t *testing.T) {
	ctx := common.NewContext()
	req := common.NewRequests()
	var got []string
	mk := func(name string) tea.Cmd {
		return SendWrite(ctx, req, &Write[string]{Verb: Delete, Noun: "user", Name: name,
			Send: func(c context.Context, _ common.Writer) (string, error) { return name, c.Err() },
			Done: func(v string) tea.Cmd { got = append(got, v); return nil },
		})
	}
	first, second := mk("a"), mk("b") // both sent before either answers
	for _, cmd := range []tea.Cmd{first, second} {
		for _, m := range uitest.Run(cmd) {
			if c, ok := HandleWrite[string](ctx, req, m); ok {
				uitest.Run(c)
			}
		}
	}
	if len(got) != 2 {
		t.Fatalf("done for %v, want both", got)
	}
}

// "Creating x…" is delivered before the request starts: started together (a batch), a
// quick answer's "Created x" could arrive first and be covered by the stale notice, which
// a loaded CI machine showed.
func TestSendWriteAnnouncesBeforeItSends(t *testing.T) {
	sent := false
	w := &Write[string]{Verb: Create, Noun: "project", Name: "p1",
		Send: func(context.Context, common.Writer) (string, error) { sent = true; return "p1", nil }}
	cmds, ok := uitest.Sequenced(SendWrite(common.NewContext(), common.NewRequests(), w))
	if !ok || len(cmds) != 2 {
		t.Fatal("the notice and the request are not in sequence")
	}
	if n, ok := cmds[0]().(common.Notify); !ok || n.Text != "Creating p1…" || sent {
		t.Fatalf("first: %#v (sent already: %v)", n, sent)
	}
	uitest.Run(cmds[1])
	if !sent {
		t.Fatal("the request was not sent after the notice")
	}
}

// Leaving a view while its write is in flight neither cancels the write (it may or
// may not have happened) nor loses its outcome: the write runs to its answer and the
// root, finding the view gone, reports it through Orphan. A read of the same view is
// cancelled as before.
func TestAWriteOutlivesItsViewAndItsOutcomeIsReported(t *testing.T) {
	ctx := common.NewContext()
	req := common.NewRequests()
	release := make(chan struct{})
	var writeErr error
	w := &Write[string]{Verb: Delete, Noun: "service", Name: "pg-1"}
	w.Send = func(c context.Context, _ common.Writer) (string, error) {
		<-release
		writeErr = c.Err()
		return "pg-1", nil
	}
	var readErr error
	read := common.Fetch(req, common.NewKind("list"), func(c context.Context) (int, error) {
		<-release
		readErr = c.Err()
		return 0, nil
	})
	var writeMsgs []tea.Msg
	sent := make(chan struct{})
	send := SendWrite(ctx, req, w) // registered with the view's requests now
	go func() { writeMsgs = uitest.Run(send); close(sent) }()
	readDone := make(chan struct{})
	go func() { uitest.Run(read); close(readDone) }()
	req.CancelAll() // the view leaves
	close(release)
	<-sent
	<-readDone
	if writeErr != nil {
		t.Fatalf("leaving the view cancelled the write in flight: %v", writeErr)
	}
	if readErr == nil {
		t.Fatal("leaving the view did not cancel its read")
	}
	var said []string
	for _, m := range writeMsgs {
		o, ok := m.(common.Orphan)
		if !ok {
			continue
		}
		for _, n := range uitest.Run(o.Orphaned(ctx)) {
			if n, ok := n.(common.Notify); ok {
				said = append(said, n.Text)
			}
		}
	}
	if !strings.Contains(strings.Join(said, " | "), "Deleted service pg-1") {
		t.Fatalf("the outcome of a write whose view is gone was not reported: %q", said)
	}
}
