package base

import (
	"context"
	"runtime/debug"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/keys"
)

// Fetcher loads a list. It runs inside a command, never in Update, so it must capture
// what it needs (project, service) when it is built rather than read the view later.
type Fetcher[T any] func(ctx context.Context) ([]T, error)

// Partial is returned by a Fetcher beside the items it could load when part of the
// list failed (a project in all-projects mode, a malformed element): the items are
// shown and the sentence is shown above them and in the footer.
// RetryAt, when set, says the rest waits for the rate limit until then: the root
// refreshes at that time, and it is not a failure.
type Partial struct {
	Text    string
	RetryAt time.Time
}

func (p *Partial) Error() string { return p.Text }

// ListSpec is what a list view has of its own.
type ListSpec[T any] struct {
	// Title is the breadcrumb segment.
	Title string
	// Noun names one item in messages ("No project selected").
	Noun    string
	Columns []components.Column
	// Empty is shown when the list has no rows.
	Empty string
	// Load builds the fetcher for the current state; a nil fetcher means there is
	// nothing to load, and why says so in place of the rows.
	Load func() (f Fetcher[T], why string)
	// Key identifies an item across refreshes (the cursor follows it); Row renders it.
	Key func(T) string
	Row func(T) components.Row
	// MarkKey, when set, identifies an item's mark where Key changes with the mode
	// (services keyed by name in one project, by project/name in all).
	MarkKey func(T) string
	// InScope, when set, says whether a load covers a marked item: a marked item the
	// load does not cover keeps its mark (another project's service while one is shown).
	InScope func(T) bool
	// FollowsProject lists reload when the current project changes.
	FollowsProject bool
	// Loaded runs after every successful load (caches, default selection).
	Loaded  func(items []T) tea.Cmd
	Actions []Action[T]
	// Interval overrides the live-refresh interval (default ctx.Refresh; <0 = not live).
	Interval func() time.Duration
}

// List is the base of every table view.
type List[T any] struct {
	Ctx   *common.Context
	Req   *common.Requests
	Table *components.Table
	Spec  ListSpec[T]

	items []T
	// byKey finds an item by its row's key, for marks only: made when marks need it,
	// dropped with the items (80,000 projects: 7 MB that selection does not need).
	byKey  map[string]int
	pick   string // select this key after the next load (a created item)
	loaded bool
	// partialSaid is the footer warning the last partial load posted, taken back when a
	// load comes back whole.
	partialSaid string
	marks       marks[T]
}

// NewList builds a list view from its spec.
func NewList[T any](ctx *common.Context, spec ListSpec[T]) *List[T] {
	l := &List[T]{Ctx: ctx, Req: common.NewRequests(), Spec: spec}
	l.SetColumns(spec.Columns)
	return l
}

// SetColumns gives the view a new table of those columns (another mode); the marks stay.
func (l *List[T]) SetColumns(cols []components.Column) {
	l.Spec.Columns = cols
	l.Table = components.NewTable(l.Ctx, cols)
	l.Table.Empty = l.Spec.Empty
	l.Table.Marked = l.rowMarked
}

// ID addresses results to this view.
func (l *List[T]) ID() int64 { return l.Req.ID }

// Init starts the first load.
func (l *List[T]) Init() tea.Cmd { return l.Load() }

// Load starts a load for a key press (a new one cancels the previous).
func (l *List[T]) Load() tea.Cmd { return l.load(false) }

// load starts a load; a background one (live refresh) spends only the budget left
// over from key presses (docs/architecture.md, "The request budget").
func (l *List[T]) load(background bool) tea.Cmd {
	f, why := l.Spec.Load()
	if f == nil {
		l.Req.Forget(KindList)
		l.Table.Empty = why
		l.SetItems(nil)
		return common.Send(common.RefreshDone{Idle: true})
	}
	l.Table.Empty = l.Spec.Empty
	if background {
		f = inBackground(f)
	}
	return common.Fetch(l.Req, KindList, l.reportSkips(f))
}

// reportSkips makes a list that the client read only in part say so: the entries it
// could read are shown, with a sentence on what was left out.
func (l *List[T]) reportSkips(f Fetcher[T]) Fetcher[T] {
	skip := l.Ctx.Platform.SkipReport
	if skip == nil {
		return f
	}
	return func(ctx context.Context) ([]T, error) {
		ctx, left := skip(ctx)
		items, err := f(ctx)
		if err == nil {
			if s := left(); s != "" {
				err = &Partial{Text: s}
			}
		}
		return items, err
	}
}

// Reset drops what is shown and loads again (project changed, mode switched).
func (l *List[T]) Reset() tea.Cmd {
	l.Req.Forget(KindList)
	l.items, l.byKey, l.loaded = nil, nil, false
	l.Table.SetRows(nil)
	l.Table.Loading = true
	return l.Load()
}

