// Package jsonout writes the engine's answers: objects keep the order their members were added
// in, values go through the shared jsonval writer (strings escaped as OpenSearch escapes them),
// and doubles print as Java prints them. Every answer of the emulation goes through it, so they
// read byte for byte like the real engine's.
package jsonout

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/jsonval"
)

// KV is one member of an answer's object, written {"key", value}.
type KV = jsonval.Member

// Obj is an answer's object: the shared ordered object, so its members are written in the
// order they were added, as the real engine's are.
type Obj = jsonval.Object

// JavaDouble formats a float like Java's Double.toString, which the engine uses in keys ("50.0").
func JavaDouble(f float64) string {
	if math.IsInf(f, 1) {
		return "Infinity"
	}
	if math.IsInf(f, -1) {
		return "-Infinity"
	}
	if math.IsNaN(f) {
		return "NaN"
	}
	a := math.Abs(f)
	if a == 0 || (a >= 1e-3 && a < 1e7) {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, 64)
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	exp = strings.TrimPrefix(exp, "+")
	return mant + "E" + exp
}

// Pretty indents like the engine's Jackson pretty printer ("key" : value).
func Pretty(compact []byte) []byte {
	var ind bytes.Buffer
	if err := json.Indent(&ind, compact, "", "  "); err != nil {
		return compact
	}
	src := ind.Bytes()
	out := make([]byte, 0, len(src)+len(src)/8)
	inStr, esc := false, false
	for _, c := range src {
		if inStr {
			out = append(out, c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
		}
		if c == ':' {
			out = append(out, ' ')
		}
		out = append(out, c)
	}
	return append(out, '\n')
}

// Marshal is json.Marshal for values known to marshal; null if one does not.
func Marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}

// JavaNumber is a double as Java prints it, written as a JSON number ("2.0", "1.0E-4").
func JavaNumber(f float64) json.Number { return json.Number(JavaDouble(f)) }
