package aggs

import (
	"maps"
	"math"
	"slices"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/timevalue"
)

// dateInterval is a calendar unit or a fixed duration in milliseconds.
type dateInterval struct {
	unit  byte  // calendar unit: m h d w M q y; 0 when fixed
	fixed int64 // fixed interval in ms
}

var calendarUnits = map[string]byte{
	"1m": 'm', "minute": 'm', "1h": 'h', "hour": 'h', "1d": 'd', "day": 'd', "1w": 'w', "week": 'w',
	"1M": 'M', "month": 'M', "1q": 'q', "quarter": 'q', "1y": 'y', "year": 'y',
}

// parseFixed reads a fixed interval or offset in milliseconds; it must be positive.
func parseFixed(s string) (int64, bool) {
	d, err := timevalue.Parse(s)
	if err != nil || d < time.Millisecond {
		return 0, false
	}
	return d.Milliseconds(), true
}

func parseDateInterval(p map[string]any) (dateInterval, *apierr.Error) {
	if v, ok := p["calendar_interval"]; ok {
		s, _ := v.(string)
		u, ok := calendarUnits[s]
		if !ok {
			return dateInterval{}, apierr.BadRequest("The supplied interval [%s] could not be parsed as a calendar interval.", s)
		}
		return dateInterval{unit: u}, nil
	}
	if v, ok := p["fixed_interval"]; ok {
		s, _ := v.(string)
		d, err := timevalue.Parse(s)
		switch {
		case err != nil:
			return dateInterval{}, apierr.BadRequest("%s", timevalue.Reason(err, "date_histogram.fixedInterval", s))
		case d < time.Millisecond:
			return dateInterval{}, apierr.BadRequest("Zero or negative time interval not supported")
		}
		return dateInterval{fixed: d.Milliseconds()}, nil
	}
	if v, ok := p["interval"]; ok {
		s, _ := jsonval.String(v)
		if u, ok := calendarUnits[s]; ok {
			return dateInterval{unit: u}, nil
		}
		if ms, ok := parseFixed(s); ok {
			return dateInterval{fixed: ms}, nil
		}
		if n, ok := jsonval.Int(v); ok && n > 0 {
			return dateInterval{fixed: int64(n)}, nil
		}
		return dateInterval{}, apierr.BadRequest("Unable to parse interval [%s]", s)
	}
	return dateInterval{}, apierr.BadRequest("Invalid interval specified, must be non-null and non-empty")
}

func parseTimeZone(v any) (*time.Location, *apierr.Error) {
	s, _ := v.(string)
	if s == "" || s == "UTC" || s == "Z" || s == "utc" {
		return time.UTC, nil
	}
	if s[0] == '+' || s[0] == '-' {
		if ms, ok := dates.ParseISO("2000-01-01T00:00:00" + s); ok {
			off := int((time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli() - ms) / 1000)
			return time.FixedZone(s, off), nil
		}
	}
	loc, err := dates.Zone(s)
	if err != nil {
		return nil, apierr.BadRequest("Invalid time zone [%s]", s)
	}
	return loc, nil
}

func (iv dateInterval) round(ms int64, loc *time.Location) int64 {
	if loc == time.UTC {
		// In UTC a minute, an hour and a day have fixed lengths (Unix time has no leap
		// seconds): plain arithmetic, no calendar per document.
		switch iv.unit {
		case 0:
			return floorDiv(ms, iv.fixed) * iv.fixed
		case 'm':
			return floorDiv(ms, 60_000) * 60_000
		case 'h':
			return floorDiv(ms, 3_600_000) * 3_600_000
		case 'd':
			return floorDiv(ms, 86_400_000) * 86_400_000
		}
	}
	if iv.unit == 0 {
		_, off := time.UnixMilli(ms).In(loc).Zone()
		o := int64(off) * 1000
		return floorDiv(ms+o, iv.fixed)*iv.fixed - o
	}
	t := time.UnixMilli(ms).In(loc)
	var start time.Time
	switch iv.unit {
	case 'm':
		start = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), 0, 0, loc)
	case 'h':
		start = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, loc)
	case 'd':
		start = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
	case 'w':
		d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
		start = d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	case 'M':
		start = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, loc)
	case 'q':
		start = time.Date(t.Year(), t.Month()-(t.Month()-1)%3, 1, 0, 0, 0, 0, loc)
	case 'y':
		start = time.Date(t.Year(), 1, 1, 0, 0, 0, 0, loc)
	}
	return start.UnixMilli()
}

