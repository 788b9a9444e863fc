package base

import (
	"context"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
)

// DetailSpec is what a detail view has of its own.
type DetailSpec[T any] struct {
	// Title is the breadcrumb segment (usually the resource's name).
	Title string
	// Load builds the fetcher of the resource (see Fetcher: capture, don't read later).
	Load func() func(ctx context.Context) (T, error)
	// Sections renders the resource.
	Sections func(T) []components.Section
	// Loaded runs after every successful load.
	Loaded  func(T) tea.Cmd
	Actions []Action[T]
	// Interval overrides the live-refresh interval (default ctx.Refresh; <0 = not live).
	Interval func() time.Duration
}

// Detail is the base of every key/value detail view: one resource, loaded and
// refreshed, shown as sections with x to reveal and y to copy.
type Detail[T any] struct {
	Ctx    *common.Context
	Req    *common.Requests
	Fields *components.Detail
	Spec   DetailSpec[T]

	item    T
	has     bool
	errText string
}

// NewDetail builds a detail view from its spec.
func NewDetail[T any](ctx *common.Context, spec DetailSpec[T]) *Detail[T] {
	return &Detail[T]{Ctx: ctx, Req: common.NewRequests(), Fields: components.NewDetail(ctx), Spec: spec}
}

// ID addresses results to this view.
func (d *Detail[T]) ID() int64 { return d.Req.ID }

// Init starts the first load.
func (d *Detail[T]) Init() tea.Cmd { return d.Load() }

// Load (re)loads the resource.
func (d *Detail[T]) Load() tea.Cmd { return common.Fetch(d.Req, KindDetail, d.Spec.Load()) }

// Item is the loaded resource; ok is false until the first load succeeds.
func (d *Detail[T]) Item() (T, bool) { return d.item, d.has }

// Set shows a resource at once (an edit's answer) as if loaded.
func (d *Detail[T]) Set(v T) {
	d.item, d.has, d.errText = v, true, ""
	d.Fields.SetSections(d.Spec.Sections(v))
}

// Handle is the shared part of Update: the resource's result, refresh, the actions and
// the detail's own keys (move, x, y).
func (d *Detail[T]) Handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[T]:
		if msg.Kind != KindDetail {
			dropped(d.Ctx, msg)
			return nil
		}
		if !d.Req.Current(msg.Addr) {
			return nil
		}
		if text, at, ok := d.Ctx.RateLimitedText(msg.Err); ok && d.has {
			// What is shown stays; the root tries again at that time.
			return tea.Batch(common.Send(common.RefreshDone{Err: msg.Err, RetryAt: at}), common.Warn(text))
		}
		if msg.Err != nil {
			d.errText = d.Ctx.ErrorText(msg.Err)
			return common.Send(common.RefreshDone{Err: msg.Err})
		}
		d.Set(msg.Value)
		cmd := common.Send(common.RefreshDone{})
		if d.Spec.Loaded != nil {
			cmd = tea.Batch(cmd, d.Spec.Loaded(msg.Value))
		}
		return cmd
	case common.RefreshNow:
		return d.Load()
	case tea.KeyMsg:
		if a, refused, ok := match(d.Ctx, d.Spec.Actions, msg); ok {
			if !d.has && !a.NoSelection {
				return common.Warn("Still loading " + d.Spec.Title)
			}
			return a.Run(d.item)
		} else if refused != nil {
			return refused
		}
		// The fields themselves copy (y) and reveal (x).
		if !key.Matches(msg, d.Ctx.Keys.Copy, d.Ctx.Keys.Reveal) {
			if why := noAction(d.Ctx, msg, d.Spec.Title); why != nil {
				return why
			}
		}
		_, cmd := d.Fields.Update(msg)
		return cmd
	case common.Addressed:
		dropped(d.Ctx, msg)
	}
	return nil
}

// Title is the breadcrumb segment.
func (d *Detail[T]) Title() string { return d.Spec.Title }

// View shows the fields, or the loading/error placeholder before the first load.
func (d *Detail[T]) View() string {
	if !d.has {
		return components.Placeholder(d.Ctx, d.errText, "Loading "+d.Spec.Title+"…")
	}
	return d.Fields.ViewWithError(d.errText)
}

// SetSize gives the fields the pane.
func (d *Detail[T]) SetSize(w, h int) { d.Fields.SetSize(w, h) }

// Capturing: a detail has no text input.
func (d *Detail[T]) Capturing() bool { return false }

// Refresh reloads as background work (live refresh, coming back to the view).
func (d *Detail[T]) Refresh() tea.Cmd {
	f := d.Spec.Load()
	return common.Fetch(d.Req, KindDetail, func(ctx context.Context) (T, error) { return f(common.Background(ctx)) })
}

// Reload reloads for a key press (r).
func (d *Detail[T]) Reload() tea.Cmd { return d.Load() }

// RefreshInterval is the spec's, else the configured interval.
func (d *Detail[T]) RefreshInterval() time.Duration { return interval(d.Ctx, d.Spec.Interval) }

// Leave cancels what is in flight.
func (d *Detail[T]) Leave() { d.Req.CancelAll() }

// Keys is what the detail answers now: its actions (without the mutating ones in
// read-only mode), then the fields' movement, reveal and copy.
func (d *Detail[T]) Keys() keys.Actions {
	k := d.Ctx.Keys
	return append(declared(d.Ctx, usable(d.Ctx, d.Spec.Actions)), keys.Bindings(append(k.Movement(), k.Reveal, k.Copy)...)...)
}

// ShortHelp is the actions and copy.
func (d *Detail[T]) ShortHelp() []key.Binding {
	return append(declared(d.Ctx, usable(d.Ctx, d.Spec.Actions)).Help(true), d.Ctx.Keys.Copy)
}

// FullHelp is every action and refresh, then the detail's keys.
func (d *Detail[T]) FullHelp() [][]key.Binding {
	return [][]key.Binding{append(declared(d.Ctx, usable(d.Ctx, d.Spec.Actions)).Help(false), d.Ctx.Keys.Refresh), d.Fields.HelpBindings()}
}
