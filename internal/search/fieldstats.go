package search

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// StatsAgg names the terms aggregation StatsRequest adds.
const StatsAgg = "svcui_field_stats"

// AggField is the field a terms aggregation can count for a column: the field itself
// when it is a keyword, number, date, boolean or ip, its .keyword sub-field when it is
// text with one; "" when neither (counts then come from the hits loaded).
func AggField(m Mapping, pattern, field string) string {
	types := map[string]string{}
	for _, f := range FieldsFor(m, pattern) {
		types[f.Path] = f.Type
	}
	switch types[field] {
	case "keyword", "constant_keyword", "long", "integer", "short", "byte", "double", "float", "half_float",
		"scaled_float", "unsigned_long", "date", "date_nanos", "boolean", "ip":
		return field
	}
	if t := types[field+".keyword"]; t == "keyword" {
		return field + ".keyword"
	}
	return ""
}

// StatsRequest is r (a search) counting the top size values of field over everything
// it matches: no hits, exact total, one terms aggregation.
func StatsRequest(r ParsedRequest, field string, size int) (ParsedRequest, error) {
	body := jsonval.NewObject()
	if strings.TrimSpace(r.Body) != "" {
		v, err := jsonval.Decode([]byte(r.Body))
		if err != nil {
			return r, fmt.Errorf("field stats: %v", err)
		}
		o, ok := v.(*jsonval.Object)
		if !ok {
			return r, errors.New("field stats: the search body is not a JSON object")
		}
		body = o
	}
	for _, k := range []string{"sort", "from", "search_after", "aggs", "aggregations", "highlight", "_source", "track_total_hits", "size"} {
		body.Delete(k)
	}
	body.Set("size", json.Number("0"))
	body.Set("track_total_hits", true)
	terms := jsonval.NewObject()
	terms.Set("field", field)
	terms.Set("size", json.Number(fmt.Sprint(size)))
	agg := jsonval.NewObject()
	agg.Set("terms", terms)
	aggs := jsonval.NewObject()
	aggs.Set(StatsAgg, agg)
	body.Set("aggs", aggs)
	out := r
	out.Body = jsonval.Compact(body)
	return out, nil
}

// ValueCount is one value of a field and how many documents have it.
type ValueCount struct {
	Value string
	// Raw is the value as JSON (a string, number or boolean), for filters.
	Raw   json.RawMessage
	Count int64
}

// FieldStats are the top values of a field and what they are counted over.
type FieldStats struct {
	Values []ValueCount
	Total  int64 // documents counted over
	Other  int64 // documents with other values
}

// ShapeStats reads StatsRequest's answer.
func ShapeStats(body []byte) (FieldStats, error) {
	var a struct {
		Hits struct {
			Total struct {
				Value int64 `json:"value"`
			} `json:"total"`
		} `json:"hits"`
		Aggregations map[string]struct {
			Other   int64 `json:"sum_other_doc_count"`
			Buckets []struct {
				Key         json.RawMessage `json:"key"`
				KeyAsString string          `json:"key_as_string"`
				DocCount    int64           `json:"doc_count"`
			} `json:"buckets"`
		} `json:"aggregations"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return FieldStats{}, errors.New("field stats: the answer is not a search answer")
	}
	agg, ok := a.Aggregations[StatsAgg]
	if !ok {
		return FieldStats{}, errors.New("field stats: the answer has no counts")
	}
	s := FieldStats{Total: a.Hits.Total.Value, Other: agg.Other}
	for _, b := range agg.Buckets {
		v := b.KeyAsString
		if v == "" {
			var str string
			if json.Unmarshal(b.Key, &str) == nil {
				v = str
			} else {
				v = string(b.Key)
			}
		}
		raw := b.Key
		if b.KeyAsString != "" {
			raw, _ = json.Marshal(b.KeyAsString)
		}
		s.Values = append(s.Values, ValueCount{Value: v, Raw: raw, Count: b.DocCount})
	}
	return s, nil
}

// WithFilter adds a term filter on field (or, with exclude, a must_not) to a search's
// query, keeping the query: a bool query gets the clause added, any other is wrapped.
// With phrase the clause is a match_phrase (a text field without a keyword).
func WithFilter(r ParsedRequest, field string, value json.RawMessage, exclude, phrase bool) (ParsedRequest, error) {
	body := jsonval.NewObject()
	if strings.TrimSpace(r.Body) != "" {
		v, err := jsonval.Decode([]byte(r.Body))
		if err != nil {
			return r, fmt.Errorf("filter: %v", err)
		}
		o, ok := v.(*jsonval.Object)
		if !ok {
			return r, errors.New("filter: the search body is not a JSON object")
		}
		body = o
	}
	val, err := jsonval.Decode(value)
	if err != nil {
		return r, fmt.Errorf("filter: %v", err)
	}
	fv := jsonval.NewObject()
	fv.Set(field, val)
	term := jsonval.NewObject()
	if phrase {
		term.Set("match_phrase", fv)
	} else {
		term.Set("term", fv)
	}
	clause := "filter"
	if exclude {
		clause = "must_not"
	}
	var boolQ *jsonval.Object
	if q, ok := body.Get("query"); ok {
		if qo, ok := q.(*jsonval.Object); ok && qo.Len() == 1 && qo.Members()[0].K == "bool" {
			boolQ, _ = qo.Value("bool").(*jsonval.Object)
		}
		if boolQ == nil {
			boolQ = jsonval.NewObject()
			boolQ.Set("must", []any{q})
			wrapped := jsonval.NewObject()
			wrapped.Set("bool", boolQ)
			body.Set("query", wrapped)
		}
	} else {
		boolQ = jsonval.NewObject()
		wrapped := jsonval.NewObject()
		wrapped.Set("bool", boolQ)
		body.Set("query", wrapped)
	}
	switch cur, _ := boolQ.Get(clause); c := cur.(type) {
	case []any:
		boolQ.Set(clause, append(c, term))
	case *jsonval.Object:
		boolQ.Set(clause, []any{c, term})
	default:
		boolQ.Set(clause, []any{term})
	}
	out := r
	out.Body = PrettyJSON([]byte(jsonval.Compact(body)))
	return out, nil
}
