package search

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/safe"
)

// Surrounding documents (C on a hit): the documents just before and after it in time,
// in the same index, whatever the query filtered out; the hit itself is marked. + and -
// show more or fewer, enter opens any of them.

const (
	aroundDefault = 5
	aroundMax     = 500
)

// aroundView shows the documents around one hit.
type aroundView struct {
	ctx    *common.Context
	req    *common.Requests
	link   *connector
	res    *results
	index  string
	id     string
	field  string
	at     time.Time
	n      int
	loaded bool
	err    string
	w, h   int
}

// aroundDocs is the fetched neighbourhood, oldest first, and where the hit is in it.
type aroundDocs struct {
	hits   []json.RawMessage
	keys   []string
	anchor int
}

// openAround shows the documents around the hit under the cursor.
func (rd *reader) openAround() tea.Cmd {
	r := rd.res
	if r.ans == nil || r.ans.hits == nil || r.shownView() != viewTable {
		return common.Info("Surrounding documents work on search hits: run a _search and show the table")
	}
	i, ok := r.selectedHit()
	if !ok {
		return common.Warn("No hit selected")
	}
	raw, _ := r.hitAt(i)
	var h struct {
		Index  string         `json:"_index"`
		ID     string         `json:"_id"`
		Source map[string]any `json:"_source"`
	}
	if err := json.Unmarshal(raw, &h); err != nil || h.Index == "" {
		return common.Warn("This hit names no index")
	}
	field := rd.indices.timeFieldOf(h.Index)
	at, ok := sourceTime(h.Source, field)
	if field == "" || !ok {
		return common.Warn("Surrounding documents need a time: " + safe.Text(h.Index) + " has no date field, or this hit has no " + safe.Text(field))
	}
	v := &aroundView{ctx: rd.ctx, req: common.NewRequests(), link: rd.link, res: newResults(rd.ctx, rd.req, rd.indices, rd.tail), index: h.Index, id: h.ID, field: field, at: at, n: aroundDefault}
	return rd.ctx.Push(v)
}

// sourceTime reads a dotted field of a _source as a time: ISO text or epoch millis.
func sourceTime(src map[string]any, field string) (time.Time, bool) {
	v, ok := src[field] // a flat dotted name
	if !ok {
		var cur any = src
		for _, part := range strings.Split(field, ".") {
			m, isMap := cur.(map[string]any)
			if !isMap {
				return time.Time{}, false
			}
			cur = m[part]
		}
		v = cur
	}
	switch t := v.(type) {
	case string:
		for _, l := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02"} {
			if x, err := time.Parse(l, t); err == nil {
				return x, true
			}
		}
		if ms, err := strconv.ParseInt(t, 10, 64); err == nil {
			return time.UnixMilli(ms), true
		}
	case float64:
		return time.UnixMilli(int64(t)), true
	}
	return time.Time{}, false
}

func (v *aroundView) ID() int64       { return v.req.ID }
func (v *aroundView) Init() tea.Cmd   { return v.load() }
func (v *aroundView) Title() string   { return "Around " + v.id }
func (v *aroundView) Capturing() bool { return v.res.table.Filtering() }
func (v *aroundView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.res.setSize(w, max(2, h-1))
}

// load fetches the n documents before and after the hit: those strictly before and
// after its millisecond, and those sharing it, in index order around it.
func (v *aroundView) load() tea.Cmd {
	c, index := v.link.conn.client, v.index
	ms, n, field, anchorKey := v.at.UnixMilli(), v.n, v.field, v.index+"/"+v.id
	return common.Fetch(v.req, kindAround, func(ctx context.Context) (aroundDocs, error) {
		get := func(op string, order string, size int) ([]json.RawMessage, error) {
			sort := []any{map[string]any{field: order}}
			if op == "same" {
				sort = append(sort, map[string]any{"_doc": "asc"})
			}
			bounds := map[string]any{"format": "epoch_millis"}
			switch op {
			case "before":
				bounds["lt"] = ms
			case "after":
				bounds["gt"] = ms
			default:
				bounds["gte"], bounds["lte"] = ms, ms
			}
			body, _ := json.Marshal(map[string]any{"size": size, "sort": sort, "track_total_hits": false,
				"query": map[string]any{"range": map[string]any{field: bounds}}})
			// The index comes from the answer: SearchIn keeps it one escaped segment, and a Read cannot write.
			resp, err := c.Read(ctx, search.SearchIn(index, body))
			if err != nil {
				return nil, err
			}
			if err := resp.Err(); err != nil {
				return nil, err
			}
			var a struct {
				Hits struct {
					Hits []json.RawMessage `json:"hits"`
				} `json:"hits"`
			}
			if err := json.Unmarshal(resp.Body, &a); err != nil {
				return nil, errors.New("the answer is not a search answer")
			}
			return a.Hits.Hits, nil
		}
		before, err := get("before", "desc", n)
		if err != nil {
			return aroundDocs{}, err
		}
		same, err := get("same", "asc", 2*n+1+aroundMax)
		if err != nil {
			return aroundDocs{}, err
		}
		after, err := get("after", "asc", n)
		if err != nil {
			return aroundDocs{}, err
		}
		var all []json.RawMessage
		for i := len(before) - 1; i >= 0; i-- {
			all = append(all, before[i])
		}
		all = append(append(all, same...), after...)
		keys := make([]string, len(all))
		anchor := -1
		for i, raw := range all {
			var h tailHit
			_ = json.Unmarshal(raw, &h)
			keys[i] = h.Index + "/" + h.ID
			if keys[i] == anchorKey {
				anchor = i
			}
		}
		if anchor < 0 {
			return aroundDocs{}, errors.New("the hit is no longer in " + safe.Text(index))
		}
		from, to := max(0, anchor-n), min(len(all), anchor+n+1)
		return aroundDocs{hits: all[from:to], keys: keys[from:to], anchor: anchor - from}, nil
	})
}

