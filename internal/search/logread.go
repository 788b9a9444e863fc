package search

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/timevalue"
)

// TimeRange is the window a log search reads: a quick range ending now ("24h"), an
// absolute from/to, or neither (all time).
type TimeRange struct {
	Quick    string
	From, To time.Time
}

// QuickRanges are the quick ranges offered, shortest first.
var QuickRanges = []string{"15m", "1h", "4h", "24h", "7d", "30d"}

// quickDuration is a quick range's length (an OpenSearch time value such as "24h").
func quickDuration(q string) (time.Duration, bool) {
	d, err := timevalue.Parse(q)
	return d, err == nil && d > 0
}

// IsZero reports all time.
func (t TimeRange) IsZero() bool { return t.Quick == "" && t.From.IsZero() && t.To.IsZero() }

// Bounds is the window at now; ok is false for all time.
func (t TimeRange) Bounds(now time.Time) (from, to time.Time, ok bool) {
	if d, qok := quickDuration(t.Quick); qok {
		return now.Add(-d), now, true
	}
	if t.From.IsZero() && t.To.IsZero() {
		return time.Time{}, time.Time{}, false
	}
	to = t.To
	if to.IsZero() {
		to = now
	}
	return t.From, to, true
}

// Label is how the results header names the window: "last 24h", "all time", or
// "2026-11-25 10:00 → 12:00 UTC" in loc.
func (t TimeRange) Label(loc *time.Location) string {
	switch {
	case t.Quick != "":
		return "last " + t.Quick
	case t.IsZero():
		return "all time"
	}
	if loc == nil {
		loc = time.UTC
	}
	f := func(x time.Time) string {
		if x.IsZero() {
			return "now"
		}
		x = x.In(loc)
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04")
	}
	from, to := f(t.From), f(t.To)
	if t.From.IsZero() {
		from = "the start"
	}
	if a, b, ok := strings.Cut(to, " "); ok && strings.HasPrefix(from, a+" ") {
		to = b // same day: "2026-11-25 10:00 → 12:00"
	}
	zone := time.Now().In(loc).Format("MST")
	return from + " → " + to + " " + zone
}

// rangeLayouts are the forms an absolute time may be typed in.
var rangeLayouts = []string{"2006-01-02", "2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02T15:04:05"}

