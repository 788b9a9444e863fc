package common

import (
	"context"
	"sync"
	"time"
)

// Step is one row of a batch: a Write (the same declaration a single change makes), and
// how a read-back tells that its change is there.
type Step[T any] struct {
	Write *Write[T]
	// Landed reports that the item as read back already has the change.
	Landed func(T) bool
	// CheckFirst reads the item back before sending and sends only when the change is
	// not there: a resumed plan, a retried row, where an earlier send may have landed.
	CheckFirst bool
}

// StepState is where a row of a batch stands.
type StepState int

const (
	StepPending StepState = iota
	// StepDone: sent and answered, or found done by a read-back.
	StepDone
	// StepRefused: the platform refused it (the message is the platform's).
	StepRefused
	// StepUnknown: the answer was lost and the read-back could not tell, or found the
	// change not there; it is never sent again by the batch.
	StepUnknown
)

// StepResult is one row's outcome.
type StepResult[T any] struct {
	Index int
	State StepState
	// Text is the platform's message for a refusal, or what the read-back found.
	Text string
	// ReadBack: the outcome comes from reading the item back.
	ReadBack bool
	// Sent: a request was sent for this row (false when a check found it done).
	Sent  bool
	Value T
}

// Budget paces a batch to the platform's request budget: Take returns when one more
// request may be sent (or the context ends).
type Budget interface {
	Take(ctx context.Context) error
}

// Batch runs many writes: each step is sent at most once (a lost answer is read back,
// never resent), Workers at a time, each request taken from Budget. It is part of the
// write pipeline: its steps' Sends get the client's writer only from a Batch made by
// NewBatch (a Batch built any other way sends with none).
type Batch[T any] struct {
	writer  Writer
	Steps   []Step[T]
	Workers int
	Budget  Budget
	// Unknown reports a write whose answer was lost (ctx.OutcomeUnknown); Message turns
	// an error into the platform's sentence (ctx.ErrorText).
	Unknown func(error) bool
	Message func(error) string
	// Timeout bounds each request (default common.RequestTimeout's 15 s).
	Timeout time.Duration
}

// NewBatch is a batch of steps that sends with the context's writer; Unknown and
// Message default to the context's (set them to what a run captured instead).
func NewBatch[T any](ctx *Context, steps []Step[T]) *Batch[T] {
	return &Batch[T]{writer: ctx.writer, Steps: steps, Unknown: ctx.OutcomeUnknown, Message: ctx.ErrorText}
}

// Run sends the steps and reports each outcome as it comes (report is called from the
// batch's goroutines, one at a time). Cancelling stop ends the dispatch: requests in
// flight finish (a write cut off mid-flight would be of unknown outcome), the rest stay
// pending. Run returns when every started step has reported.
func (b *Batch[T]) Run(stop context.Context, report func(StepResult[T])) {
	workers := max(1, b.Workers)
	next := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := b.step(stop, i)
				mu.Lock()
				report(r)
				mu.Unlock()
			}
		}()
	}
	for i := range b.Steps {
		if stop.Err() != nil {
			break
		}
		if b.Budget != nil && b.Budget.Take(stop) != nil {
			break
		}
		select {
		case next <- i:
		case <-stop.Done():
		}
		if stop.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
}

func (b *Batch[T]) timeout() time.Duration {
	if b.Timeout > 0 {
		return b.Timeout
	}
	return RequestTimeout
}

// step runs one row: check (when asked), send once, read back a lost answer.
func (b *Batch[T]) step(stop context.Context, i int) StepResult[T] {
	s := b.Steps[i]
	// Not derived from stop: a cancel must not cut a request already on its way.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(stop), b.timeout())
	defer cancel()
	if s.CheckFirst && s.Write.Find != nil {
		v, found, err := s.Write.Find(ctx)
		switch {
		case err != nil:
			return StepResult[T]{Index: i, State: StepUnknown, Text: "could not check it before sending: " + b.Message(err), ReadBack: true}
		case found && s.Landed != nil && s.Landed(v):
			return StepResult[T]{Index: i, State: StepDone, Text: "already so", ReadBack: true, Value: v}
		case !found && s.Write.Verb == Delete:
			return StepResult[T]{Index: i, State: StepDone, Text: "already gone", ReadBack: true}
		case !found && s.Write.Verb != Create:
			return StepResult[T]{Index: i, State: StepRefused, Text: "it does not exist any more", ReadBack: true}
		}
		if b.Budget != nil && b.Budget.Take(stop) != nil {
			return StepResult[T]{Index: i, State: StepPending}
		}
	}
	v, err := s.Write.Send(ctx, b.writer)
	if err == nil {
		return StepResult[T]{Index: i, State: StepDone, Sent: true, Value: v}
	}
	if !b.Unknown(err) {
		return StepResult[T]{Index: i, State: StepRefused, Text: b.Message(err), Sent: true}
	}
	if s.Write.Find == nil {
		// Nothing to read back (a reset): it may have happened, and is not sent again.
		return StepResult[T]{Index: i, State: StepUnknown, Sent: true, Text: "the answer was lost: it may have happened; not sent again"}
	}
	// The answer was lost: what happened is read back, never sent again.
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(stop), b.timeout())
	defer rcancel()
	v, found, rerr := s.Write.Find(rctx)
	switch {
	case rerr != nil:
		return StepResult[T]{Index: i, State: StepUnknown, Sent: true, ReadBack: true,
			Text: "the answer was lost and reading it back failed (" + b.Message(rerr) + "); not sent again"}
	case s.Write.Verb == Delete && !found:
		return StepResult[T]{Index: i, State: StepDone, Sent: true, ReadBack: true, Text: "answer lost; read back: deleted"}
	case found && s.Landed != nil && s.Landed(v):
		return StepResult[T]{Index: i, State: StepDone, Sent: true, ReadBack: true, Text: "answer lost; read back: done", Value: v}
	}
	return StepResult[T]{Index: i, State: StepUnknown, Sent: true, ReadBack: true, Value: v,
		Text: "the answer was lost and the read-back does not show the change; not sent again"}
}
