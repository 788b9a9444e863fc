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
	writer := ctx.writer
	return sending(w.Verb, w.Name, fetchWrite(req, writeKind("write "+w.Noun), sendTimeout(w.Timeout), func(c context.Context) (written[T], error) {
		v, err := w.Send(c, writer)
		return written[T]{w: w, value: v}, err
	}))
}

// sending shows a write's progress line while send runs.
func sending(verb Verb, name string, send tea.Cmd) tea.Cmd {
	ing := map[Verb]string{Create: "Creating ", Update: "Saving ", Delete: "Deleting ", Reset: "Resetting the credentials of "}[verb]
	return Working(ing+name+"…", send)
}

// sendTimeout is a write's own timeout, else RequestTimeout.
func sendTimeout(own time.Duration) time.Duration {
	if own <= 0 {
		return RequestTimeout
	}
	return own
}

// HandleWrite runs the rest of the protocol for the answers of SendWrite; handled
// reports that msg was one.
func HandleWrite[T any](ctx *Context, req *Requests, msg tea.Msg) (cmd tea.Cmd, handled bool) {
	r, ok := msg.(writeAnswer[T])
	if !ok {
		return nil, false
	}
	if !req.Current(r.Addr) || r.Value.w == nil {
		return nil, true
	}
	a := r.Value.answered(req, r.Err)
	return a.handle(ctx), true
}

// answered is the answer without its type; req is the view's, for a read-back.
func (wr written[T]) answered(req *Requests, err error) answered {
	w, v := wr.w, wr.value
	a := answered{
		verb: w.Verb, noun: w.Noun, name: w.Name, unknown: w.Unknown,
		form: w.Form, refused: w.Refused, reload: w.Reload, lost: w.Lost, canFind: w.Find != nil,
		readBack: wr.readBack, found: wr.found, err: err,
		done: func(text string) tea.Cmd { return done(w, v, text) },
		find: func() tea.Cmd { return readBack(req, w) },
	}
	if w.Show != nil {
		a.show = func() { w.Show(v) }
	}
	return a
}

// answered is a write's answer without its item type: the write's words and hooks, and
// closures over its typed parts. The protocol's steps work on it, so they are compiled
// once rather than once per item type.
type answered struct {
	verb                Verb
	noun, name, unknown string
	form                Refusable
	refused             func(error) tea.Cmd
	reload              func() tea.Cmd
	lost                func(error) bool
	canFind             bool
	readBack, found     bool
	err                 error
	// done reports the write done, with text (empty: the verb's sentence); find reads
	// the item back; show, when the write has Show, shows the value read back.
	done func(text string) tea.Cmd
	find func() tea.Cmd
	show func()
}

func (a *answered) handle(ctx *Context) tea.Cmd {
	if a.readBack {
		return a.reportReadBack(ctx)
	}
	if a.err != nil {
		lost := ctx.OutcomeUnknown(a.err) || (a.lost != nil && a.lost(a.err))
		switch {
		case lost && a.canFind:
			return a.find()
		case lost:
			// Nothing can tell what happened: say so, and never send it again by itself.
			text := a.unknown
			if text == "" {
				text = "The connection dropped after " + a.noun + " " + a.name + " was sent: whether it was " +
					a.verb.past() + " is unknown. Look before sending it again."
			}
			also := Warn(text)
			if a.refused != nil {
				also = tea.Sequence(also, a.refused(a.err))
			}
			return tea.Batch(also, refresh(a.reload))
		}
		text := ctx.ErrorText(a.err)
		var also tea.Cmd
		if a.refused != nil {
			also = a.refused(a.err)
		}
		if a.form != nil {
			return tea.Batch(Error(text), a.form.Refused(text), also)
		}
		return tea.Batch(Error(text), also)
	}
	return a.done("")
}

// writeAnswer is the answer of a write or of its read-back: a Result that, unlike a
// read's, is still told when its view is gone. Only writes' answers are this type, so
// the other results carry no Orphaned method (one per result type).
type writeAnswer[T any] struct{ Result[written[T]] }

// Orphaned implements Orphan: the write's outcome is reported without its view (left
// while the write was in flight): the same sentences and Done (a one-time password still
// opens), without the form or the read-back, which belonged to the view.
func (r writeAnswer[T]) Orphaned(ctx *Context) tea.Cmd {
	if r.Value.w == nil {
		return nil
	}
	a := r.Value.answered(nil, r.Err)
	return a.orphaned(ctx)
}

