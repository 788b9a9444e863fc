// Package uitest drives UI models without real time: a Clock whose timers fire only when
// a test advances it, and a Driver that runs every command to its messages and feeds
// them back until nothing is left, so a test reads the screen after each step instead
// of sleeping and hoping the program caught up.
package uitest

import (
	"reflect"
	"sort"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	tea "github.com/charmbracelet/bubbletea"
)

// Clock is a fake clock: After records timers, Advance fires those that are due.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	pending []timer
}

type timer struct {
	at  time.Time
	msg tea.Msg
}

// NewClock starts a clock at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After records a timer; the command it returns produces nothing (the timer's message
// comes from Advance).
func (c *Clock) After(d time.Duration, msg tea.Msg) tea.Cmd {
	c.mu.Lock()
	c.pending = append(c.pending, timer{c.now.Add(d), msg})
	c.mu.Unlock()
	return nil
}

// Advance moves the clock by d and returns the messages of the timers now due, in
// order.
func (c *Clock) Advance(d time.Duration) []tea.Msg {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	sort.SliceStable(c.pending, func(i, j int) bool { return c.pending[i].at.Before(c.pending[j].at) })
	var due []tea.Msg
	keep := c.pending[:0]
	for _, t := range c.pending {
		if t.at.After(c.now) {
			keep = append(keep, t)
		} else {
			due = append(due, t.msg)
		}
	}
	c.pending = keep
	return due
}

// Pending is how many timers wait.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

// Run runs a command and returns its messages, batches and sequences flattened in order.
// Commands run synchronously: with the UI's timers on a Clock nothing here waits.
func Run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if msg == nil {
		return nil
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		return runAll(b)
	}
	if cmds, ok := sequenceCmds(msg); ok {
		return runAll(cmds)
	}
	return []tea.Msg{msg}
}

func runAll(cmds []tea.Cmd) []tea.Msg {
	var out []tea.Msg
	for _, c := range cmds {
		out = append(out, Run(c)...)
	}
	return out
}

// Driver holds a model and feeds it messages until it is quiet.
type Driver struct {
	Model tea.Model
	Clock *Clock
	// Skip drops messages the test does not want delivered (e.g. quit).
	Skip func(tea.Msg) bool
	// Steps bounds one Send, so a command loop fails the test instead of hanging it.
	Steps int
}

// Send delivers msgs and everything their commands produce, in order.
func (d *Driver) Send(msgs ...tea.Msg) {
	queue := append([]tea.Msg(nil), msgs...)
	limit := d.Steps
	if limit == 0 {
		limit = 10000
	}
	for n := 0; len(queue) > 0; n++ {
		if n > limit {
			panic("uitest: the model did not settle: a command loop?")
		}
		msg := queue[0]
		queue = queue[1:]
		if d.Skip != nil && d.Skip(msg) {
			continue
		}
		var cmd tea.Cmd
		d.Model, cmd = d.Model.Update(msg)
		queue = append(queue, Run(cmd)...)
	}
}

// Advance moves the clock and delivers the timers that came due.
func (d *Driver) Advance(dur time.Duration) { d.Send(d.Clock.Advance(dur)...) }

var cmdType = reflect.TypeOf((*tea.Cmd)(nil)).Elem()

// Sequenced is the commands cmd runs one after another (tea.Sequence), or false when it
// runs none in order (a tea.Batch starts them together).
func Sequenced(cmd tea.Cmd) ([]tea.Cmd, bool) {
	if cmd == nil {
		return nil, false
	}
	msg := cmd()
	if _, batch := msg.(tea.BatchMsg); batch {
		return nil, false
	}
	return sequenceCmds(msg)
}

// sequenceCmds recognises tea.Sequence's message (a []tea.Cmd under an unexported
// name) and returns its commands in order; the driver runs them in order.
func sequenceCmds(msg tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != cmdType {
		return nil, false
	}
	out := make([]tea.Cmd, v.Len())
	for i := range out {
		out[i], _ = v.Index(i).Interface().(tea.Cmd)
	}
	return out, true
}

// RunForm is Run for commands that may hold huh's cursor blinks. huh v1 has no option
// to turn the blink off: each focused text field asks for a timer that answers after
// 530 ms and asks again when it does. RunForm leaves those timers out, recognised by
// their code, without running them (nothing waits on the wall clock); everything else
// (focus moves, submits, the UI's messages) runs as in Run.
func RunForm(cmd tea.Cmd) []tea.Msg {
	if cmd == nil || IsBlink(cmd) {
		return nil
	}
	msg := cmd()
	if msg == nil {
		return nil
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		return runFormAll(b)
	}
	if cmds, ok := sequenceCmds(msg); ok {
		return runFormAll(cmds)
	}
	return []tea.Msg{msg}
}

func runFormAll(cmds []tea.Cmd) []tea.Msg {
	var out []tea.Msg
	for _, c := range cmds {
		out = append(out, RunForm(c)...)
	}
	return out
}

// blinkCode is the code of the cursor's blink timer (bubbles' cursor.Model.BlinkCmd),
// which every huh text field and select filter starts on focus and on each key.
var blinkCode = cursorBlinkCode()

func cursorBlinkCode() uintptr {
	c := cursor.New()
	c.SetMode(cursor.CursorBlink)
	return reflect.ValueOf(c.BlinkCmd()).Pointer()
}

// IsBlink reports whether cmd is a cursor blink timer.
func IsBlink(cmd tea.Cmd) bool { return reflect.ValueOf(cmd).Pointer() == blinkCode }

// Pump runs cmd (with Run) and hands every message it produces that back accepts to
// update, running what update returns in turn, until quiet; the other messages (those
// for the root) are returned in order. It is the one loop the UI tests drive a view or a
// modal with outside a whole program.
func Pump(cmd tea.Cmd, update func(tea.Msg) tea.Cmd, back func(tea.Msg) bool) []tea.Msg {
	return pump(Run, cmd, update, back)
}

// PumpForm is Pump for views and modals that hold huh forms: commands run with RunForm.
func PumpForm(cmd tea.Cmd, update func(tea.Msg) tea.Cmd, back func(tea.Msg) bool) []tea.Msg {
	return pump(RunForm, cmd, update, back)
}

func pump(run func(tea.Cmd) []tea.Msg, cmd tea.Cmd, update func(tea.Msg) tea.Cmd, back func(tea.Msg) bool) []tea.Msg {
	var out []tea.Msg
	queue := []tea.Cmd{cmd}
	for n := 0; len(queue) > 0; n++ {
		if n > 1000 {
			panic("uitest: Pump did not settle: a command loop?")
		}
		c := queue[0]
		queue = queue[1:]
		for _, m := range run(c) {
			if back(m) {
				queue = append(queue, update(m))
			} else {
				out = append(out, m)
			}
		}
	}
	return out
}
