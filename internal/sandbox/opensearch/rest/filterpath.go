package rest

import (
	"bytes"
	"encoding/json"
	"strings"
)

// filter_path (common response parameter): keep only the members the comma-separated paths name,
// with "*" matching within a segment, "**" any depth, arrays transparent, and "-path" excluding.
// Objects left empty are dropped; nothing kept is {}.

type fpNode struct {
	keys []string
	vals []any
}

func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &fpNode{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, kt.(string))
				n.vals = append(n.vals, v)
			}
			_, err = dec.Token()
			return n, err
		case '[':
			l := []any{}
			for dec.More() {
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			_, err = dec.Token()
			return l, err
		}
	}
	return tok, nil
}

// MarshalJSON writes the object's members in their order.
func (n *fpNode) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range n.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := marshal(n.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal writes JSON without escaping HTML characters, as the engine does.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// GlobMatch matches * (any run) and ? (one character), as index and field patterns do.
func GlobMatch(pattern, s string) bool {
	px, sx := 0, 0
	nextPx, nextSx := -1, -1
	for px < len(pattern) || sx < len(s) {
		if px < len(pattern) {
			switch c := pattern[px]; c {
			case '*':
				nextPx, nextSx = px, sx+1
				px++
				continue
			case '?':
				if sx < len(s) {
					px++
					sx++
					continue
				}
			default:
				if sx < len(s) && s[sx] == c {
					px++
					sx++
					continue
				}
			}
		}
		if nextSx > 0 && nextSx <= len(s) {
			px, sx = nextPx, nextSx
			continue
		}
		return false
	}
	return true
}

// FilterPath rewrites a JSON answer for filter_path; an answer it cannot read is kept.
func FilterPath(raw []byte, spec string) []byte {
	var inc, exc [][]string
	for _, p := range strings.Split(spec, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if strings.HasPrefix(p, "-") {
			exc = append(exc, strings.Split(p[1:], "."))
		} else {
			inc = append(inc, strings.Split(p, "."))
		}
	}
	if len(inc) == 0 && len(exc) == 0 {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		return raw
	}
	if len(inc) > 0 {
		var keep bool
		v, keep = fpInclude(v, inc)
		if !keep {
			return []byte("{}")
		}
	}
	if len(exc) > 0 {
		v, _ = fpExclude(v, exc)
	}
	out, err := marshal(v)
	if err != nil {
		return raw
	}
	return out
}

// childPatterns are the patterns that apply under key k; whole reports a pattern ended at k.
func childPatterns(pats [][]string, k string) (next [][]string, whole bool) {
	for _, p := range pats {
		if len(p) == 0 {
			continue
		}
		if p[0] == "**" {
			next = append(next, p)
			if len(p) > 1 && GlobMatch(p[1], k) {
				if len(p) == 2 {
					whole = true
				} else {
					next = append(next, p[2:])
				}
			}
			continue
		}
		if GlobMatch(p[0], k) {
			if len(p) == 1 {
				whole = true
			} else {
				next = append(next, p[1:])
			}
		}
	}
	return next, whole
}

func fpInclude(v any, pats [][]string) (any, bool) {
	switch t := v.(type) {
	case *fpNode:
		out := &fpNode{}
		for i, k := range t.keys {
			next, whole := childPatterns(pats, k)
			if whole {
				out.keys, out.vals = append(out.keys, k), append(out.vals, t.vals[i])
				continue
			}
			if len(next) == 0 {
				continue
			}
			if cv, ok := fpInclude(t.vals[i], next); ok {
				out.keys, out.vals = append(out.keys, k), append(out.vals, cv)
			}
		}
		return out, len(out.keys) > 0
	case []any:
		var out []any
		for _, x := range t {
			if cv, ok := fpInclude(x, pats); ok {
				out = append(out, cv)
			}
		}
		return out, len(out) > 0
	}
	return nil, false
}

func fpExclude(v any, pats [][]string) (any, bool) {
	switch t := v.(type) {
	case *fpNode:
		out := &fpNode{}
		for i, k := range t.keys {
			next, whole := childPatterns(pats, k)
			if whole {
				continue
			}
			cv := t.vals[i]
			if len(next) > 0 {
				var keep bool
				if cv, keep = fpExclude(cv, next); !keep {
					continue
				}
			}
			out.keys, out.vals = append(out.keys, k), append(out.vals, cv)
		}
		return out, len(out.keys) > 0 || len(t.keys) == 0
	case []any:
		out := []any{}
		for _, x := range t {
			if cv, ok := fpExclude(x, pats); ok {
				out = append(out, cv)
			}
		}
		return out, true
	}
	return v, true
}
