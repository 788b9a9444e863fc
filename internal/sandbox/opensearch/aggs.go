package opensearch

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
)

const maxBuckets = 65535

// aggSpec is one parsed aggregation.
type aggSpec struct {
	name   string
	typ    string
	params map[string]any // the type's own parameters, as sent
	p      aggParams      // the common ones, read once when the request is parsed
	subs   []*aggSpec
	filter query         // filter
	named  []namedFilter // filters
	keyed  bool          // filters given as an object
}

// aggParams are the parameters many aggregation types share.
type aggParams struct {
	field       string
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
	p.field, _ = m["field"].(string)
	p.format, _ = m["format"].(string)
	p.missing, p.hasMissing = m["missing"]
	if v, ok := m["keyed"]; ok {
		p.keyed, _ = jsonval.Bool(v)
		p.hasKeyed = true
	}
	p.size, p.hasSize = m["size"]
	p.minDocCount, p.hasMinCount = asInt(m["min_doc_count"])
	return p
}

type namedFilter struct {
	name string
	q    query
}

type aggCtx struct {
	now     time.Time
	buckets int
	// The search's query and its match sets by index, for top_hits' scores and highlight;
	// nil when the aggregations run without a search.
	query  query
	scores map[*index]*mset
}

var metricAggs = map[string]bool{"avg": true, "sum": true, "min": true, "max": true, "value_count": true,
	"cardinality": true, "stats": true, "extended_stats": true, "percentiles": true, "top_hits": true}
var bucketAggs = map[string]bool{"terms": true, "range": true, "date_range": true, "histogram": true,
	"date_histogram": true, "filter": true, "filters": true, "missing": true, "nested": true}

func parseAggs(v any) ([]*aggSpec, *apiError) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, parsingErr("Failed to parse aggregation: expected an object")
	}
	var out []*aggSpec
	for _, name := range jsonval.SortedKeys(m) {
		body, ok := m[name].(map[string]any)
		if !ok {
			return nil, parsingErr("Expected [START_OBJECT] under [%s], but got a [VALUE_STRING] in [%s]", name, name)
		}
		spec := &aggSpec{name: name}
		for k, x := range body {
			switch k {
			case "aggs", "aggregations":
				subs, err := parseAggs(x)
				if err != nil {
					return nil, err
				}
				spec.subs = subs
			case "meta":
			default:
				if spec.typ != "" {
					return nil, parsingErr("Found two aggregation type definitions in [%s]: [%s] and [%s]", name, spec.typ, k)
				}
				if !metricAggs[k] && !bucketAggs[k] {
					return nil, parsingErr("Unknown aggregation type [%s]", k)
				}
				spec.typ = k
				if k == "filter" {
					q, err := parseQuery(x)
					if err != nil {
						return nil, err
					}
					spec.filter = q
					continue
				}
				p, ok := x.(map[string]any)
				if !ok {
					return nil, parsingErr("Expected [START_OBJECT] under [%s], but got a [VALUE_STRING] in [%s]", k, name)
				}
				spec.params = p
				spec.p = readAggParams(p)
				if _, hasScript := p["script"]; hasScript {
					return nil, badRequest("scripts are not supported by this emulation: aggregation [%s] uses a script", name)
				}
				if k == "filters" {
					if err := parseFiltersAgg(spec, p); err != nil {
						return nil, err
					}
				}
			}
		}
		if spec.typ == "" {
			return nil, parsingErr("Missing definition for aggregation [%s]", name)
		}
		if metricAggs[spec.typ] && len(spec.subs) > 0 {
			return nil, errf(400, "aggregation_initialization_exception", "Aggregator [%s] of type [%s] cannot accept sub-aggregations", name, spec.typ)
		}
		out = append(out, spec)
	}
	return out, nil
}

func parseFiltersAgg(spec *aggSpec, p map[string]any) *apiError {
	switch f := p["filters"].(type) {
	case map[string]any:
		spec.keyed = true
		for _, n := range jsonval.SortedKeys(f) {
			q, err := parseQuery(f[n])
			if err != nil {
				return err
			}
			spec.named = append(spec.named, namedFilter{n, q})
		}
	case []any:
		for i, x := range f {
			q, err := parseQuery(x)
			if err != nil {
				return err
			}
			spec.named = append(spec.named, namedFilter{itoa(i), q})
		}
	default:
		return parsingErr("[filters] requires a [filters] object or array")
	}
	return nil
}

