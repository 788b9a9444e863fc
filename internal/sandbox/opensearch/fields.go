package opensearch

import (
	"sort"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
	"github.com/svcui/svcui/internal/sandbox/opensearch/rest"
)

// fieldFormat is one entry of "fields" or "docvalue_fields": a field name or pattern and an
// optional format (dates).
type fieldFormat struct {
	field  string
	format string
}

func parseFieldFormats(key string, v any) ([]fieldFormat, *apiError) {
	l, ok := v.([]any)
	if !ok {
		return nil, parsingErr("[%s] must be an array", key)
	}
	out := make([]fieldFormat, 0, len(l))
	for _, x := range l {
		switch t := x.(type) {
		case string:
			out = append(out, fieldFormat{field: t})
		case map[string]any:
			f, _ := jsonval.String(t["field"])
			if f == "" {
				return nil, parsingErr("[%s] entries need a [field]", key)
			}
			ff := fieldFormat{field: f}
			ff.format, _ = jsonval.String(t["format"])
			out = append(out, ff)
		default:
			return nil, parsingErr("[%s] entries must be strings or objects", key)
		}
	}
	return out, nil
}

// matchFields lists the mapped leaf fields a pattern names, sorted.
func matchFields(ix *index, pattern string) []*fieldDef {
	if fd := ix.fields[pattern]; fd != nil {
		if fd.kind == kindObject {
			return nil
		}
		return []*fieldDef{fd}
	}
	var out []*fieldDef
	for p, fd := range ix.fields {
		if fd.kind != kindObject && rest.GlobMatch(pattern, p) {
			out = append(out, fd)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// checkDocvalueFields refuses docvalue_fields on text fields, which have no doc values.
func checkDocvalueFields(targets []*index, dv []fieldFormat) *apiError {
	for _, ix := range targets {
		for _, ff := range dv {
			for _, fd := range matchFields(ix, ff.field) {
				if fd.kind == kindText {
					return shardFailure(fielddataErr(fd.path), ix.name)
				}
			}
		}
	}
	return nil
}

// renderFields is a hit's "fields": the fields API reads values from _source through the
// mapping (dates formatted, numbers as numbers), docvalue_fields from doc values.
func (v *hitView) renderFields(ix *index, slot int32, d *document) obj {
	if len(v.fields) == 0 && len(v.docvalue) == 0 {
		return nil
	}
	out := obj{}
	seen := map[string]bool{}
	add := func(name string, vals []any) {
		if len(vals) == 0 || seen[name] {
			return
		}
		seen[name] = true
		out = append(out, kv{name, vals})
	}
	for _, ff := range v.docvalue {
		for _, fd := range matchFields(ix, ff.field) {
			add(fd.path, docValues(ix, slot, fd, ff.format))
		}
	}
	for _, ff := range v.fields {
		for _, fd := range matchFields(ix, ff.field) {
			path := fd.path
			if fd.multi {
				path = parentPath(path)
			}
			var vals []any
			for _, x := range jsonval.SourceValues(d.src, path) {
				if fv, ok := fieldValue(fd, x, ff.format); ok {
					vals = append(vals, fv)
				}
			}
			add(fd.path, vals)
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

func dateFormatOf(fd *fieldDef, format string) string {
	if format == "" && fd.fm != nil {
		format = fd.fm.format
	}
	return format
}

// fieldValue is one source value as the fields API shows it.
func fieldValue(fd *fieldDef, x any, format string) (any, bool) {
	if x == nil {
		return nil, false
	}
	switch fd.kind {
	case kindDate:
		s, _ := jsonval.String(x)
		ms, ok := dates.ParseFormat(s, dateFormatOf(fd, ""))
		if !ok {
			return x, true
		}
		return dates.Format(ms, dateFormatOf(fd, format)), true
	case kindLong:
		if f, ok := jsonval.Float(x); ok {
			return int64(f), true
		}
	case kindFloat:
		if f, ok := jsonval.Float(x); ok {
			return f, true
		}
	case kindBool:
		if b, ok := jsonval.Bool(x); ok {
			return b, true
		}
	case kindKeyword:
		if s, ok := jsonval.String(x); ok {
			if fd.fm != nil && fd.fm.ignoreAbove > 0 && len([]rune(s)) > fd.fm.ignoreAbove {
				return nil, false
			}
			return s, true
		}
	}
	return jsonval.Plain(x), true
}

// docValues are a field's doc values as docvalue_fields shows them: keywords sorted, dates
// formatted, longs as integers.
func docValues(ix *index, slot int32, fd *fieldDef, format string) []any {
	col := ix.cols[fd.path]
	if col == nil {
		return nil
	}
	var out []any
	if col.kind == kindKeyword {
		vals := append([]string(nil), col.strAt(slot)...)
		sort.Strings(vals)
		for _, s := range vals {
			out = append(out, s)
		}
		return out
	}
	nums := append([]float64(nil), col.numAt(slot)...)
	sort.Float64s(nums)
	for _, f := range nums {
		switch fd.kind {
		case kindDate:
			out = append(out, dates.Format(int64(f), dateFormatOf(fd, format)))
		case kindLong:
			out = append(out, int64(f))
		case kindBool:
			out = append(out, f != 0)
		default:
			if fd.typ == "float" || fd.typ == "half_float" {
				out = append(out, float32(f))
			} else {
				out = append(out, f)
			}
		}
	}
	return out
}
