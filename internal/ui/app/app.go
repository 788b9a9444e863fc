// Package app is the root model: it owns one view stack per tab, the single modal, the
// header/tabs/footer chrome, the live-refresh ticker and the spinner ticker, and routes
// every message. Focus routing comes first in Update: open modal → capturing input of
// the focused view → keys the view claims → the global keys (tabs from the tab
// registry, palette, help, refresh, back, quit) → the view's own actions.
package app

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/clipboard"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/watch"
)

// Tab is one of the five tabs. New builds the tab's root view; nil means the pane is
// not built yet and Missing is shown instead.
type Tab struct {
	// ID is how views name the tab (common.SwitchTab); its place is its key (1-5).
	ID   common.TabID
	Name string
	// UsesService: the tab works on the current service, which the breadcrumb shows.
	UsesService bool
	New         func(ctx *common.Context) common.View
	Missing     string
}

// Options configure the root.
type Options struct {
	Context *common.Context
	// Session writes the context's session: the root holds the only writer.
	Session *common.SessionWriter
	// Tabs are the five tabs in order (1 Projects … 5 Search).
	Tabs []Tab
	// Commands are registered in the palette after the root's defaults, so panes
	// override them.
	Commands []common.Command
	// SwitchProfile reconnects with another profile; nil disables "profile NAME".
	SwitchProfile func(name string) tea.Cmd
	// Background are parts that work behind the views (the journal's reader): started
	// with the root and handed every message first.
	Background []Background
	// StartTab is the tab shown first (0-based).
	StartTab int
}

// Background is a part that works behind the views: Update reports whether msg was its own.
type Background interface {
	Init() tea.Cmd
	Update(msg tea.Msg) (tea.Cmd, bool)
}

// HeaderPart is a background part with something to say in the header line:
// HeaderRoom is the width its shortest form needs in the line's gap (0: nothing to
// say), which the header keeps free for it; IntoHeader puts it there.
type HeaderPart interface {
	HeaderRoom() int
	IntoHeader(header string) string
}

type tabState struct {
	spec  Tab
	stack []common.View
	// returnTo is the tab (1-based; 0 = none) that opened this one through a message
	// such as OpenAccess: esc back to this tab's root goes there, where the user was.
	returnTo int
}

// Model is the root model.
type Model struct {
	// session is the only writer of the context's session.
	session *common.SessionWriter
	ctx     *common.Context
	tabs    []tabState
	active  int
	modal   common.Modal

	msgLevel theme.Level
	msgText  string
	// msgGen identifies the footer message, so its expiry tick clears only that one.
	msgGen int
	// log is this session's messages, oldest first (":messages" shows them newest first).
	log []LoggedMessage

	focused bool
	// Live refresh: one timer at a time, identified by tickGen so re-arming
	// invalidates the previous tick.
	tickGen int
	live    components.LiveState
	// keyCount counts keys; msgKey is its value when the footer's message was posted.
	keyCount, msgKey int
	// liveByView keeps each view's last success and failures (see liveOf).
	liveByView map[int64]*liveRecord
	spinning   bool
	spinGen    int

	switchProfile func(string) tea.Cmd
	quitting      bool

	// watches: the watched services (package watch: w, :watches, the header's summary).
	watches *watch.Model
	// background: see Options.Background.
	background []Background
	// moving are the moves views made (Context.Go, Open, Push, Pop) in the Update being
	// handled.
	moving []common.Move
}

type refreshTick struct{ gen int }

type spinTick struct{ gen int }
type expireTick struct{ gen int }

// LoggedMessage is one footer message of this session.
type LoggedMessage struct {
	At    time.Time
	Level theme.Level
	Text  string
}

// messageLife is how long a success or info message stays in the footer; warnings and
// errors stay until the user moves on (another view, tab or modal).
const messageLife = 5 * time.Second

// logLimit bounds the session's message log.
const logLimit = 500

