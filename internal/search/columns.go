package search

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// ColumnKind says how a hits column is sized and shown.
type ColumnKind int

const (
	// ColumnTime holds timestamps, shown compactly (ColumnPlan.TimeLayout).
	ColumnTime ColumnKind = iota
	// ColumnScore is _score.
	ColumnScore
	// ColumnKeyword holds short exact values (keyword, ip, boolean, short strings).
	ColumnKeyword
	// ColumnNumber holds numbers; the UI may right-align it.
	ColumnNumber
	// ColumnID is _id.
	ColumnID
	// ColumnText holds prose (text fields, long strings).
	ColumnText
)

// Width caps of the column kinds (cells); the main text column has no cap.
const (
	maxScoreWidth   = 8
	maxNumberWidth  = 14
	maxKeywordWidth = 24
	maxIDWidth      = 22
	maxTextWidth    = 32 // a text column that is not the main one
	minMainWidth    = 20 // the least the main text column keeps before columns are dropped
	planSampleRows  = 256
)

// Compact timestamp layouts. The year is shown only when the hits span several
// years, and milliseconds only when some hit has them.
const (
	TimeLayoutMillis     = "01-02 15:04:05.000"
	TimeLayoutSeconds    = "01-02 15:04:05"
	TimeLayoutYearMillis = "2006-01-02 15:04:05.000"
	TimeLayoutYear       = "2006-01-02 15:04:05"
)

// PlanOptions are what PlanColumns needs besides the hits.
type PlanOptions struct {
	// Width is the room for the whole row, gaps included.
	Width int
	// Gap is the number of cells between two columns.
	Gap int
	// Types maps field paths to mapping types ("date", "keyword", "text", "long", ...),
	// when the mapping is known; missing fields are judged by their values.
	Types map[string]string
	// Sorted hides _score (the engine sends null scores when a query sorts).
	Sorted bool
	// Chosen is the user's column list, in order (the column picker); nil means automatic.
	Chosen []string
	// Location is the zone timestamps are shown in; nil means UTC.
	Location *time.Location
	// FullDate shows the year in every timestamp (a log reader's date, time and zone),
	// not only when the hits span several years.
	FullDate bool
}

// PlannedColumn is one shown column.
type PlannedColumn struct {
	Name string
	// Source is the index of the column in HitsTable.Columns (and its rows), -1 for a
	// chosen column that no hit has.
	Source int
	Kind   ColumnKind
	Width  int
	// Main marks the text column that takes the room left by the others.
	Main bool
}

// ColumnPlan is the layout of a hits table within a width.
type ColumnPlan struct {
	Columns []PlannedColumn
	// Hidden are the hit columns not shown (no room, _score while sorting, not chosen),
	// in the table's order, so the UI can offer them.
	Hidden []string
	// TimeLayout formats ColumnTime cells (a time.Format layout, one of TimeLayout*).
	TimeLayout string
	loc        *time.Location
}

// colStats is what the sample says about one column.
type colStats struct {
	maxW, sumW, n  int
	numbers, times int
	years          map[int]bool
	millis         bool
}

// PlanColumns lays out t's columns within o.Width: time-like fields first and compact,
// then _score (unless sorted), keyword and number fields sized to their content within
// caps, then _id and other text fields, and last the longest text field, which takes
// what is left. With o.Chosen the user's order is kept instead. When the row does not
// fit, the main text column shrinks to its minimum, then columns are dropped from the
// right (never the main one). Widths are measured on at most 256 rows spread evenly
// over the hits, so a plan costs the same for 100 or 10,000 hits. Deterministic.
func PlanColumns(t *HitsTable, o PlanOptions) ColumnPlan {
	loc := o.Location
	if loc == nil {
		loc = time.UTC
	}
	p := ColumnPlan{loc: loc, TimeLayout: TimeLayoutMillis}
	if t == nil {
		return p
	}
	sample := sampleRows(t.Rows)
	stats := make([]colStats, len(t.Columns))
	for ci := range t.Columns {
		stats[ci] = measure(sample, ci, o.Types[t.Columns[ci]] == "date" || o.Types[t.Columns[ci]] == "date_nanos")
	}
	cols := make([]PlannedColumn, len(t.Columns))
	anyTime := false
	for ci, name := range t.Columns {
		cols[ci] = PlannedColumn{Name: name, Source: ci, Kind: kindOf(name, o.Types, stats[ci])}
		anyTime = anyTime || cols[ci].Kind == ColumnTime
	}
	if anyTime {
		p.TimeLayout = timeLayout(stats, cols)
		if o.FullDate {
			switch p.TimeLayout {
			case TimeLayoutMillis:
				p.TimeLayout = TimeLayoutYearMillis
			case TimeLayoutSeconds:
				p.TimeLayout = TimeLayoutYear
			}
		}
	}
	for i := range cols {
		cols[i].Width = naturalWidth(cols[i], stats[cols[i].Source], len(p.TimeLayout))
	}
	var shown []PlannedColumn
	if o.Chosen != nil {
		shown = chosenOrder(cols, o.Chosen)
	} else {
		shown = autoOrder(cols, o.Sorted)
	}
	shown = fit(shown, pickMain(shown, stats), o.Width, max(o.Gap, 0), stats, o.Chosen != nil)
	p.Columns = shown
	in := make(map[string]bool, len(shown))
	for _, c := range shown {
		in[c.Name] = true
	}
	for _, name := range t.Columns {
		if !in[name] {
			p.Hidden = append(p.Hidden, name)
		}
	}
	return p
}

