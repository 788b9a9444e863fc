package opensearch

import (
	"sort"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// fieldFormat is one entry of "fields" or "docvalue_fields": a field name or pattern and an
// optional format (dates).
type fieldFormat struct {
	field  string
	format string
}

func parseFieldFormats(key string, v any) ([]fieldFormat, *apierr.Error) {
	l, ok := v.([]any)
	if !ok {
		return nil, apierr.Parsing("[%s] must be an array", key)
	}
	out := make([]fieldFormat, 0, len(l))
	for _, x := range l {
		switch t := x.(type) {
		case string:
			out = append(out, fieldFormat{field: t})
		case map[string]any:
			f, _ := jsonval.String(t["field"])
			if f == "" {
				return nil, apierr.Parsing("[%s] entries need a [field]", key)
			}
			ff := fieldFormat{field: f}
			ff.format, _ = jsonval.String(t["format"])
			out = append(out, ff)
		default:
			return nil, apierr.Parsing("[%s] entries must be strings or objects", key)
		}
	}
	return out, nil
}

// matchFields lists the mapped leaf fields a pattern names, sorted.
func matchFields(ix *index.Index, pattern string) []*index.FieldDef {
	if fd := ix.Fields[pattern]; fd != nil {
		if fd.Kind == index.KindObject {
			return nil
		}
		return []*index.FieldDef{fd}
	}
	var out []*index.FieldDef
	for p, fd := range ix.Fields {
		if fd.Kind != index.KindObject && rest.GlobMatch(pattern, p) {
			out = append(out, fd)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// checkDocvalueFields refuses docvalue_fields on text fields, which have no doc values.
func checkDocvalueFields(targets []*index.Index, dv []fieldFormat) *apierr.Error {
	for _, ix := range targets {
		for _, ff := range dv {
			for _, fd := range matchFields(ix, ff.field) {
				if fd.Kind == index.KindText {
					return shardFailure(index.FielddataErr(fd.Path), ix.Name)
				}
			}
		}
	}
	return nil
}

// renderFields is a hit's "fields": the fields API reads values from _source through the
// mapping (dates formatted, numbers as numbers), docvalue_fields from doc values.
func (v *hitView) renderFields(ix *index.Index, slot int32, d *index.Document) jsonout.Obj {
	if len(v.fields) == 0 && len(v.docvalue) == 0 {
		return nil
	}
	out := jsonout.Obj{}
	seen := map[string]bool{}
	add := func(name string, vals []any) {
		if len(vals) == 0 || seen[name] {
			return
		}
		seen[name] = true
		out = append(out, jsonout.KV{name, vals})
	}
	for _, ff := range v.docvalue {
		for _, fd := range matchFields(ix, ff.field) {
			add(fd.Path, docValues(ix, slot, fd, ff.format))
		}
	}
	for _, ff := range v.fields {
		for _, fd := range matchFields(ix, ff.field) {
			path := fd.Path
			if fd.Multi {
				path = parentPath(path)
			}
			var vals []any
			for _, x := range jsonval.SourceValues(d.Src, path) {
				if fv, ok := fieldValue(fd, x, ff.format); ok {
					vals = append(vals, fv)
				}
			}
			add(fd.Path, vals)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func parentPath(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '.' {
			return p[:i]
		}
	}
	return p
}

func dateFormatOf(fd *index.FieldDef, format string) string {
	if format == "" && fd.Mapping != nil {
		format = fd.Mapping.Format
	}
	return format
}

// fieldValue is one source value as the fields API shows it.
func fieldValue(fd *index.FieldDef, x any, format string) (any, bool) {
	if x == nil {
		return nil, false
	}
	switch fd.Kind {
	case index.KindDate:
		s, _ := jsonval.String(x)
		ms, ok := dates.ParseFormat(s, dateFormatOf(fd, ""))
		if !ok {
			return x, true
		}
		return dates.Format(ms, dateFormatOf(fd, format)), true
	case index.KindLong:
		if f, ok := jsonval.Float(x); ok {
			return int64(f), true
		}
	case index.KindFloat:
		if f, ok := jsonval.Float(x); ok {
			return f, true
		}
	case index.KindBool:
		if b, ok := jsonval.Bool(x); ok {
			return b, true
		}
	case index.KindKeyword:
		if s, ok := jsonval.String(x); ok {
			if fd.Mapping != nil && fd.Mapping.IgnoreAbove > 0 && len([]rune(s)) > fd.Mapping.IgnoreAbove {
				return nil, false
			}
			return s, true
		}
	}
	return jsonval.Plain(x), true
}

// docValues are a field's doc values as docvalue_fields shows them: keywords sorted, dates
// formatted, longs as integers.
func docValues(ix *index.Index, slot int32, fd *index.FieldDef, format string) []any {
	col := ix.Columns[fd.Path]
	if col == nil {
		return nil
	}
	var out []any
	if col.Kind == index.KindKeyword {
		vals := append([]string(nil), col.StrAt(slot)...)
		sort.Strings(vals)
		for _, s := range vals {
			out = append(out, s)
		}
		return out
	}
	nums := append([]float64(nil), col.NumAt(slot)...)
	sort.Float64s(nums)
	for _, f := range nums {
		switch fd.Kind {
		case index.KindDate:
			out = append(out, dates.Format(int64(f), dateFormatOf(fd, format)))
		case index.KindLong:
			out = append(out, int64(f))
		case index.KindBool:
			out = append(out, f != 0)
		default:
			if fd.Type == "float" || fd.Type == "half_float" {
				out = append(out, float32(f))
			} else {
				out = append(out, f)
			}
		}
	}
	return out
}