// New builds the root.
func New(opts Options) *Model {
	ctx, session := opts.Context, opts.Session
	if ctx == nil {
		ctx, session = common.NewRootContext()
	}
	if session == nil {
		panic("app.New: the root needs its context's SessionWriter (common.NewRootContext)")
	}
	m := &Model{ctx: ctx, session: session, focused: true, switchProfile: opts.SwitchProfile, active: opts.StartTab, watches: watch.New(ctx),
		background: opts.Background}
	ctx.TakesMoves(func(mv common.Move) { m.moving = append(m.moving, mv) })
	ctx.Tabs = nil
	for _, t := range opts.Tabs {
		m.tabs = append(m.tabs, tabState{spec: t})
		ctx.Tabs = append(ctx.Tabs, t.Name)
	}
	m.registerDefaults()
	ctx.Commands.Register(opts.Commands...)
	if m.active < 0 || m.active >= len(m.tabs) {
		m.active = 0
	}
	return m
}

// Watches returns the watch list (tests).
func (m *Model) Watches() *watch.Model { return m.watches }

// Context returns the shared context (tests).
func (m *Model) Context() *common.Context { return m.ctx }

// Active returns the active tab index (0-based).
func (m *Model) Active() int { return m.active }

// Depth returns the active tab's stack depth.
func (m *Model) Depth() int { return len(m.tabs[m.active].stack) }

// Top returns the focused view (nil for an unbuilt tab).
func (m *Model) Top() common.View { return m.top() }

// Modal returns the open modal or nil.
func (m *Model) Modal() common.Modal { return m.modal }

// Message returns the footer message.
func (m *Model) Message() (theme.Level, string) { return m.msgLevel, m.msgText }

func (m *Model) registerDefaults() {
	for _, t := range m.tabs {
		id := t.spec.ID
		m.ctx.Commands.Register(common.Command{Name: string(id), Help: "go to the " + t.spec.Name + " tab",
			Run: func(c *common.Context, _ string) tea.Cmd { return c.Go(common.SwitchTab{Tab: id}) }})
	}
	m.ctx.Commands.Register(common.Command{Name: "quit", Help: "leave svcui", Run: func(*common.Context, string) tea.Cmd { return common.Send(common.Quit{}) }})
	// The short words k9s users type.
	for alias, name := range map[string]string{"svc": "services", "proj": "projects", "inv": "invoices", "db": "databases", "bg": "billing"} {
		m.ctx.Commands.Alias(alias, name)
	}
	for alias, name := range map[string]string{"svc": "service", "proj": "project", "bg": "billing group"} {
		m.ctx.Commands.AliasWithArg(alias, name)
	}
	m.ctx.Commands.Register(common.Command{Name: "messages", Help: "this session's messages in full, newest first",
		Run: func(*common.Context, string) tea.Cmd { return common.Send(common.ShowMessages{}) }})
	if m.switchProfile != nil {
		m.ctx.Commands.Register(common.Command{Name: "profile", Arg: common.ProfileArg, Help: "reconnect with another profile",
			Run: func(_ *common.Context, name string) tea.Cmd { return common.Send(common.SwitchProfile{Name: name}) }})
	}
}

// Init builds the starting tab's view and starts it.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.ensureTab(m.active)}
	for _, b := range m.background {
		cmds = append(cmds, b.Init())
	}
	return tea.Batch(append(cmds, m.makeMoves())...)
}

// ensureTab builds a tab's root view on first visit.
func (m *Model) ensureTab(i int) tea.Cmd {
	t := &m.tabs[i]
	if len(t.stack) > 0 {
		// Coming back to a tab: show fresh data at once rather than after a full interval.
		return m.refreshNow()
	}
	if t.spec.New == nil {
		return m.armRefresh()
	}
	v := t.spec.New(m.ctx)
	v.SetSize(m.ctx.Width, m.ctx.Height)
	t.stack = []common.View{v}
	return tea.Batch(v.Init(), m.armRefresh())
}

func (m *Model) top() common.View {
	s := m.tabs[m.active].stack
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

func (m *Model) setTop(v common.View) {
	s := m.tabs[m.active].stack
	if len(s) > 0 && v != nil {
		s[len(s)-1] = v
	}
}

// tooSmall reports a terminal below docs/interaction.md's minimum.
func (m *Model) tooSmall() bool {
	return m.ctx.ScreenWidth < common.MinWidth || m.ctx.ScreenHeight < common.MinHeight
}

// chromeHeight is header + tabs + footer (message + help).
const chromeHeight = 4

func (m *Model) resize(w, h int) {
	m.ctx.ScreenWidth, m.ctx.ScreenHeight = w, h
	m.ctx.Width, m.ctx.Height = w, max(1, h-chromeHeight)
	for _, t := range m.tabs {
		for _, v := range t.stack {
			v.SetSize(m.ctx.Width, m.ctx.Height)
		}
	}
	if m.modal != nil {
		m.modal.SetSize(w, h)
	}
}

// Update routes messages.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	return m, tea.Batch(cmd, m.makeMoves(), m.ensureSpinner())
}

