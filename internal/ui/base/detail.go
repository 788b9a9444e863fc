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
// refreshed, shown as sections with x to reveal and y to copy. Like List it is a thin
// typed shell over a core compiled once (detailCore).
type Detail[T any] struct {
	detailCore
	Spec DetailSpec[T]

	item T
}

// detailCore is the part of a detail view that does not need the resource's type.
type detailCore struct {
	Ctx    *common.Context
	Req    *common.Requests
	Fields *components.Detail

	typed detailHooks
	// title and interval point at the spec's, which views change in place.
	title    *string
	interval *func() time.Duration
	has      bool
	errText  string
}

// detailHooks are what the core asks of the typed shell (closures, as listHooks).
type detailHooks struct {
	fetch   func(background bool) tea.Cmd
	actions func() []act
	run     func(i int) tea.Cmd
}

// NewDetail builds a detail view from its spec.
func NewDetail[T any](ctx *common.Context, spec DetailSpec[T]) *Detail[T] {
	d := &Detail[T]{Spec: spec}
	d.detailCore = detailCore{Ctx: ctx, Req: common.NewRequests(), Fields: components.NewDetail(ctx),
		title: &d.Spec.Title, interval: &d.Spec.Interval}
	d.typed = detailHooks{
		fetch: func(background bool) tea.Cmd {
			f := d.Spec.Load()
			if background {
				return common.Fetch(d.Req, KindDetail, func(ctx context.Context) (T, error) { return f(common.Background(ctx)) })
			}
			return common.Fetch(d.Req, KindDetail, f)
		},
		actions: func() []act { return acts(d.Ctx, d.Spec.Actions) },
		run:     func(i int) tea.Cmd { return d.Spec.Actions[i].Run(d.item) },
	}
	return d
}

// Load (re)loads the resource.
func (c *detailCore) Load() tea.Cmd { return c.typed.fetch(false) }

// ID addresses results to this view.
func (c *detailCore) ID() int64 { return c.Req.ID }

// Init starts the first load.
func (c *detailCore) Init() tea.Cmd { return c.typed.fetch(false) }

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
	r, ok := msg.(common.Result[T])
	if !ok {
		return d.handle(msg)
	}
	if r.Kind != KindDetail {
		dropped(d.Ctx, r)
		return nil
	}
	if !d.Req.Current(r.Addr) {
		return nil
	}
	if cmd, failed := d.failed(r.Err); failed {
		return cmd
	}
	d.Set(r.Value)
	cmd := common.Send(common.RefreshDone{})
	if d.Spec.Loaded != nil {
		cmd = tea.Batch(cmd, d.Spec.Loaded(r.Value))
	}
	return cmd
}

// failed handles a load that did not answer the resource: a rate limit keeps what is
// shown, an error is shown in its place.
func (c *detailCore) failed(err error) (tea.Cmd, bool) {
	if text, at, ok := c.Ctx.RateLimitedText(err); ok && c.has {
		// What is shown stays; the root tries again at that time.
		return tea.Batch(common.Send(common.RefreshDone{Err: err, RetryAt: at}), common.Warn(text)), true
	}
	if err != nil {
		c.errText = c.Ctx.ErrorText(err)
		return common.Send(common.RefreshDone{Err: err}), true
	}
	return nil, false
}

// handle is Handle for every message but the resource's result.
func (c *detailCore) handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.RefreshNow:
		return c.typed.fetch(false)
	case tea.KeyMsg:
		as := c.typed.actions()
		if i, refused, ok := match(c.Ctx, as, msg); ok {
			if !c.has && !as[i].noSelection {
				return common.Warn("Still loading " + *c.title)
			}
			return c.typed.run(i)
		} else if refused != nil {
			return refused
		}
		// The fields themselves copy (y) and reveal (x).
		if !key.Matches(msg, c.Ctx.Keys.Copy, c.Ctx.Keys.Reveal) {
			if why := noAction(c.Ctx, msg, *c.title); why != nil {
				return why
			}
		}
		_, cmd := c.Fields.Update(msg)
		return cmd
	case common.Addressed:
		dropped(c.Ctx, msg)
	}
	return nil
}

// Title is the breadcrumb segment.
func (c *detailCore) Title() string { return *c.title }

// View shows the fields, or the loading/error placeholder before the first load.
func (c *detailCore) View() string {
	if !c.has {
		return components.Placeholder(c.Ctx, c.errText, "Loading "+*c.title+"…")
	}
	return c.Fields.ViewWithError(c.errText)
}

// SetSize gives the fields the pane.
func (c *detailCore) SetSize(w, h int) { c.Fields.SetSize(w, h) }

// Capturing: a detail has no text input.
func (c *detailCore) Capturing() bool { return false }

// Refresh reloads as background work (live refresh, coming back to the view).
func (c *detailCore) Refresh() tea.Cmd { return c.typed.fetch(true) }

// Reload reloads for a key press (r).
func (c *detailCore) Reload() tea.Cmd { return c.typed.fetch(false) }

// RefreshInterval is the spec's, else the configured interval.
func (c *detailCore) RefreshInterval() time.Duration { return interval(c.Ctx, *c.interval) }

// Leave cancels what is in flight.
func (c *detailCore) Leave() { c.Req.CancelAll() }

// Keys is what the detail answers now: its actions (without the mutating ones in
// read-only mode), then the fields' movement, reveal and copy.
func (c *detailCore) Keys() keys.Actions {
	k := c.Ctx.Keys
	return append(helpKeys(c.Ctx, c.typed.actions()), keys.Bindings(append(k.Movement(), k.Reveal, k.Copy)...)...)
}

// ShortHelp is the actions and copy.
func (c *detailCore) ShortHelp() []key.Binding {
	return append(helpKeys(c.Ctx, c.typed.actions()).Help(true), c.Ctx.Keys.Copy)
}

// FullHelp is every action and refresh, then the detail's keys.
func (c *detailCore) FullHelp() [][]key.Binding {
	return [][]key.Binding{append(helpKeys(c.Ctx, c.typed.actions()).Help(false), c.Ctx.Keys.Refresh), c.Fields.HelpBindings()}
}
