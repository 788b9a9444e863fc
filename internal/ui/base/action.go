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
)

// Action is a key a view answers with an effect on the selected item (or on the view
// when NoSelection is set). Bindings come from ctx.Keys, so overrides apply and
// read-only mode has already disabled the mutating ones (the root refuses them).
type Action[T any] struct {
	Key key.Binding
	// Help replaces the binding's help text in this view ("create user").
	Help string
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

// binding is the action's key with its view-specific help text.
func (a Action[T]) binding() key.Binding {
	if a.Help == "" {
		return a.Key
	}
	b := a.Key
	b.SetHelp(b.Help().Key, a.Help)
	return b
}

// match finds the action a key runs; ok is false when none does.
func match[T any](acts []Action[T], msg tea.KeyMsg) (Action[T], bool) {
	for _, a := range acts {
		if a.Key.Enabled() && key.Matches(msg, a.Key) {
			return a, true
		}
	}
	return Action[T]{}, false
}

// run runs an action on the selected item, or says there is none.
func run[T any](a Action[T], item T, ok bool, noun string) tea.Cmd {
	if !ok && !a.NoSelection {
		return common.Warn("No " + noun + " selected")
	}
	return a.Run(item)
}

// helpOf lists the enabled actions' bindings (short: without the hidden ones).
func helpOf[T any](acts []Action[T], short bool) []key.Binding {
	out := make([]key.Binding, 0, len(acts))
	for _, a := range acts {
		if !a.Key.Enabled() || (short && a.Hidden) {
			continue
		}
		out = append(out, a.binding())
	}
	return out
}