// makeMoves makes the moves views made (Context.Go) while the last message was handled,
// in order, before the next message: the keys that follow reach the modal, the view or
// the tab they brought up.
func (m *Model) makeMoves() tea.Cmd {
	var cmds []tea.Cmd
	for len(m.moving) > 0 {
		mv := m.moving[0]
		m.moving = m.moving[1:]
		cmds = append(cmds, m.update(mv))
	}
	return tea.Batch(cmds...)
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	if cmd, ok := m.watches.Update(msg); ok {
		return cmd
	}
	for _, b := range m.background {
		if cmd, ok := b.Update(msg); ok {
			return cmd
		}
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return nil
	case tea.FocusMsg:
		m.focused = true
		m.live.Paused = false
		// Catch up at once after the terminal regains focus.
		return m.refreshNow()
	case tea.BlurMsg:
		m.focused = false
		m.live.Paused = true
		m.tickGen++
		return nil
	case tea.KeyMsg:
		m.keyCount++
		return m.handleKey(msg)
	case refreshTick:
		if msg.gen != m.tickGen || !m.focused {
			return nil
		}
		return m.refreshNow()
	case spinTick:
		if msg.gen != m.spinGen {
			return nil
		}
		if !m.animating() {
			m.spinning = false
			return nil
		}
		m.ctx.SpinnerFrame++
		var cmd tea.Cmd
		if v := m.top(); v != nil {
			nv, c := v.Update(common.SpinnerTick{})
			m.setTop(nv)
			cmd = c
		}
		return tea.Batch(cmd, m.spinCmd())
	case common.RefreshDone:
		// The header speaks of the view on top: its own last success and failures.
		rec := m.liveOf()
		rec.retryAt = time.Time{}
		switch {
		case msg.Idle:
		case !msg.RetryAt.IsZero():
			// The rate limit asked to wait: not a failure, and the next refresh is
			// when it said, not after a backoff.
			rec.retryAt = msg.RetryAt
		case msg.Err != nil:
			rec.failures++
		default:
			rec.failures, rec.lastOK = 0, m.ctx.Now()
		}
		return m.armRefresh()
	case common.PushView:
		return m.push(msg.View)
	case common.PopView:
		return m.pop()
	case common.OpenModal:
		m.modal = msg.Modal
		m.modal.SetSize(m.ctx.ScreenWidth, m.ctx.ScreenHeight)
		return m.modal.Init()
	case common.Notify:
		return m.notify(msg.Level, msg.Text)
	case common.Retract:
		if m.msgText == msg.Text {
			m.msgGen++
			m.msgText = ""
		}
		return nil
	case expireTick:
		if msg.gen == m.msgGen && m.msgLevel != theme.LevelWarn && m.msgLevel != theme.LevelError {
			m.msgText = ""
		}
		return nil
	case common.ShowMessages:
		return m.push(newMessages(m.ctx, m.log))
	case common.SelectService:
		return m.selectService(msg)
	case common.Gone:
		return m.gone(msg)
	case common.SelectBillingGroup:
		m.session.SetBillingGroup(msg.ID, msg.Name)
		return nil
	case common.SwitchTab:
		return m.switchTab(m.tabIndex(msg.Tab))
	case common.SelectProject:
		return m.selectProject(msg.Name)
	case common.OpenService:
		i := m.tabIndex(common.TabServices)
		cmd := m.switchTab(i)
		return tea.Batch(cmd, m.sendToTabRoot(i, msg))
	case common.OpenAccess:
		from, i := m.active, m.tabIndex(common.TabUsers)
		cmd := m.switchTab(i)
		if from != i && i >= 0 {
			m.tabs[i].returnTo = from + 1
		}
		return tea.Batch(cmd, m.sendToTabRoot(i, msg))
	case common.CopyRequest:
		return m.copy(msg)
	case common.CopyDone:
		// Inside the modal that asked (the footer is hidden behind it), and in the footer.
		var cmd tea.Cmd
		if m.modal != nil {
			cmd = m.updateModal(msg)
		}
		return tea.Batch(cmd, m.notify(msg.Level, msg.Text))
	case common.RefreshNow:
		return m.refreshNow()
	case common.Quit:
		return m.quit()
	case common.Reconnect:
		return m.reconnect(msg)
	case common.SwitchProfile:
		if m.switchProfile == nil {
			return common.Warn("Switching profiles is not available here")
		}
		return m.switchProfile(msg.Name)
	case common.Addressed:
		return m.deliver(msg)
	case common.Export, common.Unmark:
		if _, ok := m.top().(common.Tabular); !ok {
			return common.Warn("No table here: :export and :unmark need a list or Search results")
		}
	}
	// Anything else (input blinks, huh internals, pane-specific messages) goes to the
	// modal and to the focused view.
	var cmds []tea.Cmd
	if m.modal != nil {
		cmds = append(cmds, m.updateModal(msg))
	}
	if v := m.top(); v != nil {
		nv, c := v.Update(msg)
		m.setTop(nv)
		cmds = append(cmds, c)
	}
	return tea.Batch(cmds...)
}