func runAggs(specs []*aggSpec, segs []segment, ctx *aggCtx) (obj, *apiError) {
	out := make(obj, 0, len(specs))
	for _, sp := range specs {
		res, err := runAgg(sp, segs, ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, kv{sp.name, res})
	}
	return out, nil
}

func runAgg(sp *aggSpec, segs []segment, ctx *aggCtx) (obj, *apiError) {
	switch sp.typ {
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
		return bucketBody(obj{}, countSlots(sub), sp, sub, ctx)
	case "filters":
		return filtersAgg(sp, segs, ctx)
	case "missing":
		return missingAgg(sp, segs, ctx)
	case "percentiles":
		return percentilesAgg(sp, segs)
	case "top_hits":
		return topHitsAgg(sp, segs, ctx)
	case "nested":
		return nestedAgg(sp, segs, ctx)
	}
	return metricAgg(sp, segs)
}

func javaNum(f float64) json.Number { return json.Number(javaDouble(f)) }

func countSlots(segs []segment) int {
	n := 0
	for _, s := range segs {
		n += len(s.slots)
	}
	return n
}

// bucketBody completes a bucket object with doc_count and its sub-aggregations.
func bucketBody(o obj, count int, sp *aggSpec, segs []segment, ctx *aggCtx) (obj, *apiError) {
	o = append(o, kv{"doc_count", count})
	if len(sp.subs) > 0 {
		subs, err := runAggs(sp.subs, segs, ctx)
		if err != nil {
			return nil, err
		}
		o = append(o, subs...)
	}
	return o, nil
}

func (ctx *aggCtx) addBuckets(n int) *apiError {
	ctx.buckets += n
	if ctx.buckets > maxBuckets {
		return errf(400, "too_many_buckets_exception",
			"Trying to create too many buckets. Must be less than or equal to: [%d] but was [%d]. This limit can be set by changing the [search.max_buckets] cluster level setting.", maxBuckets, ctx.buckets)
	}
	return nil
}

// aggField resolves the field of an aggregation on one index (nil column when unmapped or empty).
func aggField(ix *index, sp *aggSpec, numericOnly bool) (*fieldDef, *column, *apiError) {
	field := sp.p.field
	if field == "" {
		return nil, nil, badRequest("Required one of fields [field, script], but none were specified.")
	}
	fd := ix.fields[field]
	if fd == nil {
		return nil, nil, nil
	}
	switch fd.kind {
	case kindText:
		return nil, nil, fielddataErr(field)
	case kindObject:
		return nil, nil, badRequest("Field [%s] of type [object] is not supported for aggregation [%s]", field, sp.typ)
	case kindKeyword:
		if numericOnly {
			return nil, nil, badRequest("Field [%s] of type [%s] is not supported for aggregation [%s]", field, fd.typ, sp.typ)
		}
	}
	return fd, ix.cols[field], nil
}

