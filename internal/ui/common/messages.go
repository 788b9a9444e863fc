package common

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/ui/theme"
)

// Messages views send to the root (as tea.Cmds built with Send). The root owns the view
// stacks, the modal, the footer and the current project; views never reach into it.

// PushView pushes a view onto the current tab's stack (enter drills down).
type PushView struct{ View View }

// PopView pops the current tab's stack (esc goes back); ignored at the bottom.
type PopView struct{}

// OpenModal shows a modal over everything; it replaces any open modal. Views open one
// with Context.Open, which the root takes before the next key.
type OpenModal struct{ Modal Modal }

// Move is a change of the root's navigation that a key causes: a modal, a view pushed or
// popped, a tab, the current project, service or billing group. Views make them with
// Context.Go (or Open, Push, Pop), which the root takes before the next key.
type Move interface{ move() }

func (PushView) move()           {}
func (PopView) move()            {}
func (OpenModal) move()          {}
func (SwitchTab) move()          {}
func (SelectProject) move()      {}
func (SelectService) move()      {}
func (SelectBillingGroup) move() {}
func (OpenService) move()        {}
func (OpenAccess) move()         {}

// Go makes the moves, in order. Under the root they are taken before the next key is
// handled, so the keys typed right after the one that caused them reach the view they
// were typed for: "ce2" in one terminal read (typed ahead, batched by a slow link), or
// "enter" then "e" read before a command's message would have come back, went to the
// view under the form or the detail ("2" switched tabs, "e" edited in the list). Without
// a root (a view's own test) they are the messages, in sequence.
// Call it from Update, never from a command: a command runs in its own goroutine, after
// the keys already read, and its moves go as messages (Send).
func (c *Context) Go(moves ...Move) tea.Cmd {
	if c.takes == nil {
		return Moves(moves...)
	}
	for _, s := range moves {
		c.takes(s)
	}
	return nil
}

// Moves are the moves as messages, in sequence: what a command makes once its answer
// decides where to go (Go is for Update).
func Moves(moves ...Move) tea.Cmd {
	cmds := make([]tea.Cmd, len(moves))
	for i, s := range moves {
		cmds[i] = Send(s)
	}
	if len(cmds) == 1 {
		return cmds[0]
	}
	return tea.Sequence(cmds...)
}

// Open shows m over everything, replacing any open modal (Go).
func (c *Context) Open(m Modal) tea.Cmd { return c.Go(OpenModal{Modal: m}) }

// Push shows v on top of the current tab's stack (Go).
func (c *Context) Push(v View) tea.Cmd { return c.Go(PushView{View: v}) }

// Pop goes back to the view under the top one (Go).
func (c *Context) Pop() tea.Cmd { return c.Go(PopView{}) }

// TakesMoves is how the root takes the moves Go makes: take is called from within the
// view's Update, so the root records the moves and makes them once that Update returns.
func (c *Context) TakesMoves(take func(Move)) { c.takes = take }

// Notify puts a message in the footer.
type Notify struct {
	Level theme.Level
	Text  string
}

// Retract takes a footer message back once what it said is no longer so: a run that was
// refused has been sent again, a list that came back partial came back whole. Only that
// message goes (the footer may show a newer one); ":messages" keeps it.
type Retract struct{ Text string }

// TabID names a tab; views switch by it, never by position, so adding a tab touches
// only the registry.
type TabID string

const (
	TabProjects TabID = "projects"
	TabServices TabID = "services"
	TabUsers    TabID = "users"
	TabBilling  TabID = "billing"
	TabSearch   TabID = "search"
)

// SwitchTab makes the tab with that id current.
type SwitchTab struct{ Tab TabID }

// SelectProject makes a project current (header, breadcrumb, services tab follow).
type SelectProject struct{ Name string }

// ProjectSelected is broadcast by the root to every tab's views after the current
// project changed, so panes that depend on it reload.
type ProjectSelected struct{ Name string }

// SelectService makes a service current (and its project, when it differs): the
// breadcrumb shows it and :users, :acl, :topics, :databases, :search and :connect use it.
type SelectService struct{ Project, Name, Type string }