// ParseRangeTime reads an absolute time typed by a person: a date, a date and time
// (in loc), or RFC 3339 with its own zone. "now" and "" are the zero time (open end).
func ParseRangeTime(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "now") {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if loc == nil {
		loc = time.UTC
	}
	for _, l := range rangeLayouts {
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date: write 2026-11-25, 2026-11-25 14:30 or RFC 3339", s)
}

// niceIntervals are the histogram's bucket widths, smallest first.
var niceIntervals = []time.Duration{
	time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second,
	time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute,
	time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour,
	24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour,
}

// HistogramInterval is the smallest nice interval that fits span in at most width
// buckets (a day when the span is unknown).
func HistogramInterval(span time.Duration, width int) (time.Duration, string) {
	d := 24 * time.Hour
	if span > 0 && width > 0 {
		d = niceIntervals[len(niceIntervals)-1]
		for _, n := range niceIntervals {
			if int64(span/n) < int64(width) {
				d = n
				break
			}
		}
	}
	return d, timevalue.Format(d)
}

// HistogramAgg names the date histogram LogSearch adds; it is not one of the person's
// aggregations and is left out of the aggregations view.
const HistogramAgg = "svcui_histogram"

// LogOptions say how LogSearch rewrites a search.
type LogOptions struct {
	TimeField string
	Range     TimeRange
	Now       time.Time
	// Histogram adds HistogramAgg with this interval (0: none).
	Histogram     time.Duration
	HistogramName string
}

// IsSearch reports a request whose body LogSearch can extend: _search or _count.
func IsSearch(r ParsedRequest) (search, count bool) {
	base := strings.TrimRight(r.Base(), "/")
	return strings.HasSuffix(base, "/_search") || base == "/_search", strings.HasSuffix(base, "/_count") || base == "/_count"
}

// LogSearch adds the time window as a filter on the time field (the request's own query
// kept as a must clause) and, for a _search, the histogram of the window; other body
// fields keep their order. Requests that are neither _search nor _count come back as
// they are.
func LogSearch(r ParsedRequest, o LogOptions) (ParsedRequest, error) {
	isSearch, isCount := IsSearch(r)
	if o.TimeField == "" || (!isSearch && !isCount) {
		return r, nil
	}
	from, to, ranged := o.Range.Bounds(o.Now)
	hist := isSearch && o.Histogram > 0
	if !ranged && !hist {
		return r, nil
	}
	body := jsonval.NewObject()
	if strings.TrimSpace(r.Body) != "" {
		v, err := jsonval.Decode([]byte(r.Body))
		if err != nil {
			return r, fmt.Errorf("time range: %v", err)
		}
		obj, ok := v.(*jsonval.Object)
		if !ok {
			return r, errors.New("time range: the search body is not a JSON object")
		}
		body = obj
	}
	if ranged {
		bounds := jsonval.NewObject()
		if !from.IsZero() {
			bounds.Set("gte", json.Number(strconv.FormatInt(from.UnixMilli(), 10)))
		}
		bounds.Set("lte", json.Number(strconv.FormatInt(to.UnixMilli(), 10)))
		bounds.Set("format", "epoch_millis")
		field := jsonval.NewObject()
		field.Set(o.TimeField, bounds)
		rng := jsonval.NewObject()
		rng.Set("range", field)
		boolQ := jsonval.NewObject()
		if q, ok := body.Get("query"); ok {
			boolQ.Set("must", []any{q})
		}
		boolQ.Set("filter", []any{rng})
		wrapped := jsonval.NewObject()
		wrapped.Set("bool", boolQ)
		body.Set("query", wrapped)
	}
	if hist {
		dh := jsonval.NewObject()
		dh.Set("field", o.TimeField)
		dh.Set("fixed_interval", o.HistogramName)
		dh.Set("min_doc_count", json.Number("0"))
		if ranged && !from.IsZero() {
			eb := jsonval.NewObject()
			eb.Set("min", json.Number(strconv.FormatInt(from.UnixMilli(), 10)))
			eb.Set("max", json.Number(strconv.FormatInt(to.UnixMilli(), 10)))
			dh.Set("extended_bounds", eb)
		}
		agg := jsonval.NewObject()
		agg.Set("date_histogram", dh)
		aggs := jsonval.NewObject()
		key := "aggs"
		if v, ok := body.Get("aggregations"); ok {
			key = "aggregations"
			if a, ok := v.(*jsonval.Object); ok {
				aggs = a
			}
		} else if v, ok := body.Get("aggs"); ok {
			if a, ok := v.(*jsonval.Object); ok {
				aggs = a
			}
		}
		aggs.Set(HistogramAgg, agg)
		body.Set(key, aggs)
	}
	out := r
	out.Body = PrettyJSON([]byte(jsonval.Compact(body)))
	return out, nil
}

// Bucket is one bar of the histogram.
type Bucket struct {
	Key   time.Time
	Count int64
}

// ShapeHistogram reads HistogramAgg's buckets from a search answer (nil when absent).
func ShapeHistogram(body []byte) []Bucket {
	var a struct {
		Aggregations map[string]struct {
			Buckets []struct {
				Key      int64 `json:"key"`
				DocCount int64 `json:"doc_count"`
			} `json:"buckets"`
		} `json:"aggregations"`
	}
	if json.Unmarshal(body, &a) != nil {
		return nil
	}
	h, ok := a.Aggregations[HistogramAgg]
	if !ok {
		return nil
	}
	out := make([]Bucket, len(h.Buckets))
	for i, b := range h.Buckets {
		out[i] = Bucket{Key: time.UnixMilli(b.Key).UTC(), Count: b.DocCount}
	}
	return out
}
