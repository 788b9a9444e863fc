// Package base holds what every list and detail view is built on: the table or detail
// component, the view's addressed requests, loading / error / refresh / project change,
// the filter, and the actions bound to keys. A pane keeps only what is its own: columns,
// rows, the load call and its actions (models: gh-dash's section BaseModel, soft-serve's
// Component).
package base

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
)

// Action is a key a view answers with an effect on the selected item (or on the view
// when NoSelection is set): the view's declaration of one of its keys (k9s: a
// KeyAction). Bindings come from ctx.Keys, so overrides apply. An action that changes
// the platform is mutating (k9s: dangerous): read-only mode drops it from the view's keys
// and help, and its key is answered with a refusal. An action on a binding that mutates
// (create, edit, delete, reset, assign, bulk load) is mutating whatever it says.
type Action[T any] struct {
	Key key.Binding
	// Help replaces the binding's help text in this view ("create user").
	Help string
	// Mutating marks an action that changes the platform on a binding that does not.
	Mutating bool
	// NoSelection actions run without a selected item (create, toggle).
	NoSelection bool
	// Hidden actions work but are left out of the short help (the footer).
	Hidden bool
	// Run is the effect; item is the zero value when NoSelection and nothing is selected.
	Run func(item T) tea.Cmd
	// Many, when set, is the effect while rows are marked: on every marked item (a
	// plan). A mutating action without it is refused while rows are marked.
	Many func(marked Marked[T]) tea.Cmd
}

// act is an action without its item type: its place in the view's key set and how it
// runs. Matching keys, read-only refusals and help work on these, so that code is
// compiled once rather than once per item type (Go stencils generic code per shape,
// and every distinct struct type is a shape of its own).
type act struct {
	keys.Action
	noSelection bool
	many        bool
}

// acts describes a view's actions.
func acts[T any](ctx *common.Context, as []Action[T]) []act {
	out := make([]act, len(as))
	for i := range as {
		a := &as[i]
		out[i].describe(ctx, &a.Key, a.Help, a.Mutating, a.NoSelection, a.Hidden, a.Many != nil)
	}
	return out
}

// describe fills in an action's description; an action is mutating by its binding or
// by its word.
func (d *act) describe(ctx *common.Context, k *key.Binding, help string, mutating, noSelection, hidden, many bool) {
	d.Action = keys.Action{Binding: *k, Help: help, Mutating: mutating || ctx.Keys.Mutates(*k), Hidden: hidden}
	d.noSelection, d.many = noSelection, many
}

// declared is the actions as a key set, in order (their places match the actions').
func declared(as []act) keys.Actions {
	out := make(keys.Actions, len(as))
	for i := range as {
		out[i] = as[i].Action
	}
	return out
}

// usable is the actions the view answers now: read-only mode drops the mutating ones.
func usable(ctx *common.Context, as []act) []act {
	if !ctx.ReadOnly {
		return as
	}
	out := make([]act, 0, len(as))
	for _, a := range as {
		if !a.Mutating {
			out = append(out, a)
		}
	}
	return out
}

// match finds the action a key runs, by its place in as; ok is false when none does.
// A key of a mutating action read-only mode dropped comes back as refused, with the
// sentence to show.
func match(ctx *common.Context, as []act, msg tea.KeyMsg) (i int, refused tea.Cmd, ok bool) {
	if why := declared(as).Refusal(msg, ctx.ReadOnly); why != "" {
		return -1, common.Warn(why), false
	}
	places := make([]int, 0, len(as))
	now := make(keys.Actions, 0, len(as))
	for i, a := range as {
		if !ctx.ReadOnly || !a.Mutating {
			places = append(places, i)
			now = append(now, a.Action)
		}
	}
	if j := now.Find(msg); j >= 0 {
		return places[j], nil, true
	}
	return -1, nil, false
}

// helpKeys is the key set of the actions the view answers now.
func helpKeys(ctx *common.Context, as []act) keys.Actions { return declared(usable(ctx, as)) }
