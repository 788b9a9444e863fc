package common

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/keys"
)

// View is anything on a tab's view stack. Views are pointer types that update in place
// and return themselves (or a replacement).
type View interface {
	// ID is the view's address: the root delivers a result (common.Addressed) only to
	// the view whose ID it targets, and drops it when that view is gone.
	ID() int64
	Init() tea.Cmd
	Update(msg tea.Msg) (View, tea.Cmd)
	View() string
	// SetSize gives the view its area; View must never return more lines than h.
	SetSize(w, h int)
	// Title is the view's breadcrumb segment.
	Title() string
	// ShortHelp and FullHelp make the view a help.KeyMap (footer and ? overlay). Return
	// only view-specific bindings; the root adds the global ones.
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
	// Capturing reports that a text input or filter has focus: the root then passes
	// every key to the view and steals none (q, 1-5, :, ? are text).
	Capturing() bool
}

// Refresher is a live view: the root calls Refresh every RefreshInterval while the view
// is visible and the terminal is focused (a single timer per interval, backed off on
// errors). The view answers with RefreshDone when the refresh completes.
type Refresher interface {
	RefreshInterval() time.Duration
	Refresh() tea.Cmd
}

// Reloader is a live view whose reload for a key press (r) differs from its live
// refresh: Refresh is background work that spends only what key presses leave of the
// rate budget, Reload is the key press's own.
type Reloader interface {
	Reload() tea.Cmd
}

// Animator is a view that shows spinners; the root ticks the spinner frame only while
// the visible view reports Animating.
type Animator interface {
	Animating() bool
}

// Leaver is a view with cleanup when it leaves the stack (cancel in-flight requests).
// Leave does no I/O: what must reach the disk goes in SaveOnLeave's command.
type Leaver interface {
	Leave()
}

// Saver is a view that keeps something on disk as it leaves (the Search editor's
// text): SaveOnLeave returns the command that writes it, which the root runs (before it
// quits, when quitting); nil when there is nothing to keep.
type Saver interface {
	SaveOnLeave() tea.Cmd
}

// Modal is the single overlay (form, confirmation, one-time secret). There is one way
// to close it: the modal itself reports Closed once it is done, and the root removes it
// right after the Update that closed it, so the next key (":" typed just after esc)
// reaches what is under it; no message closes a modal later, and none can close another.
type Modal interface {
	// Closed reports that the modal is done.
	Closed() bool
	Init() tea.Cmd
	Update(msg tea.Msg) (Modal, tea.Cmd)
	View() string
	// SetSize gives the whole screen; the modal centres itself within it.
	SetSize(w, h int)
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// Keyed is a view that declares its keys (keys.Actions, k9s's KeyActions): the one list
// that routes them and makes its help. None of them may share a key with another of the
// view's or with the global set (keys.Clashes).
type Keyed interface {
	Keys() keys.Actions
}