// updateModal hands msg to the open modal; a modal that closed itself goes at once.
func (m *Model) updateModal(msg tea.Msg) tea.Cmd {
	nm, cmd := m.modal.Update(msg)
	if nm != nil {
		m.modal = nm
	}
	if m.modal.Closed() {
		m.modal = nil
	}
	return cmd
}

// deliver hands a result to the view that asked, wherever it is on the stacks (a view
// under the top still gets its answer), or to the open modal when it asked; a result
// whose view is gone is dropped, unless it is a write's: its outcome is reported.
func (m *Model) deliver(msg common.Addressed) tea.Cmd {
	id := msg.Target()
	if _, err, ok := common.Reply(msg); ok {
		var pe *common.PanicError
		if errors.As(err, &pe) {
			m.ctx.Log.Error("panic in a request", "kind", pe.Kind.String(), "value", fmt.Sprint(pe.Value), "stack", string(pe.Stack))
		}
	}
	for ti := range m.tabs {
		st := m.tabs[ti].stack
		for i, v := range st {
			if v.ID() != id {
				continue
			}
			nv, cmd := v.Update(msg)
			if nv != nil {
				st[i] = nv
			}
			return cmd
		}
	}
	if mv, ok := m.modal.(interface{ ID() int64 }); ok && mv.ID() == id {
		return m.updateModal(msg)
	}
	if o, ok := msg.(common.Orphan); ok {
		// A write's outcome is told even when the view that sent it is gone.
		if cmd := o.Orphaned(m.ctx); cmd != nil {
			return cmd
		}
	}
	m.ctx.Log.Debug("result dropped: its view is gone", "view", id)
	return nil
}

// KeyClaimer is implemented by views that want a key the root would otherwise take
// (typically esc while a filter is applied, or q in a text area); the root then gives
// the key to the view first.
type KeyClaimer interface {
	ClaimsKey(msg tea.KeyMsg) bool
}

func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	// Bubble Tea v1 hands over every rune of one terminal read as a single KeyRunes
	// message, so keys typed quickly (or batched by SSH latency) would match no binding.
	// Handle them one by one, as if read separately; a bracketed paste stays whole. A
	// modal, view or tab a key brought up is there for the next ("ce2": e and 2 go to the
	// create form).
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
		cmds := make([]tea.Cmd, 0, len(msg.Runes))
		for _, r := range msg.Runes {
			cmds = append(cmds, m.handleKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}), m.makeMoves())
		}
		return tea.Sequence(cmds...)
	}
	k := m.ctx.Keys
	if key.Matches(msg, k.ForceQuit) {
		return m.quit()
	}
	if m.tooSmall() {
		if key.Matches(msg, k.Quit) {
			return m.quit()
		}
		return nil
	}
	if m.modal != nil {
		return m.updateModal(msg)
	}
	v := m.top()
	if v != nil && v.Capturing() {
		nv, cmd := v.Update(msg)
		m.setTop(nv)
		return cmd
	}
	if kc, ok := v.(KeyClaimer); ok && kc.ClaimsKey(msg) {
		nv, cmd := v.Update(msg)
		m.setTop(nv)
		return cmd
	}
	// The global keys, then the view's own: no view declares a global key (keys.Clashes),
	// so the order hides none of its actions. Read-only refusals are the view's: only a
	// view that has a mutating action on a key refuses it.
	if cmd, ok := m.globalKey(msg); ok {
		return cmd
	}
	if v == nil {
		return nil
	}
	nv, cmd := v.Update(msg)
	m.setTop(nv)
	return cmd
}

