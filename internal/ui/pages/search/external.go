package search

import (
	"os"
	"os/exec"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// externalDone is the end of an $EDITOR session on the buffer.
type externalDone struct {
	id   int64
	file string
	err  error
}

func (m externalDone) Target() int64 { return m.id }

// openExternal writes the buffer to a temporary file and opens it in $EDITOR (the
// program suspends meanwhile); the file is read back when the editor exits.
func (p *Pane) openExternal() tea.Cmd {
	ed := strings.Fields(os.Getenv("VISUAL"))
	if len(ed) == 0 {
		ed = strings.Fields(os.Getenv("EDITOR"))
	}
	if len(ed) == 0 {
		return common.Warn("Set $EDITOR (or $VISUAL) to edit the buffer in your editor")
	}
	f, err := os.CreateTemp("", "svcui-search-*.txt")
	if err != nil {
		return common.Error("Cannot create a temporary file: " + err.Error())
	}
	_, werr := f.WriteString(p.editor.Value())
	cerr := f.Close()
	if werr != nil || cerr != nil {
		_ = os.Remove(f.Name())
		return common.Error("Cannot write the temporary file")
	}
	id, name := p.req.ID, f.Name()
	c := exec.Command(ed[0], append(ed[1:], name)...)
	return tea.ExecProcess(c, func(err error) tea.Msg { return externalDone{id: id, file: name, err: err} })
}

func (p *Pane) readExternal(m externalDone) tea.Cmd {
	defer os.Remove(m.file)
	if m.err != nil {
		return common.Error("The editor failed: " + m.err.Error() + " (buffer unchanged)")
	}
	b, err := os.ReadFile(m.file)
	if err != nil {
		return common.Error("Cannot read the edited buffer back: " + err.Error())
	}
	line := p.editor.Line()
	p.editor.SetValue(string(b))
	p.gotoLine(line)
	p.setFocus(focusEditor)
	return common.Info("Buffer updated from the editor")
}
