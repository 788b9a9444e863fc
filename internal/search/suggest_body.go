package search

import (
	"strings"
)

// jsonFrame is one open object or array while scanning a body up to the cursor.
type jsonFrame struct {
	array bool
	// key is the object's last key: the one being typed or whose value follows.
	key     string
	wantKey bool
	seen    []string // keys already written in this object
}

// jsonScan is where a partial body ends: the open containers and what is being typed.
type jsonScan struct {
	stack    []jsonFrame
	inString bool
	strStart int // offset of the open string's quote
	strIsKey bool
	word     int // start of a bare word being typed at the end, -1 when none
}

func (s jsonScan) depth() int { return len(s.stack) }

// scanJSON reads a partial JSON (or NDJSON) body leniently; whole-line comments are skipped.
func scanJSON(text string) jsonScan {
	s := jsonScan{word: -1}
	top := func() *jsonFrame {
		if len(s.stack) == 0 {
			return nil
		}
		return &s.stack[len(s.stack)-1]
	}
	lineStart := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		if s.inString {
			switch c {
			case '\\':
				i++
			case '"':
				s.inString = false
				if f := top(); f != nil && s.strIsKey {
					f.key = text[s.strStart+1 : i]
					f.wantKey = false
					f.seen = append(f.seen, f.key)
				}
			case '\n':
				lineStart = true
			}
			continue
		}
		if lineStart {
			rest := strings.TrimLeft(text[i:], " \t")
			if strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, "//") {
				nl := strings.IndexByte(text[i:], '\n')
				if nl < 0 {
					return s
				}
				i += nl
				continue
			}
			lineStart = false
		}
		if isWordByte(c) {
			if s.word < 0 {
				s.word = i
			}
			continue
		}
		s.word = -1
		switch c {
		case '\n':
			lineStart = true
		case '"':
			s.inString, s.strStart = true, i
			f := top()
			s.strIsKey = f != nil && !f.array && f.wantKey
		case '{':
			s.stack = append(s.stack, jsonFrame{wantKey: true})
		case '[':
			s.stack = append(s.stack, jsonFrame{array: true})
		case '}', ']':
			if len(s.stack) > 0 {
				s.stack = s.stack[:len(s.stack)-1]
			}
		case ',':
			if f := top(); f != nil && !f.array {
				f.wantKey, f.key = true, ""
			}
		case ':':
			if f := top(); f != nil && !f.array {
				f.wantKey = false
			}
		}
	}
	return s
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '@'
}

// suggestInBody completes at the end of a partial body (text[bodyStart:cur]).
func suggestInBody(req ParsedRequest, st jsonScan, bodyStart, cur int, in SuggestInput) Suggestions {
	out := Suggestions{Start: cur, End: cur}
	if len(st.stack) == 0 {
		return out
	}
	quoted := !st.inString
	prefix := ""
	switch {
	case st.inString:
		out.Start = bodyStart + st.strStart + 1
		prefix = in.Text[out.Start:cur]
	case st.word >= 0:
		out.Start = bodyStart + st.word
		prefix = in.Text[out.Start:cur]
	}
	// The role of the innermost object: walk the keys from the root.
	role := rootRole(req)
	for _, f := range st.stack[:len(st.stack)-1] {
		if !f.array {
			role = role.child(f.key)
		}
	}
	top := st.stack[len(st.stack)-1]
	ctx := suggestCtx{fields: in.Fields, indices: in.Indices}
	var items []Suggestion
	switch {
	case !top.array && (top.wantKey || st.inString && st.strIsKey):
		items = excludeSeen(role.keys(ctx), top.seen)
	case !top.array:
		items = role.values(top.key, ctx)
	default:
		// An element of an array: the array's key names it.
		key, parent := "", rootRole(req)
		for i, f := range st.stack[:len(st.stack)-1] {
			if !f.array {
				key = f.key
				if i < len(st.stack)-2 {
					parent = parent.child(f.key)
				}
			}
		}
		items = parent.values(key, ctx)
	}
	out.Items = rank(items, prefix, quoted)
	return out
}

func excludeSeen(items []Suggestion, seen []string) []Suggestion {
	if len(seen) == 0 {
		return items
	}
	out := items[:0:0]
	for _, it := range items {
		dup := false
		for _, s := range seen {
			dup = dup || s == it.Label
		}
		if !dup {
			out = append(out, it)
		}
	}
	return out
}

// rank keeps the items matching prefix: prefix matches first, then matches of a later
// dotted segment, then substrings of three letters or more, each group in the given order. quoted wraps string
// items in quotes (typed outside a string).
func rank(items []Suggestion, prefix string, quoted bool) []Suggestion {
	p := strings.ToLower(prefix)
	var groups [3][]Suggestion
	for _, it := range items {
		l := strings.ToLower(it.Label)
		g := -1
		switch {
		case l == p && p != "":
			continue
		case strings.HasPrefix(l, p):
			g = 0
		case strings.Contains(l, "."+p):
			g = 1
		case len(p) >= 3 && strings.Contains(l, p): // shorter fragments match too much
			g = 2
		}
		if g < 0 {
			continue
		}
		switch {
		case quoted && !(it.Kind == SuggestValue && isBareLiteral(it.Label)):
			it.Text = JSONQuote(it.Label)
		case it.Text == it.Label:
			it.Text = JSONInner(it.Label) // typed inside a string: a name's newline stays \n
		}
		groups[g] = append(groups[g], it)
	}
	return append(append(groups[0], groups[1]...), groups[2]...)
}

// isBareLiteral reports JSON literals written without quotes.
func isBareLiteral(s string) bool { return s == "true" || s == "false" || s == "null" || isNumber(s) }
