package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
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
	body := jsonval.NewObject()
	if strings.TrimSpace(req.Body) != "" {
		if _, err := Prepare(req); err != nil {
			return ParsedRequest{}, err
		}
		v, err := jsonval.Decode([]byte(req.Body))
		if err != nil {
			return ParsedRequest{}, fmt.Errorf("next page: %v", err)
		}
		o, ok := v.(*jsonval.Object)
		if !ok {
			return ParsedRequest{}, errors.New("next page: the search body is not a JSON object")
		}
		body = o
	}
	size := int64(DefaultPageSize)
	if s, ok := body.Get("size"); ok {
		if n, ok := jsonval.Int64(s); ok {
			size = n
		}
	}
	if size <= 0 || len(prev.Rows) == 0 || int64(len(prev.Rows)) < size {
		return ParsedRequest{}, ErrNoMorePages
	}
	if _, sorted := body.Get("sort"); sorted {
		if len(prev.LastSort) == 0 {
			return ParsedRequest{}, errors.New("next page: the last hit has no sort values")
		}
		sa, err := jsonval.Decode(prev.LastSort)
		if err != nil {
			return ParsedRequest{}, fmt.Errorf("next page: sort values: %v", err)
		}
		body.Set("search_after", sa)
		body.Delete("from")
	} else {
		from := int64(0)
		if f, ok := body.Get("from"); ok {
			if n, ok := jsonval.Int64(f); ok {
				from = n
			}
		}
		if prev.Total != nil && prev.TotalRelation == "eq" && from+size >= *prev.Total {
			return ParsedRequest{}, ErrNoMorePages
		}
		body.Set("from", json.Number(strconv.FormatInt(from+size, 10)))
	}
	next := req
	next.Body = PrettyJSON([]byte(jsonval.Compact(body)))
	return next, nil
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
