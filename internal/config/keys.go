package config

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// Bindings maps an action name to the keys that trigger it; an empty list unbinds the action.
type Bindings map[string][]string

// UnmarshalYAML reads the keys mapping entry by entry so that every problem carries its
// line. A null where a list belongs (`quit:`, `{quit}`) is refused rather than read as
// "unbind": that is what [] says, and a null is more likely a list not written yet.
// yaml.v3 drops null items from lists, so `[~]` would also unbind silently; refused too.
func (b *Bindings) UnmarshalYAML(n *yaml.Node) error {
	var entries map[string]yaml.Node // aliases and merge keys resolved by the decoder
	if err := n.Decode(&entries); err != nil {
		return err
	}
	type problem struct {
		line int
		msg  string
	}
	var ps []problem
	add := func(line int, format string, args ...any) {
		ps = append(ps, problem{line, fmt.Sprintf("line %d: ", line) + fmt.Sprintf(format, args...)})
	}
	out := make(Bindings, len(entries))
	for action, v := range entries {
		name := actionPath(action)
		if strings.TrimSpace(action) == "" {
			add(v.Line, "keys: an action name is empty")
			continue
		}
		if strings.ContainsFunc(action, unicode.IsControl) {
			add(v.Line, "keys: action name %q contains control characters", truncate(action, 40))
			continue
		}
		if v.ShortTag() == "!!null" {
			add(v.Line, "%s needs a list of keys, e.g. [q], or [] to unbind the action", name)
			continue
		}
		var keys []string
		if err := v.Decode(&keys); err != nil {
			return err
		}
		empty := false
		for _, item := range v.Content {
			empty = empty || item.ShortTag() == "!!null"
		}
		for _, k := range keys {
			empty = empty || strings.TrimSpace(k) == ""
		}
		if empty {
			add(v.Line, "%s has an empty key; write each key, e.g. [q, ctrl+c], or [] to unbind the action", name)
			continue
		}
		out[action] = keys
	}
	if len(ps) > 0 {
		sort.Slice(ps, func(i, j int) bool {
			return ps[i].line < ps[j].line || ps[i].line == ps[j].line && ps[i].msg < ps[j].msg
		})
		msgs := make([]string, len(ps))
		for i, p := range ps {
			msgs[i] = p.msg
		}
		return &yaml.TypeError{Errors: msgs}
	}
	*b = out
	return nil
}

var plainActionRE = regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`)

// actionPath names an entry of keys as a person would look for it: keys.quit, or
// keys."odd name" when the name needs quoting to be seen whole.
func actionPath(action string) string {
	if plainActionRE.MatchString(action) {
		return "keys." + action
	}
	return "keys." + fmt.Sprintf("%q", truncate(action, 40))
}