// Restore shows items read earlier as the loaded list (a view coming back to what it
// had shown), without a load; the caller refreshes them in the background. Marks
// follow as after a load.
func (l *List[T]) Restore(items []T) tea.Cmd {
	l.Req.Forget(KindList)
	l.loaded = true
	l.Table.Loading = false
	l.Table.Err = ""
	l.SetItems(items)
	return l.refreshMarks(items, true)
}

// Items are the loaded items in load order.
func (l *List[T]) Items() []T { return l.items }

// Loaded reports whether a load has succeeded.
func (l *List[T]) Loaded() bool { return l.loaded }

// SetItems shows items at once (a create's answer before the next refresh), keeping
// the cursor on the same key.
func (l *List[T]) SetItems(items []T) {
	l.items, l.byKey = items, nil
	// Row i is item i: the table's row under the cursor is the item. The rows are
	// made in the previous rows' place (Refill), never beside them.
	l.Table.Refill(len(items), func(i int) components.Row {
		r := l.Spec.Row(items[i])
		r.Key = l.Spec.Key(items[i])
		return r
	})
	if l.pick != "" && l.Table.Select(l.pick) {
		l.pick = ""
	}
}

// indexOf is the position of the item whose row has key.
func (l *List[T]) indexOf(key string) (int, bool) {
	if l.byKey == nil {
		l.byKey = make(map[string]int, len(l.items))
		for i, it := range l.items {
			l.byKey[l.Spec.Key(it)] = i
		}
	}
	i, ok := l.byKey[key]
	return i, ok
}

// Rerender rebuilds the rows from the items (something they show changed).
func (l *List[T]) Rerender() { l.SetItems(l.items) }

// Selected is the item under the cursor.
func (l *List[T]) Selected() (T, bool) {
	i, ok := l.Table.SelectedRow()
	if !ok || i >= len(l.items) {
		var zero T
		return zero, false
	}
	return l.items[i], true
}

// SelectLater puts the cursor on key now if it is shown, else after the next load that
// has it (a newly created item).
func (l *List[T]) SelectLater(key string) {
	if !l.Table.Select(key) {
		l.pick = key
	}
}

// Handle is the shared part of Update: the list's results, project changes, refresh,
// the filter, the actions and the table's own keys. Views call it for whatever they do
// not handle themselves.
func (l *List[T]) Handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[[]T]:
		if msg.Kind != KindList {
			dropped(l.Ctx, msg)
			return nil
		}
		if !l.Req.Current(msg.Addr) {
			return nil
		}
		return l.finish(msg.Value, msg.Err)
	case common.Unmark, common.Export:
		cmd, _ := l.handleMarks(msg)
		return cmd
	case common.Addressed:
		// A result the view's own Update did not take: a kind nobody handles.
		dropped(l.Ctx, msg)
		return nil
	case common.ProjectSelected:
		if l.Spec.FollowsProject {
			return l.Reset()
		}
		l.Rerender()
		return nil
	case common.RefreshNow:
		return l.Load()
	case tea.KeyMsg:
		if l.Table.Filtering() {
			_, cmd := l.Table.Update(msg)
			return cmd
		}
		if cmd, ok := l.handleMarks(msg); ok {
			return cmd
		}
		if a, refused, ok := match(l.Ctx, l.Spec.Actions, msg); ok {
			item, ok := l.Selected()
			return run(a, item, ok, l.noun())
		} else if refused != nil {
			return refused
		}
		if why := noAction(l.Ctx, msg, l.Spec.Title); why != nil {
			return why
		}
	}
	_, cmd := l.Table.Update(msg)
	return cmd
}

func (l *List[T]) finish(items []T, err error) tea.Cmd {
	var partial *Partial
	if text, at, ok := l.Ctx.RateLimitedText(err); ok && !asPartial(err, &partial) {
		// A wait the platform (or the budget) asked for: what is shown stays, and
		// the view tries again by itself at that time.
		return l.rateLimited(text, at, err)
	}
	if err != nil && !asPartial(err, &partial) {
		l.Table.SetError(l.Ctx.ErrorText(err))
		return common.Send(common.RefreshDone{Err: err})
	}
	l.loaded = true
	old := len(l.items)
	l.SetItems(items)
	done := common.RefreshDone{}
	if partial != nil {
		done.RetryAt = partial.RetryAt
	}
	cmds := []tea.Cmd{common.Send(done), l.refreshMarks(items, partial == nil)}
	if max(old, len(items)) >= collectAfter {
		// The previous items and rows are garbage now, and the last collection ran
		// while they and the answer were live: its goal is twice all of that, so the
		// heap would grow to it before the next, and the runtime gives memory back to
		// the system only slowly (80,000 projects stayed at the load's peak, 6.7 times
		// the answer resident). One collection that returns the memory, in a command
		// after Loaded has replaced what it keeps too, sets both from what the view keeps.
		cmds = append(cmds, returnMemory)
	}
	if partial != nil {
		l.Table.Err = partial.Text
		cmds = append(cmds, common.Warn(partial.Text))
		l.partialSaid = partial.Text
	} else {
		// The list is whole again: the footer must not go on saying part of it failed.
		cmds = append(cmds, common.RetractText(l.partialSaid))
		l.partialSaid = ""
	}
	if l.Spec.Loaded != nil {
		cmds = append(cmds, l.Spec.Loaded(items))
	}
	return tea.Batch(cmds...)
}

