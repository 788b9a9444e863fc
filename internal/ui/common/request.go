package common

import (
	"context"
	"reflect"
	"runtime/debug"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Addr addresses an async result: the view that asked, the kind of request and its
// generation. A view drops results whose generation is not the latest for that kind,
// so a late answer for project A never lands in project B's table.
type Addr struct {
	View int64
	Kind Kind
	Gen  uint64
}

// Kind is a kind of request of a view ("list", "run", a write). A kind is a value
// minted once by NewKind, never a string: two kinds with the same name are still two
// kinds, so no call site can reuse another's kind by spelling its name (a read sent
// under a write's kind would cancel the write), and a view tells its own answers from
// ones it does not know by comparing values.
type Kind struct{ k *kindName }

type kindName struct {
	name string
	// write: a request of this kind changes something. Leaving its view does not
	// cancel it (it may or may not have happened), and its outcome is reported even
	// when the view is gone (Orphan).
	write bool
}

// NewKind mints a kind; name is only for logs and errors. Package-level kinds are
// minted once (var kindRun = common.NewKind("run")); a write mints one per write,
// through SendWrite (writeKind), the only place a write kind is made.
func NewKind(name string) Kind { return Kind{&kindName{name: name}} }

func writeKind(name string) Kind { return Kind{&kindName{name: name, write: true}} }

func (k Kind) isWrite() bool { return k.k != nil && k.k.write }

// String is the kind's name, for logs.
func (k Kind) String() string {
	if k.k == nil {
		return "unnamed"
	}
	return k.k.name
}

// Addressed is implemented by results; the root routes them to the view with that id
// wherever it is on the stacks (and drops them when that view is gone).
type Addressed interface{ Target() int64 }

// Result is the message an API command produces.
type Result[T any] struct {
	Addr
	Value T
	Err   error
}

// Target implements Addressed. It is the address's, so each result type promotes it
// rather than copying its value to answer. It is the only method results have: each
// method a result type has is compiled again for every result type, with its pointer
// form (about 75 KB of binary for one method over the sixty result types), so the
// logs read the rest through Reply.
func (a Addr) Target() int64 { return a.View }

// Reply is the address and the error of a result (any Result[T], a write's answer), for
// the root's and the views' logs: ok is false for a message that has neither. It reads
// the fields by reflection rather than through a method (see Target).
func Reply(msg tea.Msg) (addr Addr, err error, ok bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Struct {
		return Addr{}, nil, false
	}
	a, e := v.FieldByName("Addr"), v.FieldByName("Err")
	if !a.IsValid() || a.Type() != addrType || !e.IsValid() || e.Type() != errorType {
		return Addr{}, nil, false
	}
	addr = a.Interface().(Addr)
	err, _ = e.Interface().(error)
	return addr, err, true
}

var (
	addrType  = reflect.TypeFor[Addr]()
	errorType = reflect.TypeFor[error]()
)

// PanicError is the error a request that panicked (a decoder bug, say) answers with:
// the view shows its sentence, the root logs the value and stack when it delivers it.
type PanicError struct {
	Kind  Kind
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return "internal error in the " + e.Kind.String() + " request (details in the log)"
}

// Orphan is implemented by results whose outcome must be told even when the view that
// asked is gone: a write's. The root runs Orphaned instead of dropping them.
type Orphan interface {
	Orphaned(ctx *Context) tea.Cmd
}

// Requests tracks a view's in-flight API calls: their latest generation per kind and
// their cancel funcs, cancelled when the view leaves or the program quits.
type Requests struct {
	ID int64

	mu      sync.Mutex
	gens    map[Kind]uint64
	cancels map[uint64]context.CancelFunc
	next    uint64
}

// NewRequests returns a tracker with a fresh view id.
func NewRequests() *Requests {
	return &Requests{ID: NewViewID(), gens: map[Kind]uint64{}, cancels: map[uint64]context.CancelFunc{}}
}

// Fetch builds a command that runs fn with a timeout and returns Result[T] addressed to
// this view under kind. Starting a new request of a kind cancels the previous one of
// that kind (its answer would be stale anyway). Only the result is typed: the rest is
// call's, compiled once rather than once per result type.
func Fetch[T any](r *Requests, kind Kind, fn func(ctx context.Context) (T, error)) tea.Cmd {
	return FetchWithin(r, kind, RequestTimeout, fn)
}

// FetchWithin is Fetch with another timeout than RequestTimeout (a bulk load runs
// for minutes).
func FetchWithin[T any](r *Requests, kind Kind, timeout time.Duration, fn func(ctx context.Context) (T, error)) tea.Cmd {
	c := r.start(kind, timeout)
	c.answer = func(ctx context.Context, failed error) tea.Msg {
		var v T
		err := failed
		if err == nil {
			v, err = fn(ctx)
		}
		return Result[T]{Addr: c.addr, Value: v, Err: err}
	}
	return c.run
}

// call is one request of a view in flight.
type call struct {
	r      *Requests
	addr   Addr
	ctx    context.Context
	cancel context.CancelFunc
	// answer runs the request and types its result; given failed, it only types that.
	answer func(ctx context.Context, failed error) tea.Msg
}

// start registers a request of kind, cancelling the previous one of that kind.
func (r *Requests) start(kind Kind, timeout time.Duration) *call {
	if kind.k == nil {
		panic("common.Fetch: a request needs a kind minted by NewKind")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	r.mu.Lock()
	r.next++
	gen := r.next
	if old, ok := r.gens[kind]; ok {
		if c := r.cancels[old]; c != nil {
			c()
			delete(r.cancels, old)
		}
	}
	r.gens[kind] = gen
	r.cancels[gen] = cancel
	r.mu.Unlock()
	return &call{r: r, addr: Addr{View: r.ID, Kind: kind, Gen: gen}, ctx: ctx, cancel: cancel}
}

// run is the request's command: it runs the request under its context and forgets it
// after.
func (c *call) run() (msg tea.Msg) {
	defer func() {
		// A panic in a request (a decoder bug, say) becomes an error for the view and a
		// stack in the log instead of killing the program; the value is left zero.
		if p := recover(); p != nil {
			c.cancel()
			c.done()
			msg = c.answer(nil, &PanicError{Kind: c.addr.Kind, Value: p, Stack: debug.Stack()})
		}
	}()
	msg = c.answer(c.ctx, nil)
	c.done()
	c.cancel()
	return msg
}

func (c *call) done() {
	c.r.mu.Lock()
	delete(c.r.cancels, c.addr.Gen)
	c.r.mu.Unlock()
}

// Current reports whether a result is the latest of its kind for this view.
func (r *Requests) Current(a Addr) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return a.View == r.ID && r.gens[a.Kind] == a.Gen
}

// Forget makes every in-flight result of kind stale (e.g. when the project changes).
func (r *Requests) Forget(kind Kind) {
	r.mu.Lock()
	r.next++
	r.gens[kind] = r.next
	r.mu.Unlock()
}

// CancelAll cancels every in-flight read; their results arrive with context.Canceled
// and are dropped as stale. Writes go on: cancelled in flight, a write may or may not
// have happened, so it runs to its answer, which is still the view's (or, when the view
// is gone, the root reports it: Orphan).
func (r *Requests) CancelAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	writes := map[uint64]bool{}
	for k, g := range r.gens {
		if k.isWrite() {
			writes[g] = true
			continue
		}
		r.next++
		r.gens[k] = r.next
	}
	for g, c := range r.cancels {
		if writes[g] {
			continue
		}
		c()
		delete(r.cancels, g)
	}
}

// InFlight reports how many requests have not answered yet.
func (r *Requests) InFlight() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.cancels)
}