func (v *aroundView) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[aroundDocs]:
		if !v.req.Current(msg.Addr) {
			return v, nil
		}
		v.loaded = true
		if msg.Err != nil {
			v.err = describe(v.ctx.Log, "surrounding documents", msg.Err).Error()
			return v, nil
		}
		v.err = ""
		return v, v.show(msg.Value)
	case tea.KeyMsg:
		k := v.ctx.Keys
		switch {
		case key.Matches(msg, k.More):
			if v.n < aroundMax {
				v.n = min(aroundMax, v.n*2)
				return v, v.load()
			}
			return v, common.Info("At most " + itoa(aroundMax) + " on each side")
		case key.Matches(msg, k.Fewer):
			if v.n > 1 {
				v.n = max(1, v.n/2)
				return v, v.load()
			}
			return v, nil
		case key.Matches(msg, k.Open):
			i, ok := v.res.selectedHit()
			if !ok {
				return v, nil
			}
			return v, v.ctx.Push(newDocView(v.ctx, v.res, i, "", ""))
		}
		return v, v.res.update(msg)
	}
	return v, nil
}

// show puts the neighbourhood in the table, the hit marked and under the cursor.
func (v *aroundView) show(d aroundDocs) tea.Cmd {
	table, err := search.ShapeHits(rawHitsAnswer(d.hits))
	if err != nil {
		v.err = err.Error()
		return nil
	}
	anchorKey := v.index + "/" + v.id
	a := &answer{req: search.ParsedRequest{Method: "GET", Path: search.PathOf(v.index, "_search").String()}, sent: true, status: 200,
		hits: table, keys: d.keys, anchor: anchorKey, log: logMeta{timeField: v.field}}
	cmd := v.res.set(a)
	v.res.table.Select(anchorKey)
	return cmd
}

func (v *aroundView) View() string {
	st := v.ctx.Styles
	head := st.Title.Render("Around "+safe.Text(v.index)+"/"+safe.Text(v.id)) +
		st.Muted.Render(" · "+itoa(v.n)+" each side in time, any query · ◆ the hit · "+
			v.ctx.Keys.More.Help().Key+"/"+v.ctx.Keys.Fewer.Help().Key+" more/fewer")
	head = ansi.Truncate(head, v.w, "…")
	switch {
	case v.err != "":
		return head + "\n" + st.Danger.Render(ansi.Truncate(safe.Text(v.err), v.w, "…"))
	case !v.loaded:
		return head + "\n" + st.Muted.Render("Loading…")
	}
	v.res.title = ""
	return head + "\n" + v.res.View()
}

// Keys are the neighbourhood's keys: open a document, more or fewer around the hit,
// and the results table's movement.
func (v *aroundView) Keys() keys.Actions {
	k := v.ctx.Keys
	return append(keys.Actions{{Binding: k.Open, Help: "open"}, {Binding: k.More}, {Binding: k.Fewer}},
		keys.Bindings(k.Movement()...)...)
}

func (v *aroundView) ShortHelp() []key.Binding {
	return append(v.Keys()[:3].Help(true), help(v.ctx.Keys.Back, "back to the results"))
}

func (v *aroundView) FullHelp() [][]key.Binding {
	return [][]key.Binding{v.ShortHelp(), v.ctx.Keys.Movement()}
}
