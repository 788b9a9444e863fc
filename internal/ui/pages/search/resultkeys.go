package search

import (
	"encoding/json"
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
)

// resultsKey handles a key while the results have focus (or fill the screen).
func (p *Pane) resultsKey(msg tea.KeyMsg) tea.Cmd {
	k := p.ctx.Keys
	r := p.res
	if r.table.Filtering() {
		return r.update(msg)
	}
	if cmd, ok := p.histogramKey(msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Open):
		return p.openHit()
	case key.Matches(msg, k.ViewMode):
		if r.ans == nil {
			return common.Warn("Nothing to view yet: run a request first")
		}
		if !r.cycle() {
			return common.Info("Only raw JSON for this answer: tables come with search hits or SQL rows")
		}
		return nil
	case key.Matches(msg, k.NextPage):
		return p.nextPage()
	case key.Matches(msg, k.PrevPage):
		return p.prevPage()
	case key.Matches(msg, k.FieldStats):
		return p.openFieldStats()
	case key.Matches(msg, k.Surround):
		return p.openAround()
	case key.Matches(msg, k.Tail):
		return p.toggleTail()
	case key.Matches(msg, k.TimeRange):
		return p.openTimeRange()
	case key.Matches(msg, k.Columns):
		return p.openColumns()
	case key.Matches(msg, k.Zoom):
		p.setZoom(!p.zoom)
		return nil
	case key.Matches(msg, k.Copy):
		if r.ans == nil || len(r.ans.body) == 0 {
			return common.Warn("Nothing to copy yet: run a request first")
		}
		return copyJSON("result", r.ans.body)
	case key.Matches(msg, k.CopyCurl):
		return p.copyCurl()
	case key.Matches(msg, k.SearchUser):
		return p.loadUsers()
	}
	r.bar = -1 // moving in the table: the mark follows the cursor's time again
	cmd := r.update(msg)
	if a := r.ans; a != nil && a.live && a.unseen > 0 && r.atNewest() && p.tail != nil {
		a.unseen, p.tail.unseen = 0, 0 // the new documents were reached
	}
	return cmd
}

// openHit shows the hit under the cursor in the document view.
func (p *Pane) openHit() tea.Cmd {
	r := p.res
	if r.ans == nil || r.ans.hits == nil || r.shownView() != viewTable {
		return common.Info("Open works on search hits: run a _search and show the table (" + p.ctx.Keys.ViewMode.Help().Key + ")")
	}
	i, ok := r.selectedHit()
	if !ok {
		return common.Warn("No hit selected")
	}
	if p.tail != nil {
		p.tail.paused = true // the document stays put; esc resumes
	}
	return common.Send(common.PushView{View: newDocView(p.ctx, r, i, r.ans.pre, r.ans.post)})
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
