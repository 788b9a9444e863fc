package search

import (
	"context"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// The editor's text is kept per service: saved a moment after the typing stops (in a
// command), when the editor is left or a request runs, and once more, at once, when the
// pane goes away (ctrl+c, another service), so nothing typed is lost.

// saveDelay is how long the editor waits after a change before saving.
const saveDelay = 400 * time.Millisecond

// saved is the answer of a state-file write.
type saved struct{ what string }

// editorIdle is a change's save timer; gen is the change it was armed for.
type editorIdle struct {
	id  int64
	gen int
}

func (m editorIdle) Target() int64 { return m.id }

// editorStore writes one service's editor text, one write at a time and in the order
// the texts were taken: a slow earlier save never overwrites a later one.
type editorStore struct {
	mu       sync.Mutex
	dir, key string
	seq      uint64 // of the text on disk
	text     string
}

// write puts text (taken as number seq) on disk unless a later text is already there.
func (s *editorStore) write(seq uint64, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if seq <= s.seq {
		return nil // a later text is on disk already
	}
	if err := search.SaveEditorText(s.dir, s.key, text); err != nil {
		return err
	}
	s.seq, s.text = seq, text
	return nil
}

// editorStore is the store of the connected service's text.
func (e *editor) textStore() *editorStore {
	key := stateKey(e.link.conn.project, e.link.conn.service)
	if e.store == nil || e.store.key != key || e.store.dir != e.ctx.StateDir {
		e.store = &editorStore{dir: e.ctx.StateDir, key: key, text: e.savedText}
	}
	return e.store
}

// editorChanged arms the save timer of a change.
func (e *editor) changed() tea.Cmd {
	if e.link.conn == nil {
		return nil
	}
	e.editGen++
	return e.ctx.After(saveDelay, editorIdle{id: e.req.ID, gen: e.editGen})
}

// saveEditor keeps the console text for the service, in a command, when it changed
// since the last save.
func (e *editor) save() tea.Cmd {
	if e.link.conn == nil {
		return nil
	}
	text := e.consoleText()
	if text == e.savedText {
		return nil
	}
	e.savedText = text
	e.saveSeq++
	store, seq := e.textStore(), e.saveSeq
	return common.Fetch(e.req, kindSaveEditor, func(context.Context) (saved, error) {
		return saved{"The editor text"}, store.write(seq, text)
	})
}

// saveOnLeave is the command that writes what was typed since the last save as the
// pane goes away (quitting, another service or project): the root runs it, before it
// quits. It is one small local file, written only when the text changed; Update and
// Leave do no I/O.
func (e *editor) saveOnLeave() tea.Cmd {
	if e.link.conn == nil {
		return nil
	}
	text := e.consoleText()
	store := e.textStore()
	store.mu.Lock()
	same := store.text == text && (store.seq > 0 || text == e.savedText)
	store.mu.Unlock()
	if same {
		return nil
	}
	e.saveSeq++
	seq, log := e.saveSeq, e.ctx.Log
	e.savedText = text
	return func() tea.Msg {
		if err := store.write(seq, text); err != nil {
			log.Debug("search: editor text not saved on leaving", "err", err)
		}
		return nil
	}
}

// SaveOnLeave is the editor's saveOnLeave, run by the root.
func (p *Pane) SaveOnLeave() tea.Cmd { return p.editor.saveOnLeave() }
