package base

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/svcui/svcui/internal/ui/common"
)

var errAnswerLost = errors.New("answer lost")

// A lost answer is read back and never sent again; a refusal carries the platform's
// message; a check first sends only what is not there yet.
func TestBatchSendsOnceAndReadsBackLostAnswers(t *testing.T) {
	var sends [4]atomic.Int32
	landed := [4]bool{}
	var mu sync.Mutex
	mk := func(i int, err error, lands bool) Step[int] {
		return Step[int]{
			Write: &Write[int]{Verb: Update, Name: "x",
				Send: func(context.Context, common.Writer) (int, error) {
					sends[i].Add(1)
					mu.Lock()
					landed[i] = landed[i] || lands
					mu.Unlock()
					return i, err
				},
				Find: func(context.Context) (int, bool, error) {
					mu.Lock()
					defer mu.Unlock()
					if landed[i] {
						return 1, true, nil
					}
					return 0, true, nil
				}},
			Landed: func(v int) bool { return v == 1 },
		}
	}
	b := &Batch[int]{Workers: 2, Unknown: func(err error) bool { return errors.Is(err, errAnswerLost) }, Message: func(err error) string { return err.Error() },
		Steps: []Step[int]{mk(0, nil, true), mk(1, errAnswerLost, true), mk(2, errAnswerLost, false), mk(3, errors.New("refused: quota"), false)}}
	got := map[int]StepResult[int]{}
	b.Run(context.Background(), func(r StepResult[int]) { got[r.Index] = r })
	want := []StepState{StepDone, StepDone, StepUnknown, StepRefused}
	for i, w := range want {
		if got[i].State != w || sends[i].Load() != 1 {
			t.Fatalf("row %d: %+v after %d sends, want state %v once", i, got[i], sends[i].Load(), w)
		}
	}
	if !got[1].ReadBack || got[3].Text != "refused: quota" {
		t.Fatalf("%+v %+v", got[1], got[3])
	}
	// A retry checks first: row 1 has landed and is not sent; row 2 is.
	b.Steps = []Step[int]{mk(1, nil, true), mk(2, nil, true)}
	for i := range b.Steps {
		b.Steps[i].CheckFirst = true
	}
	b.Run(context.Background(), func(StepResult[int]) {})
	if sends[1].Load() != 1 || sends[2].Load() != 2 {
		t.Fatalf("sends after the checked retry: %d %d", sends[1].Load(), sends[2].Load())
	}
}

// stopAfter is a budget that lets n requests go, then stops the batch.
type stopAfter struct {
	n      atomic.Int32
	cancel context.CancelFunc
}

func (s *stopAfter) Take(context.Context) error {
	if s.n.Add(-1) < 0 {
		s.cancel()
		return context.Canceled
	}
	return nil
}

// Stopping sends nothing more; the rows not sent stay pending (not reported).
func TestBatchStopsDispatching(t *testing.T) {
	stop, cancel := context.WithCancel(context.Background())
	budget := &stopAfter{cancel: cancel}
	budget.n.Store(3)
	var sent atomic.Int32
	steps := make([]Step[int], 10)
	for i := range steps {
		steps[i] = Step[int]{Write: &Write[int]{Send: func(context.Context, common.Writer) (int, error) { sent.Add(1); return 0, nil }}}
	}
	b := &Batch[int]{Steps: steps, Workers: 1, Budget: budget, Unknown: func(error) bool { return false }, Message: func(err error) string { return "" }}
	n := 0
	b.Run(stop, func(StepResult[int]) { n++ })
	if sent.Load() != 3 || n != 3 {
		t.Fatalf("sent %d, reported %d", sent.Load(), n)
	}
}
