package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// DefaultPageSize is the engine's default "size".
const DefaultPageSize = 10

// ErrNoMorePages means the previous page was the last one.
var ErrNoMorePages = errors.New("no more pages")

// NextPage builds the request for the page after prev. With a "sort" in the body and
// sort values on the last hit, it sets "search_after" (and drops "from"); otherwise it
// sets "from" to from+size (size defaults to 10). Other body fields keep their order.
// The returned request keeps req's line numbers (they still point at the original).
func NextPage(req ParsedRequest, prev *HitsTable) (ParsedRequest, error) {
	if !strings.Contains(req.Base(), "_search") {
		return ParsedRequest{}, fmt.Errorf("next page: %s %s is not a search", req.Method, req.Base())
	}
	if prev == nil {
		return ParsedRequest{}, errors.New("next page: no previous page")
	}
	body := &object{vals: map[string]any{}}
	if strings.TrimSpace(req.Body) != "" {
		if _, err := Prepare(req); err != nil {
			return ParsedRequest{}, err
		}
		v, err := decodeOrdered([]byte(req.Body))
		if err != nil {
			return ParsedRequest{}, fmt.Errorf("next page: %v", err)
		}
		o, ok := v.(*object)
		if !ok {
			return ParsedRequest{}, errors.New("next page: the search body is not a JSON object")
		}
		body = o
	}
	size := int64(DefaultPageSize)
	if s, ok := body.get("size"); ok {
		if n, ok := asInt64(s); ok {
			size = n
		}
	}
	if size <= 0 || len(prev.Rows) == 0 || int64(len(prev.Rows)) < size {
		return ParsedRequest{}, ErrNoMorePages
	}
	if _, sorted := body.get("sort"); sorted {
		if len(prev.LastSort) == 0 {
			return ParsedRequest{}, errors.New("next page: the last hit has no sort values")
		}
		sa, err := decodeOrdered(prev.LastSort)
		if err != nil {
			return ParsedRequest{}, fmt.Errorf("next page: sort values: %v", err)
		}
		body.set("search_after", sa)
		body.remove("from")
	} else {
		from := int64(0)
		if f, ok := body.get("from"); ok {
			if n, ok := asInt64(f); ok {
				from = n
			}
		}
		if prev.Total != nil && prev.TotalRelation == "eq" && from+size >= *prev.Total {
			return ParsedRequest{}, ErrNoMorePages
		}
		body.set("from", json.Number(strconv.FormatInt(from+size, 10)))
	}
	next := req
	next.Body = PrettyJSON([]byte(compactJSON(body)))
	return next, nil
}

func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) remove(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// PrettyJSON indents JSON by two spaces, keeping key order. NDJSON is indented one
// document at a time; text that is not JSON comes back unchanged.
func PrettyJSON(body []byte) string {
	trimmed := bytes.TrimSpace(body)
	if nestingDepth(trimmed) > maxPrettyDepth {
		// Indentation grows with depth squared: absurd nesting is shown as it came.
		return string(body)
	}
	var b bytes.Buffer
	if json.Valid(trimmed) && json.Indent(&b, trimmed, "", "  ") == nil {
		return b.String()
	}
	lines := bytes.Split(trimmed, []byte("\n"))
	if len(lines) < 2 {
		return string(body)
	}
	b.Reset()
	for i, l := range lines {
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		if i > 0 && b.Len() > 0 {
			b.WriteByte('\n')
		}
		if !json.Valid(l) || json.Indent(&b, l, "", "  ") != nil {
			return string(body)
		}
	}
	return b.String()
}

// maxPrettyDepth is the deepest nesting PrettyJSON indents.
const maxPrettyDepth = 200

// nestingDepth is the deepest bracket nesting of JSON-like text, strings skipped.
func nestingDepth(b []byte) int {
	depth, max, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > max {
				max = depth
			}
		case '}', ']':
			depth--
		}
	}
	return max
}
