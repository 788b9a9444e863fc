// Package aggs is the aggregations of a search: parsing the aggs section into specs, and running
// metric (avg, stats, percentiles, cardinality…) and bucket (terms, range, histogram,
// date_histogram, filters, nested…) aggregations over the segments a search matched, answered in
// the order the request named them. top_hits is the search's to render, through the Context.
//
// Each kind has a file of its own holding its typed parameters, the function that parses them
// when the request is parsed (listed in kinds), and its run, which reads only those parameters.
package aggs

import (
	"time"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
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
	Common Common // the parameters many types share
	Subs   []*Spec
	// TopHits are a top_hits aggregation's parameters, as the search's TopHitsParser typed
	// them: the search renders its hits (Context.TopHits). Other types leave it nil.
	TopHits  any
	params   agg           // the type's own parameters, parsed with the request
	paramErr *apierr.Error // what parsing them refused, answered when the aggregation runs
}

// TopHitsParser reads a top_hits aggregation's parameters (sort, _source, highlight…), which
// are the search's to parse, as it renders the hits.
type TopHitsParser func(name string, params map[string]any) (any, *apierr.Error)

// agg is the typed parameters of one aggregation type, which run it.
type agg interface {
	run(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error)
}

// kind is what Parse knows of an aggregation type: whether it is a metric (no
// sub-aggregations, and a terms order may name it) and how its parameters are parsed.
type kind struct {
	metric bool
	parse  func(sp *Spec, p map[string]any) (agg, *apierr.Error)
}

// kinds lists the aggregation types. filter and filters are parsed where their parameters are
// read (their errors answer at once), top_hits by the search's TopHitsParser; the others' parse
// errors, and top_hits', answer when the aggregation runs.
// It is filled by init, as parsing a terms order looks up whether the aggregation it names is a
// metric.
var kinds map[string]kind

func init() {
	kinds = map[string]kind{
		"avg":            {true, asAgg(parseMetric)},
		"sum":            {true, asAgg(parseMetric)},
		"min":            {true, asAgg(parseMetric)},
		"max":            {true, asAgg(parseMetric)},
		"value_count":    {true, asAgg(parseMetric)},
		"cardinality":    {true, asAgg(parseMetric)},
		"stats":          {true, asAgg(parseMetric)},
		"extended_stats": {true, asAgg(parseMetric)},
		"percentiles":    {true, asAgg(parsePercentiles)},
		"top_hits":       {true, nil},
		"terms":          {false, asAgg(parseTerms)},
		"range":          {false, asAgg(parseRange)},
		"date_range":     {false, asAgg(parseRange)},
		"histogram":      {false, asAgg(parseHistogram)},
		"date_histogram": {false, asAgg(parseDateHistogram)},
		"filter":         {false, nil},
		"filters":        {false, nil},
		"missing":        {false, asAgg(parseMissing)},
		"nested":         {false, asAgg(parseNested)},
	}
}

// asAgg makes a kind's parse function of one returning its own parameter type.
func asAgg[P agg](parse func(sp *Spec, p map[string]any) (P, *apierr.Error)) func(sp *Spec, p map[string]any) (agg, *apierr.Error) {
	return func(sp *Spec, p map[string]any) (agg, *apierr.Error) { return parse(sp, p) }
}

// Common are the parameters many aggregation types share, read once when the request is parsed.
type Common struct {
	Field        string
	format       string
	missing      any
	hasMissing   bool
	missingStr   string  // missing as a keyword
	missingNum   float64 // missing as a number, when missingNumOK
	missingNumOK bool
	keyed        bool
	hasKeyed     bool
	minDocCount  int
	hasMinCount  bool
}

func readCommon(m map[string]any) Common {
	var p Common
	p.Field, _ = m["field"].(string)
	p.format, _ = m["format"].(string)
	p.missing, p.hasMissing = m["missing"]
	p.missingStr, _ = jsonval.String(p.missing)
	p.missingNum, p.missingNumOK = jsonval.Float(p.missing)
	if v, ok := m["keyed"]; ok {
		p.keyed, _ = jsonval.Bool(v)
		p.hasKeyed = true
	}
	p.minDocCount, p.hasMinCount = jsonval.Int(m["min_doc_count"])
	return p
}

