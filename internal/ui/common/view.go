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

// Animator is a view that shows spinners; the root ticks the spinner frame only while
// the visible view reports Animating.
type Animator interface {
	Animating() bool
}

// Leaver is a view with cleanup when it leaves the stack (cancel in-flight requests).
type Leaver interface {
	Leave()
}

// Closer is a modal that can say it has closed itself; the root then removes it in the
// same Update instead of waiting for its CloseModal message, which may arrive after the
// next key.
type Closer interface{ Closed() bool }

// Modal is the single overlay (form, confirmation, one-time secret). It closes itself
// by returning Send(CloseModal{}) (plus whatever its result is).
type Modal interface {
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
