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

// List is the base of every table view: a thin typed shell (the spec, the items, the
// selected and marked items) over listCore, which does everything that does not need
// the item type. Go compiles a generic type's methods once per type shape, and every
// view's item struct is a shape of its own, so what lives in the core is compiled once
// instead of once per view (this halved the package's code in the release binary).
type List[T any] struct {
	listCore
	Spec ListSpec[T]

	items []T
}

// listCore is the part of a list that does not need its item type: the table, the
// filter and sort, the cursor by key, marks by key, actions by their place, the
// refresh and error state, help and export. It reaches the items through typed.
type listCore struct {
	Ctx   *common.Context
	Req   *common.Requests
	Table *components.Table

	typed listHooks
	spec  listText
	// byKey finds an item by its row's key, for marks only: made when marks need it,
	// dropped with the items (80,000 projects: 7 MB that selection does not need).
	byKey  map[string]int
	n      int    // how many items the shell has
	pick   string // select this key after the next load (a created item)
	loaded bool
	// partialSaid is the footer warning the last partial load posted, taken back when a
	// load comes back whole.
	partialSaid string
	marks       marks
}

// listHooks are what the core asks of the typed shell: the items by their place in
// load order, the load, and the actions. They are closures rather than an interface
// the shell implements, because a generic type's method in an interface is compiled
// twice per item type (the shape's code and a wrapper passing its dictionary).
type listHooks struct {
	// keyAt is the key of item i: its row's key, or with mark its mark key.
	keyAt      func(i int, mark bool) string
	itemAt     func(i int) any
	outOfScope func(item any) bool
	// fetch starts a load; a nil command means there is nothing to load, and why.
	fetch      func(background bool) (cmd tea.Cmd, why string)
	set        func(how setHow, items any)
	loadedHook func() tea.Cmd
	actions    func() []act
	// run runs action i on the selected item, or with many on the marked ones.
	run func(i int, many bool) tea.Cmd
}

// setHow is what listHooks.set does with the items it is given.
type setHow int

const (
	showItems   setHow = iota // SetItems(items)
	keepItems                 // keep items without showing them (Reset)
	rerenderAll               // SetItems(the items kept), items unused
)

// listText points at the spec's fields that do not name the item type; views change
// them in place (an empty text for the mode), so the core reads them there.
type listText struct {
	title, noun, empty *string
	columns            *[]components.Column
	followsProject     *bool
	interval           *func() time.Duration
}

// NewList builds a list view from its spec.
func NewList[T any](ctx *common.Context, spec ListSpec[T]) *List[T] {
	l := &List[T]{Spec: spec}
	s := &l.Spec
	l.listCore = listCore{Ctx: ctx, Req: common.NewRequests(), spec: listText{
		title: &s.Title, noun: &s.Noun, empty: &s.Empty, columns: &s.Columns, followsProject: &s.FollowsProject, interval: &s.Interval,
	}}
	l.typed = listHooks{
		keyAt: func(i int, mark bool) string {
			if mark && l.Spec.MarkKey != nil {
				return l.Spec.MarkKey(l.items[i])
			}
			return l.Spec.Key(l.items[i])
		},
		itemAt:     func(i int) any { return l.items[i] },
		outOfScope: func(item any) bool { return l.Spec.InScope != nil && !l.Spec.InScope(item.(T)) },
		fetch: func(background bool) (tea.Cmd, string) {
			f, why := l.Spec.Load()
			if f == nil {
				return nil, why
			}
			skip := l.Ctx.Platform.SkipReport
			return common.Fetch(l.Req, KindList, func(ctx context.Context) ([]T, error) {
				ctx, left := reading(ctx, skip, background)
				items, err := f(ctx)
				return items, readAll(err, left)
			}), ""
		},
		set: func(how setHow, items any) {
			switch how {
			case showItems:
				v, _ := items.([]T)
				l.SetItems(v)
			case keepItems:
				l.items, _ = items.([]T)
				l.n = len(l.items)
			case rerenderAll:
				l.SetItems(l.items)
			}
		},
		loadedHook: func() tea.Cmd {
			if l.Spec.Loaded == nil {
				return nil
			}
			return l.Spec.Loaded(l.items)
		},
		actions: func() []act { return acts(l.Ctx, l.Spec.Actions) },
		run: func(i int, many bool) tea.Cmd {
			if many {
				return l.Spec.Actions[i].Many(l.Marked())
			}
			item, _ := l.Selected()
			return l.Spec.Actions[i].Run(item)
		},
	}
	l.SetColumns(spec.Columns)
	return l
}

// SetColumns gives the view a new table of those columns (another mode); the marks stay.
func (c *listCore) SetColumns(cols []components.Column) {
	*c.spec.columns = cols
	c.Table = components.NewTable(c.Ctx, cols)
	c.Table.Empty = *c.spec.empty
	c.Table.Marked = c.rowMarked
}

// ID addresses results to this view.
func (c *listCore) ID() int64 { return c.Req.ID }

// Init starts the first load.
func (c *listCore) Init() tea.Cmd { return c.Load() }

