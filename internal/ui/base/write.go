package base

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// Verb is what a write does to the item it names.
type Verb string

const (
	Create Verb = "create"
	Update Verb = "update"
	Delete Verb = "delete"
)

func (v Verb) past() string {
	switch v {
	case Create:
		return "created"
	case Delete:
		return "deleted"
	}
	return "saved"
}

// Refusable is what sent a write: a form or a flow, which a refusal brings back with
// everything typed and the platform's message at the field it names.
type Refusable interface{ Refused(msg string) tea.Cmd }

// Write is one change a pane declares; SendWrite and HandleWrite run the protocol that
// every change in the console follows, so no pane re-implements it:
//
//   - sent once, with a progress line;
//   - refused: the form comes back as typed, the message at its field, focus there;
//   - answer lost (the connection dropped after sending): the outcome is read back with
//     Find and reported, never sent again;
//   - done (or found done by the read-back): Done puts the cursor on the item and says
//     so, and the view's data is refreshed.
type Write[T any] struct {
	Verb Verb
	// Noun and Name make the sentences: "Created project x".
	Noun, Name string
	// Form sent it (nil for a confirmation without a form: the refusal is then shown
	// in the footer).
	Form Refusable
	Send func(context.Context) (T, error)
	// Find reads the item back by name: found, and as the platform has it now.
	Find func(context.Context) (T, bool, error)
	// Done follows a success (value as answered or read back): cursor, caches,
	// message. Nil says "Created project x" and nothing more.
	Done func(T) tea.Cmd
	// Refused, when set, also hears a refusal (a watched change that failed says so).
	Refused func(err error) tea.Cmd
	// Reload reloads the view that sent the write after it is done (nil: the root
	// refreshes the focused view, which is the one that sent it).
	Reload func() tea.Cmd
	// Show, when set, takes what a read-back found of an update or a delete that did not
	// happen, so the view shows the item as the platform has it now.
	Show func(T)
}

// written is a write's answer, or its read-back's.
type written[T any] struct {
	w        *Write[T]
	value    T
	readBack bool
	found    bool
}

// The kinds of request the bases send: a list's load, a detail's load, a write's
// answer and its read-back.
const (
	KindList     common.Kind = "list"
	KindDetail   common.Kind = "detail"
	KindWrite    common.Kind = "write"
	KindReadBack common.Kind = "write-read-back"
)

// writeSeq numbers writes: each gets a kind of its own, because a new request of a kind
// cancels the one in flight, and a write cancelled in flight may or may not have happened.
var writeSeq atomic.Int64

func kindOf(k common.Kind) common.Kind { return common.Kind(fmt.Sprintf("%s-%d", k, writeSeq.Add(1))) }

// SendWrite sends w once.
func SendWrite[T any](req *common.Requests, w *Write[T]) tea.Cmd {
	ing := map[Verb]string{Create: "Creating ", Update: "Saving ", Delete: "Deleting "}[w.Verb]
	return common.Working(ing+w.Name+"…", common.Fetch(req, kindOf(KindWrite), func(ctx context.Context) (written[T], error) {
		v, err := w.Send(ctx)
		return written[T]{w: w, value: v}, err
	}))
}

// HandleWrite runs the rest of the protocol for the answers of SendWrite; handled
// reports that msg was one.
func HandleWrite[T any](ctx *common.Context, req *common.Requests, msg tea.Msg) (cmd tea.Cmd, handled bool) {
	r, ok := msg.(common.Result[written[T]])
	if !ok {
		return nil, false
	}
	if !req.Current(r.Addr) || r.Value.w == nil {
		return nil, true
	}
	w := r.Value.w
	if r.Value.readBack {
		return reportReadBack(ctx, w, r.Value, r.Err), true
	}
	if r.Err != nil {
		if ctx.OutcomeUnknown(r.Err) && w.Find != nil {
			return readBack(req, w), true
		}
		text := ctx.ErrorText(r.Err)
		var also tea.Cmd
		if w.Refused != nil {
			also = w.Refused(r.Err)
		}
		if w.Form != nil {
			return tea.Batch(common.Error(text), w.Form.Refused(text), also), true
		}
		return tea.Batch(common.Error(text), also), true
	}
	return done(w, r.Value.value, ""), true
}