// sampleRows picks at most planSampleRows rows, evenly spread.
func sampleRows(rows [][]string) [][]string {
	if len(rows) <= planSampleRows {
		return rows
	}
	out := make([][]string, planSampleRows)
	for i := range out {
		out[i] = rows[i*len(rows)/planSampleRows]
	}
	return out
}

func measure(rows [][]string, ci int, dateTyped bool) colStats {
	s := colStats{years: map[int]bool{}}
	for _, r := range rows {
		if ci >= len(r) || r[ci] == "" {
			continue
		}
		v := r[ci]
		w := displayWidth(v)
		s.n++
		s.sumW += w
		s.maxW = max(s.maxW, w)
		if isNumber(v) {
			s.numbers++
		}
		if tm, ok := parseTimestamp(v, dateTyped); ok {
			s.times++
			s.years[tm.Year()] = true
			s.millis = s.millis || tm.Nanosecond() >= int(time.Millisecond)
		}
	}
	return s
}

// kindOf classifies a column by its mapping type, else by its sampled values.
func kindOf(name string, types map[string]string, s colStats) ColumnKind {
	switch name {
	case "_id":
		return ColumnID
	case "_score":
		return ColumnScore
	}
	switch types[name] {
	case "date", "date_nanos":
		return ColumnTime
	case "keyword", "constant_keyword", "ip", "boolean", "version", "flat_object":
		return ColumnKeyword
	case "long", "integer", "short", "byte", "double", "float", "half_float", "scaled_float", "unsigned_long":
		return ColumnNumber
	case "text", "match_only_text", "wildcard":
		return ColumnText
	}
	switch {
	case s.n == 0:
		return ColumnKeyword
	case s.times == s.n && s.numbers == 0:
		return ColumnTime
	case s.numbers == s.n:
		return ColumnNumber
	case s.maxW <= maxKeywordWidth:
		return ColumnKeyword
	}
	return ColumnText
}

// timeLayout picks the most compact layout that loses nothing the hits show.
func timeLayout(stats []colStats, cols []PlannedColumn) string {
	years := map[int]bool{}
	millis := false
	for _, c := range cols {
		if c.Kind != ColumnTime {
			continue
		}
		for y := range stats[c.Source].years {
			years[y] = true
		}
		millis = millis || stats[c.Source].millis
	}
	switch {
	case len(years) > 1 && millis:
		return TimeLayoutYearMillis
	case len(years) > 1:
		return TimeLayoutYear
	case millis:
		return TimeLayoutMillis
	}
	return TimeLayoutSeconds
}

func naturalWidth(c PlannedColumn, s colStats, timeW int) int {
	header := displayWidth(c.Name)
	content := s.maxW
	limit := maxTextWidth
	switch c.Kind {
	case ColumnTime:
		if s.times > 0 {
			content = timeW
		}
		limit = max(timeW, content)
	case ColumnScore:
		limit = maxScoreWidth
	case ColumnNumber:
		limit = maxNumberWidth
	case ColumnKeyword:
		limit = maxKeywordWidth
	case ColumnID:
		limit = maxIDWidth
	}
	return max(1, min(max(content, header), limit))
}

// autoOrder is time, _score, keywords and numbers, _id, then text columns.
func autoOrder(cols []PlannedColumn, sorted bool) []PlannedColumn {
	rank := func(k ColumnKind) int {
		switch k {
		case ColumnTime:
			return 0
		case ColumnScore:
			return 1
		case ColumnKeyword, ColumnNumber:
			return 2
		case ColumnID:
			return 3
		}
		return 4
	}
	out := make([]PlannedColumn, 0, len(cols))
	for r := 0; r <= 4; r++ {
		for _, c := range cols {
			if rank(c.Kind) == r && !(sorted && c.Kind == ColumnScore) {
				out = append(out, c)
			}
		}
	}
	return out
}

// chosenOrder keeps the user's list; a chosen name no hit has is an empty column.
func chosenOrder(cols []PlannedColumn, chosen []string) []PlannedColumn {
	by := make(map[string]PlannedColumn, len(cols))
	for _, c := range cols {
		by[c.Name] = c
	}
	out := make([]PlannedColumn, 0, len(chosen))
	seen := map[string]bool{}
	for _, name := range chosen {
		if seen[name] {
			continue
		}
		seen[name] = true
		c, ok := by[name]
		if !ok {
			c = PlannedColumn{Name: name, Source: -1, Kind: ColumnKeyword, Width: max(1, min(displayWidth(name), maxKeywordWidth))}
		}
		out = append(out, c)
	}
	return out
}

