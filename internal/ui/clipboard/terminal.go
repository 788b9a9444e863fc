package clipboard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/aymanbagabas/go-osc52/v2"
)

// loadBufferTimeout bounds `tmux load-buffer`; a server that does not answer in this time
// is treated as a refusal and the copy falls back to OSC 52.
const loadBufferTimeout = 3 * time.Second

// rawSequence is the plain OSC 52 escape that sets the clipboard to text.
func rawSequence(text string) string { return osc52.New(text).String() }

// screenSequence wraps OSC 52 in GNU screen's DCS passthrough, in chunks screen accepts.
func screenSequence(text string) string { return osc52.New(text).Screen().String() }

// openTTY opens the controlling terminal for writing escapes beside the Bubble Tea
// renderer. /dev/tty reaches the terminal even when stdout is redirected; the renderer
// writes whole frames to stdout, and our single Write of a complete sequence is not
// interleaved with a frame in practice (both are single write(2) calls to the tty).
func openTTY() (io.WriteCloser, error) {
	f, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return nopCloser{os.Stderr}, nil
	}
	return f, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// writeTerminal sends escape sequences to the terminal in one write.
func (c *Clipboard) writeTerminal(seq string) error {
	w, err := c.openTerminal()
	if err != nil {
		return fmt.Errorf("no terminal to send OSC 52 to (%v)", err)
	}
	defer w.Close()
	if _, err := io.WriteString(w, seq); err != nil {
		return fmt.Errorf("writing OSC 52 to the terminal failed (%v)", err)
	}
	return nil
}

// tmuxLoadBuffer runs `tmux load-buffer -w -` with value on standard input, never in
// argv, where other users' `ps` could read it. tmux stores it as its newest paste buffer
// and sends OSC 52 to the client attached to this pane's session.
func tmuxLoadBuffer(tmux, value string) error {
	ctx, cancel := context.WithTimeout(context.Background(), loadBufferTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tmux, "load-buffer", "-w", "-")
	cmd.Stdin = strings.NewReader(value)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("tmux did not answer within %s", loadBufferTimeout)
	}
	return errors.New(commandError(err, stderr.String(), value))
}

// commandError turns a failed helper command into a short reason; it drops anything that
// could echo the value back.
func commandError(err error, stderr, value string) string {
	msg := strings.Join(strings.Fields(stderr), " ")
	if msg == "" || value != "" && strings.Contains(msg, value) {
		msg = err.Error()
	}
	const max = 100
	if r := []rune(msg); len(r) > max {
		msg = string(r[:max-1]) + "…"
	}
	return msg
}
