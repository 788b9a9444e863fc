// Package aggs is the aggregations of a search: parsing the aggs section into specs, and running
// metric (avg, stats, percentiles, cardinality…) and bucket (terms, range, histogram,
// date_histogram, filters, nested…) aggregations over the segments a search matched, answered in
// the order the request named them. top_hits is the search's to render, through the Context.
package aggs

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/query"
)

// MaxBuckets is search.max_buckets: a search making more buckets fails, as the engine does.
const MaxBuckets = 65535

// Spec is one parsed aggregation.
type Spec struct {
	Name   string
	Type   string
	Params map[string]any // the type's own parameters, as sent
	Common aggParams      // the common ones, read once when the request is parsed
	Subs   []*Spec
	filter query.Query   // filter
	named  []namedFilter // filters
	keyed  bool          // filters given as an object
}

// aggParams are the parameters many aggregation types share.
type aggParams struct {
	Field       string
	format      string
	missing     any
	hasMissing  bool
	keyed       bool
	hasKeyed    bool
	size        any // validated by the aggregations that take it
	hasSize     bool
	minDocCount int
	hasMinCount bool
}

func readAggParams(m map[string]any) aggParams {
	var p aggParams
	p.Field, _ = m["field"].(string)
	p.format, _ = m["format"].(string)
	p.missing, p.hasMissing = m["missing"]
	if v, ok := m["keyed"]; ok {
		p.keyed, _ = jsonval.Bool(v)
		p.hasKeyed = true
	}
	p.size, p.hasSize = m["size"]
	p.minDocCount, p.hasMinCount = jsonval.Int(m["min_doc_count"])
	return p
}

type namedFilter struct {
	name string
	q    query.Query
}

// Context is what running aggregations needs besides the segments.
type Context struct {
	Now     time.Time
	buckets int
	// TopHits renders a top_hits aggregation; the search supplies it, as its hits are rendered
	// the way the search renders its own (sort, _source, highlight, scores).
	TopHits func(sp *Spec, segs []index.Segment) (jsonout.Obj, *apierr.Error)
}

var metricAggs = map[string]bool{"avg": true, "sum": true, "min": true, "max": true, "value_count": true,
	"cardinality": true, "stats": true, "extended_stats": true, "percentiles": true, "top_hits": true}
var bucketAggs = map[string]bool{"terms": true, "range": true, "date_range": true, "histogram": true,
	"date_histogram": true, "filter": true, "filters": true, "missing": true, "nested": true}

// Parse reads the aggs (or aggregations) section of a search body.
func Parse(v any) ([]*Spec, *apierr.Error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, apierr.Parsing("Failed to parse aggregation: expected an object")
	}
	var out []*Spec
	for _, name := range jsonval.SortedKeys(m) {
		body, ok := m[name].(map[string]any)
		if !ok {
			return nil, apierr.Parsing("Expected [START_OBJECT] under [%s], but got a [VALUE_STRING] in [%s]", name, name)
		}
		spec := &Spec{Name: name}
		for k, x := range body {
			switch k {
			case "aggs", "aggregations":
				subs, err := Parse(x)
				if err != nil {
					return nil, err
				}
				spec.Subs = subs
			case "meta":
			default:
				if spec.Type != "" {
					return nil, apierr.Parsing("Found two aggregation type definitions in [%s]: [%s] and [%s]", name, spec.Type, k)
				}
				if !metricAggs[k] && !bucketAggs[k] {
					return nil, apierr.Parsing("Unknown aggregation type [%s]", k)
				}
				spec.Type = k
				if k == "filter" {
					q, err := query.Parse(x)
					if err != nil {
						return nil, err
					}
					spec.filter = q
					continue
				}
				p, ok := x.(map[string]any)
				if !ok {
					return nil, apierr.Parsing("Expected [START_OBJECT] under [%s], but got a [VALUE_STRING] in [%s]", k, name)
				}
				spec.Params = p
				spec.Common = readAggParams(p)
				if _, hasScript := p["script"]; hasScript {
					return nil, apierr.BadRequest("scripts are not supported by this emulation: aggregation [%s] uses a script", name)
				}
				if k == "filters" {
					if err := parseFiltersAgg(spec, p); err != nil {
						return nil, err
					}
				}
			}
		}
		if spec.Type == "" {
			return nil, apierr.Parsing("Missing definition for aggregation [%s]", name)
		}
		if metricAggs[spec.Type] && len(spec.Subs) > 0 {
			return nil, apierr.Errf(400, "aggregation_initialization_exception", "Aggregator [%s] of type [%s] cannot accept sub-aggregations", name, spec.Type)
		}
		out = append(out, spec)
	}
	return out, nil
}

