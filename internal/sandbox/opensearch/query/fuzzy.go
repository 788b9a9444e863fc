package query

import (
	"errors"
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// editDistance is the optimal-string-alignment distance (Lucene's fuzzy query counts a
// transposition as one edit), returning max+1 as soon as it must exceed max.
func editDistance(a, b string, max int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > max || -d > max {
		return max + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// fuzzyEdits resolves a fuzziness setting for a term.
func fuzzyEdits(fuzz any, term string) int {
	if fuzz == nil {
		return 0
	}
	s, _ := jsonval.String(fuzz)
	n := len([]rune(term))
	switch {
	case s == "AUTO" || s == "auto" || len(s) > 4 && (s[:5] == "AUTO:" || s[:5] == "auto:"):
		lo, hi := 3, 6
		if len(s) > 5 {
			var a, b int
			if _, err := fmtSscanf(s[5:], &a, &b); err == nil {
				lo, hi = a, b
			}
		}
		switch {
		case n < lo:
			return 0
		case n < hi:
			return 1
		}
		return 2
	}
	if v, ok := jsonval.Int(s); ok && v >= 0 {
		return min(v, 2)
	}
	return 0
}

// fmtSscanf parses "a,b".
func fmtSscanf(s string, a, b *int) (int, error) {
	x, y, ok := strings.Cut(s, ",")
	if !ok {
		return 0, errors.New("want two numbers")
	}
	var err error
	if *a, err = strconv.Atoi(strings.TrimSpace(x)); err != nil {
		return 0, err
	}
	if *b, err = strconv.Atoi(strings.TrimSpace(y)); err != nil {
		return 1, err
	}
	return 2, nil
}