// globalKey answers a key of the global set (common.Context.GlobalKeys): a tab's key
// (from the tab registry), the palette, help, refresh, quit and back.
func (m *Model) globalKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := m.ctx.Keys
	for i, t := range m.tabs {
		if key.Matches(msg, k.Tab(i+1, t.spec.Name)) {
			return m.switchTab(i), true
		}
	}
	switch {
	case key.Matches(msg, k.Palette):
		return m.update(common.OpenModal{Modal: components.NewPalette(m.ctx)}), true
	case key.Matches(msg, k.Help):
		return m.update(common.OpenModal{Modal: m.helpOverlay()}), true
	case key.Matches(msg, k.Refresh):
		// A key press: the view's own reload, which the budget never holds back.
		if r, ok := m.top().(common.Reloader); ok {
			m.tickGen++
			return r.Reload(), true
		}
		return m.refreshNow(), true
	case key.Matches(msg, k.Quit):
		if m.Depth() <= 1 {
			return m.quit(), true
		}
		return common.Info("q quits from the top level; press esc to go back first"), true
	case key.Matches(msg, k.Back):
		if m.Depth() > 1 {
			return m.pop(), true
		}
		return nil, true
	}
	return nil, false
}

func (m *Model) helpOverlay() *components.Help {
	var groups []components.HelpGroup
	if v := m.top(); v != nil {
		var bs []key.Binding
		for _, row := range v.FullHelp() {
			bs = append(bs, row...)
		}
		groups = append(groups, components.HelpGroup{Title: v.Title(), Bindings: bs})
	}
	groups = append(groups, components.HelpGroup{Title: "Global", Bindings: m.ctx.GlobalKeys().Help(false)})
	return components.NewHelp(m.ctx, groups...)
}

func (m *Model) push(v common.View) tea.Cmd {
	if v == nil {
		return nil
	}
	m.movedOn()
	t := &m.tabs[m.active]
	v.SetSize(m.ctx.Width, m.ctx.Height)
	t.stack = append(t.stack, v)
	return tea.Batch(v.Init(), m.armRefresh())
}

func (m *Model) pop() tea.Cmd {
	t := &m.tabs[m.active]
	if len(t.stack) <= 1 {
		return nil
	}
	m.movedOn()
	leaving := t.stack[len(t.stack)-1]
	save := m.leave(leaving)
	t.stack = t.stack[:len(t.stack)-1]
	if len(t.stack) == 1 && t.returnTo > 0 {
		return tea.Batch(save, m.switchTab(t.returnTo-1))
	}
	// The view we return to shows fresh data at once.
	return tea.Batch(save, m.refreshNow())
}

// tabIndex is the place of the tab with id, or -1.
func (m *Model) tabIndex(id common.TabID) int {
	for i, t := range m.tabs {
		if t.spec.ID == id {
			return i
		}
	}
	return -1
}

func (m *Model) switchTab(i int) tea.Cmd {
	if i < 0 || i >= len(m.tabs) {
		return nil
	}
	if i != m.active {
		m.movedOn()
	}
	m.active = i
	m.tabs[i].returnTo = 0
	return m.ensureTab(i)
}

