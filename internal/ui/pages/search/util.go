package search

import (
	"encoding/json"
	"strconv"
)

func itoa(n int) string { return strconv.Itoa(n) }

// jsonString quotes s as a JSON string.
func jsonString(s string) (string, error) {
	b, err := json.Marshal(s)
	return string(b), err
}
