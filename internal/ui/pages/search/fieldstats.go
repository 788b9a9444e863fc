package search

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/safe"
)

// Field stats (F): the top values of a column with exact counts and shares, from a
// terms aggregation over everything the search matches (on the field, or its .keyword);
// a text field without one is counted over the hits loaded, and says so. enter adds
// the value as a filter to the request in the editor and runs it, - excludes it.

const statsTop = 10

// statsView shows one field's top values.
type statsView struct {
	ctx    *common.Context
	req    *common.Requests
	reader *reader
	field  string // the column
	agg    string // the field counted ("" : counted over the hits loaded)
	typed  search.ParsedRequest
	stats  search.FieldStats
	local  bool
	loaded bool
	err    string
	cursor int
	w, h   int
}

// openFieldStats offers the columns of the shown hits; choosing one shows its stats.
func (rd *reader) openFieldStats() tea.Cmd {
	a := rd.res.ans
	if a == nil || a.hits == nil || a.sqlTable != nil || a.live {
		return common.Info("Field stats work on search hits: run a _search first")
	}
	var items []pickItem
	// The shown columns first, then the hidden ones.
	var names []string
	seen := map[string]bool{"_score": true}
	for _, c := range rd.res.plan.Columns {
		if !seen[c.Name] {
			seen[c.Name] = true
			names = append(names, c.Name)
		}
	}
	for _, c := range a.hits.Columns {
		if !seen[c] {
			seen[c] = true
			names = append(names, c)
		}
	}
	for _, name := range names {
		items = append(items, pickItem{label: name, choose: func() tea.Cmd { return rd.fieldStats(name) }})
	}
	rd.openPicker(&picker{title: "Field stats of", all: items})
	return nil
}

// fieldStats pushes the stats view of field for the shown search.
func (rd *reader) fieldStats(field string) tea.Cmd {
	a := rd.res.ans
	pattern := search.IndexPattern(a.typed.Path)
	v := &statsView{ctx: rd.ctx, req: common.NewRequests(), reader: rd, field: field, typed: a.typed,
		agg: search.AggField(rd.indices.mapping, pattern, field)}
	if field == "_id" {
		v.agg = ""
	}
	if v.agg == "" {
		v.stats, v.local, v.loaded = localStats(a.hits, field), true, true
	}
	return rd.ctx.Push(v)
}

// localStats counts field's values over the hits loaded.
func localStats(h *search.HitsTable, field string) search.FieldStats {
	col := -1
	for i, c := range h.Columns {
		if c == field {
			col = i
		}
	}
	s := search.FieldStats{Total: int64(len(h.Rows))}
	if col < 0 {
		return s
	}
	counts := map[string]int64{}
	for _, row := range h.Rows {
		if col < len(row) && row[col] != "" {
			counts[row[col]]++
		}
	}
	for v, n := range counts {
		raw, _ := json.Marshal(v)
		s.Values = append(s.Values, search.ValueCount{Value: v, Raw: raw, Count: n})
	}
	sort.Slice(s.Values, func(i, j int) bool {
		if s.Values[i].Count != s.Values[j].Count {
			return s.Values[i].Count > s.Values[j].Count
		}
		return s.Values[i].Value < s.Values[j].Value
	})
	if len(s.Values) > statsTop {
		for _, v := range s.Values[statsTop:] {
			s.Other += v.Count
		}
		s.Values = s.Values[:statsTop]
	}
	return s
}

func (v *statsView) ID() int64       { return v.req.ID }
func (v *statsView) Title() string   { return "Stats of " + v.field }
func (v *statsView) Capturing() bool { return false }
func (v *statsView) SetSize(w, h int) {
	v.w, v.h = w, h
}

// Init counts the values over everything the search matches (in a command).
func (v *statsView) Init() tea.Cmd {
	if v.loaded {
		return nil
	}
	r, _ := v.reader.logRequest(v.typed)
	sr, err := search.StatsRequest(r, v.agg, statsTop)
	if err != nil {
		v.err, v.loaded = err.Error(), true
		return nil
	}
	hr, err := sr.HTTPRequest()
	if err != nil {
		v.err, v.loaded = err.Error(), true
		return nil
	}
	c, log := v.reader.link.conn.client, v.ctx.Log
	return common.Fetch(v.req, kindStats, func(ctx context.Context) (search.FieldStats, error) {
		resp, err := c.Do(ctx, hr)
		if err == nil {
			err = resp.Err()
		}
		if err != nil {
			return search.FieldStats{}, describe(log, "field stats", err)
		}
		return search.ShapeStats(resp.Body)
	})
}

func (v *statsView) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[search.FieldStats]:
		if !v.req.Current(msg.Addr) {
			return v, nil
		}
		v.loaded = true
		if msg.Err != nil {
			v.err = msg.Err.Error()
			return v, nil
		}
		v.stats = msg.Value
		return v, nil
	case tea.KeyMsg:
		k := v.ctx.Keys
		n := len(v.stats.Values)
		switch {
		case key.Matches(msg, k.Down):
			v.cursor = min(v.cursor+1, max(0, n-1))
		case key.Matches(msg, k.Up):
			v.cursor = max(v.cursor-1, 0)
		case key.Matches(msg, k.Top):
			v.cursor = 0
		case key.Matches(msg, k.Bottom):
			v.cursor = max(0, n-1)
		case key.Matches(msg, k.Open), key.Matches(msg, k.Exclude):
			if v.cursor >= n {
				return v, nil
			}
			exclude := !key.Matches(msg, k.Open)
			return v, v.reader.filterBy(v.typed, v.filterField(), v.stats.Values[v.cursor].Raw, exclude, v.agg == "")
		}
	}
	return v, nil
}