// Load starts a load for a key press (a new one cancels the previous).
func (c *listCore) Load() tea.Cmd { return c.load(false) }

// load starts a load; a background one (live refresh) spends only the budget left
// over from key presses (docs/architecture.md, "The request budget").
func (c *listCore) load(background bool) tea.Cmd {
	cmd, why := c.typed.fetch(background)
	if cmd == nil {
		c.Req.Forget(KindList)
		c.Table.Empty = why
		c.typed.set(showItems, nil)
		return common.Send(common.RefreshDone{Idle: true})
	}
	c.Table.Empty = *c.spec.empty
	return cmd
}

// reading prepares a list's context: a background load (live refresh) spends only the
// budget left over from key presses (docs/architecture.md, "The request budget"), and a
// list the client reads only in part says so (skip gives what was left out).
func reading(ctx context.Context, skip func(context.Context) (context.Context, func() string), background bool) (context.Context, func() string) {
	var left func() string
	if skip != nil {
		ctx, left = skip(ctx)
	}
	if background {
		ctx = common.Background(ctx)
	}
	return ctx, left
}

// readAll makes a list that the client read only in part say so: the entries it could
// read are shown, with a sentence on what was left out.
func readAll(err error, left func() string) error {
	if err != nil || left == nil {
		return err
	}
	if s := left(); s != "" {
		return &Partial{Text: s}
	}
	return nil
}

// Reset drops what is shown and loads again (project changed, mode switched).
func (c *listCore) Reset() tea.Cmd {
	c.Req.Forget(KindList)
	c.typed.set(keepItems, nil)
	c.byKey, c.loaded = nil, false
	c.Table.SetRows(nil)
	c.Table.Loading = true
	return c.Load()
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
	return l.refreshMarks(true)
}

// Items are the loaded items in load order.
func (l *List[T]) Items() []T { return l.items }

// Loaded reports whether a load has succeeded.
func (c *listCore) Loaded() bool { return c.loaded }

// SetItems shows items at once (a create's answer before the next refresh), keeping
// the cursor on the same key.
func (l *List[T]) SetItems(items []T) {
	l.items = items
	// Row i is item i: the table's row under the cursor is the item.
	rows := make([]components.Row, len(items))
	for i := range items {
		rows[i] = l.Spec.Row(items[i])
		rows[i].Key = l.Spec.Key(items[i])
	}
	l.showRows(rows)
}

func (c *listCore) showRows(rows []components.Row) {
	c.byKey, c.n = nil, len(rows)
	c.Table.SetRows(rows)
	if c.pick != "" && c.Table.Select(c.pick) {
		c.pick = ""
	}
}

// indexOf is the position of the item whose row has key.
func (c *listCore) indexOf(key string) (int, bool) {
	if c.byKey == nil {
		n := c.n
		c.byKey = make(map[string]int, n)
		for i := 0; i < n; i++ {
			c.byKey[c.typed.keyAt(i, false)] = i
		}
	}
	i, ok := c.byKey[key]
	return i, ok
}

// Rerender rebuilds the rows from the items (something they show changed).
func (c *listCore) Rerender() { c.typed.set(rerenderAll, nil) }

// Selected is the item under the cursor.
func (l *List[T]) Selected() (T, bool) {
	i, ok := l.selected()
	if !ok {
		var zero T
		return zero, false
	}
	return l.items[i], true
}

// selected is the place of the item under the cursor.
func (c *listCore) selected() (int, bool) {
	i, ok := c.Table.SelectedRow()
	if !ok || i >= c.n {
		return 0, false
	}
	return i, true
}

// SelectLater puts the cursor on key now if it is shown, else after the next load that
// has it (a newly created item).
func (c *listCore) SelectLater(key string) {
	if !c.Table.Select(key) {
		c.pick = key
	}
}

// Handle is the shared part of Update: the list's results, project changes, refresh,
// the filter, the actions and the table's own keys. Views call it for whatever they do
// not handle themselves.
func (l *List[T]) Handle(msg tea.Msg) tea.Cmd {
	if r, ok := msg.(common.Result[[]T]); ok {
		if r.Kind != KindList {
			dropped(l.Ctx, r)
			return nil
		}
		if !l.Req.Current(r.Addr) {
			return nil
		}
		return l.finish(r.Value, r.Err)
	}
	return l.handle(msg)
}

// handle is Handle for every message but the list's results.
func (c *listCore) handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Unmark, common.Export:
		cmd, _ := c.handleMarks(msg)
		return cmd
	case common.Addressed:
		// A result the view's own Update did not take: a kind nobody handles.
		dropped(c.Ctx, msg)
		return nil
	case common.ProjectSelected:
		if *c.spec.followsProject {
			return c.Reset()
		}
		c.Rerender()
		return nil
	case common.RefreshNow:
		return c.Load()
	case tea.KeyMsg:
		if c.Table.Filtering() {
			_, cmd := c.Table.Update(msg)
			return cmd
		}
		if cmd, ok := c.handleMarks(msg); ok {
			return cmd
		}
		as := c.typed.actions()
		if i, refused, ok := match(c.Ctx, as, msg); ok {
			if _, ok := c.selected(); !ok && !as[i].noSelection {
				return common.Warn("No " + c.noun() + " selected")
			}
			return c.typed.run(i, false)
		} else if refused != nil {
			return refused
		}
		if why := noAction(c.Ctx, msg, *c.spec.title); why != nil {
			return why
		}
	}
	_, cmd := c.Table.Update(msg)
	return cmd
}

