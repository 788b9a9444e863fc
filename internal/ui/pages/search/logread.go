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
func loc() *time.Location {
	if l := zone.Load(); l != nil {
		return l
	}
	return time.UTC
}

// zoneName is loc's abbreviation now ("UTC", "CET").
func zoneName(ctx *common.Context) string { return ctx.Now().In(loc()).Format("MST") }

// histogramLabelW is the room kept right of the bars for "max 1,234/30m".
const histogramLabelW = 18

// histogramBars is how many bars the results pane has room for.
func (rd *reader) histogramBars() int { return max(8, rd.res.w-histogramLabelW-1) }

// logRequest applies the time range and adds the histogram to a search or count of an
// index with a time field; anything else, and SQL, is sent as typed.
func (rd *reader) logRequest(r search.ParsedRequest) (search.ParsedRequest, logMeta) {
	if rd.editor.sqlMode {
		return r, logMeta{}
	}
	isSearch, isCount := search.IsSearch(r)
	if !isSearch && !isCount {
		return r, logMeta{}
	}
	tf := rd.indices.timeFieldOf(search.IndexPattern(r.Path))
	if tf == "" {
		return r, logMeta{}
	}
	now := rd.ctx.Now()
	o := search.LogOptions{TimeField: tf, Range: rd.trange, Now: now}
	if isSearch {
		var span time.Duration
		if from, to, ok := rd.trange.Bounds(now); ok && !from.IsZero() {
			span = to.Sub(from)
		}
		o.Histogram, o.HistogramName = search.HistogramInterval(span, rd.histogramBars())
	}
	out, err := search.LogSearch(r, o)
	if err != nil {
		return r, logMeta{} // sent as typed: its mistake is shown with its position
	}
	return out, logMeta{timeField: tf, rangeLabel: rd.trange.Label(loc()), interval: o.Histogram, histogram: o.Histogram > 0}
}

// sendLog sends a request as typed with the time range and histogram applied.
func (rd *reader) sendLog(typed search.ParsedRequest) tea.Cmd {
	r, meta := rd.logRequest(typed)
	return rd.sendAs(r, 1, sending{typed: typed, log: meta})
}

// logMeta is what a run's answer shows about the window it read.
type logMeta struct {
	timeField  string
	rangeLabel string
	interval   time.Duration
	histogram  bool
}

// openTimeRange offers the quick ranges, all time and an absolute window.
func (rd *reader) openTimeRange() tea.Cmd {
	var items []pickItem
	cur := rd.trange.Label(loc())
	mark := func(label string) string {
		if label == cur {
			return "current"
		}
		return ""
	}
	for _, q := range search.QuickRanges {
		tr := search.TimeRange{Quick: q}
		items = append(items, pickItem{label: "last " + q, detail: mark("last " + q), choose: func() tea.Cmd { return rd.setRange(tr) }})
	}
	items = append(items,
		pickItem{label: "all time", detail: mark("all time"), choose: func() tea.Cmd { return rd.setRange(search.TimeRange{}) }},
		pickItem{label: "absolute from/to…", detail: "dates like 2026-11-25 or 2026-11-25 14:30 (" + zoneName(rd.ctx) + ")", choose: func() tea.Cmd { return rd.openAbsoluteRange() }},
	)
	// The time field, when the index has several date fields to choose from.
	pattern := rd.res.pattern()
	if pattern == "" {
		pattern = rd.indices.selectedIndex()
	}
	if dates := search.DateFields(rd.indices.mapping, pattern); len(dates) > 1 {
		now := rd.indices.timeFieldOf(pattern)
		for _, f := range dates {
			detail := "filter and histogram on " + f + " for " + pattern
			if f == now {
				detail = "current for " + pattern
			}
			items = append(items, pickItem{label: "time field: " + f, detail: detail, choose: func() tea.Cmd { return rd.pickTimeField(pattern, f) }})
		}
	}
	rd.openPicker(&picker{title: "Time range (now " + cur + ")", all: items})
	return nil
}

// pickTimeField makes field the time field of pattern, remembers it, and runs the shown
// search again.
func (rd *reader) pickTimeField(pattern, field string) tea.Cmd {
	if rd.link.conn.timeFields == nil {
		rd.link.conn.timeFields = map[string]string{}
	}
	rd.link.conn.timeFields[pattern] = field
	dir := rd.ctx.StateDir
	save := common.Fetch(rd.req, kindSaveTimefield, func(context.Context) (saved, error) {
		return saved{"The time field"}, search.SaveTimeField(dir, pattern, field)
	})
	return tea.Batch(save, rd.setRange(rd.trange), common.Info("Time field of "+pattern+": "+field))
}

// openAbsoluteRange asks for from and to, checked as they are typed.
func (rd *reader) openAbsoluteRange() tea.Cmd {
	loc := loc()
	var from, to string
	if !rd.trange.From.IsZero() {
		from = rd.trange.From.In(loc).Format("2006-01-02 15:04")
	}
	if !rd.trange.To.IsZero() {
		to = rd.trange.To.In(loc).Format("2006-01-02 15:04")
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
	fromField := huh.NewInput().Title("From").Description("in " + zoneName(rd.ctx)).Value(&from).Validate(checkFrom)
	toField := huh.NewInput().Title("To").Description("empty or now: up to now").Value(&to).Validate(checkTo)
	id := rd.req.ID
	form := components.NewForm(rd.ctx, "Time range", func() tea.Cmd {
		f, _ := search.ParseRangeTime(from, loc)
		t, _ := search.ParseRangeTime(to, loc)
		return common.Send(rangeChosen{id: id, tr: search.TimeRange{From: f, To: t}})
	}, huh.NewGroup(fromField, toField)).
		Live(fromField, untilTyped(&from, checkFrom)).
		Live(toField, func() error { return checkTo(to) })
	return rd.ctx.Open(form)
}

// setRange takes a new window and runs the shown search again with it.
func (rd *reader) setRange(tr search.TimeRange) tea.Cmd {
	rd.trange = tr
	note := common.Info("Time range: " + tr.Label(loc()))
	a := rd.res.ans
	if a == nil || !a.sent || a.typed.Method == "" {
		return note
	}
	if s, c := search.IsSearch(a.typed); !s && !c {
		return note
	}
	return tea.Batch(note, rd.sendLog(a.typed))
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