// filterField is what a filter names: the counted field, or the column when counted
// over the hits loaded.
func (v *statsView) filterField() string {
	if v.agg != "" {
		return v.agg
	}
	return v.field
}

func (v *statsView) View() string {
	st := v.ctx.Styles
	over := ""
	switch {
	case v.local:
		over = "of the " + thousands(v.stats.Total) + " hits loaded (" + safe.Text(v.field) + " is text without a keyword: no exact counts)"
	case v.loaded && v.err == "":
		over = "exact, over the " + thousands(v.stats.Total) + " matching documents"
		if v.agg != v.field {
			over += " (counted on " + safe.Text(v.agg) + ")"
		}
	}
	k := v.ctx.Keys
	lines := []string{
		ansi.Truncate(st.Title.Render("Top values of "+safe.Text(v.field))+st.Muted.Render(" · "+over), v.w, "…"),
		ansi.Truncate(st.Muted.Render(k.Open.Help().Key+" filters the request to a value, "+k.Exclude.Help().Key+" excludes it, "+k.Back.Help().Key+" goes back"), v.w, "…"),
	}
	switch {
	case v.err != "":
		return strings.Join(append(lines, st.Danger.Render(ansi.Truncate(safe.Text(v.err), v.w, "…"))), "\n")
	case !v.loaded:
		return strings.Join(append(lines, st.Muted.Render("Counting…")), "\n")
	case len(v.stats.Values) == 0:
		return strings.Join(append(lines, st.Muted.Render("No values.")), "\n")
	}
	valW := 0
	for _, c := range v.stats.Values {
		valW = max(valW, min(40, ansi.StringWidth(safe.Text(c.Value))))
	}
	countW := len(thousands(v.stats.Values[0].Count))
	barW := max(4, v.w-valW-countW-16)
	for i, c := range v.stats.Values {
		val := ansi.Truncate(safe.Text(c.Value), valW, "…")
		val += strings.Repeat(" ", valW-ansi.StringWidth(val))
		share := 0.0
		if v.stats.Total > 0 {
			share = float64(c.Count) * 100 / float64(v.stats.Total)
		}
		cnt := thousands(c.Count)
		line := val + "  " + strings.Repeat(" ", countW-len(cnt)) + cnt + "  " + pct(share) + "  "
		prefix := "  "
		if i == v.cursor {
			prefix = st.Accent.Render("▸ ")
			line = st.Bold.Render(line)
		}
		lines = append(lines, ansi.Truncate(prefix+line+st.Accent.Render(components.Bar(float64(c.Count), float64(v.stats.Total), barW)), v.w, ""))
	}
	if v.stats.Other > 0 {
		lines = append(lines, st.Muted.Render("  other values: "+thousands(v.stats.Other)))
	}
	if len(lines) > v.h {
		lines = lines[:v.h]
	}
	return strings.Join(lines, "\n")
}

// pct writes a share: " 42.1%".
func pct(f float64) string {
	s := strconv.FormatFloat(f, 'f', 1, 64) + "%"
	return strings.Repeat(" ", max(0, 6-len(s))) + s
}

// Keys are the value list's keys: filter to or exclude the value under the cursor, move.
func (v *statsView) Keys() keys.Actions {
	k := v.ctx.Keys
	return append(keys.Actions{{Binding: k.Open, Help: "filter to it"}, {Binding: k.Exclude, Help: "exclude it"}},
		keys.Bindings(k.Down, k.Up, k.Top, k.Bottom)...)
}

func (v *statsView) ShortHelp() []key.Binding {
	return v.Keys()[:2].Help(true)
}

func (v *statsView) FullHelp() [][]key.Binding {
	return [][]key.Binding{v.ShortHelp(), v.ctx.Keys.Movement()}
}

// filterBy adds a filter (or an exclusion) to the request in the editor that gave the
// shown results, and runs it; the stats view closes.
func (rd *reader) filterBy(typed search.ParsedRequest, field string, value json.RawMessage, exclude, phrase bool) tea.Cmd {
	nr, err := search.WithFilter(typed, field, value, exclude, phrase)
	if err != nil {
		return common.Warn("Could not add the filter: " + err.Error())
	}
	var save tea.Cmd
	if rd.editor.sqlMode {
		save = rd.editor.switchMode() // the request is in the console buffer
	}
	text := rd.editor.ta.Value()
	cur, ok := search.RequestAt(text, typed.StartLine)
	if ok && cur.StartLine == typed.StartLine && cur.Method == typed.Method && cur.Path == typed.Path && cur.Body == typed.Body {
		lines := strings.Split(text, "\n")
		end := min(len(lines), typed.EndLine)
		repl := strings.Split(nr.String(), "\n")
		lines = append(append(append([]string(nil), lines[:typed.StartLine-1]...), repl...), lines[end:]...)
		rd.editor.ta.SetValue(strings.Join(lines, "\n"))
		rd.editor.gotoLine(typed.StartLine - 1)
	} else {
		rd.editor.insertRequest(nr.String() + "\n") // the request changed since it ran: added below
	}
	r, _ := rd.editor.currentRequest()
	what := "Filtered to "
	if exclude {
		what = "Excluded "
	}
	return tea.Batch(rd.ctx.Pop(), save, rd.editor.changed(), rd.sendLog(r),
		common.Info(what+field+" = "+safe.Text(string(value))))
}