func parseFiltersAgg(spec *Spec, p map[string]any) *apierr.Error {
	switch f := p["filters"].(type) {
	case map[string]any:
		spec.keyed = true
		for _, n := range jsonval.SortedKeys(f) {
			q, err := query.Parse(f[n])
			if err != nil {
				return err
			}
			spec.named = append(spec.named, namedFilter{n, q})
		}
	case []any:
		for i, x := range f {
			q, err := query.Parse(x)
			if err != nil {
				return err
			}
			spec.named = append(spec.named, namedFilter{strconv.Itoa(i), q})
		}
	default:
		return apierr.Parsing("[filters] requires a [filters] object or array")
	}
	return nil
}

// Run answers the aggregations over the matching segments, one member per aggregation.
func Run(specs []*Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	out := make(jsonout.Obj, 0, len(specs))
	for _, sp := range specs {
		res, err := runAgg(sp, segs, ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, jsonout.KV{sp.Name, res})
	}
	return out, nil
}

func runAgg(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	switch sp.Type {
	case "terms":
		return termsAgg(sp, segs, ctx)
	case "range", "date_range":
		return rangeAgg(sp, segs, ctx)
	case "histogram":
		return histogramAgg(sp, segs, ctx)
	case "date_histogram":
		return dateHistogramAgg(sp, segs, ctx)
	case "filter":
		sub, err := filterSegs(sp.filter, segs, ctx)
		if err != nil {
			return nil, err
		}
		return bucketBody(jsonout.Obj{}, index.CountSlots(sub), sp, sub, ctx)
	case "filters":
		return filtersAgg(sp, segs, ctx)
	case "missing":
		return missingAgg(sp, segs, ctx)
	case "percentiles":
		return percentilesAgg(sp, segs)
	case "top_hits":
		return ctx.TopHits(sp, segs)
	case "nested":
		return nestedAgg(sp, segs, ctx)
	}
	return metricAgg(sp, segs)
}

// bucketBody completes a bucket object with doc_count and its sub-aggregations.
func bucketBody(o jsonout.Obj, count int, sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	o = append(o, jsonout.KV{"doc_count", count})
	if len(sp.Subs) > 0 {
		subs, err := Run(sp.Subs, segs, ctx)
		if err != nil {
			return nil, err
		}
		o = append(o, subs...)
	}
	return o, nil
}

func (ctx *Context) addBuckets(n int) *apierr.Error {
	ctx.buckets += n
	if ctx.buckets > MaxBuckets {
		return apierr.Errf(400, "too_many_buckets_exception",
			"Trying to create too many buckets. Must be less than or equal to: [%d] but was [%d]. This limit can be set by changing the [search.max_buckets] cluster level setting.", MaxBuckets, ctx.buckets)
	}
	return nil
}

// aggField resolves the field of an aggregation on one index (nil column when unmapped or empty).
func aggField(ix *index.Index, sp *Spec, numericOnly bool) (*index.FieldDef, *index.Column, *apierr.Error) {
	field := sp.Common.Field
	if field == "" {
		return nil, nil, apierr.BadRequest("Required one of fields [field, script], but none were specified.")
	}
	fd := ix.Fields[field]
	if fd == nil {
		return nil, nil, nil
	}
	switch fd.Kind {
	case index.KindText:
		return nil, nil, index.FielddataErr(field)
	case index.KindObject:
		return nil, nil, apierr.BadRequest("Field [%s] of type [object] is not supported for aggregation [%s]", field, sp.Type)
	case index.KindKeyword:
		if numericOnly {
			return nil, nil, apierr.BadRequest("Field [%s] of type [%s] is not supported for aggregation [%s]", field, fd.Type, sp.Type)
		}
	}
	return fd, ix.Columns[field], nil
}