func (m *Model) selectProject(name string) tea.Cmd {
	if name == "" {
		return nil
	}
	if name == m.ctx.Project() {
		// Chosen again: the latest choice wins over a billing group chosen since
		// (:estimate then means this project's, not the group's).
		m.session.SetBillingGroup("", "")
		return nil
	}
	m.session.SetProject(name)
	// The current service and billing group belonged to the other project.
	m.session.SetService("", "")
	m.session.SetBillingGroup("", "")
	var cmds []tea.Cmd
	for ti := range m.tabs {
		for i, v := range m.tabs[ti].stack {
			nv, c := v.Update(common.ProjectSelected{Name: name})
			if nv != nil {
				m.tabs[ti].stack[i] = nv
			}
			cmds = append(cmds, c)
		}
	}
	return tea.Batch(cmds...)
}

func (m *Model) sendToTabRoot(tab int, msg tea.Msg) tea.Cmd {
	if tab < 0 {
		return nil
	}
	st := m.tabs[tab].stack
	if len(st) == 0 {
		return nil
	}
	// The views above the root leave: their requests are cancelled.
	var saves []tea.Cmd
	for _, v := range st[1:] {
		saves = append(saves, m.leave(v))
	}
	m.tabs[tab].stack = st[:1]
	nv, cmd := st[0].Update(msg)
	if nv != nil {
		m.tabs[tab].stack[0] = nv
	}
	return tea.Batch(append(saves, cmd)...)
}

func (m *Model) copy(req common.CopyRequest) tea.Cmd {
	cb := m.ctx.Clipboard
	if cb == nil {
		return common.Warn("No clipboard configured")
	}
	label := req.Label
	if label == "" {
		label = "value"
	}
	value := req.Value
	return func() tea.Msg {
		r := cb.Copy(label, value)
		return common.CopyDone{Level: copyLevel(r.Level), Text: r.Text}
	}
}

// copyLevel: only a copy that surely landed (clipboard, tmux buffer) is a success; one
// sent to the terminal is information, since it depends on the terminal.
func copyLevel(l clipboard.Level) theme.Level {
	switch l {
	case clipboard.Copied:
		return theme.LevelSuccess
	case clipboard.Sent:
		return theme.LevelInfo
	}
	return theme.LevelWarn
}

// notify shows a footer message, logs it for ":messages" and arms its expiry.
func (m *Model) notify(level theme.Level, text string) tea.Cmd {
	m.msgGen++
	m.msgLevel, m.msgText, m.msgKey = level, text, m.keyCount
	if text == "" {
		return nil
	}
	m.log = append(m.log, LoggedMessage{At: m.ctx.Now(), Level: level, Text: text})
	if len(m.log) > logLimit {
		m.log = m.log[len(m.log)-logLimit:]
	}
	if level == theme.LevelError {
		m.ctx.Log.Info("footer error", "text", text)
	}
	if level == theme.LevelWarn || level == theme.LevelError {
		return nil
	}
	gen := m.msgGen
	return m.ctx.After(messageLife, expireTick{gen})
}

// movedOn clears the footer's message once the user goes elsewhere: it was about what
// they were doing ("Showing invoices in every state" does not describe the estimate
// opened next), and stays readable in ":messages". A message the same key's commands
// posted (the project a navigation made current) is about the move, and stays.
func (m *Model) movedOn() {
	if m.msgKey < m.keyCount || m.msgLevel == theme.LevelWarn || m.msgLevel == theme.LevelError {
		m.msgGen++
		m.msgText = ""
	}
}

// Log is the session's messages, oldest first (tests).
func (m *Model) Log() []LoggedMessage { return m.log }

// selectService makes a service (and its project) current.
func (m *Model) selectService(msg common.SelectService) tea.Cmd {
	var cmd tea.Cmd
	if msg.Project != "" && msg.Project != m.ctx.Project() {
		cmd = tea.Batch(m.selectProject(msg.Project), m.notify(theme.LevelInfo, "Current project: "+msg.Project))
	}
	m.session.SetService(msg.Name, msg.Type)
	return cmd
}

