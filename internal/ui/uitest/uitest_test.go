package uitest

import (
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

type counter struct {
	clock *Clock
	ticks int
	log   []string
}

type tick struct{}
type note string

func (c *counter) Init() tea.Cmd { return nil }
func (c *counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case tick:
		c.ticks++
		return c, c.clock.After(time.Second, tick{})
	case note:
		c.log = append(c.log, string(m))
	case tea.KeyMsg:
		return c, tea.Sequence(func() tea.Msg { return note("a") }, tea.Batch(func() tea.Msg { return note("b") }), func() tea.Msg { return note("c") })
	}
	return c, nil
}
func (c *counter) View() string { return "" }

func TestTimersFireOnlyWhenTheClockAdvances(t *testing.T) {
	clk := NewClock(time.Unix(0, 0))
	m := &counter{clock: clk}
	d := &Driver{Model: m, Clock: clk}
	d.Send(tick{})
	if m.ticks != 1 || clk.Pending() != 1 {
		t.Fatalf("ticks %d pending %d", m.ticks, clk.Pending())
	}
	d.Advance(999 * time.Millisecond)
	if m.ticks != 1 {
		t.Fatal("a timer fired early")
	}
	d.Advance(3 * time.Second)
	if m.ticks != 2 {
		t.Fatalf("ticks %d: one timer pending at a time, each fires once when due", m.ticks)
	}
}

func TestSequencesRunInOrder(t *testing.T) {
	m := &counter{clock: NewClock(time.Unix(0, 0))}
	(&Driver{Model: m}).Send(tea.KeyMsg{})
	if len(m.log) != 3 || m.log[0] != "a" || m.log[1] != "b" || m.log[2] != "c" {
		t.Fatalf("log %v", m.log)
	}
}

// RunForm keeps what answers at once, in order, and leaves out the cursor's blink
// timers without running them: nothing waits on the wall clock.
func TestRunFormLeavesOutBlinks(t *testing.T) {
	in := textinput.New()
	blink := in.Focus()
	if !IsBlink(blink) {
		t.Fatal("a focused input's blink timer is not recognised")
	}
	got := RunForm(tea.Batch(func() tea.Msg { return "a" }, blink, blink, tea.Sequence(func() tea.Msg { return "b" }, func() tea.Msg { return "c" })))
	// A blink that ran would have answered with its BlinkMsg, 530 ms later.
	if len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "c" {
		t.Fatalf("got %v", got)
	}
}

// BenchmarkRunFormFocusMove is one focus move in a form: huh's next-field message with
// the new field's blink timer beside it (200 ms a move while the harness waited it out).
func BenchmarkRunFormFocusMove(b *testing.B) {
	in := textinput.New()
	for b.Loop() {
		RunForm(tea.Batch(func() tea.Msg { return "next field" }, in.Focus()))
	}
}
