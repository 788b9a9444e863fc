package opensearch

import (
	"errors"
	"strconv"
	"strings"
)

func itoa(n int) string     { return strconv.Itoa(n) }
func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

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