func done[T any](w *Write[T], v T, text string) tea.Cmd {
	if text == "" {
		text = strings.ToUpper(w.Verb.past()[:1]) + w.Verb.past()[1:] + " " + w.Noun + " " + w.Name
	}
	cmds := []tea.Cmd{common.Success(text)}
	if w.Done != nil {
		// Done's own message, if any, comes after and wins the footer; its modal (a
		// one-time secret) does not wait for the reload.
		cmds = append(cmds, w.Done(v))
	}
	return tea.Sequence(append(cmds, refresh(w))...)
}

func refresh[T any](w *Write[T]) tea.Cmd {
	if w.Reload != nil {
		return w.Reload()
	}
	return common.Send(common.RefreshNow{})
}

// readBack says the outcome is unknown and asks the platform what is there.
func readBack[T any](req *common.Requests, w *Write[T]) tea.Cmd {
	// In sequence: the warning must not arrive after the read-back's answer and cover it.
	return tea.Sequence(
		common.Warn("The connection dropped after the request was sent; checking whether "+w.Noun+" "+w.Name+" was "+w.Verb.past()+"…"),
		common.Fetch(req, kindOf(KindReadBack), func(ctx context.Context) (written[T], error) {
			v, found, err := w.Find(ctx)
			return written[T]{w: w, value: v, readBack: true, found: found}, err
		}))
}

// reportReadBack says what the read-back found; nothing is sent again.
func reportReadBack[T any](ctx *common.Context, w *Write[T], rb written[T], err error) tea.Cmd {
	what := w.Noun + " " + w.Name
	What := strings.ToUpper(what[:1]) + what[1:]
	if err != nil {
		return common.Error("Could not check whether " + what + " was " + w.Verb.past() + ": " +
			strings.TrimSuffix(ctx.ErrorText(err), ".") + ". Press ctrl+r to look again before sending it again.")
	}
	switch {
	case w.Verb == Create && rb.found:
		return done(w, rb.value, What+" exists: it was created")
	case w.Verb == Create:
		return common.Warn(What + " does not exist: nothing was created. Press c to create it again.")
	case rb.found && w.Show != nil:
		w.Show(rb.value)
	}
	switch {
	case w.Verb == Delete && rb.found:
		return tea.Batch(common.Warn(What+" still exists: it was not deleted"), refresh(w))
	case w.Verb == Delete:
		return done(w, rb.value, What+" does not exist any more: it was deleted")
	case rb.found:
		return tea.Batch(common.Warn(What+" is shown as the platform has it now: check whether your change is there before editing again"),
			refresh(w))
	}
	return tea.Batch(common.Warn(What+" does not exist any more"), refresh(w))
}

// dropped logs a result no part of the view handles: a kind sent under one name and
// handled under another would otherwise vanish without a trace.
func dropped(ctx *common.Context, msg common.Addressed) {
	if ctx.Log == nil {
		return
	}
	kind := common.Kind("?")
	if k, ok := msg.(interface{ RequestKind() common.Kind }); ok {
		kind = k.RequestKind()
	}
	ctx.Log.Warn("result dropped: no handler for its kind", "kind", string(kind), "type", fmt.Sprintf("%T", msg))
}

// noAction says why an action key does nothing in a view ("y does nothing in
// Services"), where before nothing happened and nothing was said. Movement, sorting and
// the filter are the table's and are not action keys.
func noAction(ctx *common.Context, msg tea.KeyMsg, title string) tea.Cmd {
	k := ctx.Keys
	for _, b := range []key.Binding{k.Open, k.Create, k.Edit, k.Delete, k.Reset, k.Reveal, k.Copy, k.CopyURI,
		k.Users, k.ACL, k.Topics, k.Databases, k.SearchTab, k.Launch,
		k.Invoices, k.Estimates, k.Credits, k.Assign, k.Download, k.Chart} {
		if key.Matches(msg, b) {
			what := b.Help().Desc
			if what == "" {
				what = "that"
			}
			return common.Info("“" + msg.String() + "” (" + what + ") does nothing in " + title + "; press ? for its keys")
		}
	}
	return nil
}
