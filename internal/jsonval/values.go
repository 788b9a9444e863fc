package jsonval

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
)

// String reads a JSON scalar as text: a string, a number as written, a bool.
func String(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case json.Number:
		return t.String(), true
	case bool:
		return strconv.FormatBool(t), true
	}
	return "", false
}

// Number reads a JSON number (or a Go number a script computed); text is not a number here,
// as painless does not turn strings into numbers.
func Number(v any) (float64, bool) {
	switch t := v.(type) {
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	case float64:
		return t, true
	case float32:
		return float64(t), true
	case int:
		return float64(t), true
	case int64:
		return float64(t), true
	}
	return 0, false
}

// Float reads a JSON value as a number: a number, or a string that holds one (the engine
// coerces "42" where a number is expected).
func Float(v any) (float64, bool) {
	if s, ok := v.(string); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return f, err == nil
	}
	return Number(v)
}

// Int64 reads a JSON value as a whole number: a number or a string that holds one, as long as
// a float64 holds it exactly (within ±2^53). 2.5 is not one; 2.0 is 2.
func Int64(v any) (int64, bool) {
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			ok := i >= -1<<53 && i <= 1<<53
			return i, ok
		}
	}
	f, ok := Float(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// Bool reads a JSON value as a boolean: true/false, or the strings "true"/"false".
func Bool(v any) (bool, bool) {
	switch t := v.(type) {
	case bool:
		return t, true
	case string:
		switch t {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	return false, false
}

// Plain turns json.Numbers into int64 (when whole) or float64, all the way down.
func Plain(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = Plain(x)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, x := range t {
			l[i] = Plain(x)
		}
		return l
	}
	return v
}

// Flatten is v with nested arrays flattened into one list (a scalar: a list of one).
func Flatten(v any) []any {
	l, ok := v.([]any)
	if !ok {
		return []any{v}
	}
	out := make([]any, 0, len(l))
	for _, x := range l {
		out = append(out, Flatten(x)...)
	}
	return out
}

// SourceValues returns the values at a dotted path of a source document, arrays
// flattened; {"a":{"b":1}} and {"a.b":1} are both found.
func SourceValues(src map[string]any, path string) []any {
	var out []any
	var walk func(v any, rest string)
	walk = func(v any, rest string) {
		if rest == "" {
			out = append(out, Flatten(v)...)
			return
		}
		switch t := v.(type) {
		case []any:
			for _, x := range t {
				walk(x, rest)
			}
		case map[string]any:
			if x, ok := t[rest]; ok {
				walk(x, "")
			}
			// Try every split point, so both {"a":{"b":1}} and {"a.b":1} are found.
			for i := 0; i < len(rest); i++ {
				if rest[i] == '.' {
					if x, ok := t[rest[:i]]; ok {
						walk(x, rest[i+1:])
					}
				}
			}
		}
	}
	walk(src, path)
	return out
}

// SortedKeys are the keys of m, sorted.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