func (c *listCore) finish(items any, err error) tea.Cmd {
	var partial *Partial
	if text, at, ok := c.Ctx.RateLimitedText(err); ok && !asPartial(err, &partial) {
		// A wait the platform (or the budget) asked for: what is shown stays, and
		// the view tries again by itself at that time.
		return c.rateLimited(text, at, err)
	}
	if err != nil && !asPartial(err, &partial) {
		c.Table.SetError(c.Ctx.ErrorText(err))
		return common.Send(common.RefreshDone{Err: err})
	}
	c.loaded = true
	old := c.n
	c.typed.set(showItems, items)
	done := common.RefreshDone{}
	if partial != nil {
		done.RetryAt = partial.RetryAt
	}
	cmds := []tea.Cmd{common.Send(done), c.refreshMarks(partial == nil)}
	if max(old, c.n) >= collectAfter {
		// The previous items and rows are garbage now, and the last collection ran
		// while they and the answer were live: its goal is twice all of that, so the
		// heap would grow to it before the next, and the runtime gives memory back to
		// the system only slowly (80,000 projects stayed at the load's peak, 6.7 times
		// the answer resident). One collection that returns the memory, in a command
		// after Loaded has replaced what it keeps too, sets both from what the view keeps.
		cmds = append(cmds, returnMemory)
	}
	if partial != nil {
		c.Table.Err = partial.Text
		cmds = append(cmds, common.Warn(partial.Text))
		c.partialSaid = partial.Text
	} else {
		// The list is whole again: the footer must not go on saying part of it failed.
		cmds = append(cmds, common.RetractText(c.partialSaid))
		c.partialSaid = ""
	}
	if cmd := c.typed.loadedHook(); cmd != nil {
		cmds = append(cmds, cmd)
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
func (c *listCore) rateLimited(text string, at time.Time, err error) tea.Cmd {
	c.Table.SetError(text)
	cmds := []tea.Cmd{common.Send(common.RefreshDone{Err: err, RetryAt: at})}
	if text != c.partialSaid {
		cmds = append(cmds, common.Warn(text))
		c.partialSaid = text
	}
	return tea.Batch(cmds...)
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

func (c *listCore) noun() string {
	if n := *c.spec.noun; n != "" {
		return n
	}
	return "row"
}

// Title is the breadcrumb segment.
func (c *listCore) Title() string { return *c.spec.title + c.MarkedSuffix() }

// View renders the table.
func (c *listCore) View() string { return c.Table.View() }

// SetSize gives the table the pane.
func (c *listCore) SetSize(w, h int) { c.Table.SetSize(w, h) }

// Capturing is true while the filter has focus.
func (c *listCore) Capturing() bool { return c.Table.Filtering() }

// ClaimsKey takes esc while a filter is applied (esc clears it before going back).
func (c *listCore) ClaimsKey(msg tea.KeyMsg) bool {
	return key.Matches(msg, c.Ctx.Keys.Back) && c.Table.FilterText() != ""
}

// Refresh reloads as background work (live refresh, coming back to the view).
func (c *listCore) Refresh() tea.Cmd { return c.load(true) }

// Reload reloads for a key press (r).
func (c *listCore) Reload() tea.Cmd { return c.Load() }

// RefreshInterval is the spec's, else the configured interval.
func (c *listCore) RefreshInterval() time.Duration { return interval(c.Ctx, *c.spec.interval) }

// interval is a view's live-refresh interval: its own when it has one, else the
// configured one.
func interval(ctx *common.Context, own func() time.Duration) time.Duration {
	if own != nil {
		return own()
	}
	return ctx.Refresh
}

// Leave cancels what is in flight.
func (c *listCore) Leave() { c.Req.CancelAll() }

// Keys is what the list answers now: its actions (without the mutating ones in
// read-only mode), the marks, then the table's movement, filter and sort.
func (c *listCore) Keys() keys.Actions {
	k := c.Ctx.Keys
	return append(helpKeys(c.Ctx, c.typed.actions()), keys.Bindings(append([]key.Binding{k.Mark, k.MarkAll}, c.Table.HelpBindings()...)...)...)
}

// ShortHelp is the actions, then the filter.
func (c *listCore) ShortHelp() []key.Binding {
	return append(helpKeys(c.Ctx, c.typed.actions()).Help(true), c.Ctx.Keys.Filter)
}

// FullHelp is every action and refresh, then the table's keys.
func (c *listCore) FullHelp() [][]key.Binding {
	return [][]key.Binding{append(helpKeys(c.Ctx, c.typed.actions()).Help(false), c.Ctx.Keys.Refresh, c.Ctx.Keys.Mark, c.Ctx.Keys.MarkAll), c.Table.HelpBindings()}
}
