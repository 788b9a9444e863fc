package aggs

import (
	"math"

	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// metricParams are avg, sum, min, max, value_count, cardinality, stats and extended_stats: their
// parameters (field, format, missing) are all common ones.
type metricParams struct{}

func parseMetric(*Spec, map[string]any) (metricParams, *apierr.Error) { return metricParams{}, nil }

func (metricParams) run(sp *Spec, segs []index.Segment, _ *Context) (jsonout.Obj, *apierr.Error) {
	numericOnly := sp.Type != "value_count" && sp.Type != "cardinality"
	var count int
	sum, sumSq := 0.0, 0.0
	lo, hi := math.Inf(1), math.Inf(-1)
	distinctS := map[string]struct{}{}
	distinctF := map[float64]struct{}{}
	isDate := false
	format := sp.Common.format
	for _, seg := range segs {
		fd, col, err := aggField(seg.Index, sp, numericOnly)
		if err != nil {
			return nil, err
		}
		if fd == nil {
			continue
		}
		if fd.Kind == index.KindDate {
			isDate = true
			if format == "" {
				format = fd.Mapping.Format
			}
		}
		missF, missOK := sp.Common.missingNum, sp.Common.hasMissing && sp.Common.missingNumOK
		for _, s := range seg.Slots {
			if fd.Kind == index.KindKeyword {
				var vals []string
				if col != nil {
					vals = col.StrAt(s)
				}
				for _, v := range vals {
					count++
					distinctS[v] = struct{}{}
				}
				continue
			}
			var vals []float64
			if col != nil {
				vals = col.NumAt(s)
			}
			if len(vals) == 0 && missOK {
				vals = []float64{missF}
			}
			for _, v := range vals {
				count++
				sum += v
				sumSq += v * v
				lo = math.Min(lo, v)
				hi = math.Max(hi, v)
				if sp.Type == "cardinality" {
					distinctF[v] = struct{}{}
				}
			}
		}
	}
	value := func(f float64, ok bool) any {
		if !ok {
			return nil
		}
		return jsonout.JavaNumber(f)
	}
	withString := func(o jsonout.Obj, key string, f float64, ok bool) jsonout.Obj {
		if isDate && ok {
			o = append(o, jsonout.KV{key, dates.Format(int64(f), format)})
		}
		return o
	}
	switch sp.Type {
	case "avg":
		return withString(jsonout.Obj{{"value", value(sum/float64(count), count > 0)}}, "value_as_string", sum/float64(count), count > 0), nil
	case "sum":
		return jsonout.Obj{{"value", jsonout.JavaNumber(sum)}}, nil
	case "min":
		return withString(jsonout.Obj{{"value", value(lo, count > 0)}}, "value_as_string", lo, count > 0), nil
	case "max":
		return withString(jsonout.Obj{{"value", value(hi, count > 0)}}, "value_as_string", hi, count > 0), nil
	case "value_count":
		return jsonout.Obj{{"value", count}}, nil
	case "cardinality":
		return jsonout.Obj{{"value", len(distinctS) + len(distinctF)}}, nil
	}
	o := jsonout.Obj{{"count", count}, {"min", value(lo, count > 0)}, {"max", value(hi, count > 0)},
		{"avg", value(sum/float64(count), count > 0)}, {"sum", jsonout.JavaNumber(sum)}}
	if sp.Type == "extended_stats" {
		variance := 0.0
		if count > 0 {
			mean := sum / float64(count)
			variance = math.Max(0, sumSq/float64(count)-mean*mean)
		}
		sampling := 0.0
		if count > 1 {
			sampling = variance * float64(count) / float64(count-1)
		}
		o = append(o, jsonout.KV{"sum_of_squares", value(sumSq, count > 0)}, jsonout.KV{"variance", value(variance, count > 0)},
			jsonout.KV{"variance_population", value(variance, count > 0)}, jsonout.KV{"variance_sampling", value(sampling, count > 1)},
			jsonout.KV{"std_deviation", value(math.Sqrt(variance), count > 0)},
			jsonout.KV{"std_deviation_population", value(math.Sqrt(variance), count > 0)},
			jsonout.KV{"std_deviation_sampling", value(math.Sqrt(sampling), count > 1)})
	}
	if isDate && count > 0 {
		o = append(o, jsonout.KV{"min_as_string", dates.Format(int64(lo), format)}, jsonout.KV{"max_as_string", dates.Format(int64(hi), format)},
			jsonout.KV{"avg_as_string", dates.Format(int64(sum/float64(count)), format)}, jsonout.KV{"sum_as_string", dates.Format(int64(sum), format)})
	}
	return o, nil
}
