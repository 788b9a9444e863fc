package search

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// The results read like logs: a time range (T) applied to every search and count of an
// index with a time field, as a filter on that field, named in the results header; and
// a histogram of the hits over the range, from a date_histogram sent in the same body.

// rangeChosen sets the time range; it is addressed to the pane (the absolute form's
// submit runs in the modal).
type rangeChosen struct {
	id int64
	tr search.TimeRange
}

func (m rangeChosen) Target() int64 { return m.id }

// zone is the config's time_zone (SetTimeZone), set once at start.
var zone atomic.Pointer[time.Location]

// SetTimeZone sets where results show times and absolute ranges are read: "local" is
// the machine's zone, anything else UTC (the default).
func SetTimeZone(name string) {
	if name == "local" {
		zone.Store(time.Local)
		return
	}
	zone.Store(time.UTC)
}

// loc is the zone times are shown and typed in.
func (p *Pane) loc() *time.Location {
	if l := zone.Load(); l != nil {
		return l
	}
	return time.UTC
}

// zoneName is loc's abbreviation now ("UTC", "CET").
func (p *Pane) zoneName() string { return p.ctx.Now().In(p.loc()).Format("MST") }

// histogramLabelW is the room kept right of the bars for "max 1,234/30m".
const histogramLabelW = 18

// histogramBars is how many bars the results pane has room for.
func (p *Pane) histogramBars() int { return max(8, p.res.w-histogramLabelW-1) }

// logRequest applies the time range and adds the histogram to a search or count of an
// index with a time field; anything else, and SQL, is sent as typed.
func (p *Pane) logRequest(r search.ParsedRequest) (search.ParsedRequest, logMeta) {
	if p.editor.sqlMode {
		return r, logMeta{}
	}
	isSearch, isCount := search.IsSearch(r)
	if !isSearch && !isCount {
		return r, logMeta{}
	}
	tf := p.indices.timeFieldOf(search.IndexPattern(r.Path))
	if tf == "" {
		return r, logMeta{}
	}
	now := p.ctx.Now()
	o := search.LogOptions{TimeField: tf, Range: p.trange, Now: now}
	if isSearch {
		var span time.Duration
		if from, to, ok := p.trange.Bounds(now); ok && !from.IsZero() {
			span = to.Sub(from)
		}
		o.Histogram, o.HistogramName = search.HistogramInterval(span, p.histogramBars())
	}
	out, err := search.LogSearch(r, o)
	if err != nil {
		return r, logMeta{} // sent as typed: its mistake is shown with its position
	}
	return out, logMeta{timeField: tf, rangeLabel: p.trange.Label(p.loc()), interval: o.Histogram, histogram: o.Histogram > 0}
}

// sendLog sends a request as typed with the time range and histogram applied.
func (p *Pane) sendLog(typed search.ParsedRequest) tea.Cmd {
	r, meta := p.logRequest(typed)
	return p.sendAs(r, 1, sending{typed: typed, log: meta})
}

// logMeta is what a run's answer shows about the window it read.
type logMeta struct {
	timeField  string
	rangeLabel string
	interval   time.Duration
	histogram  bool
}

