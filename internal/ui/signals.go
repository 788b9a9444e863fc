package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"reflect"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
)

// Signals have one owner each while the console runs:
//
//   - SIGTERM and SIGHUP: main's context (signal.NotifyContext). Its end quits the
//     program (runProgram), which restores the terminal as a quit does. Bubble Tea's own
//     handler is off (tea.WithoutSignalHandler): it caught SIGTERM too and, when the
//     context had already ended the event loop, blocked for good sending its QuitMsg,
//     so the program never restored the terminal (6 runs of 14 hung with the alternate
//     screen on and the tty raw). The context is not the program's (tea.WithContext):
//     its end kills the program, and a kill closes the terminal's reader without
//     waiting for the goroutine reading it (a data race in Bubble Tea's shutdown, found
//     by the signal tests once the console under test was race-built).
//   - SIGINT: ignored here. ctrl+c is a key in the console; SIGINT comes from outside or
//     from the terminal while a client (psql) runs in the foreground, and that one is
//     the client's. Caught signals are reset for a child at exec, so psql still gets it.
//
// A connect session's guard (internal/connect) also watches them while its files exist,
// to remove them and pass the signal on to the client; the console ends after.

// stuckAfter is how long after its context ended a program may take to stop before the
// terminal is restored without it and the process exits: longer than a connect
// client may take to obey the signal (5 s). While the program has handed the terminal
// to a child (tea.Exec: psql, $EDITOR), it is the child's and the wait goes on.
var stuckAfter = 10 * time.Second

// execState tracks whether the program is running a child with the terminal. Bubble Tea
// runs tea.Exec inside its event loop, which reads no other message until the child
// exits: the filter sees the exec message, and the next message means it is over.
type execState struct{ running atomic.Bool }

// execMsgType is the type of the message tea.Exec and tea.ExecProcess send.
var execMsgType = reflect.TypeOf(tea.Exec(nil, nil)())

func (e *execState) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	e.running.Store(reflect.TypeOf(msg) == execMsgType)
	return msg
}

// stuckExit ends the process when the program did not stop; tests replace it.
var stuckExit = os.Exit

// runProgram runs p under the console's signal handling (see above). in and out are
// the program's terminal (nil: stdin and stdout).
func runProgram(ctx context.Context, p *tea.Program, ex *execState, in io.Reader, out io.Writer) (tea.Model, error) {
	intc := make(chan os.Signal, 1)
	signal.Notify(intc, os.Interrupt)
	done := make(chan struct{})
	defer func() {
		signal.Stop(intc)
		close(done)
	}()
	go func() {
		for {
			select {
			case <-intc:
			case <-done:
				return
			}
		}
	}()
	go func() {
		select {
		case <-ctx.Done():
			p.Quit() // does not block: a program that has ended takes no message
		case <-done:
		}
	}()
	go watchStop(ctx, done, ex, terminalRestorer(in, out))
	return p.Run()
}

// watchStop restores the terminal and exits when the program has not stopped within
// stuckAfter of ctx's end (an Update that never returns), unless a child has the
// terminal then.
func watchStop(ctx context.Context, done <-chan struct{}, ex *execState, restore func()) {
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	t := time.NewTimer(stuckAfter)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		if ex != nil && ex.running.Load() {
			t.Reset(stuckAfter)
			continue
		}
		restore()
		fmt.Fprintf(os.Stderr, "svcui: the console did not stop within %s of the signal; the terminal was restored without it\n", stuckAfter)
		stuckExit(1)
		return
	}
}

// terminalRestorer saves the terminal's mode now and returns what puts it back: the
// mode, the main screen, the cursor, no bracketed paste, no focus reports.
func terminalRestorer(in io.Reader, out io.Writer) func() {
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	var fd uintptr
	var state *term.State
	if f, ok := in.(interface{ Fd() uintptr }); ok && term.IsTerminal(f.Fd()) {
		if st, err := term.GetState(f.Fd()); err == nil {
			fd, state = f.Fd(), st
		}
	}
	return func() {
		_, _ = io.WriteString(out, "\x1b[?1004l\x1b[?2004l\x1b[?25h\x1b[?1049l")
		if state != nil {
			_ = term.Restore(fd, state)
		}
	}
}
