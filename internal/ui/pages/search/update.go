package search

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
)

func (p *Pane) Update(msg tea.Msg) (common.View, tea.Cmd) {
	v, cmd := p.update(msg)
	if np, ok := v.(*Pane); ok {
		np.editor.refreshMark()
	}
	return v, cmd
}

func (p *Pane) update(msg tea.Msg) (common.View, tea.Cmd) {
	// The reader first: its confirmed writes' messages (base.HandleWrite) are the
	// pipeline's own kinds.
	if cmd, ok := p.reader.update(msg); ok {
		return p, cmd
	}
	if cmd, ok := p.link.update(msg); ok {
		return p, cmd
	}
	if cmd, ok := p.editor.update(msg); ok {
		return p, cmd
	}
	if cmd, ok := p.indices.update(msg); ok {
		return p, cmd
	}
	if cmd, ok := p.bulk.update(msg); ok {
		return p, cmd
	}
	if cmd, ok := p.tail.update(msg, p.reader.res); ok {
		return p, cmd
	}
	switch msg := msg.(type) {
	case common.Result[saved]:
		// A save in a command (editor text, columns, time field) failed: said, nothing else.
		if !p.req.Current(msg.Addr) || msg.Err == nil {
			return p, nil
		}
		return p, common.Warn(msg.Value.what + " not saved: " + msg.Err.Error())
	case selectService:
		if p.link.serves(msg.name) {
			return p, nil // already this service's, or connecting to it
		}
		return p.replace(msg.name)
	case bulkRequest:
		if p.link.conn == nil {
			return p, common.Warn("Bulk load needs an opensearch service: " + p.link.notReady())
		}
		return p, p.bulk.open(p.link.conn, msg.path, msg.index)
	case common.ProjectSelected:
		if msg.Name == p.link.project {
			return p, nil
		}
		return p.replace("")
	case common.Export:
		return p, p.export(msg)
	case common.RefreshNow:
		if p.link.conn != nil {
			return p, p.indices.list.Load()
		}
		return p, p.link.resolve("", "")
	case tea.KeyMsg:
		return p, p.handleKey(msg)
	}
	if p.focus == focusEditor && p.link.conn != nil {
		var cmd tea.Cmd
		p.editor.ta, cmd = p.editor.ta.Update(msg)
		return p, cmd
	}
	return p, nil
}

// export writes the table the person is on (":export csv FILE"): the index list when
// it has the focus, else the results'.
func (p *Pane) export(msg common.Export) tea.Cmd {
	if p.focus == focusIndices && p.link.conn != nil {
		return p.indices.list.Handle(msg)
	}
	return p.reader.export(msg)
}

// replace starts a new pane on another service (or project), keeping this one's editor
// text first.
func (p *Pane) replace(service string) (common.View, tea.Cmd) {
	save := p.editor.save()
	p.Leave()
	np := newPane(p.ctx, service)
	np.SetSize(p.w, p.h)
	return np, tea.Batch(save, np.Init())
}