// fetchWrite is FetchWithin for a write and its read-back: the answer is a writeAnswer.
func fetchWrite[T any](req *Requests, kind Kind, timeout time.Duration, fn func(context.Context) (written[T], error)) tea.Cmd {
	c := req.start(kind, timeout)
	c.answer = func(ctx context.Context, failed error) tea.Msg {
		var v written[T]
		err := failed
		if err == nil {
			v, err = fn(ctx)
		}
		return writeAnswer[T]{Result[written[T]]{Addr: c.addr, Value: v, Err: err}}
	}
	return c.run
}

func (a *answered) orphaned(ctx *Context) tea.Cmd {
	switch {
	case a.readBack:
		return a.reportReadBack(ctx)
	case a.err == nil:
		return a.done("")
	case ctx.OutcomeUnknown(a.err) || (a.lost != nil && a.lost(a.err)):
		return Warn("The connection dropped after " + a.noun + " " + a.name + " was sent: whether it was " +
			a.verb.past() + " is unknown. Look before sending it again.")
	}
	return Error(ctx.ErrorText(a.err))
}

func done[T any](w *Write[T], v T, text string) tea.Cmd {
	var then tea.Cmd
	if w.Done != nil {
		then = w.Done(v)
	}
	return succeeded(w.Verb, w.Noun, w.Name, text, w.Done != nil, then, w.Reload)
}

// succeeded says a write is done (text, else the verb's sentence), then runs what the
// write's Done returned when it has one, then refreshes.
func succeeded(verb Verb, noun, name, text string, hasDone bool, then tea.Cmd, reload func() tea.Cmd) tea.Cmd {
	if text == "" {
		text = strings.ToUpper(verb.past()[:1]) + verb.past()[1:] + " " + noun + " " + name
	}
	cmds := []tea.Cmd{Success(text)}
	if hasDone {
		// Done's own message, if any, comes after and wins the footer; its modal (a
		// one-time secret) does not wait for the reload.
		cmds = append(cmds, then)
	}
	return tea.Sequence(append(cmds, refresh(reload))...)
}

func refresh(reload func() tea.Cmd) tea.Cmd {
	if reload != nil {
		return reload()
	}
	return Send(RefreshNow{})
}

// readBack says the outcome is unknown and asks the platform what is there.
func readBack[T any](req *Requests, w *Write[T]) tea.Cmd {
	return checking(w.Verb, w.Noun, w.Name, fetchWrite(req, NewKind("read back "+w.Noun), RequestTimeout, func(ctx context.Context) (written[T], error) {
		v, found, err := w.Find(ctx)
		return written[T]{w: w, value: v, readBack: true, found: found}, err
	}))
}

// checking says the outcome is unknown while read runs.
func checking(verb Verb, noun, name string, read tea.Cmd) tea.Cmd {
	// In sequence: the warning must not arrive after the read-back's answer and cover it.
	return tea.Sequence(Warn("The connection dropped after the request was sent; checking whether "+noun+" "+name+" was "+verb.past()+"…"), read)
}

// reportReadBack says what the read-back found; nothing is sent again.
func (a *answered) reportReadBack(ctx *Context) tea.Cmd {
	what := a.noun + " " + a.name
	What := strings.ToUpper(what[:1]) + what[1:]
	if a.err != nil {
		return Error("Could not check whether " + what + " was " + a.verb.past() + ": " +
			strings.TrimSuffix(ctx.ErrorText(a.err), ".") + ". Press ctrl+r to look again before sending it again.")
	}
	switch {
	case a.verb == Create && a.found:
		return a.done(What + " exists: it was created")
	case a.verb == Create:
		return Warn(What + " does not exist: nothing was created. Press c to create it again.")
	case a.found && a.show != nil:
		a.show()
	}
	switch {
	case a.verb == Delete && a.found:
		return tea.Batch(Warn(What+" still exists: it was not deleted"), refresh(a.reload))
	case a.verb == Delete:
		return a.done(What + " does not exist any more: it was deleted")
	case a.found:
		return tea.Batch(Warn(What+" is shown as the platform has it now: check whether your change is there before editing again"),
			refresh(a.reload))
	}
	return tea.Batch(Warn(What+" does not exist any more"), refresh(a.reload))
}
