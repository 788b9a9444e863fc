package search

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// sqlPath is where SQL mode sends its statement.
const sqlPath = "/_plugins/_sql"

// maxSuggestions shown in the editor's title line.
const maxSuggestions = 5

// editorKey handles a key while the editor has focus: completion, leaving the editor
// (esc, tab), and everything else typed into the buffer. One esc leaves the editor and
// closes the completion hint with it: a second esc was easy to miss, and the keys typed
// after it (2 to switch tab) went into the query.
func (p *Pane) editorKey(msg tea.KeyMsg) tea.Cmd {
	k := p.ctx.Keys
	open := len(p.suggest.Items) > 0
	switch {
	case open && key.Matches(msg, k.Complete):
		p.acceptSuggestion()
		return nil
	case open && key.Matches(msg, k.Down) && msg.Type != tea.KeyRunes:
		p.sugSel = (p.sugSel + 1) % p.shownSuggestions()
		return nil
	case open && key.Matches(msg, k.Up) && msg.Type != tea.KeyRunes:
		p.sugSel = (p.sugSel + p.shownSuggestions() - 1) % p.shownSuggestions()
		return nil
	case key.Matches(msg, k.NextPane):
		p.moveFocus(msg.String() == k.NextPane.Keys()[0])
		return p.saveEditor()
	case key.Matches(msg, k.Back):
		p.setFocus(focusResults)
		return p.saveEditor()
	}
	before := p.editor.Value()
	var cmd tea.Cmd
	p.editor, cmd = p.editor.Update(msg)
	if p.editor.Value() != before {
		p.updateSuggestions()
		return tea.Batch(cmd, p.editorChanged())
	}
	p.suggest = search.Suggestions{}
	return cmd
}

func (p *Pane) shownSuggestions() int { return max(1, min(len(p.suggest.Items), maxSuggestions)) }

// cursorOffset is the byte offset of the cursor in the buffer.
func (p *Pane) cursorOffset() int {
	lines := strings.Split(p.editor.Value(), "\n")
	row := min(p.editor.Line(), len(lines)-1)
	off := 0
	for _, l := range lines[:row] {
		off += len(l) + 1
	}
	li := p.editor.LineInfo()
	runes := []rune(lines[row])
	col := min(len(runes), li.StartColumn+li.ColumnOffset)
	return off + len(string(runes[:col]))
}

// updateSuggestions offers completions for the request under the cursor: paths, query
// and aggregation keys, and the fields of the index it targets (from the mapping).
func (p *Pane) updateSuggestions() {
	p.suggest, p.sugSel = search.Suggestions{}, 0
	if p.sqlMode {
		return
	}
	text := p.editor.Value()
	in := search.SuggestInput{Text: text, Cursor: p.cursorOffset(), Indices: p.indexNames()}
	if r, ok := search.RequestAt(text, p.editor.Line()+1); ok {
		in.Fields = search.FieldsFor(p.mapping, search.IndexPattern(r.Path))
	}
	s := search.Suggest(in)
	if len(s.Items) == 1 && s.Items[0].Text == text[s.Start:s.End] {
		return
	}
	p.suggest = s
}

// acceptSuggestion replaces what is typed (Start up to the cursor) by the choice.
func (p *Pane) acceptSuggestion() {
	s := p.suggest
	p.suggest = search.Suggestions{}
	if p.sugSel >= len(s.Items) {
		return
	}
	cur := p.cursorOffset()
	if s.Start > cur {
		return
	}
	for range []rune(p.editor.Value()[s.Start:cur]) {
		p.editor, _ = p.editor.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	p.editor.InsertString(s.Items[p.sugSel].Text)
	p.follow()
}

// insertRequest appends a request at the end of the buffer and puts the cursor on it.
func (p *Pane) insertRequest(text string) {
	cur := strings.TrimRight(p.editor.Value(), "\n")
	if cur != "" {
		cur += "\n\n"
	}
	line := strings.Count(cur, "\n")
	p.editor.SetValue(cur + text)
	p.gotoLine(line)
}

// placeRequest puts the cursor on text where the buffer already holds it as a request,
// and appends it otherwise.
func (p *Pane) placeRequest(text string) {
	cur := p.editor.Value()
	want := strings.TrimRight(text, "\n")
	for off := 0; off < len(cur); {
		i := strings.Index(cur[off:], want)
		if i < 0 {
			break
		}
		at := off + i
		end := at + len(want)
		if (at == 0 || cur[at-1] == '\n') && (end == len(cur) || cur[end] == '\n') {
			p.gotoLine(strings.Count(cur[:at], "\n"))
			return
		}
		off = at + 1
	}
	p.insertRequest(text)
}

// gotoLine moves the cursor to a 0-based line.
func (p *Pane) gotoLine(line int) {
	for p.editor.Line() > 0 {
		p.editor.CursorUp()
	}
	p.editor.CursorStart()
	for p.editor.Line() < line && p.editor.Line() < p.editor.LineCount()-1 {
		p.editor.CursorDown()
	}
	p.editor.CursorStart()
	p.follow()
}

// consoleText is the console buffer (in SQL mode, the one kept aside).
func (p *Pane) consoleText() string {
	if p.sqlMode {
		return p.consText
	}
	return p.editor.Value()
}

// currentRequest is the request under the cursor (SQL mode: the first statement; run
// sends them all).
func (p *Pane) currentRequest() (search.ParsedRequest, bool) {
	if p.sqlMode {
		stmts := search.SplitSQL(p.editor.Value())
		if len(stmts) == 0 {
			return search.ParsedRequest{}, false
		}
		return sqlRequest(stmts[0]), true
	}
	return search.RequestAt(p.editor.Value(), p.editor.Line()+1)
}

// toggleSQL switches between console requests and SQL, keeping each mode's buffer.
func (p *Pane) toggleSQL() tea.Cmd {
	var save tea.Cmd
	if p.sqlMode {
		p.sqlText = p.editor.Value()
		p.editor.SetValue(p.consText)
	} else {
		p.consText = p.editor.Value()
		save = p.saveEditor()
		if p.sqlText == "" {
			index := p.selectedIndex()
			if !search.Printable(index) {
				// SQL has no escape for a newline or an escape in a name: say so, do not paste it.
				save = tea.Batch(save, common.Warn("SQL cannot name "+safe.Text(index)+": its name holds control characters; the statement reads logs-app instead"))
				index = ""
			}
			if index == "" {
				index = "logs-app"
			}
			p.sqlText = "SELECT * FROM " + index + " LIMIT 10"
		}
		p.editor.SetValue(p.sqlText)
	}
	p.sqlMode = !p.sqlMode
	p.suggest = search.Suggestions{}
	p.setFocus(focusEditor)
	p.follow()
	return save
}