// fieldSegments calls f for each segment whose index maps the aggregation's field and holds doc
// values for it, after aggField's checks; an error from either stops the walk.
func fieldSegments(segs []index.Segment, sp *Spec, numericOnly bool, f func(seg index.Segment, fd *index.FieldDef, col *index.Column) *apierr.Error) *apierr.Error {
	for _, seg := range segs {
		fd, col, err := aggField(seg.Index, sp, numericOnly)
		if err != nil {
			return err
		}
		if fd == nil || col == nil {
			continue
		}
		if err := f(seg, fd, col); err != nil {
			return err
		}
	}
	return nil
}

// --- metrics ---

func metricAgg(sp *Spec, segs []index.Segment) (jsonout.Obj, *apierr.Error) {
	numericOnly := sp.Type != "value_count" && sp.Type != "cardinality"
	var count int
	sum, sumSq := 0.0, 0.0
	lo, hi := math.Inf(1), math.Inf(-1)
	distinctS := map[string]struct{}{}
	distinctF := map[float64]struct{}{}
	isDate := false
	format := sp.Common.format
	missing, hasMissing := sp.Common.missing, sp.Common.hasMissing
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
		var missF float64
		missOK := false
		if hasMissing && fd.Kind != index.KindKeyword {
			missF, missOK = jsonval.Float(missing)
		}
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

// --- buckets shared ---

type bucket struct {
	count int
	segs  []index.Segment
}

func (b *bucket) add(ix *index.Index, slot int32, keep bool) {
	b.count++
	if !keep {
		return
	}
	if n := len(b.segs); n == 0 || b.segs[n-1].Index != ix {
		b.segs = append(b.segs, index.Segment{Index: ix})
	}
	last := &b.segs[len(b.segs)-1]
	last.Slots = append(last.Slots, slot)
}

// addPerDistinctKey counts a document once in the bucket of each distinct key its values
// fall into: a multi-valued field with two values in one bucket still counts one doc.
func addPerDistinctKey[K comparable](buckets map[K]*bucket, vals []float64, keyOf func(float64) K, ix *index.Index, slot int32, keep bool) {
	for i, v := range vals {
		k := keyOf(v)
		dup := false
		for _, p := range vals[:i] {
			if keyOf(p) == k {
				dup = true
			}
		}
		if dup {
			continue
		}
		b := buckets[k]
		if b == nil {
			b = &bucket{}
			buckets[k] = b
		}
		b.add(ix, slot, keep)
	}
}

// --- terms ---

type termsBucket struct {
	str    string
	num    float64
	isStr  bool
	b      *bucket
	result jsonout.Obj
}

func termsAgg(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	size := 10
	if sp.Common.hasSize {
		n, ok := jsonval.Int(sp.Common.size)
		if !ok || n < 1 {
			return nil, apierr.BadRequest("[size] must be greater than 0. Found [%v] in [%s]", sp.Common.size, sp.Name)
		}
		size = n
	}
	minCount := 1
	if sp.Common.hasMinCount {
		minCount = sp.Common.minDocCount
	}
	keep := len(sp.Subs) > 0
	byStr := map[string]*bucket{}
	byNum := map[float64]*bucket{}
	var keyKind index.Kind
	var keyTyp, format string
	format = sp.Common.format
	include, exclude := termFilters(sp.Params)
	missing, hasMissing := sp.Common.missing, sp.Common.hasMissing
	for _, seg := range segs {
		fd, col, err := aggField(seg.Index, sp, false)
		if err != nil {
			return nil, err
		}
		if fd == nil {
			continue
		}
		if keyKind == index.KindNone {
			keyKind, keyTyp = fd.Kind, fd.Type
			if format == "" && fd.Kind == index.KindDate {
				format = fd.Mapping.Format
			}
		}
		if fd.Kind == index.KindKeyword && col != nil && !col.Multi && include == nil && exclude == nil && !hasMissing {
			countByOrdinal(seg, col, keep, byStr)
			continue
		}
		if fd.Kind == index.KindKeyword {
			missS, _ := jsonval.String(missing)
			for _, s := range seg.Slots {
				var vals []string
				if col != nil && int(s) < len(col.Strs) {
					vals = col.Strs[s]
				}
				if len(vals) == 0 && hasMissing {
					vals = []string{missS}
				}
				for i, v := range vals {
					if i > 0 && slices.Contains(vals[:i], v) {
						continue
					}
					if !keepTerm(v, include, exclude) {
						continue
					}
					b := byStr[v]
					if b == nil {
						b = &bucket{}
						byStr[v] = b
					}
					b.add(seg.Index, s, keep)
				}
			}
			continue
		}
		missF, missOK := jsonval.Float(missing)
		for _, s := range seg.Slots {
			var vals []float64
			if col != nil && int(s) < len(col.Nums) {
				vals = col.Nums[s]
			}
			if len(vals) == 0 && hasMissing && missOK {
				vals = []float64{missF}
			}
			for i, v := range vals {
				if i > 0 && containsNum(vals[:i], v) {
					continue
				}
				b := byNum[v]
				if b == nil {
					b = &bucket{}
					byNum[v] = b
				}
				b.add(seg.Index, s, keep)
			}
		}
	}
	list := make([]*termsBucket, 0, len(byStr)+len(byNum))
	for k, b := range byStr {
		if b.count >= minCount {
			list = append(list, &termsBucket{str: k, isStr: true, b: b})
		}
	}
	for k, b := range byNum {
		if b.count >= minCount {
			list = append(list, &termsBucket{num: k, b: b})
		}
	}
	orders, err := parseTermsOrder(sp)
	if err != nil {
		return nil, err
	}
	bySub := false
	for _, o := range orders {
		if o.key != "_count" && o.key != "_key" {
			bySub = true
		}
	}
	compute := func(tb *termsBucket) *apierr.Error {
		if tb.result != nil {
			return nil
		}
		var err *apierr.Error
		tb.result, err = bucketBody(jsonout.Obj{}, tb.b.count, sp, tb.b.segs, ctx)
		return err
	}
	if bySub {
		for _, tb := range list {
			if err := compute(tb); err != nil {
				return nil, err
			}
		}
	}
	var sortErr *apierr.Error
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		for _, o := range orders {
			c := 0
			switch o.key {
			case "_count":
				c = cmp.Compare(a.b.count, b.b.count)
			case "_key":
				c = cmpTermKey(a, b)
			default:
				va, e1 := subValue(a.result, o.key)
				vb, e2 := subValue(b.result, o.key)
				if e1 != nil {
					sortErr = e1
				}
				if e2 != nil {
					sortErr = e2
				}
				c = cmpFloat(va, vb)
			}
			if o.desc {
				c = -c
			}
			if c != 0 {
				return c < 0
			}
		}
		return cmpTermKey(a, b) < 0
	})
	if sortErr != nil {
		return nil, sortErr
	}
	other := 0
	if len(list) > size {
		for _, tb := range list[size:] {
			other += tb.b.count
		}
		list = list[:size]
	}
	if err := ctx.addBuckets(len(list)); err != nil {
		return nil, err
	}
	buckets := make([]jsonout.Obj, 0, len(list))
	for _, tb := range list {
		if err := compute(tb); err != nil {
			return nil, err
		}
		var head jsonout.Obj
		switch {
		case tb.isStr:
			head = jsonout.Obj{{"key", tb.str}}
		case keyKind == index.KindDate:
			head = jsonout.Obj{{"key", int64(tb.num)}, {"key_as_string", dates.Format(int64(tb.num), format)}}
		case keyKind == index.KindBool:
			s := "false"
			if tb.num != 0 {
				s = "true"
			}
			head = jsonout.Obj{{"key", int64(tb.num)}, {"key_as_string", s}}
		case keyKind == index.KindLong:
			head = jsonout.Obj{{"key", int64(tb.num)}}
		default:
			_ = keyTyp
			head = jsonout.Obj{{"key", tb.num}}
		}
		buckets = append(buckets, append(head, tb.result...))
	}
	return jsonout.Obj{{"doc_count_error_upper_bound", 0}, {"sum_other_doc_count", other}, {"buckets", buckets}}, nil
}

