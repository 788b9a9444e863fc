package search

import (
	"context"
	"errors"
	"github.com/svcui/svcui/internal/ui/terminal"
	"os"
	"os/exec"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// externalFile is the buffer written to a temporary file, with the editor command
// that will open it (looked up in the command, never in Update).
type externalFile struct {
	file string
	cmd  *exec.Cmd
}

// externalDone is the end of an $EDITOR session; addr is the preparation's address,
// so a session of a pane that has moved on is ignored.
type externalDone struct {
	addr common.Addr
	file string
	err  error
}

func (m externalDone) Target() int64 { return m.addr.View }

// externalText is the buffer read back after the editor exited.
type externalText struct{ text string }

// openExternal writes the buffer to a temporary file and finds $VISUAL or $EDITOR, in
// a command; the program then suspends while the editor runs (tea.ExecProcess).
func (e *editor) openExternal() tea.Cmd {
	text := e.ta.Value()
	return common.Fetch(e.req, kindExternal, func(context.Context) (externalFile, error) {
		ed := strings.Fields(os.Getenv("VISUAL"))
		if len(ed) == 0 {
			ed = strings.Fields(os.Getenv("EDITOR"))
		}
		if len(ed) == 0 {
			return externalFile{}, errors.New("set $EDITOR (or $VISUAL) to edit the buffer in your editor")
		}
		f, err := os.CreateTemp("", "svcui-search-*.txt")
		if err != nil {
			return externalFile{}, errors.New("cannot create a temporary file: " + err.Error())
		}
		_, werr := f.WriteString(text)
		cerr := f.Close()
		if werr != nil || cerr != nil {
			_ = os.Remove(f.Name())
			return externalFile{}, errors.New("cannot write the temporary file " + f.Name())
		}
		return externalFile{file: f.Name(), cmd: exec.Command(ed[0], append(ed[1:], f.Name())...)}, nil
	})
}

// runExternal hands the terminal to the editor.
func (e *editor) runExternal(addr common.Addr, f externalFile, err error) tea.Cmd {
	if err != nil {
		return common.Warn(sentenceCase(err.Error()))
	}
	return tea.Exec(terminal.Command(f.cmd), func(err error) tea.Msg { return externalDone{addr: addr, file: f.file, err: err} })
}

// readExternal reads the edited buffer back and removes the file, in a command.
func (e *editor) readExternal(m externalDone) tea.Cmd {
	return common.Fetch(e.req, kindExternalRead, func(context.Context) (externalText, error) {
		defer os.Remove(m.file)
		if m.err != nil {
			return externalText{}, errors.New("the editor failed: " + m.err.Error() + " (buffer unchanged)")
		}
		b, err := os.ReadFile(m.file)
		if err != nil {
			return externalText{}, errors.New("cannot read the edited buffer back: " + err.Error())
		}
		return externalText{string(b)}, nil
	})
}

// externalRead puts the edited text in the editor.
func (e *editor) externalRead(t externalText, err error) tea.Cmd {
	if err != nil {
		return common.Error(sentenceCase(err.Error()))
	}
	line := e.ta.Line()
	e.ta.SetValue(t.text)
	e.gotoLine(line)
	e.focus()
	return common.Info("Buffer updated from the editor")
}

// sentenceCase starts a message with a capital.
// updateExternal takes the external editor's messages; ok is false for others.
func (e *editor) updateExternal(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case common.Result[externalFile]:
		if !e.req.Current(msg.Addr) {
			return nil, true
		}
		return e.runExternal(msg.Addr, msg.Value, msg.Err), true
	case externalDone:
		if !e.req.Current(msg.addr) {
			return nil, true
		}
		return e.readExternal(msg), true
	case common.Result[externalText]:
		if !e.req.Current(msg.Addr) {
			return nil, true
		}
		return e.externalRead(msg.Value, msg.Err), true
	}
	return nil, false
}

func sentenceCase(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
