package search

import (
	"encoding/json"
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
)

// paneAction is one of the pane's keys with its effect.
type paneAction struct {
	keys.Action
	run func() tea.Cmd
}

// resultActions are the results' keys, in help order: the one list that routes them
// (resultsKey) and lists them (ShortHelp, FullHelp, the root's help).
func (rd *reader) resultActions() []paneAction {
	k := rd.ctx.Keys
	r := rd.res
	return []paneAction{
		{keys.Action{Binding: k.Open, Help: "open hit"}, rd.openHit},
		{keys.Action{Binding: k.TimeRange}, rd.openTimeRange},
		{keys.Action{Binding: k.Tail}, func() tea.Cmd { return rd.tail.toggle(rd.link.conn, r) }},
		{keys.Action{Binding: k.Surround}, rd.openAround},
		{keys.Action{Binding: k.FieldStats}, rd.openFieldStats},
		{keys.Action{Binding: k.NextPage}, rd.nextPage},
		{keys.Action{Binding: k.PrevPage}, rd.prevPage},
		{keys.Action{Binding: k.ViewMode}, func() tea.Cmd {
			if r.ans == nil {
				return common.Warn("Nothing to view yet: run a request first")
			}
			if !r.cycle() {
				return common.Info("Only raw JSON for this answer: tables come with search hits or SQL rows")
			}
			return nil
		}},
		{keys.Action{Binding: k.Columns}, rd.openColumns},
		{keys.Action{Binding: k.Zoom}, func() tea.Cmd { rd.zoom(); return nil }},
		{keys.Action{Binding: k.Copy, Help: "copy result"}, func() tea.Cmd {
			if r.ans == nil || len(r.ans.body) == 0 {
				return common.Warn("Nothing to copy yet: run a request first")
			}
			return copyJSON("result", r.ans.body)
		}},
		{keys.Action{Binding: k.CopyCurl}, rd.copyCurl},
		// U connects as another user from any part; the index list's help lists it.
		{keys.Action{Binding: k.SearchUser, Hidden: true}, rd.link.loadUsers},
	}
}

// resultKeys is the results' key set.
func (rd *reader) resultKeys() keys.Actions { return keysOf(rd.resultActions()) }

// keysOf is the key set of the pane's actions, in their order.
func keysOf(acts []paneAction) keys.Actions {
	out := make(keys.Actions, len(acts))
	for i, a := range acts {
		out[i] = a.Action
	}
	return out
}

// resultsKey handles a key while the results have focus (or fill the screen).
func (rd *reader) resultsKey(msg tea.KeyMsg) tea.Cmd {
	r := rd.res
	if r.table.Filtering() {
		return r.update(msg)
	}
	if cmd, ok := rd.histogramKey(msg); ok {
		return cmd
	}
	acts := rd.resultActions()
	if i := keysOf(acts).Find(msg); i >= 0 {
		return acts[i].run()
	}
	r.bar = -1 // moving in the table: the mark follows the cursor's time again
	cmd := r.update(msg)
	rd.tail.reached(r)
	return cmd
}

// openHit shows the hit under the cursor in the document view.
func (rd *reader) openHit() tea.Cmd {
	r := rd.res
	if r.ans == nil || r.ans.hits == nil || r.shownView() != viewTable {
		return common.Info("Open works on search hits: run a _search and show the table (" + rd.ctx.Keys.ViewMode.Help().Key + ")")
	}
	i, ok := r.selectedHit()
	if !ok {
		return common.Warn("No hit selected")
	}
	rd.tail.pause() // the document stays put; esc resumes
	return rd.ctx.Push(newDocView(rd.ctx, r, i, r.ans.pre, r.ans.post))
}

func (r *results) hitCount() int {
	if r.ans == nil || r.ans.hits == nil {
		return 0
	}
	return len(r.ans.hits.Hits)
}

func (r *results) hitAt(i int) (json.RawMessage, bool) {
	if i < 0 || i >= r.hitCount() {
		return nil, false
	}
	return r.ans.hits.Hits[i], true
}

// selectedHit is the position of the hit under the cursor.
func (r *results) selectedHit() (int, bool) {
	key := r.table.SelectedKey()
	if a := r.ans; a != nil && len(a.keys) > 0 {
		for i, k := range a.keys {
			if k == key {
				return i, true
			}
		}
		return 0, false
	}
	i, err := strconv.Atoi(key)
	return i, err == nil
}

// selectHit keeps the table's cursor on the hit the document view shows.
func (r *results) selectHit(i int) {
	if a := r.ans; a != nil && i >= 0 && i < len(a.keys) {
		r.table.Select(a.keys[i])
		return
	}
	r.table.Select(strconv.Itoa(i))
}