func containsNum(l []float64, f float64) bool {
	for _, x := range l {
		if x == f {
			return true
		}
	}
	return false
}

func termFilters(p map[string]any) (map[string]bool, map[string]bool) {
	set := func(v any) map[string]bool {
		l, ok := v.([]any)
		if !ok {
			return nil
		}
		m := map[string]bool{}
		for _, x := range l {
			s, _ := jsonval.String(x)
			m[s] = true
		}
		return m
	}
	return set(p["include"]), set(p["exclude"])
}

func keepTerm(v string, include, exclude map[string]bool) bool {
	if include != nil && !include[v] {
		return false
	}
	return exclude == nil || !exclude[v]
}

type termsOrder struct {
	key  string
	desc bool
}

func parseTermsOrder(sp *Spec) ([]termsOrder, *apierr.Error) {
	v, ok := sp.Params["order"]
	if !ok {
		return []termsOrder{{"_count", true}, {"_key", false}}, nil
	}
	var out []termsOrder
	for _, item := range jsonval.List(v) {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, apierr.Parsing("[order] must be an object or an array of objects in [%s]", sp.Name)
		}
		for _, k := range jsonval.SortedKeys(m) {
			dir, _ := m[k].(string)
			if dir != "asc" && dir != "desc" {
				return nil, apierr.Parsing("Unknown terms order direction [%s] in terms aggregation [%s]", dir, sp.Name)
			}
			key := k
			if key == "_term" {
				key = "_key"
			}
			if key != "_count" && key != "_key" {
				name, _, _ := strings.Cut(key, ".")
				found := false
				for _, sub := range sp.Subs {
					if sub.Name == name && metricAggs[sub.Type] {
						found = true
					}
				}
				if !found {
					return nil, apierr.Errf(400, "aggregation_execution_exception",
						"Invalid aggregator order path [%s]. The provided aggregation [%s] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.", key, name)
				}
			}
			out = append(out, termsOrder{key, dir == "desc"})
		}
	}
	return out, nil
}

