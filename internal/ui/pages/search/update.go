package search

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
)

func (p *Pane) Update(msg tea.Msg) (common.View, tea.Cmd) {
	v, cmd := p.update(msg)
	if np, ok := v.(*Pane); ok {
		np.refreshMark()
	}
	return v, cmd
}

func (p *Pane) update(msg tea.Msg) (common.View, tea.Cmd) {
	if cmd, ok := base.HandleWrite[*answer](p.ctx, p.req, msg); ok {
		return p, cmd
	}
	if cmd, ok := base.HandleWrite[search.BulkResult](p.ctx, p.req, msg); ok {
		return p, cmd
	}
	switch msg := msg.(type) {
	case common.Result[targetResult]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		return p, p.connected(msg.Value, msg.Err)
	case common.Result[overview]:
		if !p.req.Current(msg.Addr) || msg.Err != nil {
			return p, nil
		}
		p.health, p.mapping = msg.Value.health, msg.Value.mapping
		p.res.replan()
		return p, nil
	case common.Result[[]search.IndexInfo]:
		return p, p.indices.Handle(msg)
	case common.Result[serviceUsers]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		return p, p.openUserPicker(msg.Value, msg.Err)
	case common.Result[runOutcome]:
		if !p.req.Current(msg.Addr) {
			return p, nil // a newer run replaced it, or another view asked
		}
		return p, p.finishRun(msg.Value)
	case common.Result[writeReview]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		return p, p.openReview(msg.Value)
	case common.Result[tailBatch]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		return p, p.tailed(msg.Value, msg.Err)
	case rangeChosen:
		return p, p.setRange(msg.tr)
	case confirmedWrite:
		return p, p.sendWrite(msg.req)
	case common.Result[columnChoice]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		return p, p.res.choiceLoaded(msg.Value, msg.Err)
	case editorIdle:
		if msg.gen != p.editGen {
			return p, nil // more was typed since: that change's own timer saves
		}
		return p, p.saveEditor()
	case common.Result[saved]:
		if !p.req.Current(msg.Addr) || msg.Err == nil {
			return p, nil
		}
		return p, common.Warn(msg.Value.what + " not saved: " + msg.Err.Error())
	case common.Result[bulkPlan]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		return p, p.reviewBulk(msg.Value, msg.Err)
	case bulkMsg:
		return p, p.handleBulk(msg)
	case common.Result[externalFile]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		return p, p.runExternal(msg.Addr, msg.Value, msg.Err)
	case externalDone:
		if !p.req.Current(msg.addr) {
			return p, nil
		}
		return p, p.readExternal(msg)
	case common.Result[externalText]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		return p, p.externalRead(msg.Value, msg.Err)
	case reconnectAs:
		if p.conn != nil {
			p.wanted = p.conn.service
		}
		return p, p.resolve(msg.user, msg.password)
	case selectService:
		if p.wanted == msg.name && (p.conn != nil || p.loading) {
			return p, nil // already this service's, or connecting to it
		}
		return p.replace(msg.name)
	case saveSearchAs:
		return p, p.saveSearch(msg.name)
	case listSaved:
		if p.conn == nil {
			return p, common.Warn("Saved searches run on an opensearch service: " + p.notReady())
		}
		return p, p.loadSaved()
	case common.Result[savedAs]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		return p, p.searchSaved(msg.Value, msg.Err)
	case common.Result[savedList]:
		if !p.req.Current(msg.Addr) {
			return p, nil
		}
		return p, p.openSaved(msg.Value, msg.Err)
	case bulkRequest:
		if p.conn == nil {
			return p, common.Warn("Bulk load needs an opensearch service: " + p.notReady())
		}
		return p, p.openBulkForm(msg.path, msg.index)
	case common.ProjectSelected:
		if msg.Name == p.project {
			return p, nil
		}
		return p.replace("")
	case common.RefreshNow:
		if p.conn != nil {
			return p, p.indices.Load()
		}
		return p, p.resolve("", "")
	case tea.KeyMsg:
		return p, p.handleKey(msg)
	}
	if p.focus == focusEditor && p.conn != nil {
		var cmd tea.Cmd
		p.editor, cmd = p.editor.Update(msg)
		return p, cmd
	}
	return p, nil
}

// replace starts a new pane on another service (or project), keeping this one's editor
// text first.
func (p *Pane) replace(service string) (common.View, tea.Cmd) {
	save := p.saveEditor()
	p.Leave()
	np := newPane(p.ctx, service)
	np.SetSize(p.w, p.h)
	return np, tea.Batch(save, np.Init())
}

