package search

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/safe"
)

// The histogram over the hits: a row of bars, and under it a time axis (start, middle
// and end) with the bar under the table cursor's time marked and described. ← and →
// choose a bar instead (its span and count in the footer); enter then narrows the time
// range to it and runs the search again, as Discover's brush does; esc lets it go.

// histBar is one drawn bar: the buckets merged into it, their span and count.
type histBar struct {
	from, to time.Time
	count    int64
}

// histBars merges buckets (interval apart) into at most width bars.
func histBars(b []search.Bucket, interval time.Duration, width int) []histBar {
	if len(b) == 0 || width <= 0 {
		return nil
	}
	per := (len(b) + width - 1) / width
	out := make([]histBar, 0, width)
	for i := 0; i < len(b); i += per {
		group := b[i:min(len(b), i+per)]
		hb := histBar{from: group[0].Key, to: group[len(group)-1].Key.Add(interval)}
		for _, x := range group {
			hb.count += x.Count
		}
		out = append(out, hb)
	}
	return out
}

// bars draws buckets in at most width bars (adjacent buckets merged when there are
// more); it returns the bars, the busiest bar's count and how many buckets one bar holds.
func bars(b []search.Bucket, width int) (string, int64, int) {
	hb := histBars(b, 0, width)
	if len(hb) == 0 {
		return "", 0, 1
	}
	line, top := drawBars(hb, width, -1, nil)
	return line, top, (len(b) + width - 1) / width
}

// barWidth is how many columns each bar takes: few buckets are drawn wider, so the row
// spans the pane whatever the interval.
func barWidth(n, width int) int { return max(1, width/max(1, n)) }

// drawBars draws the bars, each through style (its index given; nil: plain), so the
// marked one can stand out.
func drawBars(hb []histBar, width, mark int, style func(text string, marked bool) string) (string, int64) {
	var top int64
	for _, x := range hb {
		top = max(top, x.count)
	}
	glyphs := []rune("▁▂▃▄▅▆▇█")
	wide := barWidth(len(hb), width)
	var s, run strings.Builder
	flush := func(marked bool) {
		if run.Len() == 0 {
			return
		}
		if style != nil {
			s.WriteString(style(run.String(), marked))
		} else {
			s.WriteString(run.String())
		}
		run.Reset()
	}
	for i, x := range hb {
		g := ' '
		if x.count > 0 {
			j := int((x.count*int64(len(glyphs)) - 1) / max(top, 1))
			g = glyphs[min(len(glyphs)-1, max(0, j))]
		}
		if i == mark {
			flush(false)
			if g == ' ' {
				g = '▁' // an empty bar still shows where the mark is
			}
			run.WriteString(strings.Repeat(string(g), wide))
			flush(true)
			continue
		}
		run.WriteString(strings.Repeat(string(g), wide))
	}
	flush(false)
	return s.String(), top
}

// axisFormat is how the axis writes a time for a span: seconds for short spans, the
// day for long ones.
func axisFormat(span time.Duration) string {
	switch {
	case span >= 7*24*time.Hour:
		return "Jan 02"
	case span >= 24*time.Hour:
		return "Jan 02 15:04"
	case span < 10*time.Minute:
		return "15:04:05"
	}
	return "15:04"
}

// axisLine labels start, middle and end of the bars (width columns), the middle left
// out when the three do not fit.
func axisLine(hb []histBar, width int, loc *time.Location) string {
	if len(hb) == 0 || width <= 0 {
		return ""
	}
	from, to := hb[0].from, hb[len(hb)-1].to
	layout := axisFormat(to.Sub(from))
	start, end := from.In(loc).Format(layout), to.In(loc).Format(layout)
	mid := from.Add(to.Sub(from) / 2).In(loc).Format(layout)
	line := []rune(strings.Repeat(" ", width))
	put := func(at int, s string) {
		for i, r := range []rune(s) {
			if at+i >= 0 && at+i < len(line) {
				line[at+i] = r
			}
		}
	}
	n := len([]rune(start))
	if width < 2*n+1 {
		return ansi.Truncate(start, width, "")
	}
	put(0, start)
	put(width-n, end)
	if m := width/2 - n/2; width >= 3*n+4 {
		put(m, mid)
	}
	return string(line)
}