// returnMemory collects and gives the freed memory back to the system, beside the UI.
func returnMemory() tea.Msg {
	debug.FreeOSMemory()
	return nil
}

// rateLimited keeps what the list shows, says why it is not refreshed and when it
// will be, logs that in the session's messages once per wait, and asks the root for a
// refresh at that time (not counted as a failure).
func (l *List[T]) rateLimited(text string, at time.Time, err error) tea.Cmd {
	l.Table.SetError(text)
	cmds := []tea.Cmd{common.Send(common.RefreshDone{Err: err, RetryAt: at})}
	if text != l.partialSaid {
		cmds = append(cmds, common.Warn(text))
		l.partialSaid = text
	}
	return tea.Batch(cmds...)
}

// inBackground makes f's requests background work.
func inBackground[T any](f Fetcher[T]) Fetcher[T] {
	return func(ctx context.Context) ([]T, error) { return f(common.Background(ctx)) }
}

// collectAfter is how many items make a list large enough for a collection after it
// is replaced: 16,000 projects are about 5 MB of answer.
const collectAfter = 16_000

func asPartial(err error, p **Partial) bool {
	pe, ok := err.(*Partial)
	if ok {
		*p = pe
	}
	return ok
}

func (l *List[T]) noun() string {
	if l.Spec.Noun == "" {
		return "row"
	}
	return l.Spec.Noun
}

// Title is the breadcrumb segment.
func (l *List[T]) Title() string { return l.Spec.Title + l.MarkedSuffix() }

// View renders the table.
func (l *List[T]) View() string { return l.Table.View() }

// SetSize gives the table the pane.
func (l *List[T]) SetSize(w, h int) { l.Table.SetSize(w, h) }

// Capturing is true while the filter has focus.
func (l *List[T]) Capturing() bool { return l.Table.Filtering() }

// ClaimsKey takes esc while a filter is applied (esc clears it before going back).
func (l *List[T]) ClaimsKey(msg tea.KeyMsg) bool {
	return key.Matches(msg, l.Ctx.Keys.Back) && l.Table.FilterText() != ""
}

// Refresh reloads as background work (live refresh, coming back to the view).
func (l *List[T]) Refresh() tea.Cmd { return l.load(true) }

// Reload reloads for a key press (r).
func (l *List[T]) Reload() tea.Cmd { return l.Load() }

// RefreshInterval is the spec's, else the configured interval.
func (l *List[T]) RefreshInterval() time.Duration { return interval(l.Ctx, l.Spec.Interval) }

// interval is a view's live-refresh interval: its own when it has one, else the
// configured one.
func interval(ctx *common.Context, own func() time.Duration) time.Duration {
	if own != nil {
		return own()
	}
	return ctx.Refresh
}

// Leave cancels what is in flight.
func (l *List[T]) Leave() { l.Req.CancelAll() }

// Keys is what the list answers now: its actions (without the mutating ones in
// read-only mode), the marks, then the table's movement, filter and sort.
func (l *List[T]) Keys() keys.Actions {
	k := l.Ctx.Keys
	return append(declared(l.Ctx, usable(l.Ctx, l.Spec.Actions)), keys.Bindings(append([]key.Binding{k.Mark, k.MarkAll}, l.Table.HelpBindings()...)...)...)
}

// ShortHelp is the actions, then the filter.
func (l *List[T]) ShortHelp() []key.Binding {
	return append(declared(l.Ctx, usable(l.Ctx, l.Spec.Actions)).Help(true), l.Ctx.Keys.Filter)
}

// FullHelp is every action and refresh, then the table's keys.
func (l *List[T]) FullHelp() [][]key.Binding {
	return [][]key.Binding{append(declared(l.Ctx, usable(l.Ctx, l.Spec.Actions)).Help(false), l.Ctx.Keys.Refresh, l.Ctx.Keys.Mark, l.Ctx.Keys.MarkAll), l.Table.HelpBindings()}
}
