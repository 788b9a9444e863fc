package opensearch

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

func (n *fpNode) toObj() obj {
	o := make(obj, len(n.keys))
	for i, k := range n.keys {
		o[i] = kv{k, fpPlain(n.vals[i])}
	}
	return o
}

func fpPlain(v any) any {
	switch t := v.(type) {
	case *fpNode:
		return t.toObj()
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = fpPlain(x)
		}
		return out
	}
	return v
}

// applyFilterPath rewrites a JSON answer for filter_path; an answer it cannot read is kept.
func applyFilterPath(raw []byte, spec string) []byte {
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
	var b bytes.Buffer
	if err := writeValue(&b, fpPlain(v)); err != nil {
		return raw
	}
	return b.Bytes()
}

// childPatterns are the patterns that apply under key k; whole reports a pattern ended at k.
func childPatterns(pats [][]string, k string) (next [][]string, whole bool) {
	for _, p := range pats {
		if len(p) == 0 {
			continue
		}
		if p[0] == "**" {
			next = append(next, p)
			if len(p) > 1 && globMatch(p[1], k) {
				if len(p) == 2 {
					whole = true
				} else {
					next = append(next, p[2:])
				}
			}
			continue
		}
		if globMatch(p[0], k) {
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