func (iv dateInterval) next(key int64, loc *time.Location) int64 {
	if iv.unit == 0 {
		return key + iv.fixed
	}
	t := time.UnixMilli(key).In(loc)
	switch iv.unit {
	case 'm':
		return iv.round(t.Add(time.Minute).UnixMilli(), loc)
	case 'h':
		return iv.round(t.Add(time.Hour).UnixMilli(), loc)
	case 'd':
		return t.AddDate(0, 0, 1).UnixMilli()
	case 'w':
		return t.AddDate(0, 0, 7).UnixMilli()
	case 'M':
		return t.AddDate(0, 1, 0).UnixMilli()
	case 'q':
		return t.AddDate(0, 3, 0).UnixMilli()
	}
	return t.AddDate(1, 0, 0).UnixMilli()
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// dateHistogramParams are a date_histogram aggregation's own parameters.
type dateHistogramParams struct {
	iv       dateInterval
	loc      *time.Location
	offset   int64 // ms
	minCount int
	// extended_bounds stay as sent: date math needs the field's format, known when it runs
	extBounds []extBound
}

// extBound is extended_bounds.min or .max: date math when a string, else milliseconds (0 when
// neither a string nor a number).
type extBound struct {
	max   bool
	str   string
	isStr bool
	ms    int64
}

func parseDateHistogram(sp *Spec, p map[string]any) (dateHistogramParams, *apierr.Error) {
	dp := dateHistogramParams{minCount: sp.Common.minCount(0)}
	var err *apierr.Error
	if dp.iv, err = parseDateInterval(p); err != nil {
		return dp, err
	}
	if dp.loc, err = parseTimeZone(p["time_zone"]); err != nil {
		return dp, err
	}
	if s, ok := p["offset"].(string); ok && s != "" {
		sign := int64(1)
		body := s
		switch s[0] {
		case '-':
			sign, body = -1, s[1:]
		case '+':
			body = s[1:]
		}
		ms, ok := parseFixed(body)
		if !ok {
			return dp, apierr.BadRequest("failed to parse setting [date_histogram.offset] with value [%s]", s)
		}
		dp.offset = sign * ms
	}
	if eb, ok := p["extended_bounds"].(map[string]any); ok {
		for _, bk := range []string{"min", "max"} {
			v, ok := eb[bk]
			if !ok {
				continue
			}
			b := extBound{max: bk == "max"}
			if b.str, b.isStr = v.(string); !b.isStr {
				if f, ok := jsonval.Float(v); ok {
					b.ms = int64(f)
				}
			}
			dp.extBounds = append(dp.extBounds, b)
		}
	}
	return dp, nil
}

func (dp dateHistogramParams) run(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	iv, loc, offset, minCount := dp.iv, dp.loc, dp.offset, dp.minCount
	format := sp.Common.format
	keyOf := func(ms int64) int64 { return iv.round(ms-offset, loc) + offset }
	keyOfValue := func(v float64) int64 { return keyOf(int64(v)) }
	keep := len(sp.Subs) > 0
	buckets := map[int64]*bucket{}
	err := fieldSegments(segs, sp, true, func(seg index.Segment, fd *index.FieldDef, col *index.Column) *apierr.Error {
		if fd.Kind != index.KindDate && fd.Kind != index.KindLong && fd.Kind != index.KindFloat {
			return apierr.BadRequest("Field [%s] of type [%s] is not supported for aggregation [date_histogram]", fd.Path, fd.Type)
		}
		if format == "" && fd.Kind == index.KindDate {
			format = fd.Mapping.Format
		}
		// Documents come in time order more often than not: the last bucket is tried
		// before the map.
		var lastKey int64
		var last *bucket
		for _, s := range seg.Slots {
			vals := col.NumAt(s)
			if len(vals) != 1 {
				addPerDistinctKey(buckets, vals, keyOfValue, seg.Index, s, keep)
				continue
			}
			if k := keyOfValue(vals[0]); last == nil || k != lastKey {
				if last = buckets[k]; last == nil {
					last = &bucket{}
					buckets[k] = last
				}
				lastKey = k
			}
			last.add(seg.Index, s, keep)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys := slices.Sorted(maps.Keys(buckets))
	if minCount == 0 {
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		if len(keys) > 0 {
			lo, hi = keys[0], keys[len(keys)-1]
		}
		for _, b := range dp.extBounds {
			ms := b.ms
			if b.isStr {
				var perr error
				if ms, perr = dates.ParseMath(b.str, ctx.Now, false, format); perr != nil {
					return nil, apierr.Errf(400, "parse_exception", "%s", perr.Error())
				}
			}
			k := keyOf(ms)
			if !b.max && k < lo {
				lo = k
			}
			if b.max && k > hi {
				hi = k
			}
		}
		if lo <= hi {
			keys = keys[:0]
			for k := lo; k <= hi; k = keyOfNext(iv, k, offset, loc) {
				keys = append(keys, k)
				if len(keys)+ctx.buckets > MaxBuckets {
					return nil, ctx.addBuckets(len(keys) + 1)
				}
			}
		}
	}
	if err := ctx.addBuckets(len(keys)); err != nil {
		return nil, err
	}
	out := make([]jsonout.Obj, 0, len(keys))
	for _, k := range keys {
		b := buckets[k]
		if b == nil {
			b = &bucket{}
		}
		if b.count < minCount {
			continue
		}
		o, err := bucketBody(jsonout.Obj{{"key_as_string", dates.FormatIn(k, format, loc)}, {"key", k}}, b.count, sp, b.segs, ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return jsonout.Obj{{"buckets", out}}, nil
}

func keyOfNext(iv dateInterval, k, offset int64, loc *time.Location) int64 {
	n := iv.next(k-offset, loc) + offset
	if n <= k {
		return k + 1
	}
	return n
}
