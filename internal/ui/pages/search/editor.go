package search

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// sqlPath is where SQL mode sends its statement.
const sqlPath = "/_plugins/_sql"

// maxSuggestions shown in the editor's title line.
const maxSuggestions = 5

// editor is the request editor: its text (kept per service, saved as it is typed),
// SQL mode with each mode's buffer, completion hints and the gutter mark of the request
// ctrl+r runs. It owns its save timer's messages; the pane routes keys to it while it
// has focus, and moves focus away on tab and esc.
type editor struct {
	ctx     *common.Context
	req     *common.Requests
	link    *connector
	indices *indexPanel // names and mappings for completion, the selection for SQL
	ta      textarea.Model

	sqlMode  bool
	sqlText  string // the other mode's buffer, kept while switching
	consText string
	// savedText is the console text last saved for this service: a save is sent only
	// when the text changed since. store writes it, in order; editGen numbers the
	// changes, so only the last of a burst of keys saves.
	savedText string
	store     *editorStore
	saveSeq   uint64
	editGen   int

	suggest search.Suggestions
	sugSel  int
	// mark is the screen lines of the request ctrl+r runs (the gutter).
	mark runMark
	// focus gives the editor the pane's focus (the text came back from $EDITOR, a
	// picker put a request in it); openPicker shows templates or history (the pane
	// draws pickers).
	focus      func()
	openPicker func(*picker)
}

func newEditor(ctx *common.Context, req *common.Requests, link *connector, indices *indexPanel) *editor {
	e := &editor{ctx: ctx, req: req, link: link, indices: indices}
	ta := textarea.New()
	ta.ShowLineNumbers = true
	ta.Prompt = ""
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.Placeholder = "GET /logs-app/_search   (" + ctx.Keys.Templates.Help().Key + " templates)"
	ta.SetValue(defaultBuffer)
	ta.SetPromptFunc(gutterWidth, e.gutter)
	ta.Focus()
	e.ta = ta
	return e
}

// update takes the editor's save timer and the external editor's messages; ok is false
// for other messages.
func (e *editor) update(msg tea.Msg) (tea.Cmd, bool) {
	idle, ok := msg.(editorIdle)
	if !ok {
		return e.updateExternal(msg)
	}
	if idle.gen != e.editGen {
		return nil, true // more was typed since: that change's own timer saves
	}
	return e.save(), true
}

// hintKey takes the completion hint's keys while one is shown; ok is false otherwise.
func (e *editor) hintKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	if len(e.suggest.Items) == 0 {
		return nil, false
	}
	k := e.ctx.Keys
	switch {
	case key.Matches(msg, k.Complete):
		e.acceptSuggestion()
	case key.Matches(msg, k.Down) && msg.Type != tea.KeyRunes:
		e.sugSel = (e.sugSel + 1) % e.shownSuggestions()
	case key.Matches(msg, k.Up) && msg.Type != tea.KeyRunes:
		e.sugSel = (e.sugSel + e.shownSuggestions() - 1) % e.shownSuggestions()
	default:
		return nil, false
	}
	return nil, true
}

// typed takes a key as text: the buffer changes, hints follow and the save timer is
// armed.
func (e *editor) typed(msg tea.KeyMsg) tea.Cmd {
	before := e.ta.Value()
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	if e.ta.Value() != before {
		e.updateSuggestions()
		return tea.Batch(cmd, e.changed())
	}
	e.suggest = search.Suggestions{}
	return cmd
}

func (e *editor) shownSuggestions() int { return max(1, min(len(e.suggest.Items), maxSuggestions)) }

// cursorOffset is the byte offset of the cursor in the buffer.
func (e *editor) cursorOffset() int {
	lines := strings.Split(e.ta.Value(), "\n")
	row := min(e.ta.Line(), len(lines)-1)
	off := 0
	for _, l := range lines[:row] {
		off += len(l) + 1
	}
	li := e.ta.LineInfo()
	runes := []rune(lines[row])
	col := min(len(runes), li.StartColumn+li.ColumnOffset)
	return off + len(string(runes[:col]))
}