// connected sets the pane up for the connector's new connection. A new connection
// (another user) starts from a clean slate: nothing shown may come from the previous
// user's rights; keep (the same service) keeps the editor's text.
func (p *Pane) connected(keep bool) tea.Cmd {
	conn := p.link.conn
	p.reader.reset()
	if !keep {
		text := defaultBuffer
		if conn.hasEditorText {
			text = conn.editorText
		}
		p.editor.ta.SetValue(text)
		p.editor.savedText = text
		p.editor.store = nil
		p.editor.gotoLine(0)
	}
	p.layout()
	cmds := []tea.Cmd{p.indices.reset()}
	if p.ctx.Service() != conn.service {
		cmds = append(cmds, common.Send(common.SelectService{Project: conn.project, Name: conn.service, Type: models.TypeOpenSearch}))
	}
	return tea.Batch(cmds...)
}

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
	if p.picker != nil {
		return p.updatePicker(msg)
	}
	if p.reader.columns != nil {
		return p.reader.columnsKey(msg)
	}
	if p.link.conn == nil {
		return p.link.key(msg)
	}
	k := p.ctx.Keys
	if cmd, ok := p.bulk.key(msg); ok {
		return cmd
	}
	// The pane's chords (ctrl+o bulk load) work from the editor too, so their read-only
	// refusal is the pane's (a rune is the editor's text).
	chords := p.chords()
	if why := keysOf(chords).Refusal(msg, p.ctx.ReadOnly); why != "" && msg.Type != tea.KeyRunes {
		return common.Warn(why)
	}
	if p.zoom && key.Matches(msg, k.Back) {
		p.setZoom(false)
		return nil
	}
	// Help from inside the editor, where ? is text: the Help binding's other keys.
	if key.Matches(msg, k.Help) && msg.Type != tea.KeyRunes {
		return p.openHelp()
	}
	if i := keysOf(chords).Find(msg); i >= 0 {
		return chords[i].run()
	}
	if p.focus == focusEditor && !p.zoom {
		return p.editorKey(msg)
	}
	if key.Matches(msg, k.NextPane) && !p.zoom && !p.indices.list.Capturing() && !p.reader.res.table.Filtering() {
		p.moveFocus(msg.String() == k.NextPane.Keys()[0])
		return nil
	}
	if p.focus == focusIndices && !p.zoom {
		return p.indices.list.Handle(msg)
	}
	return p.reader.resultsKey(msg)
}

// editorKey handles a key while the editor has focus: completion, leaving the editor
// (esc, tab), and everything else typed into the buffer. One esc leaves the editor and
// closes the completion hint with it: a second esc was easy to miss, and the keys typed
// after it (2 to switch tab) went into the query.
func (p *Pane) editorKey(msg tea.KeyMsg) tea.Cmd {
	if cmd, ok := p.editor.hintKey(msg); ok {
		return cmd
	}
	k := p.ctx.Keys
	switch {
	case key.Matches(msg, k.NextPane):
		p.moveFocus(msg.String() == k.NextPane.Keys()[0])
		return p.editor.save()
	case key.Matches(msg, k.Back):
		p.setFocus(focusResults)
		return p.editor.save()
	}
	return p.editor.typed(msg)
}

// chords are the pane's keys that act whatever has focus, the editor included, in help
// order.
func (p *Pane) chords() []paneAction {
	k := p.ctx.Keys
	return []paneAction{
		{keys.Action{Binding: k.Run}, p.reader.run},
		{keys.Action{Binding: k.Templates}, func() tea.Cmd { p.editor.openTemplates(); return p.editor.save() }},
		{keys.Action{Binding: k.History}, func() tea.Cmd { return tea.Batch(p.editor.save(), p.editor.openHistory()) }},
		{keys.Action{Binding: k.SQLMode}, p.editor.switchMode},
		{keys.Action{Binding: k.BulkLoad, Mutating: true}, func() tea.Cmd { return p.bulk.open(p.link.conn, "", "") }},
		{keys.Action{Binding: k.ExternalEditor}, p.editor.openExternal},
	}
}

func (p *Pane) moveFocus(forward bool) {
	d := 1
	if !forward {
		d = 2
	}
	p.setFocus(focus((int(p.focus) + d) % 3))
}

func (p *Pane) setFocus(f focus) {
	p.focus = f
	p.editor.suggest = search.Suggestions{}
	if f == focusEditor {
		p.editor.ta.Focus()
	} else {
		p.editor.ta.Blur()
	}
}

// setZoom shows the results alone, or the three panes again.
func (p *Pane) setZoom(on bool) {
	p.zoom = on
	if on {
		p.setFocus(focusResults)
	}
	p.layout()
}