// shownBars are the bars of the shown answer for the pane's width (nil: no histogram).
func (r *results) shownBars() []histBar {
	a := r.ans
	if a == nil || !a.log.histogram || a.errText != "" || r.shownView() != viewTable {
		return nil
	}
	return histBars(a.hist, a.log.interval, r.histWidth())
}

func (r *results) histWidth() int { return max(8, r.w-histogramLabelW-1) }

// markedBar is the chosen bar, else the one holding the time of the row under the
// cursor (-1: none).
func (r *results) markedBar(hb []histBar) int {
	if r.bar >= 0 {
		return min(r.bar, len(hb)-1)
	}
	at, ok := r.cursorTime()
	if !ok {
		return -1
	}
	for i, b := range hb {
		if !at.Before(b.from) && at.Before(b.to) {
			return i
		}
	}
	return -1
}

// cursorTime is the time field's value of the hit under the cursor.
func (r *results) cursorTime() (time.Time, bool) {
	i, ok := r.selectedHit()
	if !ok || r.ans == nil || r.ans.log.timeField == "" {
		return time.Time{}, false
	}
	raw, ok := r.hitAt(i)
	if !ok {
		return time.Time{}, false
	}
	var h struct {
		Source map[string]any `json:"_source"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return time.Time{}, false
	}
	return sourceTime(h.Source, r.ans.log.timeField)
}

// histogramView is the histogram's two rows ("" when the answer has none): the bars
// with the busiest bar's count, and the time axis with the marked bar's time and count.
func (r *results) histogramView() string {
	a := r.ans
	if a == nil || !a.log.histogram || a.errText != "" || r.shownView() != viewTable {
		return ""
	}
	st := r.ctx.Styles
	if len(a.hist) == 0 {
		return st.Muted.Render("no documents in " + safe.Text(a.log.rangeLabel))
	}
	width := r.histWidth()
	hb := histBars(a.hist, a.log.interval, width)
	mark := r.markedBar(hb)
	line, top := drawBars(hb, width, mark, func(text string, marked bool) string {
		if marked {
			return st.Warn.Render(text)
		}
		return st.Accent.Render(text)
	})
	per := (len(a.hist) + width - 1) / width
	label := "max " + thousands(top) + "/" + intervalName(a.log.interval*time.Duration(per))
	drawn := len(hb) * barWidth(len(hb), width)
	axis := st.Muted.Render(axisLine(hb, drawn, loc()))
	if mark >= 0 {
		b := hb[mark]
		at := b.from.In(loc()).Format(axisFormat(hb[len(hb)-1].to.Sub(hb[0].from)))
		axis += " " + st.Warn.Render(ansi.Truncate("▲ "+at+" "+thousands(b.count), histogramLabelW, "…"))
	}
	return line + " " + st.Muted.Render(label) + "\n" + axis
}

// histogramKey moves the chosen bar (← →), zooms to it (enter) or lets it go (esc);
// false when the key is not the histogram's.
func (rd *reader) histogramKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	r, k := rd.res, rd.ctx.Keys
	hb := r.shownBars()
	if len(hb) == 0 {
		r.bar = -1
		return nil, false
	}
	switch {
	case key.Matches(msg, k.BarPrev), key.Matches(msg, k.BarNext):
		cur := r.markedBar(hb)
		step := 1
		if key.Matches(msg, k.BarPrev) {
			step = -1
		}
		switch {
		case cur < 0 && step < 0:
			cur = len(hb) - 1
		case cur < 0:
			cur = 0
		default:
			cur = max(0, min(len(hb)-1, cur+step))
		}
		r.bar = cur
		b := hb[cur]
		return common.Info(rd.barText(b) + " · " + k.Open.Help().Key + " narrows the range to it, " + k.Back.Help().Key + " lets it go"), true
	case r.bar >= 0 && key.Matches(msg, k.Open):
		b := hb[min(r.bar, len(hb)-1)]
		r.bar = -1
		return rd.setRange(search.TimeRange{From: b.from, To: b.to}), true
	case r.bar >= 0 && key.Matches(msg, k.Back):
		r.bar = -1
		return nil, true
	}
	return nil, false
}

// barText describes a bar: its span and how many documents it holds.
func (rd *reader) barText(b histBar) string {
	loc := loc()
	layout := "2006-01-02 15:04:05"
	return b.from.In(loc).Format(layout) + " – " + b.to.In(loc).Format(layout) + " " + zoneName(rd.ctx) + ": " + thousands(b.count) + " documents"
}
