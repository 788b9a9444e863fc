package ui

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type blockMsg struct{}

// stuckModel's Update never returns on blockMsg until release is closed.
type stuckModel struct {
	entered chan struct{}
	release chan struct{}
}

func (m stuckModel) Init() tea.Cmd { return func() tea.Msg { return blockMsg{} } }
func (m stuckModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(blockMsg); ok {
		close(m.entered)
		<-m.release
	}
	return m, nil
}
func (m stuckModel) View() string { return "stuck" }

// A program that does not stop after the signal (an Update that never returns) does
// not keep the terminal: the terminal is restored without it and the process exits.
func TestStuckProgramRestoresTheTerminalAndExits(t *testing.T) {
	oldAfter, oldExit := stuckAfter, stuckExit
	t.Cleanup(func() { stuckAfter, stuckExit = oldAfter, oldExit })
	stuckAfter = 100 * time.Millisecond
	exited := make(chan int, 1)
	m := stuckModel{entered: make(chan struct{}), release: make(chan struct{})}
	out := &lockedBuffer{}
	var atExit string
	stuckExit = func(code int) { atExit = out.String(); exited <- code; close(m.release) }

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := strings.NewReader("")
	p := tea.NewProgram(m, tea.WithoutSignalHandler(), tea.WithInput(in), tea.WithOutput(out), tea.WithAltScreen())
	ran := make(chan error, 1)
	go func() { _, err := runProgram(ctx, p, &execState{}, in, out); ran <- err }()
	select {
	case <-m.entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the model's Update was not called")
	}
	before := out.String()
	cancel() // SIGTERM, as main's context sees it
	select {
	case code := <-exited:
		if code != 1 {
			t.Errorf("exit code %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a program stuck after the signal kept the terminal: no exit")
	}
	if restored := strings.TrimPrefix(atExit, before); !strings.Contains(restored, "\x1b[?1049l") || !strings.Contains(restored, "\x1b[?25h") {
		t.Errorf("the terminal was not restored: wrote %q", restored)
	}
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("the program did not end once its Update returned")
	}
}

// While a child has the terminal (psql, $EDITOR run with tea.Exec), the program's
// event loop waits for it: the watchdog must not take the terminal from the child,
// and acts once the child is gone.
func TestWatchdogWaitsWhileAChildHasTheTerminal(t *testing.T) {
	ex := &execState{}
	for _, msg := range []tea.Msg{tea.Exec(nil, nil)(), tea.ExecProcess(exec.Command("true"), nil)()} {
		ex.filter(nil, msg)
		if !ex.running.Load() {
			t.Fatalf("%T is not seen as running a child", msg)
		}
		ex.filter(nil, tea.WindowSizeMsg{})
		if ex.running.Load() {
			t.Fatal("the next message does not end the child's turn")
		}
	}

	oldAfter, oldExit := stuckAfter, stuckExit
	t.Cleanup(func() { stuckAfter, stuckExit = oldAfter, oldExit })
	stuckAfter = 50 * time.Millisecond
	exited := make(chan int, 1)
	stuckExit = func(code int) { exited <- code }
	var restored atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan struct{})
	defer close(done)
	ex.running.Store(true)
	go watchStop(ctx, done, ex, func() { restored.Add(1) })
	select {
	case <-exited:
		t.Fatal("the watchdog took the terminal from a running child")
	case <-time.After(400 * time.Millisecond):
	}
	if restored.Load() != 0 {
		t.Fatal("the terminal was restored under a running child")
	}
	ex.running.Store(false)
	select {
	case <-exited:
	case <-time.After(2 * time.Second):
		t.Fatal("the watchdog did not act once the child was gone")
	}
	if restored.Load() != 1 {
		t.Errorf("restored %d times", restored.Load())
	}
}