// fieldSegments calls f for each segment whose index maps the aggregation's field and holds doc
// values for it, after aggField's checks; an error from either stops the walk.
func fieldSegments(segs []segment, sp *aggSpec, numericOnly bool, f func(seg segment, fd *fieldDef, col *column) *apiError) *apiError {
	for _, seg := range segs {
		fd, col, err := aggField(seg.ix, sp, numericOnly)
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

func metricAgg(sp *aggSpec, segs []segment) (obj, *apiError) {
	numericOnly := sp.typ != "value_count" && sp.typ != "cardinality"
	var count int
	sum, sumSq := 0.0, 0.0
	lo, hi := math.Inf(1), math.Inf(-1)
	distinctS := map[string]struct{}{}
	distinctF := map[float64]struct{}{}
	isDate := false
	format := sp.p.format
	missing, hasMissing := sp.p.missing, sp.p.hasMissing
	for _, seg := range segs {
		fd, col, err := aggField(seg.ix, sp, numericOnly)
		if err != nil {
			return nil, err
		}
		if fd == nil {
			continue
		}
		if fd.kind == kindDate {
			isDate = true
			if format == "" {
				format = fd.fm.format
			}
		}
		var missF float64
		missOK := false
		if hasMissing && fd.kind != kindKeyword {
			missF, missOK = jsonval.Float(missing)
		}
		for _, s := range seg.slots {
			if fd.kind == kindKeyword {
				var vals []string
				if col != nil {
					vals = col.strAt(s)
				}
				for _, v := range vals {
					count++
					distinctS[v] = struct{}{}
				}
				continue
			}
			var vals []float64
			if col != nil {
				vals = col.numAt(s)
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
				if sp.typ == "cardinality" {
					distinctF[v] = struct{}{}
				}
			}
		}
	}
	value := func(f float64, ok bool) any {
		if !ok {
			return nil
		}
		return javaNum(f)
	}
	withString := func(o obj, key string, f float64, ok bool) obj {
		if isDate && ok {
			o = append(o, kv{key, dates.Format(int64(f), format)})
		}
		return o
	}
	switch sp.typ {
	case "avg":
		return withString(obj{{"value", value(sum/float64(count), count > 0)}}, "value_as_string", sum/float64(count), count > 0), nil
	case "sum":
		return obj{{"value", javaNum(sum)}}, nil
	case "min":
		return withString(obj{{"value", value(lo, count > 0)}}, "value_as_string", lo, count > 0), nil
	case "max":
		return withString(obj{{"value", value(hi, count > 0)}}, "value_as_string", hi, count > 0), nil
	case "value_count":
		return obj{{"value", count}}, nil
	case "cardinality":
		return obj{{"value", len(distinctS) + len(distinctF)}}, nil
	}
	o := obj{{"count", count}, {"min", value(lo, count > 0)}, {"max", value(hi, count > 0)},
		{"avg", value(sum/float64(count), count > 0)}, {"sum", javaNum(sum)}}
	if sp.typ == "extended_stats" {
		variance := 0.0
		if count > 0 {
			mean := sum / float64(count)
			variance = math.Max(0, sumSq/float64(count)-mean*mean)
		}
		sampling := 0.0
		if count > 1 {
			sampling = variance * float64(count) / float64(count-1)
		}
		o = append(o, kv{"sum_of_squares", value(sumSq, count > 0)}, kv{"variance", value(variance, count > 0)},
			kv{"variance_population", value(variance, count > 0)}, kv{"variance_sampling", value(sampling, count > 1)},
			kv{"std_deviation", value(math.Sqrt(variance), count > 0)},
			kv{"std_deviation_population", value(math.Sqrt(variance), count > 0)},
			kv{"std_deviation_sampling", value(math.Sqrt(sampling), count > 1)})
	}
	if isDate && count > 0 {
		o = append(o, kv{"min_as_string", dates.Format(int64(lo), format)}, kv{"max_as_string", dates.Format(int64(hi), format)},
			kv{"avg_as_string", dates.Format(int64(sum/float64(count)), format)}, kv{"sum_as_string", dates.Format(int64(sum), format)})
	}
	return o, nil
}

// --- buckets shared ---

type bucket struct {
	count int
	segs  []segment
}

func (b *bucket) add(ix *index, slot int32, keep bool) {
	b.count++
	if !keep {
		return
	}
	if n := len(b.segs); n == 0 || b.segs[n-1].ix != ix {
		b.segs = append(b.segs, segment{ix: ix})
	}
	last := &b.segs[len(b.segs)-1]
	last.slots = append(last.slots, slot)
}

// addPerDistinctKey counts a document once in the bucket of each distinct key its values
// fall into: a multi-valued field with two values in one bucket still counts one doc.
func addPerDistinctKey[K comparable](buckets map[K]*bucket, vals []float64, keyOf func(float64) K, ix *index, slot int32, keep bool) {
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
	result obj
}

func termsAgg(sp *aggSpec, segs []segment, ctx *aggCtx) (obj, *apiError) {
	size := 10
	if sp.p.hasSize {
		n, ok := asInt(sp.p.size)
		if !ok || n < 1 {
			return nil, badRequest("[size] must be greater than 0. Found [%v] in [%s]", sp.p.size, sp.name)
		}
		size = n
	}
	minCount := 1
	if sp.p.hasMinCount {
		minCount = sp.p.minDocCount
	}
	keep := len(sp.subs) > 0
	byStr := map[string]*bucket{}
	byNum := map[float64]*bucket{}
	var keyKind kind
	var keyTyp, format string
	format = sp.p.format
	include, exclude := termFilters(sp.params)
	missing, hasMissing := sp.p.missing, sp.p.hasMissing
	for _, seg := range segs {
		fd, col, err := aggField(seg.ix, sp, false)
		if err != nil {
			return nil, err
		}
		if fd == nil {
			continue
		}
		if keyKind == kindNone {
			keyKind, keyTyp = fd.kind, fd.typ
			if format == "" && fd.kind == kindDate {
				format = fd.fm.format
			}
		}
		if fd.kind == kindKeyword && col != nil && !col.multi && include == nil && exclude == nil && !hasMissing {
			countByOrdinal(seg, col, keep, byStr)
			continue
		}
		if fd.kind == kindKeyword {
			missS, _ := jsonval.String(missing)
			for _, s := range seg.slots {
				var vals []string
				if col != nil && int(s) < len(col.strs) {
					vals = col.strs[s]
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
					b.add(seg.ix, s, keep)
				}
			}
			continue
		}
		missF, missOK := jsonval.Float(missing)
		for _, s := range seg.slots {
			var vals []float64
			if col != nil && int(s) < len(col.nums) {
				vals = col.nums[s]
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
				b.add(seg.ix, s, keep)
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
	compute := func(tb *termsBucket) *apiError {
		if tb.result != nil {
			return nil
		}
		var err *apiError
		tb.result, err = bucketBody(obj{}, tb.b.count, sp, tb.b.segs, ctx)
		return err
	}
	if bySub {
		for _, tb := range list {
			if err := compute(tb); err != nil {
				return nil, err
			}
		}
	}
	var sortErr *apiError
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
	buckets := make([]obj, 0, len(list))
	for _, tb := range list {
		if err := compute(tb); err != nil {
			return nil, err
		}
		var head obj
		switch {
		case tb.isStr:
			head = obj{{"key", tb.str}}
		case keyKind == kindDate:
			head = obj{{"key", int64(tb.num)}, {"key_as_string", dates.Format(int64(tb.num), format)}}
		case keyKind == kindBool:
			s := "false"
			if tb.num != 0 {
				s = "true"
			}
			head = obj{{"key", int64(tb.num)}, {"key_as_string", s}}
		case keyKind == kindLong:
			head = obj{{"key", int64(tb.num)}}
		default:
			_ = keyTyp
			head = obj{{"key", tb.num}}
		}
		buckets = append(buckets, append(head, tb.result...))
	}
	return obj{{"doc_count_error_upper_bound", 0}, {"sum_other_doc_count", other}, {"buckets", buckets}}, nil
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

func parseTermsOrder(sp *aggSpec) ([]termsOrder, *apiError) {
	v, ok := sp.params["order"]
	if !ok {
		return []termsOrder{{"_count", true}, {"_key", false}}, nil
	}
	var out []termsOrder
	for _, item := range asList(v) {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, parsingErr("[order] must be an object or an array of objects in [%s]", sp.name)
		}
		for _, k := range jsonval.SortedKeys(m) {
			dir, _ := m[k].(string)
			if dir != "asc" && dir != "desc" {
				return nil, parsingErr("Unknown terms order direction [%s] in terms aggregation [%s]", dir, sp.name)
			}
			key := k
			if key == "_term" {
				key = "_key"
			}
			if key != "_count" && key != "_key" {
				name, _, _ := strings.Cut(key, ".")
				found := false
				for _, sub := range sp.subs {
					if sub.name == name && metricAggs[sub.typ] {
						found = true
					}
				}
				if !found {
					return nil, errf(400, "aggregation_execution_exception",
						"Invalid aggregator order path [%s]. The provided aggregation [%s] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.", key, name)
				}
			}
			out = append(out, termsOrder{key, dir == "desc"})
		}
	}
	return out, nil
}

func subValue(res obj, path string) (float64, *apiError) {
	name, metric, _ := strings.Cut(path, ".")
	if metric == "" {
		metric = "value"
	}
	for _, m := range res {
		if m.k != name {
			continue
		}
		sub, _ := m.v.(obj)
		for _, x := range sub {
			if x.k == metric {
				if f, ok := jsonval.Float(x.v); ok {
					return f, nil
				}
				if n, ok := x.v.(int); ok {
					return float64(n), nil
				}
				return math.Inf(-1), nil
			}
		}
		return 0, badRequest("Invalid aggregation order path [%s]: unknown value [%s]", path, metric)
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

func rangeAgg(sp *aggSpec, segs []segment, ctx *aggCtx) (obj, *apiError) {
	raw, ok := sp.params["ranges"].([]any)
	if !ok || len(raw) == 0 {
		return nil, badRequest("No [ranges] specified for the [%s] aggregation", sp.name)
	}
	format := sp.p.format
	isDate := sp.typ == "date_range"
	for _, seg := range segs {
		if fd := seg.ix.fields[sp.p.field]; fd != nil && fd.kind == kindDate {
			isDate = true
			if format == "" {
				format = fd.fm.format
			}
		}
	}
	ranges := make([]*rangeDef, 0, len(raw))
	for _, x := range raw {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, parsingErr("[ranges] entries must be objects in [%s]", sp.name)
		}
		rd := &rangeDef{}
		bound := func(k string, roundUp bool) (float64, bool, *apiError) {
			v, ok := m[k]
			if !ok || v == nil {
				return 0, false, nil
			}
			if isDate {
				if s, isStr := v.(string); isStr {
					ms, err := dates.ParseMath(s, ctx.now, roundUp, format)
					if err != nil {
						return 0, false, errf(400, "parse_exception", "%s", err.Error())
					}
					return float64(ms), true, nil
				}
			}
			f, ok := jsonval.Float(v)
			if !ok {
				return 0, false, parsingErr("[%s] must be a number in range aggregation [%s]", k, sp.name)
			}
			return f, true, nil
		}
		var err *apiError
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
	keep := len(sp.subs) > 0
	err := fieldSegments(segs, sp, true, func(seg segment, _ *fieldDef, col *column) *apiError {
		for _, s := range seg.slots {
			vals := col.numAt(s)
			for _, rd := range ranges {
				for _, v := range vals {
					if (!rd.hasFrom || v >= rd.from) && (!rd.hasTo || v < rd.to) {
						rd.b.add(seg.ix, s, keep)
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
		return javaDouble(f)
	}
	keyed := sp.p.keyed
	buckets := make([]obj, 0, len(ranges))
	keyedObj := obj{}
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
		o := obj{}
		if !keyed {
			o = append(o, kv{"key", key})
		}
		if rd.hasFrom {
			if isDate {
				o = append(o, kv{"from", javaNum(rd.from)}, kv{"from_as_string", render(rd.from)})
			} else {
				o = append(o, kv{"from", javaNum(rd.from)})
			}
		}
		if rd.hasTo {
			if isDate {
				o = append(o, kv{"to", javaNum(rd.to)}, kv{"to_as_string", render(rd.to)})
			} else {
				o = append(o, kv{"to", javaNum(rd.to)})
			}
		}
		o, err := bucketBody(o, rd.b.count, sp, rd.b.segs, ctx)
		if err != nil {
			return nil, err
		}
		if keyed {
			keyedObj = append(keyedObj, kv{key, o})
		} else {
			buckets = append(buckets, o)
		}
	}
	if keyed {
		return obj{{"buckets", keyedObj}}, nil
	}
	return obj{{"buckets", buckets}}, nil
}

// --- histogram ---

func histogramAgg(sp *aggSpec, segs []segment, ctx *aggCtx) (obj, *apiError) {
	interval, ok := jsonval.Float(sp.params["interval"])
	if !ok {
		return nil, badRequest("[interval] must be specified for histogram aggregation [%s]", sp.name)
	}
	if interval <= 0 || math.IsNaN(interval) || math.IsInf(interval, 0) {
		return nil, badRequest("[interval] must be >0 for histogram aggregation [%s]", sp.name)
	}
	offset, _ := jsonval.Float(sp.params["offset"])
	minCount := 0
	if sp.p.hasMinCount {
		minCount = sp.p.minDocCount
	}
	keyOf := func(v float64) float64 { return math.Floor((v-offset)/interval)*interval + offset }
	keep := len(sp.subs) > 0
	buckets := map[float64]*bucket{}
	err := fieldSegments(segs, sp, true, func(seg segment, _ *fieldDef, col *column) *apiError {
		for _, s := range seg.slots {
			addPerDistinctKey(buckets, col.numAt(s), keyOf, seg.ix, s, keep)
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
		if eb, ok := sp.params["extended_bounds"].(map[string]any); ok {
			if f, ok := jsonval.Float(eb["min"]); ok {
				lo = math.Min(lo, keyOf(f))
			}
			if f, ok := jsonval.Float(eb["max"]); ok {
				hi = math.Max(hi, keyOf(f))
			}
		}
		if !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
			n := (hi-lo)/interval + 1
			if n > maxBuckets {
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
	out := make([]obj, 0, len(keys))
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
		o, err := bucketBody(obj{{"key", javaNum(k)}}, b.count, sp, b.segs, ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return obj{{"buckets", out}}, nil
}

// --- filter, filters, missing ---

func filterSegs(q query, segs []segment, ctx *aggCtx) ([]segment, *apiError) {
	out := make([]segment, 0, len(segs))
	for _, seg := range segs {
		m, err := q.eval(&qctx{ix: seg.ix, now: ctx.now})
		if err != nil {
			return nil, err
		}
		var slots []int32
		for _, s := range seg.slots {
			if m.has(s) {
				slots = append(slots, s)
			}
		}
		out = append(out, segment{ix: seg.ix, slots: slots})
	}
	return out, nil
}

func filtersAgg(sp *aggSpec, segs []segment, ctx *aggCtx) (obj, *apiError) {
	if err := ctx.addBuckets(len(sp.named)); err != nil {
		return nil, err
	}
	keyedOut := obj{}
	var listOut []obj
	for _, nf := range sp.named {
		sub, err := filterSegs(nf.q, segs, ctx)
		if err != nil {
			return nil, err
		}
		o, err := bucketBody(obj{}, countSlots(sub), sp, sub, ctx)
		if err != nil {
			return nil, err
		}
		if sp.keyed {
			keyedOut = append(keyedOut, kv{nf.name, o})
		} else {
			listOut = append(listOut, o)
		}
	}
	if sp.keyed {
		return obj{{"buckets", keyedOut}}, nil
	}
	if listOut == nil {
		listOut = []obj{}
	}
	return obj{{"buckets", listOut}}, nil
}

func missingAgg(sp *aggSpec, segs []segment, ctx *aggCtx) (obj, *apiError) {
	var out []segment
	for _, seg := range segs {
		field := sp.p.field
		if field == "" {
			return nil, badRequest("Required one of fields [field, script], but none were specified.")
		}
		var slots []int32
		for _, s := range seg.slots {
			has := false
			if col := seg.ix.cols[field]; col != nil && col.has(s) {
				has = true
			}
			if t := seg.ix.texts[field]; t != nil && int(s) < len(t.has) && t.has[s] {
				has = true
			}
			if !has {
				slots = append(slots, s)
			}
		}
		out = append(out, segment{ix: seg.ix, slots: slots})
	}
	return bucketBody(obj{}, countSlots(out), sp, out, ctx)
}

// countByOrdinal is the terms aggregation's fast path for a single-valued keyword column: counts
// (and, for sub-aggregations, slots) gathered by ordinal, then merged into the buckets by value.
func countByOrdinal(seg segment, col *column, keep bool, byStr map[string]*bucket) {
	counts := make([]int32, len(col.terms))
	var lists [][]int32
	if keep {
		lists = make([][]int32, len(col.terms))
	}
	for _, s := range seg.slots {
		if int(s) >= len(col.ords) {
			continue
		}
		if o := col.ords[s]; o >= 0 {
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
		b := byStr[col.terms[o]]
		if b == nil {
			b = &bucket{}
			byStr[col.terms[o]] = b
		}
		b.count += int(n)
		if keep {
			b.segs = append(b.segs, segment{ix: seg.ix, slots: lists[o]})
		}
	}
}
