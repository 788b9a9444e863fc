package search

import (
	"errors"
	"fmt"

	"github.com/svcui/svcui/internal/jsonval"
)

// AggKind says how an aggregation table was shaped.
type AggKind string

const (
	// AggBuckets: one row per bucket (key, doc_count, sub-aggregation columns) and a Series.
	AggBuckets AggKind = "buckets"
	// AggMetric: one row of numbers (value, or stats fields).
	AggMetric AggKind = "metric"
	// AggGeneric: an unknown shape, flattened into one row.
	AggGeneric AggKind = "generic"
)

// AggTable is one aggregation of a search answer, as a table.
type AggTable struct {
	Name    string
	Kind    AggKind
	Columns []string
	Rows    [][]string
	// Series holds (bucket label, doc_count) for bucket aggregations, for bar charts.
	Series []SeriesPoint
}

// SeriesPoint is one bar.
type SeriesPoint struct {
	Label string
	Value float64
}

// isBucketMetaKey reports bucket fields that are not sub-aggregations.
func isBucketMetaKey(k string) bool {
	switch k {
	case "key", "key_as_string", "doc_count", "from", "to", "from_as_string", "to_as_string":
		return true
	}
	return false
}

// ShapeAggs reads the "aggregations" of a search answer: one table per aggregation in
// answer order. Bucket aggregations (terms, histogram, date_histogram, range, ...)
// give a row per bucket with the first bucket sub-aggregation expanded into rows and
// metric sub-aggregations as columns; metric aggregations give one row; other shapes
// are flattened generically, never an error. An answer without aggregations gives none.
func ShapeAggs(body []byte) ([]AggTable, error) {
	v, err := jsonval.Decode(body)
	if err != nil {
		return nil, fmt.Errorf("search answer is not JSON: %v", err)
	}
	top, ok := v.(*jsonval.Object)
	if !ok {
		return nil, errors.New("search answer is not a JSON object")
	}
	aggsV, ok := top.Get("aggregations")
	if !ok {
		aggsV, _ = top.Get("aggs")
	}
	aggs, ok := aggsV.(*jsonval.Object)
	if !ok {
		return nil, nil
	}
	out := make([]AggTable, 0, aggs.Len())
	for _, m := range aggs.Members() {
		out = append(out, shapeAgg(m.K, m.V))
	}
	return out, nil
}

type labelledBucket struct {
	label string // the key of a keyed bucket map, "" for bucket arrays
	b     *jsonval.Object
}

func bucketsOf(v any) ([]labelledBucket, bool) {
	o, ok := v.(*jsonval.Object)
	if !ok {
		return nil, false
	}
	raw, ok := o.Get("buckets")
	if !ok {
		return nil, false
	}
	var out []labelledBucket
	switch bs := raw.(type) {
	case []any:
		for _, b := range bs {
			if bo, ok := b.(*jsonval.Object); ok {
				out = append(out, labelledBucket{b: bo})
			}
		}
	case *jsonval.Object: // keyed buckets (filters, keyed ranges)
		for _, m := range bs.Members() {
			if bo, ok := m.V.(*jsonval.Object); ok {
				out = append(out, labelledBucket{label: m.K, b: bo})
			}
		}
	default:
		return nil, false
	}
	return out, true
}

func shapeAgg(name string, v any) AggTable {
	t := AggTable{Name: name}
	if buckets, ok := bucketsOf(v); ok {
		t.Kind = AggBuckets
		cols := newColumnSet("key", "doc_count")
		maps := bucketRows(buckets, "", cols, 0)
		t.Columns, t.Rows = cols.names, cols.rows(maps)
		for _, lb := range buckets {
			count, _ := lb.b.Get("doc_count")
			f, _ := jsonval.Float(count)
			t.Series = append(t.Series, SeriesPoint{Label: bucketLabel(lb), Value: f})
		}
		return t
	}
	o, ok := v.(*jsonval.Object)
	if !ok {
		t.Kind, t.Columns, t.Rows = AggGeneric, []string{"value"}, [][]string{{cellText(v)}}
		return t
	}
	if _, single := o.Get("doc_count"); single {
		// filter, global, nested, missing: one bucket, labelled with the agg name.
		t.Kind = AggBuckets
		cols := newColumnSet("key", "doc_count")
		maps := bucketRows([]labelledBucket{{label: name, b: o}}, "", cols, 0)
		t.Columns, t.Rows = cols.names, cols.rows(maps)
		count, _ := o.Get("doc_count")
		f, _ := jsonval.Float(count)
		t.Series = []SeriesPoint{{Label: name, Value: f}}
		return t
	}
	t.Kind = AggMetric
	cols := newColumnSet()
	row := map[string]string{}
	if val, ok := o.Get("value"); ok {
		cols.add("value")
		row["value"] = cellText(val)
		if s, ok := o.Get("value_as_string"); ok {
			cols.add("value_as_string")
			row["value_as_string"] = cellText(s)
		}
	} else {
		flatten("", o, func(path, text string) {
			cols.add(path)
			row[path] = text
		})
		if containsArray(o) {
			t.Kind = AggGeneric // top_hits, geo shapes and the like: not plain numbers
		}
	}
	t.Columns, t.Rows = cols.names, cols.rows([]map[string]string{row})
	return t
}