// gone drops what no longer exists from the session, and says so when it was current.
func (m *Model) gone(msg common.Gone) tea.Cmd {
	c, w := m.ctx, m.session
	said := func(what, name, now string) tea.Cmd {
		if msg.Deleted {
			return m.notify(theme.LevelSuccess, "Deleted "+what+" "+name+"; "+now)
		}
		return m.notify(theme.LevelWarn, strings.ToUpper(what[:1])+what[1:]+" "+name+" no longer exists; "+now)
	}
	switch {
	case msg.What == common.GoneProject && msg.Name == c.Project():
		w.Clear()
		return said("project", msg.Name, "no project is current until one is picked")
	case msg.What == common.GoneService && msg.Name == c.Service() && (msg.Project == "" || msg.Project == c.Project()):
		w.SetService("", "")
		return said("service", msg.Name, "no service is current now")
	case msg.What == common.GoneBillingGroup && msg.Name == c.BillingGroupID():
		name := c.BillingGroupName()
		w.SetBillingGroup("", "")
		return said("billing group", name, "no billing group is current now")
	}
	return nil
}

// reconnect starts over with another profile's client and settings.
func (m *Model) reconnect(msg common.Reconnect) tea.Cmd {
	var saves []tea.Cmd
	for i := range m.tabs {
		for _, v := range m.tabs[i].stack {
			saves = append(saves, m.leave(v))
		}
		m.tabs[i].stack = nil
	}
	m.modal = nil
	c := m.ctx
	m.session.Clear()
	c.Passwords = map[string]string{}
	c.ForgetProjects()
	c.ServiceNames = map[string][]string{}
	c.ServiceTypes = map[string]map[string]string{}
	msg.Apply(c)
	m.live = components.LiveState{}
	m.active = 0
	return tea.Batch(append(saves, m.notify(theme.LevelSuccess, "Connected with profile "+msg.Profile), m.ensureTab(0))...)
}

func (m *Model) quit() tea.Cmd {
	m.quitting = true
	var last []tea.Cmd
	for _, t := range m.tabs {
		for _, v := range t.stack {
			if s, ok := v.(common.Saver); ok {
				last = append(last, s.SaveOnLeave())
			}
			if l, ok := v.(common.Leaver); ok {
				l.Leave()
			}
		}
	}
	// What views keep on disk is written before the program ends, in order.
	return tea.Sequence(append(last, tea.Quit)...)
}

// refreshNow asks the focused live view to reload (or passes RefreshNow to a view that
// is not a Refresher) and re-arms the ticker after its RefreshDone.
func (m *Model) refreshNow() tea.Cmd {
	m.tickGen++
	v := m.top()
	if v == nil {
		return nil
	}
	if r, ok := v.(common.Refresher); ok {
		return r.Refresh()
	}
	nv, cmd := v.Update(common.RefreshNow{})
	m.setTop(nv)
	return cmd
}

// armRefresh schedules the next refresh tick for the focused view: its interval,
// doubled per consecutive failure up to two minutes. No tick while unfocused or when
// the view is not live, so an idle program uses no CPU.
func (m *Model) armRefresh() tea.Cmd {
	m.tickGen++
	rec := m.liveOf()
	m.live.LastOK, m.live.Failures, m.live.RetryAt = rec.lastOK, rec.failures, rec.retryAt
	r, ok := m.top().(common.Refresher)
	if !ok {
		m.live.Interval = 0
		return nil
	}
	iv := r.RefreshInterval()
	if iv <= 0 {
		m.live.Interval = 0
		return nil
	}
	m.live.Interval = iv
	for i := 0; i < m.live.Failures && iv < 2*time.Minute; i++ {
		iv *= 2
	}
	iv = min(iv, 2*time.Minute)
	if !rec.retryAt.IsZero() {
		// Try again when the rate limit said, a second late so the window has reset.
		iv = max(time.Second, rec.retryAt.Sub(m.ctx.Now())+time.Second)
	}
	if !m.focused {
		return nil
	}
	gen := m.tickGen
	return m.ctx.After(iv, refreshTick{gen})
}

// leave ends a view that leaves the stack: its requests are cancelled, its refresh
// history forgotten; what it keeps on disk is the command returned.
func (m *Model) leave(v common.View) tea.Cmd {
	var save tea.Cmd
	if s, ok := v.(common.Saver); ok {
		save = s.SaveOnLeave()
	}
	if l, ok := v.(common.Leaver); ok {
		l.Leave()
	}
	delete(m.liveByView, v.ID())
	return save
}

// liveRecord is one view's refresh history: the header shows the top view's, so a
// success in one tab never reads as "last ok" in another.
type liveRecord struct {
	lastOK   time.Time
	failures int
	// retryAt is when the rate limit allows the next refresh (zero: no wait asked).
	retryAt time.Time
}

