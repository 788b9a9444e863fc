package base

import "github.com/svcui/svcui/internal/ui/common"

// A batch of writes is part of the write pipeline (common/batch.go): base names it for
// the panes. Make one with NewBatch, which hands its steps the client's writer.
type (
	Step[T any]       = common.Step[T]
	StepState         = common.StepState
	StepResult[T any] = common.StepResult[T]
	Budget            = common.Budget
	Batch[T any]      = common.Batch[T]
)

const (
	StepPending = common.StepPending
	StepDone    = common.StepDone
	StepRefused = common.StepRefused
	StepUnknown = common.StepUnknown
)

// NewBatch is common.NewBatch: a batch that sends with the context's writer.
func NewBatch[T any](ctx *common.Context, steps []Step[T]) *Batch[T] {
	return common.NewBatch(ctx, steps)
}