// openTimeRange offers the quick ranges, all time and an absolute window.
func (p *Pane) openTimeRange() tea.Cmd {
	var items []pickItem
	cur := p.trange.Label(p.loc())
	mark := func(label string) string {
		if label == cur {
			return "current"
		}
		return ""
	}
	for _, q := range search.QuickRanges {
		tr := search.TimeRange{Quick: q}
		items = append(items, pickItem{label: "last " + q, detail: mark("last " + q), choose: func(p *Pane) tea.Cmd { return p.setRange(tr) }})
	}
	items = append(items,
		pickItem{label: "all time", detail: mark("all time"), choose: func(p *Pane) tea.Cmd { return p.setRange(search.TimeRange{}) }},
		pickItem{label: "absolute from/to…", detail: "dates like 2026-11-25 or 2026-11-25 14:30 (" + p.zoneName() + ")", choose: func(p *Pane) tea.Cmd { return p.openAbsoluteRange() }},
	)
	// The time field, when the index has several date fields to choose from.
	pattern := p.res.pattern()
	if pattern == "" {
		pattern = p.indices.selectedIndex()
	}
	if dates := search.DateFields(p.indices.mapping, pattern); len(dates) > 1 {
		now := p.indices.timeFieldOf(pattern)
		for _, f := range dates {
			detail := "filter and histogram on " + f + " for " + pattern
			if f == now {
				detail = "current for " + pattern
			}
			items = append(items, pickItem{label: "time field: " + f, detail: detail, choose: func(p *Pane) tea.Cmd { return p.pickTimeField(pattern, f) }})
		}
	}
	p.openPicker(&picker{title: "Time range (now " + cur + ")", all: items})
	return nil
}

// pickTimeField makes field the time field of pattern, remembers it, and runs the shown
// search again.
func (p *Pane) pickTimeField(pattern, field string) tea.Cmd {
	if p.link.conn.timeFields == nil {
		p.link.conn.timeFields = map[string]string{}
	}
	p.link.conn.timeFields[pattern] = field
	dir := p.ctx.StateDir
	save := common.Fetch(p.req, kindSaveTimefield, func(context.Context) (saved, error) {
		return saved{"The time field"}, search.SaveTimeField(dir, pattern, field)
	})
	return tea.Batch(save, p.setRange(p.trange), common.Info("Time field of "+pattern+": "+field))
}

// openAbsoluteRange asks for from and to, checked as they are typed.
func (p *Pane) openAbsoluteRange() tea.Cmd {
	loc := p.loc()
	var from, to string
	if !p.trange.From.IsZero() {
		from = p.trange.From.In(loc).Format("2006-01-02 15:04")
	}
	if !p.trange.To.IsZero() {
		to = p.trange.To.In(loc).Format("2006-01-02 15:04")
	}
	checkFrom := func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New("enter the start: 2026-11-25 or 2026-11-25 14:30")
		}
		_, err := search.ParseRangeTime(s, loc)
		return err
	}
	checkTo := func(s string) error {
		t, err := search.ParseRangeTime(s, loc)
		if err != nil {
			return err
		}
		if f, ferr := search.ParseRangeTime(from, loc); ferr == nil && !t.IsZero() && !f.IsZero() && !t.After(f) {
			return errors.New("the end must be after the start")
		}
		return nil
	}
	fromField := huh.NewInput().Title("From").Description("in " + p.zoneName()).Value(&from).Validate(checkFrom)
	toField := huh.NewInput().Title("To").Description("empty or now: up to now").Value(&to).Validate(checkTo)
	id := p.req.ID
	form := components.NewForm(p.ctx, "Time range", func() tea.Cmd {
		f, _ := search.ParseRangeTime(from, loc)
		t, _ := search.ParseRangeTime(to, loc)
		return common.Send(rangeChosen{id: id, tr: search.TimeRange{From: f, To: t}})
	}, huh.NewGroup(fromField, toField)).
		Live(fromField, untilTyped(&from, checkFrom)).
		Live(toField, func() error { return checkTo(to) })
	return p.ctx.Open(form)
}

// setRange takes a new window and runs the shown search again with it.
func (p *Pane) setRange(tr search.TimeRange) tea.Cmd {
	p.trange = tr
	note := common.Info("Time range: " + tr.Label(p.loc()))
	a := p.res.ans
	if a == nil || !a.sent || a.typed.Method == "" {
		return note
	}
	if s, c := search.IsSearch(a.typed); !s && !c {
		return note
	}
	return tea.Batch(note, p.sendLog(a.typed))
}

// intervalName writes a bar's span: 30m, 1h, 2d.
func intervalName(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	}
	return strconv.FormatInt(int64(d/time.Second), 10) + "s"
}
