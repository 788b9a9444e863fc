package common

import (
	"context"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// The write pipeline: the one way a change reaches the platform. It is here, in the
// package that holds the client's writes (Context.writer), so that nothing else can send
// one: a Write's Send is handed the Writer, and views have no other way to a Writer.
// A Write is a value (a plan of N writes is a []Write[T] reviewed once, each sent
// through SendWrite).

// Verb is what a write does to the item it names.
type Verb string

const (
	Create Verb = "create"
	Update Verb = "update"
	Delete Verb = "delete"
	// Reset makes new credentials: no read-back can tell whether it happened.
	Reset Verb = "reset"
)

func (v Verb) past() string {
	switch v {
	case Create:
		return "created"
	case Delete:
		return "deleted"
	case Reset:
		return "reset"
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
	// Send makes the change, with the writer the pipeline hands it: the only way to the
	// client's write methods. A change to another service (a search engine) ignores it.
	Send func(context.Context, Writer) (T, error)
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
	// Lost, when set, says which other errors than the platform client's
	// (Context.OutcomeUnknown) leave the outcome unknown: a search service's dropped
	// connection.
	Lost func(error) bool
	// Unknown, when set, is what to say when the answer is lost and Find is nil (what
	// the person can do next); the default says to look before sending it again.
	Unknown string
	// Timeout bounds the send when it is not RequestTimeout (a bulk load runs long).
	Timeout time.Duration
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

// SendWrite sends w once, with the context's writer. Each write mints a kind of its
// own, because a new request of a kind cancels the one in flight, and a write cancelled
// in flight may or may not have happened: no read, and no other write, can cancel it.
func SendWrite[T any](ctx *Context, req *Requests, w *Write[T]) tea.Cmd {
	ing := map[Verb]string{Create: "Creating ", Update: "Saving ", Delete: "Deleting ", Reset: "Resetting the credentials of "}[w.Verb]
	timeout := w.Timeout
	if timeout <= 0 {
		timeout = RequestTimeout
	}
	writer := ctx.writer
	return Working(ing+w.Name+"…", FetchWithin(req, writeKind("write "+w.Noun), timeout, func(c context.Context) (written[T], error) {
		v, err := w.Send(c, writer)
		return written[T]{w: w, value: v}, err
	}))
}

// HandleWrite runs the rest of the protocol for the answers of SendWrite; handled
// reports that msg was one.
func HandleWrite[T any](ctx *Context, req *Requests, msg tea.Msg) (cmd tea.Cmd, handled bool) {
	r, ok := msg.(Result[written[T]])
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
		lost := ctx.OutcomeUnknown(r.Err) || (w.Lost != nil && w.Lost(r.Err))
		switch {
		case lost && w.Find != nil:
			return readBack(req, w), true
		case lost:
			// Nothing can tell what happened: say so, and never send it again by itself.
			text := w.Unknown
			if text == "" {
				text = "The connection dropped after " + w.Noun + " " + w.Name + " was sent: whether it was " +
					w.Verb.past() + " is unknown. Look before sending it again."
			}
			also := Warn(text)
			if w.Refused != nil {
				also = tea.Sequence(also, w.Refused(r.Err))
			}
			return tea.Batch(also, refresh(w)), true
		}
		text := ctx.ErrorText(r.Err)
		var also tea.Cmd
		if w.Refused != nil {
			also = w.Refused(r.Err)
		}
		if w.Form != nil {
			return tea.Batch(Error(text), w.Form.Refused(text), also), true
		}
		return tea.Batch(Error(text), also), true
	}
	return done(w, r.Value.value, ""), true
}

// orphaned reports a write's outcome when its view is gone (left while the write was in
// flight): the same sentences and Done (a one-time password still opens), without the
// form or the read-back, which belonged to the view.
func (wr written[T]) orphaned(ctx *Context, err error) tea.Cmd {
	w := wr.w
	if w == nil {
		return nil
	}
	switch {
	case wr.readBack:
		return reportReadBack(ctx, w, wr, err)
	case err == nil:
		return done(w, wr.value, "")
	case ctx.OutcomeUnknown(err) || (w.Lost != nil && w.Lost(err)):
		return Warn("The connection dropped after " + w.Noun + " " + w.Name + " was sent: whether it was " +
			w.Verb.past() + " is unknown. Look before sending it again.")
	}
	return Error(ctx.ErrorText(err))
}

func done[T any](w *Write[T], v T, text string) tea.Cmd {
	if text == "" {
		text = strings.ToUpper(w.Verb.past()[:1]) + w.Verb.past()[1:] + " " + w.Noun + " " + w.Name
	}
	cmds := []tea.Cmd{Success(text)}
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
	return Send(RefreshNow{})
}

// readBack says the outcome is unknown and asks the platform what is there.
func readBack[T any](req *Requests, w *Write[T]) tea.Cmd {
	// In sequence: the warning must not arrive after the read-back's answer and cover it.
	return tea.Sequence(
		Warn("The connection dropped after the request was sent; checking whether "+w.Noun+" "+w.Name+" was "+w.Verb.past()+"…"),
		Fetch(req, NewKind("read back "+w.Noun), func(ctx context.Context) (written[T], error) {
			v, found, err := w.Find(ctx)
			return written[T]{w: w, value: v, readBack: true, found: found}, err
		}))
}

// reportReadBack says what the read-back found; nothing is sent again.
func reportReadBack[T any](ctx *Context, w *Write[T], rb written[T], err error) tea.Cmd {
	what := w.Noun + " " + w.Name
	What := strings.ToUpper(what[:1]) + what[1:]
	if err != nil {
		return Error("Could not check whether " + what + " was " + w.Verb.past() + ": " +
			strings.TrimSuffix(ctx.ErrorText(err), ".") + ". Press ctrl+r to look again before sending it again.")
	}
	switch {
	case w.Verb == Create && rb.found:
		return done(w, rb.value, What+" exists: it was created")
	case w.Verb == Create:
		return Warn(What + " does not exist: nothing was created. Press c to create it again.")
	case rb.found && w.Show != nil:
		w.Show(rb.value)
	}
	switch {
	case w.Verb == Delete && rb.found:
		return tea.Batch(Warn(What+" still exists: it was not deleted"), refresh(w))
	case w.Verb == Delete:
		return done(w, rb.value, What+" does not exist any more: it was deleted")
	case rb.found:
		return tea.Batch(Warn(What+" is shown as the platform has it now: check whether your change is there before editing again"),
			refresh(w))
	}
	return tea.Batch(Warn(What+" does not exist any more"), refresh(w))
}
