package keys

import (
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Action is one key a view answers (k9s: a KeyAction): its binding from the KeyMap, so
// the config's overrides apply; what it does in this view; whether it changes the
// platform (k9s: dangerous), so read-only mode drops it; whether the footer leaves it
// out (help still lists it).
type Action struct {
	Binding key.Binding
	// Help replaces the binding's description in this view ("create user").
	Help     string
	Mutating bool
	Hidden   bool
}

// Key is the binding with this view's description.
func (a Action) Key() key.Binding {
	b := a.Binding
	if a.Help != "" {
		b.SetHelp(b.Help().Key, a.Help)
	}
	return b
}

// What names the action in messages ("create user").
func (a Action) What() string {
	if a.Help != "" {
		return a.Help
	}
	if d := a.Binding.Help().Desc; d != "" {
		return d
	}
	return "that"
}

// Actions are one view's keys (k9s: KeyActions), in the order help lists them. The
// same list routes the view's keys and makes its help.
type Actions []Action

// Usable is the set a view answers now: in read-only mode its mutating actions are
// dropped (k9s drops dangerous actions the same way).
func (as Actions) Usable(readOnly bool) Actions {
	if !readOnly {
		return as
	}
	out := make(Actions, 0, len(as))
	for _, a := range as {
		if !a.Mutating {
			out = append(out, a)
		}
	}
	return out
}

// Find is the place of the action msg runs, or -1.
func (as Actions) Find(msg tea.KeyMsg) int {
	for i, a := range as {
		if a.Binding.Enabled() && key.Matches(msg, a.Binding) {
			return i
		}
	}
	return -1
}

// Refusal is the sentence for a key of a mutating action that read-only mode dropped
// from this set, or "" when msg is no such key (or mutations are allowed).
func (as Actions) Refusal(msg tea.KeyMsg, readOnly bool) string {
	if !readOnly {
		return ""
	}
	if i := as.Find(msg); i >= 0 && as[i].Mutating {
		return "Read-only mode: " + as[i].What() + " is disabled"
	}
	return ""
}

// Help is the bindings for help, with this view's descriptions; short (the footer)
// leaves out the hidden ones.
func (as Actions) Help(short bool) []key.Binding {
	out := make([]key.Binding, 0, len(as))
	for _, a := range as {
		if !a.Binding.Enabled() || (short && a.Hidden) {
			continue
		}
		out = append(out, a.Key())
	}
	return out
}

// Bindings makes plain actions of bindings that change nothing (movement, filter).
func Bindings(bs ...key.Binding) Actions {
	out := make(Actions, len(bs))
	for i, b := range bs {
		out[i] = Action{Binding: b}
	}
	return out
}

// Clashes lists every key that two actions of the sets answer ("p: previous page,
// assign a project"), sorted; empty when each key runs one action. A view's actions and
// the global set given together must never clash: the root would take the key first,
// and the view's action could never run.
func Clashes(sets ...Actions) []string {
	by := map[string][]string{}
	for _, set := range sets {
		for _, a := range set {
			if !a.Binding.Enabled() {
				continue
			}
			for _, k := range a.Binding.Keys() {
				// The same action listed twice (refresh in a view's help and in the
				// global set) is one action.
				if !slices.Contains(by[k], a.What()) {
					by[k] = append(by[k], a.What())
				}
			}
		}
	}
	var out []string
	for k, whats := range by {
		if len(whats) > 1 {
			out = append(out, k+": "+strings.Join(whats, ", "))
		}
	}
	sort.Strings(out)
	return out
}