// connected takes the resolution's outcome: a connection, a choice or a reason.
func (p *Pane) connected(r targetResult, err error) tea.Cmd {
	p.loading = false
	if err != nil {
		p.loadErr = p.ctx.ErrorText(err)
		return common.Send(common.RefreshDone{Err: err})
	}
	p.reason, p.choices = r.reason, r.choices
	if r.conn == nil {
		return common.Send(common.RefreshDone{})
	}
	// A new connection (another user) starts from a clean slate: nothing shown may
	// come from the previous user's rights.
	keep := p.conn != nil && p.conn.service == r.conn.service
	p.conn = r.conn
	p.wanted = r.conn.service
	p.health, p.mapping = nil, search.Mapping{}
	p.res = newResults(p.ctx, p)
	if !keep {
		text := defaultBuffer
		if r.conn.hasEditorText {
			text = r.conn.editorText
		}
		p.editor.SetValue(text)
		p.savedText = text
		p.store = nil
		p.gotoLine(0)
	}
	p.layout()
	cmds := []tea.Cmd{p.indices.Reset()}
	if p.ctx.Service() != r.conn.service {
		cmds = append(cmds, common.Send(common.SelectService{Project: r.conn.project, Name: r.conn.service, Type: models.TypeOpenSearch}))
	}
	return tea.Batch(cmds...)
}

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
	if p.picker != nil {
		return p.updatePicker(msg)
	}
	if p.columns != nil {
		return p.updateColumns(msg)
	}
	if p.conn == nil {
		return p.handleChooser(msg)
	}
	k := p.ctx.Keys
	if p.bulk != nil && p.bulk.running && key.Matches(msg, k.Back) {
		p.bulk.cancel()
		return common.Info("Cancelling the bulk load…")
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
	if key.Matches(msg, k.NextPane) && !p.zoom && !p.indices.Capturing() && !p.res.table.Filtering() {
		p.moveFocus(msg.String() == k.NextPane.Keys()[0])
		return nil
	}
	if p.focus == focusIndices && !p.zoom {
		return p.indices.Handle(msg)
	}
	return p.resultsKey(msg)
}

// chords are the pane's keys that act whatever has focus, the editor included, in help
// order.
func (p *Pane) chords() []paneAction {
	k := p.ctx.Keys
	return []paneAction{
		{keys.Action{Binding: k.Run}, p.run},
		{keys.Action{Binding: k.Templates}, func() tea.Cmd { p.openTemplates(); return p.saveEditor() }},
		{keys.Action{Binding: k.History}, func() tea.Cmd { return tea.Batch(p.saveEditor(), p.openHistory()) }},
		{keys.Action{Binding: k.SQLMode}, p.toggleSQL},
		{keys.Action{Binding: k.BulkLoad, Mutating: true}, func() tea.Cmd { return p.openBulkForm("", "") }},
		{keys.Action{Binding: k.ExternalEditor}, p.openExternal},
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
	p.suggest = search.Suggestions{}
	if f == focusEditor {
		p.editor.Focus()
	} else {
		p.editor.Blur()
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

// handleChooser drives the service picker (several opensearch services).
func (p *Pane) handleChooser(msg tea.KeyMsg) tea.Cmd {
	if len(p.choices) == 0 {
		return nil
	}
	k := p.ctx.Keys
	switch {
	case key.Matches(msg, k.Down):
		p.pick = min(p.pick+1, len(p.choices)-1)
	case key.Matches(msg, k.Up):
		p.pick = max(p.pick-1, 0)
	case key.Matches(msg, k.Open):
		p.wanted = p.choices[p.pick]
		return p.resolve("", "")
	}
	return nil
}

// openHelp shows every binding of the focused part (the root's ? overlay cannot be
// reached while the editor takes ? as text), one group per part of the pane.
func (p *Pane) openHelp() tea.Cmd {
	var groups []components.HelpGroup
	for i, row := range p.FullHelp() {
		groups = append(groups, components.HelpGroup{Title: helpTitles[i], Bindings: row})
	}
	groups = append(groups, components.HelpGroup{Title: "Global", Bindings: p.ctx.GlobalKeys().Help(false)})
	return common.Send(common.OpenModal{Modal: components.NewHelp(p.ctx, groups...)})
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
	case p.picker != nil || p.columns != nil:
		return []key.Binding{help(k.Open, "choose"), help(k.Back, "close")}
	case p.conn == nil:
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
		return append(p.resultKeys().Help(true), k.NextPane)
	}
	return append(p.indices.ShortHelp(), k.NextPane)
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
		return p.indices.Keys()
	}
	return p.resultKeys()
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
		append(p.resultKeys().Help(true), k.BarPrev, k.BarNext),
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
	for _, b := range append(p.indices.FullHelp()[0], k.Filter) {
		if !listed[b.Help().Key] || b.Help().Key == k.Open.Help().Key {
			indexHelp = append(indexHelp, b)
		}
	}
	return append(rows, indexHelp)
}
