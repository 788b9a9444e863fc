package index

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/dates"
)

// Leaf is the indexable content of one field of one document.
type Leaf struct {
	path string
	kind Kind
	strs []string  // text and keyword values
	nums []float64 // numeric, date (epoch millis) and boolean (0/1) values
}

// docParser walks a source document against the mapping, adding dynamic fields as it goes; on
// failure the additions are rolled back so a rejected document leaves the mapping untouched.
type docParser struct {
	id        string
	noDynamic bool
	leaves    []Leaf
	added     []addition
}

type addition struct {
	props map[string]*FieldMapping
	name  string
}

func (p *docParser) rollback() {
	for i := len(p.added) - 1; i >= 0; i-- {
		delete(p.added[i].props, p.added[i].name)
	}
	p.added = nil
}

func mappingErr(path, typ, id string, v any, cause *apierr.Error) *apierr.Error {
	preview := PreviewValue(v)
	e := apierr.Errf(400, "mapper_parsing_exception",
		"failed to parse field [%s] of type [%s] in document with id '%s'. Preview of field's value: '%s'", path, typ, id, preview)
	e.CausedBy = cause
	return e
}

// PreviewValue renders a value as the engine's mapping errors preview it (Java's toString of maps and lists).
func PreviewValue(v any) string {
	switch t := v.(type) {
	case map[string]any:
		parts := make([]string, 0, len(t))
		for _, k := range jsonval.SortedKeys(t) {
			parts = append(parts, k+"="+PreviewValue(t[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = PreviewValue(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case nil:
		return "null"
	}
	s, _ := jsonval.String(v)
	if len(s) > 100 {
		s = s[:100]
	}
	return s
}

func (p *docParser) walk(props map[string]*FieldMapping, prefix, dynamic string, m map[string]any) *apierr.Error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		if k == "" || strings.TrimSpace(k) == "" {
			return apierr.Errf(400, "mapper_parsing_exception", "failed to parse: field name cannot be an empty string")
		}
		if strings.HasPrefix(k, "_") && prefix == "" && isMetadataField(k) {
			return apierr.Errf(400, "mapper_parsing_exception",
				"Field [%s] is a metadata field and cannot be added inside a document. Use the index API request parameters.", k)
		}
		// "a.b": 1 means {"a":{"b":1}}.
		if strings.Contains(k, ".") && !strings.HasPrefix(k, ".") && !strings.HasSuffix(k, ".") && !strings.Contains(k, "..") {
			parts := strings.Split(k, ".")
			var nested any = v
			for i := len(parts) - 1; i >= 1; i-- {
				nested = map[string]any{parts[i]: nested}
			}
			if err := p.walk(props, prefix, dynamic, map[string]any{parts[0]: nested}); err != nil {
				return err
			}
			continue
		}
		path := prefix + k
		fm := props[k]
		if fm == nil {
			if v == nil || p.noDynamic {
				continue
			}
			if l, ok := v.([]any); ok && len(l) == 0 {
				continue
			}
			switch dynamic {
			case "false":
				continue
			case "strict":
				within := strings.TrimSuffix(prefix, ".")
				if within == "" {
					within = "_doc"
				}
				return apierr.Errf(400, "strict_dynamic_mapping_exception",
					"mapping set to strict, dynamic introduction of [%s] within [%s] is not allowed", k, within)
			}
			fm = dynamicField(v)
			if fm == nil {
				continue
			}
			props[k] = fm
			p.added = append(p.added, addition{props, k})
		}
		if fm.kind() == KindObject {
			childDynamic := dynamic
			if d, ok := fm.params["dynamic"]; ok {
				childDynamic, _ = jsonval.String(d)
			}
			for _, el := range jsonval.Flatten(v) {
				switch t := el.(type) {
				case nil:
				case map[string]any:
					if err := p.walk(fm.props, path+".", childDynamic, t); err != nil {
						return err
					}
				default:
					return apierr.Errf(400, "mapper_parsing_exception",
						"object mapping for [%s] tried to parse field [%s] as object, but found a concrete value", path, k)
				}
			}
			continue
		}
		vals := jsonval.Flatten(v)
		if err := p.addLeaf(path, fm, vals); err != nil {
			return err
		}
		for _, sub := range jsonval.SortedKeys(fm.fields) {
			if err := p.addLeaf(path+"."+sub, fm.fields[sub], vals); err != nil {
				return err
			}
		}
	}
	return nil
}

func isMetadataField(k string) bool {
	switch k {
	case "_id", "_index", "_source", "_routing", "_version", "_seq_no", "_primary_term", "_field_names", "_ignored", "_type":
		return true
	}
	return false
}

func (p *docParser) addLeaf(path string, fm *FieldMapping, vals []any) *apierr.Error {
	lf := Leaf{path: path, kind: fm.kind()}
	for _, v := range vals {
		if v == nil {
			continue
		}
		if _, isObj := v.(map[string]any); isObj {
			return mappingErr(path, fm.typ, p.id, v, apierr.Errf(400, "illegal_state_exception",
				"Can't get text on a START_OBJECT at 1:1"))
		}
		switch lf.kind {
		case KindText, KindKeyword:
			s, _ := jsonval.String(v)
			if lf.kind == KindKeyword && fm.IgnoreAbove > 0 && len([]rune(s)) > fm.IgnoreAbove {
				continue
			}
			lf.strs = append(lf.strs, s)
		case KindLong:
			f, err := ParseLong(v, fm.typ)
			if err != nil {
				return mappingErr(path, fm.typ, p.id, v, err)
			}
			lf.nums = append(lf.nums, f)
		case KindFloat:
			f, ok := jsonval.Float(v)
			if _, isBool := v.(bool); isBool || !ok || math.IsNaN(f) || math.IsInf(f, 0) {
				s, _ := jsonval.String(v)
				return mappingErr(path, fm.typ, p.id, v, apierr.Errf(400, "number_format_exception", "For input string: \"%s\"", s))
			}
			if fm.typ != "double" {
				f = float64(float32(f))
			}
			lf.nums = append(lf.nums, f)
		case KindDate:
			var ms int64
			ok := false
			switch t := v.(type) {
			case string:
				ms, ok = dates.ParseFormat(t, fm.Format)
			case json.Number:
				ms, ok = dates.ParseFormat(t.String(), fm.Format)
				if !ok && fm.Format != "" {
					ms, ok = dates.ParseFormat(t.String(), "epoch_millis")
				}
			}
			if !ok {
				s, _ := jsonval.String(v)
				return mappingErr(path, fm.typ, p.id, v, apierr.Errf(400, "illegal_argument_exception",
					"failed to parse date field [%s] with format [%s]", s, dates.OrDefault(fm.Format, "strict_date_optional_time||epoch_millis")))
			}
			lf.nums = append(lf.nums, float64(ms))
		case KindBool:
			b, ok := jsonval.Bool(v)
			if !ok {
				if s, isStr := v.(string); isStr && s == "" {
					b, ok = false, true
				}
			}
			if !ok {
				s, _ := jsonval.String(v)
				return mappingErr(path, fm.typ, p.id, v, apierr.Errf(400, "illegal_argument_exception",
					"Failed to parse value [%s] as only [true] or [false] are allowed.", s))
			}
			if b {
				lf.nums = append(lf.nums, 1)
			} else {
				lf.nums = append(lf.nums, 0)
			}
		}
	}
	p.leaves = append(p.leaves, lf)
	return nil
}

var intRanges = map[string][2]float64{
	"byte":    {math.MinInt8, math.MaxInt8},
	"short":   {math.MinInt16, math.MaxInt16},
	"integer": {math.MinInt32, math.MaxInt32},
}

// ParseLong reads a source value of an integer field (byte, short, integer, long) as the
// engine indexes it: truncated, and refused out of the type's range.
func ParseLong(v any, typ string) (float64, *apierr.Error) {
	var s string
	switch t := v.(type) {
	case json.Number:
		s = t.String()
	case string:
		s = strings.TrimSpace(t)
	default:
		tok := "VALUE_FALSE"
		if b, _ := v.(bool); b {
			tok = "VALUE_TRUE"
		}
		return 0, apierr.Errf(400, "illegal_argument_exception", "Current token (%s) not numeric, can not use numeric value accessors", tok)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, apierr.Errf(400, "number_format_exception", "For input string: \"%s\"", s)
	}
	f = math.Trunc(f)
	if r, ok := intRanges[typ]; ok && (f < r[0] || f > r[1]) {
		return 0, apierr.Errf(400, "illegal_argument_exception", "Value [%s] is out of range for %s", s, typ)
	}
	if f < math.MinInt64 || f > math.MaxInt64 {
		return 0, apierr.Errf(400, "illegal_argument_exception", "Value [%s] is out of range for a long", s)
	}
	return f, nil
}
