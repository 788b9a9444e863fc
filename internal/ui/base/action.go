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

// mutating reports whether a changes the platform: by its binding or by its word.
func mutating[T any](ctx *common.Context, a Action[T]) bool {
	return a.Mutating || ctx.Keys.Mutates(a.Key)
}

// declared is the view's actions as a key set, in order (their places match acts').
func declared[T any](ctx *common.Context, acts []Action[T]) keys.Actions {
	out := make(keys.Actions, len(acts))
	for i, a := range acts {
		out[i] = keys.Action{Binding: a.Key, Help: a.Help, Mutating: mutating(ctx, a), Hidden: a.Hidden}
	}
	return out
}

// usable is the actions the view answers now: read-only mode drops the mutating ones.
func usable[T any](ctx *common.Context, acts []Action[T]) []Action[T] {
	if !ctx.ReadOnly {
		return acts
	}
	out := make([]Action[T], 0, len(acts))
	for _, a := range acts {
		if !mutating(ctx, a) {
			out = append(out, a)
		}
	}
	return out
}

// match finds the action a key runs; ok is false when none does. A key of a mutating
// action read-only mode dropped comes back as refused, with the sentence to show.
func match[T any](ctx *common.Context, acts []Action[T], msg tea.KeyMsg) (a Action[T], refused tea.Cmd, ok bool) {
	if why := declared(ctx, acts).Refusal(msg, ctx.ReadOnly); why != "" {
		return a, common.Warn(why), false
	}
	now := usable(ctx, acts)
	if i := declared(ctx, now).Find(msg); i >= 0 {
		return now[i], nil, true
	}
	return a, nil, false
}

// run runs an action on the selected item, or says there is none.
func run[T any](a Action[T], item T, ok bool, noun string) tea.Cmd {
	if !ok && !a.NoSelection {
		return common.Warn("No " + noun + " selected")
	}
	return a.Run(item)
}