// SelectBillingGroup makes a billing group current: :invoices and :estimate use it.
type SelectBillingGroup struct{ ID, Name string }

// CopyDone reports a copy's outcome; the root shows it in the footer and hands it to
// the open modal, which shows it inside (the footer is hidden behind a modal).
type CopyDone struct {
	Level theme.Level
	Text  string
}

// OpenService asks the root to show a service's detail in the Services tab. The
// services pane handles it (the root forwards it to the Services tab's root view).
type OpenService struct{ Project, Service string }

// CopyRequest asks the root to copy a value and report in the footer. Label names the
// value in that report ("password", "URI"); the value itself is never shown or logged.
type CopyRequest struct{ Label, Value string }

// SpinnerTick is delivered to the visible view when the spinner frame advances
// (ctx.SpinnerFrame), so views update in-progress badges in Update; View changes nothing.
type SpinnerTick struct{}

// ShowMessages opens the session's messages (":messages").
type ShowMessages struct{}

// RefreshNow asks the focused view to reload now.
type RefreshNow struct{}

// RefreshDone is sent by a live view after a refresh completes, so the header's live
// indicator (last success, "stale") and the backoff follow.
// Idle says the view asked the platform nothing (no project chosen yet): neither a
// success nor a failure, so "last ok" does not move.
// RetryAt, when set, says the rate limit stopped the refresh and when to try again: a
// wait the platform asked for, not a failure (the failing count does not grow).
type RefreshDone struct {
	Err     error
	Idle    bool
	RetryAt time.Time
}

// Gone says a project, service or billing group no longer exists (deleted here, or seen
// missing on a refresh): the root drops it from the session if it was current, and
// says so.
type Gone struct {
	What    GoneKind
	Project string // the service's project, for a service
	Name    string // the name, or the billing group's id
	// Deleted: the person deleted it here (else it was seen missing).
	Deleted bool
}

// GoneKind is what Gone is about.
type GoneKind int

const (
	GoneProject GoneKind = iota
	GoneService
	GoneBillingGroup
)

// Quit asks the root to quit (cancelling in-flight requests first).
type Quit struct{}

// SwitchProfile asks the root to reconnect with another configured profile.
type SwitchProfile struct{ Name string }

// Reconnect is the answer to SwitchProfile: the root drops every view, clears the
// session fields and caches, calls Apply to install the new client and settings, and
// starts again on the Projects tab.
type Reconnect struct {
	Profile string
	Apply   func(*Context)
}

// Send wraps a message in a command.
func Send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// Info, Success, Warn and Error build footer notifications.
func Info(text string) tea.Cmd    { return Send(Notify{theme.LevelInfo, text}) }
func Success(text string) tea.Cmd { return Send(Notify{theme.LevelSuccess, text}) }
func Warn(text string) tea.Cmd    { return Send(Notify{theme.LevelWarn, text}) }
func Error(text string) tea.Cmd   { return Send(Notify{theme.LevelError, text}) }

// Working says what is starting ("Creating pg-main…") and then starts it: in that order,
// so the notice can never arrive after the answer it announces and cover what the answer
// said ("Created pg-main"). A Batch of the two races under load.
func Working(text string, cmd tea.Cmd) tea.Cmd { return tea.Sequence(Info(text), cmd) }

// RetractText takes back the footer message text, if the footer still shows it.
func RetractText(text string) tea.Cmd {
	if text == "" {
		return nil
	}
	return Send(Retract{text})
}

// Access sub-views of a service, opened in the Users tab with OpenAccess.
const (
	AccessUsers     = "users"
	AccessACL       = "acl"
	AccessTopics    = "topics"
	AccessDatabases = "databases"
)

// OpenAccess asks the root to show one of a service's access sub-views (AccessUsers,
// AccessACL, AccessTopics, AccessDatabases) in the Users tab (3); the root switches to the
// tab and hands the message to that tab's root view.
type OpenAccess struct {
	Project, Service, ServiceType string
	View                          string
}