func bucketLabel(lb labelledBucket) string {
	if lb.label != "" {
		return lb.label
	}
	if s, ok := lb.b.Get("key_as_string"); ok {
		return cellText(s)
	}
	if k, ok := lb.b.Get("key"); ok {
		return cellText(k)
	}
	from, hasFrom := lb.b.Get("from")
	to, hasTo := lb.b.Get("to")
	if hasFrom || hasTo {
		f, t := "*", "*"
		if hasFrom {
			f = cellText(from)
		}
		if hasTo {
			t = cellText(to)
		}
		return f + "-" + t
	}
	return ""
}

// maxAggDepth bounds sub-aggregation expansion.
const maxAggDepth = 16

// bucketRows turns buckets into rows. Metric sub-aggregations become columns named
// prefix+name; the first bucket sub-aggregation is expanded into one row per inner
// bucket (columns prefix+name+".key" ...); further bucket sub-aggregations are shown
// as compact JSON in one column.
func bucketRows(buckets []labelledBucket, prefix string, cols *columnSet, depth int) []map[string]string {
	var out []map[string]string
	for _, lb := range buckets {
		base := map[string]string{prefix + "key": bucketLabel(lb)}
		cols.add(prefix + "key")
		if dc, ok := lb.b.Get("doc_count"); ok {
			cols.add(prefix + "doc_count")
			base[prefix+"doc_count"] = cellText(dc)
		}
		var expand []map[string]string
		expanded := false
		for _, m := range lb.b.Members() {
			k, sub := m.K, m.V
			if isBucketMetaKey(k) {
				continue
			}
			col := prefix + k
			if inner, ok := bucketsOf(sub); ok && !expanded && depth < maxAggDepth {
				expanded = true
				expand = bucketRows(inner, col+".", cols, depth+1)
				continue
			}
			so, isObj := sub.(*jsonval.Object)
			switch {
			case !isObj:
				cols.add(col)
				base[col] = cellText(sub)
			case has(so, "buckets"):
				cols.add(col)
				base[col] = jsonval.Compact(so)
			default:
				metricCells(col, so, cols, base)
			}
		}
		if len(expand) == 0 {
			out = append(out, base)
			continue
		}
		for _, e := range expand {
			row := make(map[string]string, len(base)+len(e))
			for k, v := range base {
				row[k] = v
			}
			for k, v := range e {
				row[k] = v
			}
			out = append(out, row)
		}
	}
	return out
}

func has(o *jsonval.Object, k string) bool {
	_, ok := o.Get(k)
	return ok
}

// metricCells adds a metric sub-aggregation: {"value"} as one column, anything else
// (stats, percentiles, single-bucket) flattened under its name.
func metricCells(col string, o *jsonval.Object, cols *columnSet, row map[string]string) {
	if v, ok := o.Get("value"); ok {
		if s, ok := o.Get("value_as_string"); ok {
			v = s
		}
		cols.add(col)
		row[col] = cellText(v)
		return
	}
	flatten(col, o, func(path, text string) {
		cols.add(path)
		row[path] = text
	})
}

func containsArray(v any) bool {
	switch t := v.(type) {
	case []any:
		return true
	case *jsonval.Object:
		for _, m := range t.Members() {
			if containsArray(m.V) {
				return true
			}
		}
	}
	return false
}