// minCount is min_doc_count, or def when the request leaves it out (or it is no whole number).
func (c Common) minCount(def int) int {
	if c.hasMinCount {
		return c.minDocCount
	}
	return def
}

// Context is what running aggregations needs besides the segments.
type Context struct {
	Now     time.Time
	buckets int
	// TopHits renders a top_hits aggregation; the search supplies it, as its hits are rendered
	// the way the search renders its own (sort, _source, highlight, scores).
	TopHits func(sp *Spec, segs []index.Segment) (jsonout.Obj, *apierr.Error)
}

// Parse reads the aggs (or aggregations) section of a search body; topHits reads the
// parameters of top_hits aggregations.
func Parse(v any, topHits TopHitsParser) ([]*Spec, *apierr.Error) {
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
		var params map[string]any
		for k, x := range body {
			switch k {
			case "aggs", "aggregations":
				subs, err := Parse(x, topHits)
				if err != nil {
					return nil, err
				}
				spec.Subs = subs
			case "meta":
			default:
				if spec.Type != "" {
					return nil, apierr.Parsing("Found two aggregation type definitions in [%s]: [%s] and [%s]", name, spec.Type, k)
				}
				if _, known := kinds[k]; !known {
					return nil, apierr.Parsing("Unknown aggregation type [%s]", k)
				}
				spec.Type = k
				if k == "filter" {
					q, err := query.Parse(x)
					if err != nil {
						return nil, err
					}
					spec.params = filterParams{q}
					continue
				}
				p, ok := x.(map[string]any)
				if !ok {
					return nil, apierr.Parsing("Expected [START_OBJECT] under [%s], but got a [VALUE_STRING] in [%s]", k, name)
				}
				params = p
				spec.Common = readCommon(p)
				if _, hasScript := p["script"]; hasScript {
					return nil, apierr.BadRequest("scripts are not supported by this emulation: aggregation [%s] uses a script", name)
				}
				if k == "filters" {
					fp, err := parseFilters(p)
					if err != nil {
						return nil, err
					}
					spec.params = fp
				}
			}
		}
		if spec.Type == "" {
			return nil, apierr.Parsing("Missing definition for aggregation [%s]", name)
		}
		if kinds[spec.Type].metric && len(spec.Subs) > 0 {
			return nil, apierr.Errf(400, "aggregation_initialization_exception", "Aggregator [%s] of type [%s] cannot accept sub-aggregations", name, spec.Type)
		}
		if spec.Type == "top_hits" {
			spec.params = topHitsParams{}
			spec.TopHits, spec.paramErr = topHits(name, params) // answered when it runs, as below
		}
		if spec.params == nil {
			// Parsed once the sub-aggregations are known (a terms order names one). What this
			// refuses is answered when the aggregation runs, as it always was: after the query's
			// errors and those of the aggregations before it, and not at all for a
			// sub-aggregation of a bucket never made. OpenSearch refuses most of these while
			// parsing; answering them earlier would change what such requests answer.
			spec.params, spec.paramErr = kinds[spec.Type].parse(spec, params)
		}
		out = append(out, spec)
	}
	return out, nil
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
	if sp.paramErr != nil {
		return nil, sp.paramErr
	}
	return sp.params.run(sp, segs, ctx)
}

// topHitsParams runs top_hits through the search (Context.TopHits), which typed its parameters
// (Spec.TopHits).
type topHitsParams struct{}

func (topHitsParams) run(sp *Spec, segs []index.Segment, ctx *Context) (jsonout.Obj, *apierr.Error) {
	return ctx.TopHits(sp, segs)
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
// A missing field is refused here, for each index the search reaches, not while parsing: a search
// that reaches no index answers no error for it.
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