// liveOf is the record of the view on top (a throwaway one when there is none).
func (m *Model) liveOf() *liveRecord {
	v := m.top()
	if v == nil {
		return &liveRecord{}
	}
	if m.liveByView == nil {
		m.liveByView = map[int64]*liveRecord{}
	}
	rec, ok := m.liveByView[v.ID()]
	if !ok {
		rec = &liveRecord{}
		m.liveByView[v.ID()] = rec
	}
	return rec
}

func (m *Model) animating() bool {
	a, ok := m.top().(common.Animator)
	return ok && a.Animating() && m.focused
}

func (m *Model) ensureSpinner() tea.Cmd {
	if m.spinning || m.ctx.NoMotion || !m.animating() {
		return nil
	}
	m.spinning = true
	m.spinGen++
	return m.spinCmd()
}

func (m *Model) spinCmd() tea.Cmd {
	gen := m.spinGen
	return m.ctx.After(120*time.Millisecond, spinTick{gen})
}

// View renders the screen: header, tabs, main pane, footer; a modal replaces the main
// pane area with itself centred over the screen.
func (m *Model) View() string {
	if m.quitting {
		return ""
	}
	w, h := m.ctx.ScreenWidth, m.ctx.ScreenHeight
	if w == 0 || h == 0 {
		return ""
	}
	if m.tooSmall() {
		return tooSmallText(w, h)
	}
	if m.modal != nil {
		return fitLines(m.modal.View(), w, h)
	}
	crumbs := m.crumbs()
	if len(m.tabs[m.active].stack) == 0 {
		crumbs = append(crumbs, m.tabs[m.active].spec.Name)
	}
	names := make([]string, len(m.tabs))
	for i, t := range m.tabs {
		names[i] = t.spec.Name
	}
	parts := []HeaderPart{m.watches}
	for _, b := range m.background {
		if h, ok := b.(HeaderPart); ok {
			parts = append(parts, h)
		}
	}
	room := 0
	for _, h := range parts {
		room += h.HeaderRoom()
	}
	header := components.Header(m.ctx, crumbs, m.live, w, room)
	for _, h := range parts {
		header = h.IntoHeader(header)
	}
	tabs := m.withActivity(components.Tabs(m.ctx, names, m.active, w), w)
	var body string
	var help []key.Binding
	if v := m.top(); v != nil {
		body = v.View()
		help = v.ShortHelp()
	} else {
		t := m.tabs[m.active].spec
		msg := t.Missing
		if msg == "" {
			msg = "The " + t.Name + " pane is not built yet."
		}
		body = m.ctx.Styles.Muted.Render("  " + msg)
	}
	// A view that takes keys as text (an editor, a filter) gets no global keys in its
	// footer: they would be typed, not run.
	if v := m.top(); v != nil && v.Capturing() {
		help = append(help, m.ctx.Keys.ForceQuit)
	} else if help = append(help, m.ctx.Keys.Palette, m.ctx.Keys.Help); m.Depth() > 1 {
		help = append(help, m.ctx.Keys.Back)
	} else {
		help = append(help, m.ctx.Keys.Quit)
	}
	body = fitLines(body, w, m.ctx.Height)
	footer := components.Footer(m.ctx, m.msgLevel, m.msgText, help, w)
	return header + "\n" + tabs + "\n" + body + "\n" + footer
}

// crumbs is the breadcrumb: the current project, the current service on the tabs that
// work on one (Users, Search), then the titles of the tab's view stack.
func (m *Model) crumbs() []string {
	var out []string
	if m.ctx.Project() != "" {
		out = append(out, m.ctx.Project())
	}
	if m.tabs[m.active].spec.UsesService && m.ctx.Service() != "" {
		out = append(out, m.ctx.Service())
	}
	for _, v := range m.tabs[m.active].stack {
		if t := v.Title(); len(out) == 0 || t != out[len(out)-1] {
			out = append(out, t)
		}
	}
	return out
}

// fitLines pads or cuts s to exactly h lines, so the chrome never moves and the frame
// never exceeds the screen.
func fitLines(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	_ = w
	return strings.Join(lines, "\n")
}
