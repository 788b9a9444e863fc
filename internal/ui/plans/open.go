package plans

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/fleet"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/watch"
)

// Workers is how many of a plan's requests are in flight at once.
const Workers = 4

var planSeq atomic.Int64

// Open shows a plan (fresh, or kept and resumed) over the screen. hidden[i] says the
// current filter does not show row i's resource (nil: none hidden).
func Open(ctx *common.Context, p fleet.Plan, hidden []bool, resumed bool) tea.Cmd {
	m, err := NewModal(ctx, p, hidden, resumed)
	if err != "" {
		return common.Error(err)
	}
	return ctx.Open(m)
}

// NewModal builds the plan's modal and the runner behind it.
func NewModal(ctx *common.Context, p fleet.Plan, hidden []bool, resumed bool) (*components.Plan, string) {
	if len(p.Rows) == 0 {
		return nil, "The plan has no rows"
	}
	pl := platformOf(ctx)
	switch p.Rows[0].Op {
	case fleet.OpServiceUpdate:
		return build(ctx, p, hidden, resumed, pl.serviceStep, nil, watchMoved), ""
	case fleet.OpServiceDelete:
		return build(ctx, p, hidden, resumed, pl.deleteStep, nil, nil), ""
	case fleet.OpUserReset:
		return build(ctx, p, hidden, resumed, pl.resetStep, func(u models.ServiceUser) string { return u.Password }, nil), ""
	}
	return nil, "The plan's rows are of a kind this console does not know (" + string(p.Rows[0].Op) + ")"
}

// runner applies a plan's rows and keeps its record on disk while it does.
type runner[T any] struct {
	id     int64
	dir    string // where the plan is kept
	state  string // the state directory (runbooks go there when the working directory is not writable)
	api    string
	stepOf func(fleet.Row) base.Step[T]
	secret func(T) string
	// after is what a done row sets off (nil: nothing).
	after  func(fleet.Row, T) tea.Cmd
	budget base.Budget
	pl     platform
	// newBatch makes a batch that sends with the context's writer (base.NewBatch).
	newBatch func([]base.Step[T]) *base.Batch[T]

	mu     sync.Mutex // guards plan: the run's goroutines write it
	plan   fleet.Plan
	cancel context.CancelFunc
}

func build[T any](ctx *common.Context, p fleet.Plan, hidden []bool, resumed bool, stepOf func(fleet.Row) base.Step[T],
	secret func(T) string, after func(fleet.Row, T) tea.Cmd) *components.Plan {
	r := &runner[T]{id: planSeq.Add(1), dir: fleet.Dir(ctx.StateDir, ctx.Profile), state: ctx.StateDir, api: ctx.APIURL, stepOf: stepOf,
		secret: secret, after: after,
		budget: newRateBudget(ctx), pl: platformOf(ctx), plan: p,
		newBatch: func(steps []base.Step[T]) *base.Batch[T] { return base.NewBatch(ctx, steps) }}
	r.plan.Rows = append([]fleet.Row(nil), p.Rows...)
	rows := make([]components.PlanRow, len(p.Rows))
	for i, row := range p.Rows {
		rows[i] = components.PlanRow{Resource: row.Resource(), Change: row.Change, Cost: row.Cost, Notes: row.Notes, Skip: row.Skip,
			Hidden: i < len(hidden) && hidden[i]}
	}
	m := components.NewPlan(ctx, components.PlanSpec{ID: r.id, Title: p.Title, Noun: p.Noun, Rows: rows, Total: p.Total,
		Apply: r.apply, Stop: r.stop, Runbook: r.runbook, Resumed: resumed})
	// A resumed plan shows where it stopped.
	for i, row := range p.Rows {
		if st := stateOf(row.State); st != components.RowPending && st != components.RowSkipped {
			m.Update(components.PlanProgress{ID: r.id, Index: i, State: st, Text: row.Result})
		}
	}
	return m
}

func stateOf(s string) components.RowState {
	switch s {
	case fleet.StateDone:
		return components.RowDone
	case fleet.StateRefused:
		return components.RowRefused
	case fleet.StateUnknown:
		return components.RowUnknown
	case fleet.StateSkipped:
		return components.RowSkipped
	}
	return components.RowPending
}

var keptState = map[base.StepState]string{base.StepPending: fleet.StatePending, base.StepDone: fleet.StateDone,
	base.StepRefused: fleet.StateRefused, base.StepUnknown: fleet.StateUnknown}

var rowState = map[base.StepState]components.RowState{base.StepPending: components.RowPending, base.StepDone: components.RowDone,
	base.StepRefused: components.RowRefused, base.StepUnknown: components.RowUnknown}

func (r *runner[T]) stop() {
	if r.cancel != nil {
		r.cancel()
	}
}