// openHelp shows every binding of the focused part (the root's ? overlay cannot be
// reached while the editor takes ? as text), one group per part of the pane.
func (p *Pane) openHelp() tea.Cmd {
	var groups []components.HelpGroup
	for i, row := range p.FullHelp() {
		groups = append(groups, components.HelpGroup{Title: helpTitles[i], Bindings: row})
	}
	groups = append(groups, components.HelpGroup{Title: "Global", Bindings: p.ctx.GlobalKeys().Help(false)})
	return p.ctx.Open(components.NewHelp(p.ctx, groups...))
}

// helpTitles name FullHelp's rows, in order.
var helpTitles = [...]string{"Editor", "Results", "Indices"}

// help renames a binding's action for this pane.
func help(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// ShortHelp follows the focus: in the editor only keys that work there (global keys
// like q or 1-5 are text in it), esc first since it is how one leaves.
func (p *Pane) ShortHelp() []key.Binding {
	k := p.ctx.Keys
	switch {
	case p.picker != nil || p.reader.columns != nil:
		return []key.Binding{help(k.Open, "choose"), help(k.Back, "close")}
	case p.link.conn == nil:
		return []key.Binding{k.Open, k.Refresh}
	case p.zoom:
		return []key.Binding{help(k.Open, "open hit"), k.TimeRange, k.Tail, k.NextPage, k.PrevPage, k.ViewMode, k.Copy, help(k.Back, "leave full screen")}
	}
	switch p.focus {
	case focusEditor:
		bs := []key.Binding{help(k.Back, "leave editor"), k.Run, k.Templates, k.History, k.SQLMode, k.NextPane}
		if h := helpKey(k.Help); h.Enabled() {
			bs = append(bs, h)
		}
		return bs
	case focusResults:
		return append(p.reader.resultKeys().Help(true), k.NextPane)
	}
	return append(p.indices.list.ShortHelp(), k.NextPane)
}

// helpKey is the Help binding reduced to its keys that are not text (f1), disabled
// when it has none.
func helpKey(b key.Binding) key.Binding {
	var ks []string
	for _, s := range b.Keys() {
		if len([]rune(s)) > 1 {
			ks = append(ks, s)
		}
	}
	if len(ks) == 0 {
		return key.NewBinding(key.WithDisabled())
	}
	return key.NewBinding(key.WithKeys(ks...), key.WithHelp(ks[0], "help"))
}

// Keys is the set of the part with focus that the root routes to (keys.Clashes holds it
// apart from the global set): the results' or the index list's. The editor takes keys
// as text, and the pane's chords (Run shares ctrl+r with refresh) act from anywhere.
func (p *Pane) Keys() keys.Actions {
	if p.focus == focusIndices && !p.zoom {
		return p.indices.list.Keys()
	}
	return p.reader.resultKeys()
}

func (p *Pane) FullHelp() [][]key.Binding {
	k := p.ctx.Keys
	// tab completes when a hint is open and moves to the next pane otherwise: one line
	// when both are the same key.
	tab := []key.Binding{k.Complete, k.NextPane}
	if k.Complete.Help().Key == k.NextPane.Help().Key {
		tab = []key.Binding{help(k.NextPane, "complete, else next pane")}
	}
	rows := [][]key.Binding{
		append(append([]key.Binding{help(k.Back, "leave the editor")}, keysOf(p.chords()).Usable(p.ctx.ReadOnly).Help(false)...), tab...),
		// ← → choose a histogram bar while one is shown (histogramKey), else move the table.
		append(p.reader.resultKeys().Help(true), k.BarPrev, k.BarNext),
	}
	// The index list's actions (U connects as another user from any part), without the
	// keys listed above or in the global group (the root's ? lists all rows as one).
	listed := map[string]bool{k.Refresh.Help().Key: true}
	for _, row := range rows {
		for _, b := range row {
			listed[b.Help().Key] = true
		}
	}
	var indexHelp []key.Binding
	for _, b := range append(p.indices.list.FullHelp()[0], k.Filter) {
		if !listed[b.Help().Key] || b.Help().Key == k.Open.Help().Key {
			indexHelp = append(indexHelp, b)
		}
	}
	return append(rows, indexHelp)
}