// updateSuggestions offers completions for the request under the cursor: paths, query
// and aggregation keys, and the fields of the index it targets (from the mapping).
func (e *editor) updateSuggestions() {
	e.suggest, e.sugSel = search.Suggestions{}, 0
	if e.sqlMode {
		return
	}
	text := e.ta.Value()
	in := search.SuggestInput{Text: text, Cursor: e.cursorOffset(), Indices: e.indices.indexNames()}
	if r, ok := search.RequestAt(text, e.ta.Line()+1); ok {
		in.Fields = search.FieldsFor(e.indices.mapping, search.IndexPattern(r.Path))
	}
	s := search.Suggest(in)
	if len(s.Items) == 1 && s.Items[0].Text == text[s.Start:s.End] {
		return
	}
	e.suggest = s
}

// acceptSuggestion replaces what is typed (Start up to the cursor) by the choice.
func (e *editor) acceptSuggestion() {
	s := e.suggest
	e.suggest = search.Suggestions{}
	if e.sugSel >= len(s.Items) {
		return
	}
	cur := e.cursorOffset()
	if s.Start > cur {
		return
	}
	for range []rune(e.ta.Value()[s.Start:cur]) {
		e.ta, _ = e.ta.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	e.ta.InsertString(s.Items[e.sugSel].Text)
	e.follow()
}

// insertRequest appends a request at the end of the buffer and puts the cursor on it.
func (e *editor) insertRequest(text string) {
	cur := strings.TrimRight(e.ta.Value(), "\n")
	if cur != "" {
		cur += "\n\n"
	}
	line := strings.Count(cur, "\n")
	e.ta.SetValue(cur + text)
	e.gotoLine(line)
}

// placeRequest puts the cursor on text where the buffer already holds it as a request,
// and appends it otherwise.
func (e *editor) placeRequest(text string) {
	cur := e.ta.Value()
	want := strings.TrimRight(text, "\n")
	for off := 0; off < len(cur); {
		i := strings.Index(cur[off:], want)
		if i < 0 {
			break
		}
		at := off + i
		end := at + len(want)
		if (at == 0 || cur[at-1] == '\n') && (end == len(cur) || cur[end] == '\n') {
			e.gotoLine(strings.Count(cur[:at], "\n"))
			return
		}
		off = at + 1
	}
	e.insertRequest(text)
}

// gotoLine moves the cursor to a 0-based line.
func (e *editor) gotoLine(line int) {
	for e.ta.Line() > 0 {
		e.ta.CursorUp()
	}
	e.ta.CursorStart()
	for e.ta.Line() < line && e.ta.Line() < e.ta.LineCount()-1 {
		e.ta.CursorDown()
	}
	e.ta.CursorStart()
	e.follow()
}

// consoleText is the console buffer (in SQL mode, the one kept aside).
func (e *editor) consoleText() string {
	if e.sqlMode {
		return e.consText
	}
	return e.ta.Value()
}

// currentRequest is the request under the cursor (SQL mode: the first statement; run
// sends them all).
func (e *editor) currentRequest() (search.ParsedRequest, bool) {
	if e.sqlMode {
		stmts := search.SplitSQL(e.ta.Value())
		if len(stmts) == 0 {
			return search.ParsedRequest{}, false
		}
		return sqlRequest(stmts[0]), true
	}
	return search.RequestAt(e.ta.Value(), e.ta.Line()+1)
}

// switchMode is the SQL mode key: the other mode and its buffer, the focus in the
// editor.
func (e *editor) switchMode() tea.Cmd {
	save := e.toggleSQL()
	e.focus()
	e.follow()
	return save
}

// toggleSQL switches between console requests and SQL, keeping each mode's buffer.
func (e *editor) toggleSQL() tea.Cmd {
	var save tea.Cmd
	if e.sqlMode {
		e.sqlText = e.ta.Value()
		e.ta.SetValue(e.consText)
	} else {
		e.consText = e.ta.Value()
		save = e.save()
		if e.sqlText == "" {
			index := e.indices.selectedIndex()
			if !search.Printable(index) {
				// SQL has no escape for a newline or an escape in a name: say so, do not paste it.
				save = tea.Batch(save, common.Warn("SQL cannot name "+safe.Text(index)+": its name holds control characters; the statement reads logs-app instead"))
				index = ""
			}
			if index == "" {
				index = "logs-app"
			}
			e.sqlText = "SELECT * FROM " + index + " LIMIT 10"
		}
		e.ta.SetValue(e.sqlText)
	}
	e.sqlMode = !e.sqlMode
	e.suggest = search.Suggestions{}
	return save
}