// apply sends rows (indices into the plan) in a goroutine the command starts; each
// outcome comes back as PlanProgress, whose Next waits for the one after.
func (r *runner[T]) apply(rows []int, checkFirst bool) tea.Cmd {
	stop, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.mu.Lock()
	steps := make([]base.Step[T], len(rows))
	for k, i := range rows {
		steps[k] = r.stepOf(r.plan.Rows[i])
		steps[k].CheckFirst = checkFirst
		r.plan.Rows[i].State, r.plan.Rows[i].Result = fleet.StatePending, ""
	}
	r.mu.Unlock()
	b := r.newBatch(steps)
	b.Workers, b.Budget, b.Unknown, b.Message = Workers, r.budget, r.pl.unknown, r.pl.message
	ch := make(chan tea.Msg, len(rows)+2)
	var next tea.Cmd
	next = func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return nil
		}
		if p, ok := m.(components.PlanProgress); ok {
			p.Next = next
			return p
		}
		return m
	}
	return func() tea.Msg {
		go r.run(stop, cancel, b, rows, ch)
		return next()
	}
}

// run is the goroutine of one run: it keeps the plan on disk (0600, no secrets) after
// every row, and forgets it once every row is done.
func (r *runner[T]) run(stop context.Context, cancel context.CancelFunc, b *base.Batch[T], rows []int, ch chan<- tea.Msg) {
	defer close(ch)
	defer cancel()
	r.keep()
	b.Run(stop, func(res base.StepResult[T]) {
		i := rows[res.Index]
		r.mu.Lock()
		r.plan.Rows[i].State, r.plan.Rows[i].Result = keptState[res.State], res.Text
		r.mu.Unlock()
		r.keep()
		msg := components.PlanProgress{ID: r.id, Index: i, State: rowState[res.State], Text: res.Text}
		if r.secret != nil && res.State == base.StepDone {
			msg.Secret = r.secret(res.Value)
		}
		if r.after != nil && res.State == base.StepDone && res.Sent {
			r.mu.Lock()
			row := r.plan.Rows[i]
			r.mu.Unlock()
			msg.Also = r.after(row, res.Value)
		}
		ch <- msg
	})
	ch <- components.PlanFinished{ID: r.id, Stopped: stop.Err() != nil}
}

// keep writes the plan's record, or removes it when nothing is left to do.
func (r *runner[T]) keep() {
	r.mu.Lock()
	p := r.plan
	p.Rows = append([]fleet.Row(nil), r.plan.Rows...)
	r.mu.Unlock()
	if p.Left() == 0 {
		_ = fleet.Remove(r.dir, p.ID)
		return
	}
	_ = fleet.Save(r.dir, p)
}

// runbook saves the plan as a shell script and as JSON, in a command.
func (r *runner[T]) runbook() tea.Cmd {
	r.mu.Lock()
	p := r.plan
	p.Rows = append([]fleet.Row(nil), r.plan.Rows...)
	r.mu.Unlock()
	api, stateDir, id := r.api, r.state, r.id
	return func() tea.Msg {
		sh, js, err := SaveRunbook(p, api, stateDir)
		if err != nil {
			return components.PlanNote{ID: id, Text: "Could not save the runbook: " + err.Error()}
		}
		return components.PlanNote{ID: id, Text: "Saved the runbook " + sh + " and the plan " + js + " (it reads $SVCUI_TOKEN)"}
	}
}

// SaveRunbook writes svcui-plan-ID.sh and .json in the working directory, or in the
// state directory's runbooks when the working directory cannot be written.
func SaveRunbook(p fleet.Plan, api, stateDir string) (sh, js string, err error) {
	body, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return "", "", err
	}
	script := fleet.Runbook(p, api)
	write := func(dir string) error {
		sh = filepath.Join(dir, "svcui-plan-"+p.ID+".sh")
		js = filepath.Join(dir, "svcui-plan-"+p.ID+".json")
		if err := fleet.WritePrivate(sh, []byte(script)); err != nil {
			return err
		}
		if err := os.Chmod(sh, 0o700); err != nil {
			return err
		}
		return fleet.WritePrivate(js, append(body, '\n'))
	}
	if wd, werr := os.Getwd(); werr == nil && write(wd) == nil {
		return sh, js, nil
	}
	dir := filepath.Join(stateDir, "runbooks")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", err
	}
	return sh, js, write(dir)
}

// watchMoved watches a service a plan powered on or off, or moved to another plan, until
// it settles, as a single edit does.
func watchMoved(r fleet.Row, s models.Service) tea.Cmd {
	if r.Update == nil {
		return nil
	}
	reason := watch.Reason(*r.Update)
	if reason == "" {
		return nil
	}
	return common.Send(watch.Start{Project: r.Project, Service: r.Service, Reason: reason, State: s.State})
}
