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
func (p *Pane) editorStore() *editorStore {
	key := stateKey(p.conn.project, p.conn.service)
	if p.store == nil || p.store.key != key || p.store.dir != p.ctx.StateDir {
		p.store = &editorStore{dir: p.ctx.StateDir, key: key, text: p.savedText}
	}
	return p.store
}

// editorChanged arms the save timer of a change.
func (p *Pane) editorChanged() tea.Cmd {
	if p.conn == nil {
		return nil
	}
	p.editGen++
	return p.ctx.After(saveDelay, editorIdle{id: p.req.ID, gen: p.editGen})
}

// saveEditor keeps the console text for the service, in a command, when it changed
// since the last save.
func (p *Pane) saveEditor() tea.Cmd {
	if p.conn == nil {
		return nil
	}
	text := p.consoleText()
	if text == p.savedText {
		return nil
	}
	p.savedText = text
	p.saveSeq++
	store, seq := p.editorStore(), p.saveSeq
	return common.Fetch(p.req, kindSaveEditor, func(context.Context) (saved, error) {
		return saved{"The editor text"}, store.write(seq, text)
	})
}

// SaveOnLeave is the command that writes what was typed since the last save as the
// pane goes away (quitting, another service or project): the root runs it, before it
// quits. It is one small local file, written only when the text changed; Update and
// Leave do no I/O.
func (p *Pane) SaveOnLeave() tea.Cmd {
	if p.conn == nil {
		return nil
	}
	text := p.consoleText()
	store := p.editorStore()
	store.mu.Lock()
	same := store.text == text && (store.seq > 0 || text == p.savedText)
	store.mu.Unlock()
	if same {
		return nil
	}
	p.saveSeq++
	seq, log := p.saveSeq, p.ctx.Log
	p.savedText = text
	return func() tea.Msg {
		if err := store.write(seq, text); err != nil {
			log.Debug("search: editor text not saved on leaving", "err", err)
		}
		return nil
	}
}