func subValue(res jsonout.Obj, path string) (float64, *apierr.Error) {
	name, metric, _ := strings.Cut(path, ".")
	if metric == "" {
		metric = "value"
	}
	for _, m := range res {
		if m.K != name {
			continue
		}
		sub, _ := m.V.(jsonout.Obj)
		for _, x := range sub {
			if x.K == metric {
				if f, ok := jsonval.Float(x.V); ok {
					return f, nil
				}
				if n, ok := x.V.(int); ok {
					return float64(n), nil
				}
				return math.Inf(-1), nil
			}
		}
		return 0, apierr.BadRequest("Invalid aggregation order path [%s]: unknown value [%s]", path, metric)
	}
	return 0, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpTermKey(a, b *termsBucket) int {
	if a.isStr && b.isStr {
		return strings.Compare(a.str, b.str)
	}
	if a.isStr != b.isStr {
		if a.isStr {
			return 1
		}
		return -1
	}
	return cmpFloat(a.num, b.num)
}

// --- range / date_range ---

type rangeDef struct {
	key      string
	from, to float64
	hasFrom  bool
	hasTo    bool
	b        bucket
}

func rangeAgg(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	raw, ok := sp.Params["ranges"].([]any)
	if !ok || len(raw) == 0 {
		return nil, apierr.BadRequest("No [ranges] specified for the [%s] aggregation", sp.Name)
	}
	format := sp.Common.format
	isDate := sp.Type == "date_range"
	for _, seg := range segs {
		if fd := seg.Index.Fields[sp.Common.Field]; fd != nil && fd.Kind == index.KindDate {
			isDate = true
			if format == "" {
				format = fd.Mapping.Format
			}
		}
	}
	ranges := make([]*rangeDef, 0, len(raw))
	for _, x := range raw {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, apierr.Parsing("[ranges] entries must be objects in [%s]", sp.Name)
		}
		rd := &rangeDef{}
		bound := func(k string, roundUp bool) (float64, bool, *apierr.Error) {
			v, ok := m[k]
			if !ok || v == nil {
				return 0, false, nil
			}
			if isDate {
				if s, isStr := v.(string); isStr {
					ms, err := dates.ParseMath(s, ctx.Now, roundUp, format)
					if err != nil {
						return 0, false, apierr.Errf(400, "parse_exception", "%s", err.Error())
					}
					return float64(ms), true, nil
				}
			}
			f, ok := jsonval.Float(v)
			if !ok {
				return 0, false, apierr.Parsing("[%s] must be a number in range aggregation [%s]", k, sp.Name)
			}
			return f, true, nil
		}
		var err *apierr.Error
		if rd.from, rd.hasFrom, err = bound("from", false); err != nil {
			return nil, err
		}
		if rd.to, rd.hasTo, err = bound("to", false); err != nil {
			return nil, err
		}
		rd.key, _ = m["key"].(string)
		ranges = append(ranges, rd)
	}
	sort.SliceStable(ranges, func(i, j int) bool {
		a, b := ranges[i], ranges[j]
		af, bf := math.Inf(-1), math.Inf(-1)
		if a.hasFrom {
			af = a.from
		}
		if b.hasFrom {
			bf = b.from
		}
		if af != bf {
			return af < bf
		}
		at, bt := math.Inf(1), math.Inf(1)
		if a.hasTo {
			at = a.to
		}
		if b.hasTo {
			bt = b.to
		}
		return at < bt
	})
	keep := len(sp.Subs) > 0
	err := fieldSegments(segs, sp, true, func(seg index.Segment, _ *index.FieldDef, col *index.Column) *apierr.Error {
		for _, s := range seg.Slots {
			vals := col.NumAt(s)
			for _, rd := range ranges {
				for _, v := range vals {
					if (!rd.hasFrom || v >= rd.from) && (!rd.hasTo || v < rd.to) {
						rd.b.add(seg.Index, s, keep)
						break
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := ctx.addBuckets(len(ranges)); err != nil {
		return nil, err
	}
	render := func(f float64) string {
		if isDate {
			return dates.Format(int64(f), format)
		}
		return jsonout.JavaDouble(f)
	}
	keyed := sp.Common.keyed
	buckets := make([]jsonout.Obj, 0, len(ranges))
	keyedObj := jsonout.Obj{}
	for _, rd := range ranges {
		key := rd.key
		if key == "" {
			lo, hi := "*", "*"
			if rd.hasFrom {
				lo = render(rd.from)
			}
			if rd.hasTo {
				hi = render(rd.to)
			}
			key = lo + "-" + hi
		}
		o := jsonout.Obj{}
		if !keyed {
			o = append(o, jsonout.KV{"key", key})
		}
		if rd.hasFrom {
			if isDate {
				o = append(o, jsonout.KV{"from", jsonout.JavaNumber(rd.from)}, jsonout.KV{"from_as_string", render(rd.from)})
			} else {
				o = append(o, jsonout.KV{"from", jsonout.JavaNumber(rd.from)})
			}
		}
		if rd.hasTo {
			if isDate {
				o = append(o, jsonout.KV{"to", jsonout.JavaNumber(rd.to)}, jsonout.KV{"to_as_string", render(rd.to)})
			} else {
				o = append(o, jsonout.KV{"to", jsonout.JavaNumber(rd.to)})
			}
		}
		o, err := bucketBody(o, rd.b.count, sp, rd.b.segs, ctx)
		if err != nil {
			return nil, err
		}
		if keyed {
			keyedObj = append(keyedObj, jsonout.KV{key, o})
		} else {
			buckets = append(buckets, o)
		}
	}
	if keyed {
		return jsonout.Obj{{"buckets", keyedObj}}, nil
	}
	return jsonout.Obj{{"buckets", buckets}}, nil
}

// --- histogram ---

func histogramAgg(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	interval, ok := jsonval.Float(sp.Params["interval"])
	if !ok {
		return nil, apierr.BadRequest("[interval] must be specified for histogram aggregation [%s]", sp.Name)
	}
	if interval <= 0 || math.IsNaN(interval) || math.IsInf(interval, 0) {
		return nil, apierr.BadRequest("[interval] must be >0 for histogram aggregation [%s]", sp.Name)
	}
	offset, _ := jsonval.Float(sp.Params["offset"])
	minCount := 0
	if sp.Common.hasMinCount {
		minCount = sp.Common.minDocCount
	}
	keyOf := func(v float64) float64 { return math.Floor((v-offset)/interval)*interval + offset }
	keep := len(sp.Subs) > 0
	buckets := map[float64]*bucket{}
	err := fieldSegments(segs, sp, true, func(seg index.Segment, _ *index.FieldDef, col *index.Column) *apierr.Error {
		for _, s := range seg.Slots {
			addPerDistinctKey(buckets, col.NumAt(s), keyOf, seg.Index, s, keep)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys := make([]float64, 0, len(buckets))
	for k := range buckets {
		keys = append(keys, k)
	}
	sort.Float64s(keys)
	if minCount == 0 {
		lo, hi := math.Inf(1), math.Inf(-1)
		if len(keys) > 0 {
			lo, hi = keys[0], keys[len(keys)-1]
		}
		if eb, ok := sp.Params["extended_bounds"].(map[string]any); ok {
			if f, ok := jsonval.Float(eb["min"]); ok {
				lo = math.Min(lo, keyOf(f))
			}
			if f, ok := jsonval.Float(eb["max"]); ok {
				hi = math.Max(hi, keyOf(f))
			}
		}
		if !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
			n := (hi-lo)/interval + 1
			if n > MaxBuckets {
				return nil, ctx.addBuckets(int(math.Min(n, 1e9)))
			}
			keys = keys[:0]
			for i := 0; float64(i) < n; i++ {
				keys = append(keys, lo+float64(i)*interval)
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
			// Fill keys are recomputed, so match existing buckets tolerantly.
			for bk, bb := range buckets {
				if math.Abs(bk-k) < interval*1e-9 {
					b = bb
				}
			}
		}
		if b == nil {
			b = &bucket{}
		}
		if b.count < minCount {
			continue
		}
		o, err := bucketBody(jsonout.Obj{{"key", jsonout.JavaNumber(k)}}, b.count, sp, b.segs, ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return jsonout.Obj{{"buckets", out}}, nil
}

// --- filter, filters, missing ---

func filterSegs(q query.Query, segs []index.Segment, ctx *Context) ([]index.Segment, *apierr.Error) {
	out := make([]index.Segment, 0, len(segs))
	for _, seg := range segs {
		m, err := q.Eval(&query.Context{Index: seg.Index, Now: ctx.Now})
		if err != nil {
			return nil, err
		}
		var slots []int32
		for _, s := range seg.Slots {
			if m.Has(s) {
				slots = append(slots, s)
			}
		}
		out = append(out, index.Segment{Index: seg.Index, Slots: slots})
	}
	return out, nil
}

func filtersAgg(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	if err := ctx.addBuckets(len(sp.named)); err != nil {
		return nil, err
	}
	keyedOut := jsonout.Obj{}
	var listOut []jsonout.Obj
	for _, nf := range sp.named {
		sub, err := filterSegs(nf.q, segs, ctx)
		if err != nil {
			return nil, err
		}
		o, err := bucketBody(jsonout.Obj{}, index.CountSlots(sub), sp, sub, ctx)
		if err != nil {
			return nil, err
		}
		if sp.keyed {
			keyedOut = append(keyedOut, jsonout.KV{nf.name, o})
		} else {
			listOut = append(listOut, o)
		}
	}
	if sp.keyed {
		return jsonout.Obj{{"buckets", keyedOut}}, nil
	}
	if listOut == nil {
		listOut = []jsonout.Obj{}
	}
	return jsonout.Obj{{"buckets", listOut}}, nil
}

func missingAgg(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	var out []index.Segment
	for _, seg := range segs {
		field := sp.Common.Field
		if field == "" {
			return nil, apierr.BadRequest("Required one of fields [field, script], but none were specified.")
		}
		var slots []int32
		for _, s := range seg.Slots {
			has := false
			if col := seg.Index.Columns[field]; col != nil && col.Has(s) {
				has = true
			}
			if t := seg.Index.Texts[field]; t != nil && int(s) < len(t.Has) && t.Has[s] {
				has = true
			}
			if !has {
				slots = append(slots, s)
			}
		}
		out = append(out, index.Segment{Index: seg.Index, Slots: slots})
	}
	return bucketBody(jsonout.Obj{}, index.CountSlots(out), sp, out, ctx)
}

// countByOrdinal is the terms aggregation's fast path for a single-valued keyword column: counts
// (and, for sub-aggregations, slots) gathered by ordinal, then merged into the buckets by value.
func countByOrdinal(seg index.Segment, col *index.Column, keep bool, byStr map[string]*bucket) {
	counts := make([]int32, len(col.Terms))
	var lists [][]int32
	if keep {
		lists = make([][]int32, len(col.Terms))
	}
	for _, s := range seg.Slots {
		if int(s) >= len(col.Ords) {
			continue
		}
		if o := col.Ords[s]; o >= 0 {
			counts[o]++
			if keep {
				lists[o] = append(lists[o], s)
			}
		}
	}
	for o, n := range counts {
		if n == 0 {
			continue
		}
		b := byStr[col.Terms[o]]
		if b == nil {
			b = &bucket{}
			byStr[col.Terms[o]] = b
		}
		b.count += int(n)
		if keep {
			b.segs = append(b.segs, index.Segment{Index: seg.Index, Slots: lists[o]})
		}
	}
}