// pickMain is the index of the text column with the widest average content, -1 if none.
func pickMain(cols []PlannedColumn, stats []colStats) int {
	best, bestAvg := -1, -1
	for i, c := range cols {
		if c.Kind != ColumnText || c.Source < 0 {
			continue
		}
		s := stats[c.Source]
		avg := 0
		if s.n > 0 {
			avg = s.sumW / s.n
		}
		if avg > bestAvg {
			best, bestAvg = i, avg
		}
	}
	return best
}

// fit makes the row fit width: the main column starts at its minimum (and moves
// last unless keepOrder), columns other than the main one are dropped from the right
// until the row fits, then the main column takes what is left.
func fit(cols []PlannedColumn, main, width, gap int, stats []colStats, keepOrder bool) []PlannedColumn {
	out := make([]PlannedColumn, 0, len(cols))
	out = append(out, cols...)
	if main >= 0 {
		mc := out[main]
		mc.Main = true
		// The main column keeps at least 2/5 of the row (20 cells on narrow screens),
		// or its whole content when shorter: it is what logs are read for.
		mc.Width = max(1, min(max(minMainWidth, width*2/5), max(stats[mc.Source].maxW, displayWidth(mc.Name))))
		out[main] = mc
		if !keepOrder {
			out = append(append(out[:main:main], out[main+1:]...), mc)
		}
	}
	total := func() int {
		w := gap * max(len(out)-1, 0)
		for _, c := range out {
			w += c.Width
		}
		return w
	}
	for total() > width {
		drop := -1
		for i := len(out) - 1; i >= 0; i-- {
			if !out[i].Main {
				drop = i
				break
			}
		}
		if drop < 0 || len(out) == 1 {
			break
		}
		out = append(out[:drop], out[drop+1:]...)
	}
	if len(out) == 0 {
		return out
	}
	slack := width - total()
	for i := range out {
		switch {
		case slack < 0 && (out[i].Main || main < 0 && i == len(out)-1):
			out[i].Width = max(1, out[i].Width+slack)
		case slack > 0 && out[i].Main:
			out[i].Width += slack
		}
	}
	return out
}

// Headers are the column names cut to their widths.
func (p ColumnPlan) Headers() []string {
	out := make([]string, len(p.Columns))
	for i, c := range p.Columns {
		out[i] = fitCell(c.Name, c.Width)
	}
	return out
}

// Cells formats one row of HitsTable.Rows for the plan: timestamps in TimeLayout,
// line breaks and tabs as spaces, each cell cut to its column's width with "…".
func (p ColumnPlan) Cells(row []string) []string {
	out := make([]string, len(p.Columns))
	for i, c := range p.Columns {
		if c.Source < 0 || c.Source >= len(row) {
			continue
		}
		v := row[c.Source]
		if c.Kind == ColumnTime {
			if tm, ok := parseTimestamp(v, true); ok {
				v = tm.In(p.loc).Format(p.TimeLayout)
			}
		}
		out[i] = fitCell(oneLine(v), c.Width)
	}
	return out
}

// Page formats rows[from:to] (clamped), e.g. the visible part of the table.
func (p ColumnPlan) Page(rows [][]string, from, to int) [][]string {
	from = max(0, min(from, len(rows)))
	to = max(from, min(to, len(rows)))
	out := make([][]string, 0, to-from)
	for _, r := range rows[from:to] {
		out = append(out, p.Cells(r))
	}
	return out
}

// oneLine replaces line breaks and tabs, which would break a table row, by spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\t':
			return ' '
		}
		return r
	}, s)
}

// fitCell cuts s to w cells, ending with "…" when cut.
func fitCell(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if isASCII(s) {
		if len(s) <= w {
			return s
		}
		return s[:w-1] + "…"
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

func displayWidth(s string) int {
	if isASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == 0x1b {
			return false
		}
	}
	return true
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	digits := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '-' || c == '+':
			if i != 0 && s[i-1] != 'e' && s[i-1] != 'E' {
				return false
			}
		case c == '.' || c == 'e' || c == 'E':
		default:
			return false
		}
	}
	return digits > 0
}

// parseTimestamp reads the date forms the engine stores: RFC 3339 (with or without
// fraction or zone), "2006-01-02 15:04:05", a bare date, and, for date-typed fields,
// epoch milliseconds.
func parseTimestamp(s string, epochOK bool) (time.Time, bool) {
	if len(s) >= 10 && s[4] == '-' && s[7] == '-' {
		for _, layout := range [...]string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02"} {
			if tm, err := time.Parse(layout, s); err == nil {
				return tm, true
			}
		}
		return time.Time{}, false
	}
	if epochOK && len(s) >= 10 && len(s) <= 13 {
		var ms int64
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return time.Time{}, false
			}
			ms = ms*10 + int64(s[i]-'0')
		}
		return time.UnixMilli(ms).UTC(), true
	}
	return time.Time{}, false
}
